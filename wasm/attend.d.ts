// Type declarations of wasm/attend.mjs (see wasm/README.md).

export type ErrorCode =
  | 'invalid_argument' | 'invalid_model' | 'invalid_input' | 'empty_input' | 'io' | 'out_of_memory' | 'cancelled'
  | 'internal';

export class AttendError extends Error {
  readonly name: 'AttendError';
  readonly code: ErrorCode;
  /** On an error of the reverse model (`reverse`), which the message names: the message without that name. */
  readonly reverseDetail?: string;
  constructor(code: ErrorCode, message: string);
}

/** Whether this engine validates WebAssembly SIMD128 (what `simd: 'auto'` uses). */
export function simdSupported(): boolean;
/** Compiles the WebAssembly build Translator.load({simd}) would use, before any model is read. */
export function prepare(options?: { simd?: 'auto' | boolean }): Promise<void>;

export interface LoadOptions {
  /** Bytes of the model file read so far; total is null when unknown (no length, or compressed in transit). */
  onProgress?: (progress: { loaded: number; total: number | null }) => void;
  /** 'auto' (default): the SIMD build where supported, else the scalar one. */
  simd?: 'auto' | boolean;
  /**
   * Quantize each linear layer's input to int8 per row as well, so an int8 model multiplies
   * int8 by int8 (1.5-2x the int8-weight path's speed here; translations can differ slightly from
   * the native CLI's default). 'auto' (default: int8 files only); true (an f32 file rejects it
   * with an invalid_argument error); false (int8 weights times f32 activations, as the CLI's
   * default).
   */
  int8Activations?: boolean | 'auto';
  /** An ensemble's weight per model (normalised; equal by default). */
  weights?: number[];
  /** The ensemble member whose attention the results show and whose heads maskedHeads masks, from 0. */
  attentionMember?: number;
  /**
   * A model of the other direction (de-en for an en-de model), loaded with the same int8Activations:
   * translate() then reranks each beam by score + reverseWeight × its log p(source | hypothesis) /
   * length penalty (TranslateOptions.rerank). A failure to read or load it says "the reverse model" and names it.
   */
  reverse?: ModelSource;
  /** The reverse model's weight W in its translations' reranked score (default 0.3; TranslateOptions.reverseWeight overrides it). */
  reverseWeight?: number;
}

export type ModelSource = string | URL | ArrayBuffer | Uint8Array;

/** A model's bytes: a path or file: URL read from disk in Node, anything else fetched. */
export function readSource(source: ModelSource, onProgress?: LoadOptions['onProgress']): Promise<Uint8Array>;
/** readSource for LoadOptions.reverse: a failure's message says it is the reverse model and names it. */
export function readReverse(source: ModelSource, onProgress?: LoadOptions['onProgress']): Promise<Uint8Array>;

/** One file of a Marian model folder given to importMarian. */
export interface MarianFile {
  /** As the host names it, for messages and the choice by name: "ende/model.ende.intgemm.alphas.bin". */
  path: string;
  /** The folder the person gave that holds it ("ende"), or "" (the default) for a file named by itself. */
  folder?: string;
  /** Its bytes, gzipped or not. */
  data: Blob | ArrayBuffer | Uint8Array;
}

export interface MarianImportOptions {
  /**
   * "en-de": the languages it translates from and into (default: what Firefox's file names give, else
   * what an OPUS-MT README states, its codes as ISO 639-1 by twoLetterCode, else none).
   */
  languages?: string;
  /**
   * A README stating several languages a side (a multilingual OPUS-MT model) without `languages`:
   * 'refuse' (the default, as `attend import` asks for --languages), or 'unnamed': imported naming no
   * languages (its >>xxx<< tokens, info().targetTokens, choose the target).
   */
  multilingual?: 'refuse' | 'unnamed';
  simd?: 'auto' | boolean;
  onProgress?: (progress: { stage: 'reading'; file: string; filesDone: number; files: number } | { stage: 'converting' }) => void;
}

export interface MarianImport {
  /** The Attend model file, byte for byte what `attend import` writes: Translator.load(bytes) loads it. */
  bytes: Uint8Array;
  /** The paths of the files read ("" for none). */
  files: { model: string; sourceVocab: string; targetVocab: string; shortlist: string; licenses: string[] };
  /** "en-de", or "" when neither the option, the file names nor a README give the languages. */
  languages: string;
  /** The licence and README texts the file keeps (attend.license), "" without any. */
  license: string;
}

/**
 * A Marian model (a Firefox Translations folder, or its files) made into an Attend model file, as
 * `attend import` makes it: the same choice of files, checks and messages. A File stands for itself
 * (from an `<input webkitdirectory>`, its folder is its webkitRelativePath's first part). Errors:
 * `invalid_argument` (no model or vocabulary, two of one, a named file that is neither; bad
 * `languages`), `invalid_model` (the file and field named), `io` (damaged gzip data, a file the
 * browser cannot read), `out_of_memory`.
 */
