// Types of wasm/pool.mjs.
import type {
  DocumentOptions, DocumentPlan, DocumentResult, Input, PoolLoadOptions, TranslateOptions, TranslationResult, TranslatorInfo,
} from './attend.js';

export class TranslatorPool {
  private constructor();
  static load(source: string | URL | ArrayBuffer | Uint8Array, options?: PoolLoadOptions): Promise<TranslatorPool>;
  /** Translator.translate over the workers, results in order; onToken is refused. */
  translate(input: Input, options?: Omit<TranslateOptions, 'onToken'>): Promise<TranslationResult>;
  translate(input: Input[], options?: Omit<TranslateOptions, 'onToken'>): Promise<TranslationResult[]>;
  /** Translator.translateDocument over the workers (the cut by the first), groups of 32; onToken is refused. */
  translateDocument(input: Input | DocumentPlan, options?: Omit<DocumentOptions, 'onToken'>): Promise<DocumentResult>;
  info(): TranslatorInfo & { workers: number };
  dispose(): void;
}
