// Types of wasm/pool.mjs.
import type { Input, PoolLoadOptions, TranslateOptions, TranslationResult, TranslatorInfo } from './attend.js';

export class TranslatorPool {
  private constructor();
  static load(source: string | URL | ArrayBuffer | Uint8Array, options?: PoolLoadOptions): Promise<TranslatorPool>;
  /** Translator.translate over the workers, results in order; onToken is refused. */
  translate(input: Input, options?: Omit<TranslateOptions, 'onToken'>): Promise<TranslationResult>;
  translate(input: Input[], options?: Omit<TranslateOptions, 'onToken'>): Promise<TranslationResult[]>;
  info(): TranslatorInfo & { workers: number };
  dispose(): void;
}