export function importMarian(files: (MarianFile | File)[], options?: MarianImportOptions): Promise<MarianImport>;
/** The ISO 639-1 code of an ISO 639 code ("fra": "fr") by the browser's CLDR aliases (Intl.getCanonicalLocales), else the code. */
export function twoLetterCode(code: string): string;

export type AttentionKind = 'encoder' | 'decoder' | 'cross';

export interface HeadRef {
  kind: AttentionKind;
  layer: number;
  head: number;
}

export interface Tensor {
  data: Float32Array;
  shape: number[];
}

export interface StepEvent {
  sentence: number;
  step: number;
  token: number;
  piece: string;
  logProb: number;
  /** With attention: true; shape [decoderLayers, heads, sourceLength]. */
  crossAttention?: Tensor;
}

export interface TranslateOptions {
  /** 1 (default) = greedy. */
  beam?: number;
  /** GNMT length penalty exponent for beam search (default 1.0). */
  alpha?: number;
  /** Generated tokens, eos included (default 256; also capped by the model's maxPositions). */
  maxLength?: number;
  /** At most ceil(ratio × source tokens) generated (default 3; 0 = no ratio limit). */
  maxLengthRatio?: number;
  /** Hypotheses returned (≤ beam, default 1). */
  nbest?: number;
  /**
   * Repeat guard: no n-gram of 1 to 16 pieces is generated more than this many times back to back
   * (default 4; 0 = off).
   */
  maxRepeats?: number;
  /** Capture every attention map of the best hypothesis. */
  attention?: boolean;
  /** These heads' outputs are zeroed. */
  maskedHeads?: HeadRef[];
  /**
   * With a reverse model loaded (LoadOptions.reverse): rerank the beam by it (default true). Reranking
   * needs beam ≥ 2: beam 1 with rerank left true is an invalid_argument error, so greedy search asks
   * for rerank: false. Without a reverse model, rerank: true is an invalid_argument error.
   */
  rerank?: boolean;
  /** The reverse model's weight W in the reranked score, for this call (default LoadOptions.reverseWeight; ≥ 0; 0 keeps the search's order). */
  reverseWeight?: number;
  /**
   * The caption layer's rules over the text (set phrases, numbers and dates written the translation's
   * way, capitals read in sentence case, a final "?" or "!" kept): 'auto' (default) where the model
   * file asks for them (ModelInfo.asksForCaptionRules), or on (true) or off (false) for this call.
   */
  captionRules?: 'auto' | boolean;
  /**
   * Carry what the vocabulary lacks, numbers, web addresses and emoticons through as written, the model
   * reading the sentence without them: 'auto' (default) unless the model file asks for none
   * (ModelInfo.asksForPassThrough; imported Marian models do), or on (true) or off (false) for this call.
   */
  passThrough?: 'auto' | boolean;
  /**
   * A multilingual OPUS-MT model's target-language token ('>>fra<<', or 'fra'), read before each sentence
   * as its one source piece (the CLI's --target-token); one of TranslatorInfo.targetTokens, else
   * invalid_argument listing some the vocabulary has.
   */
  targetToken?: string;
  /**
   * The search's rules: 'attend' (Σ log p, the beam kept full) or 'marian' (Marian's as Bergamot runs
   * them: Σ raw logits, the unknown token never chosen, the beam shrinking as hypotheses end, ranked by
   * (score - wordPenalty · length) / length^alpha). Absent: the model file's (imported Marian models ask
   * for 'marian' with maxLengthRatio 2 and maxRepeats 0), else 'attend'; so are alpha, maxLengthRatio
   * and maxRepeats.
   */
  search?: 'attend' | 'marian';
  /** search 'marian': Marian's word penalty (default 0). */
  wordPenalty?: number;
  /** false: every token chosen among the whole vocabulary, not the model file's lexical shortlist (default true). */
  shortlist?: boolean;
  /**
   * With the shortlist in use, the sentences of one call are batched as Bergamot batches them (a
   * batch's shortlist is the union of its sentences'): shortest first, a batch filled while (its
   * sentences + 1) × the next one's tokens ≤ batchWords (default 1024, Firefox's mini-batch-words);
   * 0: batches of 32 sentences.
   */
  batchWords?: number;
  /** Called after each generated token; return false to stop (translate rejects with 'cancelled'). */
  onToken?: (step: StepEvent) => boolean | void;
}

export interface Hypothesis {
  /**
   * The translation. Source text the vocabulary lacks (emoji, other scripts), names it spells out,
   * web addresses, emoticons and numbers are not shown to the model: they are put back here where the attention aligns them;
   * a title and name ("Mrs. Brown") is read as "someone" and takes the place of that word's translation
   * (docs/alignment.md), so text may hold more than pieces decode to.
   */
  text: string;
  /** What the model generated (without pass-through text), but for a source's final "?" or "!" put in (docs/alignment.md#questions-and-exclamations). */
  pieces: string[];
  ids: number[];
  /**
   * What hypotheses are ranked by: Σ log p / length penalty (greedy: Σ log p), + reverseWeight × reverse's when
   * reranked; -Infinity when reverse is null.
   */
  score: number;
  endedWithEos: boolean;
  /**
   * The caption layer (TranslateOptions.captionRules) changed what the model's search found: a final
   * "?" or "!" or the opening case, or a number, time, date or title written the translation's way.
   */
  rewritten: boolean;
  /**
   * Only when the translation was reranked: the reverse model's score of the source given this text
   * (Σ log p and its tokens, eos included), or null where it cannot read the text (ranked last).
   */
  reverse?: { logProb: number; tokens: number } | null;
  /** Σ log p of the generated tokens, eos included when generated. */
  logProb: number;
  /** The generated tokens, + 1 if it ended with eos: ids.length but for a final mark put in (docs/alignment.md#questions-and-exclamations). */
  tokens: number;
  /** How sure the model is: logProb / tokens, in (-∞, 0] (docs/confidence.md). */
  confidence: number;
  /** confidence below the core's threshold (attend::kLowConfidence, chosen on Multi30k val): not to be trusted. */
  lowConfidence: boolean;
}

export interface AttentionMaps {
  /** [encoderLayers, heads, S, S] */
  encoder: Tensor;
  /** [decoderLayers, heads, T, T], upper triangle 0 */
  decoder: Tensor;
  /** [decoderLayers, heads, T, S] */
  cross: Tensor;
  /** [S], eos included */
  sourcePieces: string[];
  /** [T], eos included if generated */
  targetPieces: string[];
  /** [T]: bos, then the previous target pieces */
  targetInputPieces: string[];
  /** An ensemble's: the member these maps are (from 0; LoadOptions.attentionMember). */
  attentionMember?: number;
  /** An ensemble's: every member's maps for the same translation, in member order (shapes per member). */
  members?: { encoder: Tensor; decoder: Tensor; cross: Tensor }[];
}

export interface TranslationResult {
  text: string;
  pieces: string[];
  ids: number[];
  score: number;
  /** The best hypothesis' confidence. */
  confidence: number;
  /** The best hypothesis' Hypothesis.rewritten: the caption layer changed the model's words. */
  rewritten: boolean;
  /**
   * 'unreadable_script': most of the sentence is in characters the model's vocabulary lacks (a
   * script it cannot read); it was not translated and text is the sentence unchanged.
   * 'set_phrase': with the caption rules, a greeting, thanks or letter formula written from the
   * caption layer's table, not by the model. 'passed_through': nothing but text that passes through
   * (numbers, names, addresses) was left for the model, which did not run.
   */
  status: 'translated' | 'unreadable_script' | 'set_phrase' | 'passed_through';
  /** The hypotheses were reranked by the reverse model (each then has `reverse`). */
  reranked: boolean;
  hypotheses: Hypothesis[];
  sourcePieces: string[];
  sourceIds: number[];
  attention?: AttentionMaps;
}

export interface ModelConfig {
  srcVocabSize: number;
  tgtVocabSize: number;
  dModel: number;
  numHeads: number;
  dFf: number;
  encoderLayers: number;
  decoderLayers: number;
  activation: 'relu' | 'gelu' | 'swish';
  norm: 'post' | 'pre';
  positions: 'sinusoidal' | 'sinusoidal_half' | 'learned';
  embeddingScale: boolean;
  sharedVocab: boolean;
  shareEmbeddings: boolean;
  tieOutput: boolean;
  finalLogitsBias: boolean;
  maxPositions: number;
  layerNormEps: number;
  /** The decoder's first input: bos's embedding, or a zero vector (Marian's models). */
  decoderStart: "bos" | "zeros";
  /** What each decoder layer looks back with: self-attention, or Marian's SSRU (no attention to show). */
  decoderAutoreg: "self_attention" | "ssru";
  /** -1: the model has no padding id (Marian's). */
  padId: number;
  unkId: number;
  bosId: number;
  eosId: number;
}

export interface TranslatorInfo {
  config: ModelConfig;
  formatVersion: string;
  dtype: 'f32' | 'int8';
  /** LoadOptions.int8Activations as loaded. */
  int8Activations: boolean;
  /** How many models decode together (an ensemble; 1 for one model). */
  members: number;
  /** The member whose attention results show (from 0; 0 for one model). */
  attentionMember: number;
  /** The reverse model's info (LoadOptions.reverse), null without one. */
  reverse: Omit<TranslatorInfo, 'simd' | 'reverse'> | null;
  parameterCount: number;
  fileBytes: number;
  srcVocabSize: number;
  tgtVocabSize: number;
  /** The languages the model file says it translates from and into, as ISO 639 codes ("en",
   *  "de"); both "" for a file that names none. */
  sourceLanguage: string;
  targetLanguage: string;
  /** The file asks for the caption layer's rules (`attend.text_rules: caption`); TranslateOptions.captionRules. */
  asksForCaptionRules: boolean;
  /** The file lets spans pass through (`attend.pass_through` is not "none"); TranslateOptions.passThrough. */
  asksForPassThrough: boolean;
  /** The file holds a lexical shortlist (an imported Marian model's lex.*.bin); TranslateOptions.shortlist. */
  hasShortlist: boolean;
  /** The ">>xxx<<" pieces of the source vocabulary, in id order: a multilingual OPUS-MT model's target-language
   *  tokens (TranslateOptions.targetToken takes one); [] for every other model. */
  targetTokens: string[];
  simd: boolean;
  kernels: 'wasm_simd128' | 'scalar';
}

export interface DocumentOptions extends TranslateOptions {
  /** After each group of sentences: how many of the document's sentences are translated, and the group's
   * translations, the first of them the document's sentence `first` (counted from 0; a pool's groups may
   * finish out of order). */
  onProgress?: (progress: { sentencesDone: number; sentences: number; first: number; translations: TranslationResult[] }) => void;
  /** Aborting stops the translation before the next group (translateDocument rejects with 'cancelled'). */
  signal?: AbortSignal;
}

/** A piece of a document: a sentence and its translation, or text kept as it is. */
export interface DocumentPart {
  source: string;
  translation?: TranslationResult;
}

export interface DocumentResult {
  /** The translated document: every sentence replaced by its translation, the rest kept. */
  text: string;
  /** The document in order; concatenating their sources gives it back. */
  segments: DocumentPart[];
}

export interface HtmlResult {
  /** The translated fragment. */
  html: string;
  /** Every translated sentence in document order: its block (0-based), its text as the model got it, its translation. */
  sentences: { block: number; source: string; translation: TranslationResult }[];
}

/** A string is UTF-16 text; a Uint8Array is UTF-8 bytes, validated by the core. */
export type Input = string | Uint8Array;
/** A document cut into sentences (translate true) and the text kept around them, in order. */
export type DocumentPlan = { source: string; translate: boolean }[];

export class Translator {
  private constructor();
  /** An array of sources is an ensemble: the models decode together (LoadOptions.weights, attentionMember). */
  static load(source: ModelSource | ModelSource[], options?: LoadOptions): Promise<Translator>;
  translate(input: Input, options?: TranslateOptions): Promise<TranslationResult>;
  translate(input: Input[], options?: TranslateOptions): Promise<TranslationResult[]>;
  /**
   * A document of any length: cut into sentences (Intl.Segmenter's UAX #29 breaks, then the core's
   * rules: lines, list markers, abbreviations, sentences too long for the model) and the text kept
   * around them (line breaks, indentation, list markers, whitespace); its sentences translated in
   * groups of 32, each group reported to onProgress, the event loop let run between groups.
   * A DocumentPlan (planDocument's result, perhaps with sentences marked translate: false to keep
   * them as they are) is translated as it is, not cut again.
   */
  translateDocument(input: Input | DocumentPlan, options?: DocumentOptions): Promise<DocumentResult>;
  /**
   * An HTML fragment translated with its inline markup (b, i, em, strong, a href, span, br, nested)
   * kept around the words of the translation the cross-attention aligns with the words it held
   * (docs/html.md); block markup, attributes, comments, script, style and template copied
   * untouched; nothing executed (a string transform). Sentences are cut in each block as
   * translateDocument cuts text. onToken's sentence counts the fragment's sentences.
   */
  translateHTML(input: Input, options?: TranslateOptions): Promise<HtmlResult>;
  /**
   * The document cut as translateDocument cuts it, without translating: in order, translate true for
   * a sentence (a plan: itself, checked). Sentence breaks and abbreviations are the model's source
   * language's (TranslatorInfo.sourceLanguage); with the caption rules (options.captionRules), a
   * greeting or a label is a sentence of its own and a letter's signature is kept.
   */
  planDocument(input: Input | DocumentPlan, options?: TranslateOptions): DocumentPlan;
  info(): TranslatorInfo;
  /** The bytes of this Translator's WebAssembly memory; wasm memory only grows, so the most it has held since it loaded. */
  memoryBytes(): number;
  dispose(): void;
}

/** wasm/pool.mjs: translations on several Workers, each with its own Translator (no cross-origin isolation needed). */
export interface PoolLoadOptions extends LoadOptions {
  /** Worker threads, each with its own copy of the model (default 2). */
  workers?: number;
}
