// Attend's JavaScript API over the WebAssembly build of the core (see wasm/README.md).
// Runs in a page, a Web Worker and Node. The module itself is one of two builds in ./dist/
// (SIMD128 or scalar), chosen by feature detection and compiled once per variant.

const DIST = new URL('./dist/', import.meta.url);
const IS_NODE = typeof process === 'object' && typeof process.versions?.node === 'string';
const ATTENTION_KINDS = ['encoder', 'decoder', 'cross'];  // the bindings' kind numbers 0, 1, 2
// A lone surrogate has no UTF-8 encoding; TextEncoder would silently write U+FFFD instead.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// The smallest module using a SIMD128 instruction (i8x16.splat + i8x16.popcnt), as
// wasm-feature-detect checks it: it validates only where WebAssembly SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export class AttendError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'AttendError';
    this.code = code;
  }
}

export function simdSupported() {
  return WebAssembly.validate(SIMD_PROBE);
}

// The build `simd` ('auto' | true | false) asks for: 'simd' or 'nosimd'.
function chooseVariant(simd) {
  const useSimd = simd === 'auto' ? simdSupported() : Boolean(simd);
  if (useSimd && !simdSupported()) throw new AttendError('invalid_argument', 'this engine has no WebAssembly SIMD');
  return useSimd ? 'simd' : 'nosimd';
}

// Compiles the module Translator.load({simd}) would use, ahead of any model: a missing or
// unreachable build is told apart from a model that cannot be read (both are io errors).
export async function prepare({ simd = 'auto' } = {}) {
  await compileVariant(chooseVariant(simd));
}

// fetch(url), with a failure to reach the server (offline, refused, CORS) as an io error.
function fetchOrFail(url) {
  return fetch(url).catch((error) => { throw new AttendError('io', `cannot fetch ${url}: ${error.message}`); });
}

async function readUrl(url, onProgress) {
  const response = await fetchOrFail(url);
  if (!response.ok) throw new AttendError('io', `cannot fetch ${url}: HTTP ${response.status}`);
  // A compressed response's Content-Length counts the bytes before decoding, not those read here.
  const length = response.headers.has('Content-Encoding') ? 0 : Number(response.headers.get('Content-Length'));
  const total = length > 0 ? length : null;
  const chunks = [];
  let loaded = 0;
  for (const reader = response.body.getReader(); ;) {
    const { done, value } = await reader.read().catch((error) => {
      throw new AttendError('io', `cannot fetch ${url}: the download broke off after ${loaded} bytes (${error.message})`);
    });
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    // A cross-origin response may hide its Content-Encoding: a length it outgrows was not the file's.
    onProgress?.({ loaded, total: total !== null && loaded <= total ? total : null });
  }
  return joined(chunks, loaded);
}

// `length` bytes of chunks (Uint8Arrays) one after another.
function joined(chunks, length) {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

// A model's bytes (ModelSource). Node reads paths and file: URLs from disk; everything else (and
// every source in a browser) is fetched. Also TranslatorPool's (pool.mjs).
export async function readSource(source, onProgress) {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  const text = String(source);
  if (IS_NODE && !/^(https?|data|blob):/i.test(text)) {
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(text.startsWith('file:') ? new URL(text) : text).catch((error) => {
      throw new AttendError('io', `cannot read ${text}: ${error.message}`);
    });
    onProgress?.({ loaded: bytes.length, total: bytes.length });
    return bytes;
  }
  return readUrl(source, onProgress);
}

// The bytes of a reverse model (Translator.load's reverse), a failure naming it as the reverse model.
export function readReverse(source, onProgress) {
  return readSource(source, onProgress).catch((error) => { throw reverseError(source, error); });
}

function missingBuild(url, detail) {
  return new AttendError('io', `cannot load ${url} (${detail}); build it with scripts/build_wasm.sh`);
}

async function compileWasm(url) {
  if (IS_NODE) {
    const { readFile } = await import('node:fs/promises');
    return WebAssembly.compile(await readFile(url).catch((error) => { throw missingBuild(url, error.code); }));
  }
  const response = await fetchOrFail(url);
  if (!response.ok) throw missingBuild(url, `HTTP ${response.status}`);
  // compileStreaming needs the server to say application/wasm; other servers get the buffered path.
  return response.headers.get('Content-Type') === 'application/wasm'
    ? WebAssembly.compileStreaming(response)
    : WebAssembly.compile(await response.arrayBuffer());
}

const compiledVariants = new Map();  // 'simd' | 'nosimd' -> Promise<{createModule, wasm}>

function compileVariant(variant) {
  if (!compiledVariants.has(variant)) {
    const glueUrl = new URL(`attend-${variant}.mjs`, DIST);
    const glue = import(glueUrl.href).catch((error) => { throw missingBuild(glueUrl, error.message); });
    const wasm = compileWasm(new URL(`attend-${variant}.wasm`, DIST));
    const compiled = Promise.all([glue, wasm]).then(([g, w]) => ({ createModule: g.default, wasm: w }));
    // A failure (offline, say) must not stick: the next load tries again.
    compiled.catch(() => compiledVariants.delete(variant));
    compiledVariants.set(variant, compiled);
  }
  return compiledVariants.get(variant);
}

// Marian's int8 product with relaxed SIMD (attend-relaxed.wasm, wasm/relaxed/u8s8_relaxed.c),
// compiled once; null where the engine has no relaxed SIMD (it does not validate: Node 20 without
// --experimental-wasm-relaxed-simd) or the build made none.
let relaxedKernel = null;
function compileRelaxed() {
  relaxedKernel ??= compileWasm(new URL('attend-relaxed.wasm', DIST)).catch(() => null);
  return relaxedKernel;
}

// A fresh instance (its own memory) of the compiled variant. A failed instantiation (no
// memory for the initial heap, say) rejects; the glue alone would wait forever. The SIMD
// variant takes the relaxed int8 product where there is one and it gives the module's own
// bits (attend_use_relaxed_u8s8 checks): module.relaxedSimd says whether it did.
async function instantiate(variant, { relaxedSimd = 'auto' } = {}) {
  const { createModule, wasm } = await compileVariant(variant);
  const relaxed = variant === 'simd' && relaxedSimd === 'auto' ? await compileRelaxed() : null;
  let memory;
  const module = await new Promise((resolve, reject) => {
    createModule({
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(wasm, imports).then((instance) => {
          memory = Object.values(instance.exports).find((value) => value instanceof WebAssembly.Memory);
          receive(instance, wasm);
        }, reject);
        return {};
      },
    }).then(resolve, reject);
  });
  module.relaxedSimd = false;
  if (relaxed && memory) {
    const kernel = new WebAssembly.Instance(relaxed, { env: { memory } }).exports.attend_u8s8_relaxed;
    const slot = module.addFunction(kernel, 'viiiifiiiii');
    module.relaxedSimd = module._attend_use_relaxed_u8s8(slot) === 1;
    if (!module.relaxedSimd) module.removeFunction(slot);
  }
  return module;
}

function encodeInput(input, name) {
  if (input instanceof Uint8Array) return input;
  if (typeof input !== 'string') {
    throw new AttendError('invalid_argument', `${name} must be a string or a Uint8Array, got ${typeof input}`);
  }
  const at = input.search(LONE_SURROGATE);
  if (at >= 0) {
    const unit = input.charCodeAt(at).toString(16).toUpperCase();
    throw new AttendError('invalid_input',
      `${name} has a lone surrogate (U+${unit}) at UTF-16 index ${at}: it has no UTF-8 encoding`);
  }
  return new TextEncoder().encode(input);
}

// A document already cut (planDocument's result, perhaps edited: a sentence marked translate
// false is kept as it is), checked: [{source, translate}] with source a string that has a UTF-8
// encoding, translate a boolean. Returns the sources' UTF-8 bytes.
export function encodePlan(plan) {
  return plan.map((segment, i) => {
    if (typeof segment?.source !== 'string' || typeof segment.translate !== 'boolean') {
      throw new AttendError('invalid_argument', `document plan segment ${i} must be {source: string, translate: boolean}`);
    }
    return encodeInput(segment.source, `document plan segment ${i}`);
  });
}

// Candidate sentence starts of `text` as UTF-8 byte offsets: the browser's (or Node's) ICU
// through Intl.Segmenter in `language` (the model's source language; the default locale when the
// model names none), the same UAX #29 rules as the native build's ICU; the core's plan_document
// then applies the rest (lines, list markers, the language's abbreviations). Without
// Intl.Segmenter, none: each line is then one sentence.
function sentenceBreaks(text, language) {
  if (typeof Intl.Segmenter !== 'function') return [];
  const breaks = [];
  let bytes = 0;
  for (const { segment } of new Intl.Segmenter(language || undefined, { granularity: 'sentence' }).segment(text)) {
    if (bytes > 0) breaks.push(bytes);
    bytes += utf8Length(segment);
  }
  return breaks;
}

// Bytes of the UTF-8 encoding of a string without lone surrogates.
function utf8Length(text) {
  let length = 0;
  for (let i = 0; i < text.length; ++i) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) length += 1;
    else if (unit < 0x800) length += 2;
    else if (unit >= 0xD800 && unit <= 0xDBFF) { length += 4; ++i; }
    else length += 3;
  }
  return length;
}

// Lets the event loop run once, e.g. for a worker to take a message posted to it: a message on a
// MessageChannel (the same task source as the worker's messages, which come first), not
// setTimeout(0), which browsers clamp to 4 ms once nested (~130 ms over 32 groups in Chromium 156).
function yieldToEventLoop() {
  if (typeof MessageChannel !== 'function') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

// Sentences per translate call of translateDocument: between two calls it reports progress and
// lets the event loop run (a worker hears a cancel message there).
const DOCUMENT_GROUP = 32;

// Translator.load's int8Activations -> attend_session_load's mode (attend::Int8Activations).
const INT8_ACTIVATION_MODES = new Map([[false, 0], [true, 1], ['auto', 2]]);

export class Translator {
  #module;
  #status;
  #session;
  #info;
  #busy = false;

  constructor(module, status, session, info) {
    this.#module = module;
    this.#status = status;
    this.#session = session;
    this.#info = info;
  }

  // int8Activations defaults to 'auto' here (the native default is off): in WebAssembly the
  // int8-weight path is 1.5-2x slower than int8 by int8 (docs/benchmarks.md).
  //
  // An array of sources is an ensemble: the models decode together, their log-probabilities
  // averaged at each step (attend::Model::ensemble; weights: one per model, equal by default;
  // attentionMember: whose attention the results show, from 0). reverse: the source of a model
  // of the other direction, by which translate() then reranks each beam (attend::TranslateOptions::
  // reverse_model) at reverseWeight (default: the core's, 0.3). onProgress hears the sum of every file's bytes.
  static async load(source, {
    onProgress, simd = 'auto', relaxedSimd = 'auto', int8Activations = 'auto', weights, attentionMember = 0, reverse,
    reverseWeight,
  } = {}) {
    if (relaxedSimd !== 'auto' && relaxedSimd !== false) {
      throw new AttendError('invalid_argument', `relaxedSimd must be 'auto' or false, got ${String(relaxedSimd)}`);
    }
    const int8Mode = INT8_ACTIVATION_MODES.get(int8Activations);
    if (int8Mode === undefined) {
      throw new AttendError('invalid_argument', `int8Activations must be true, false or 'auto', got ${String(int8Activations)}`);
    }
    const sources = Array.isArray(source) ? source : [source];
    if (sources.length === 0) throw new AttendError('invalid_argument', 'an ensemble needs at least one model');
    if (weights !== undefined && (!Array.isArray(source) || weights.length !== sources.length)) {
      throw new AttendError('invalid_argument', `weights: one per model of an ensemble, got ${weights.length} for ${Array.isArray(source) ? sources.length : 'one model'}`);
    }
    const hasReverse = reverse !== undefined && reverse !== null;
    const progress = [...sources, ...(hasReverse ? [reverse] : [])].map(() => ({ loaded: 0, total: null }));
    const report = (i) => onProgress && ((p) => {
      progress[i] = p;
      const known = progress.every((q) => q.total !== null);
      onProgress({ loaded: progress.reduce((n, q) => n + q.loaded, 0),
                   total: known ? progress.reduce((n, q) => n + q.total, 0) : null });
    });
    const variant = chooseVariant(simd);
    const [module, ...files] = await Promise.all([instantiate(variant, { relaxedSimd }), ...sources.map((s, i) => readSource(s, report(i))),
      ...(hasReverse ? [readReverse(reverse, report(sources.length))] : [])]);
    const reverseBytes = hasReverse ? files.pop() : null;
    const status = module._attend_status_new();
    if (!status) throw new AttendError('out_of_memory', 'out of memory creating a status');
    let live = [];  // the sessions to free if a step fails
    // A handle, or (freeing everything) the status's error, as `rename` puts it.
    const check = (value, rename = (error) => error) => {
      if (value) return value;
      const error = rename(statusError(module, status));
      for (const handle of live) module._attend_session_free(handle);
      module._attend_status_free(status);
      throw error;
    };
    const loadBytes = (bytes, rename) => {
      const buffer = check(module._attend_bytes_new(bytes.length, status), rename);
      module.HEAPU8.set(bytes, module._attend_bytes_data(buffer));
      const session = check(module._attend_session_load(buffer, int8Mode, status), rename);
      live.push(session);
      return session;
    };
    const loaded = files.map((bytes) => loadBytes(bytes));
    let session = loaded[0];
    if (Array.isArray(source)) {
      const pointers = module._malloc(4 * loaded.length);
      const floats = weights ? module._malloc(4 * loaded.length) : 0;
      module.HEAPU32.set(loaded, pointers >>> 2);
      if (weights) module.HEAPF32.set(loaded.map((_, i) => Number(weights[i])), floats >>> 2);
      const ensemble = module._attend_session_ensemble(pointers, loaded.length, floats, attentionMember, status);
      module._free(pointers);
      if (floats) module._free(floats);
      session = check(ensemble);
      for (const member of loaded) module._attend_session_free(member);  // their models live on in the ensemble
      live = [session];
    }
    if (reverseBytes) {
      const reverseSession = loadBytes(reverseBytes, (error) => reverseError(reverse, error));
      const ranked = module._attend_session_rerank_with(session, reverseSession, status);
      module._attend_session_free(reverseSession);  // its model lives on in the session
      live = [session];
      check(ranked);
      if (reverseWeight !== undefined) check(module._attend_session_set_reverse_weight(session, Number(reverseWeight), status));
    }
    const info = JSON.parse(takeJson(module, check(module._attend_session_info(session, status))));
    return new Translator(module, status, session, { ...info, simd: variant === 'simd', relaxedSimd: module.relaxedSimd });
  }

  info() {
    this.#checkLoaded();
    return structuredClone(this.#info);
  }

  // The bytes of this translator's WebAssembly memory (its own instance's). Wasm memory only grows,
  // so this is the most the translator has held since it loaded (docs/benchmarks.md compares it).
  memoryBytes() {
    this.#checkLoaded();
    return this.#module.HEAPU8.buffer.byteLength;
  }

  // The language `text` is in where CLD2 (compiled into the module) is sure it is not the one the
  // model reads (info().sourceLanguage): {language: 'de', name: 'German', percent: 98}, percent the
  // share of its letters; null when it is in that language, CLD2 is unsure, the text has no letters
  // or the model names no languages. The core's other_language, as `attend translate` warns of it.
  otherLanguage(text) {
    this.#checkLoaded();
    const expected = this.#info.sourceLanguage;
    if (!expected) return null;
    const m = this.#module;
    const bytes = encodeInput(text, 'text');
    const pointer = this.#heapBytes(bytes);
    const language = this.#heapString(expected);
    try {
      const found = m._attend_other_language(pointer, bytes.length, language);
      if (!found) return null;
      const json = m.UTF8ToString(found);
      m._free(found);
      return JSON.parse(json);
    } finally {
      m._free(pointer);
      m._free(language);
    }
  }

  dispose() {
    if (!this.#session) return;
    if (this.#busy) throw new AttendError('invalid_argument', 'dispose() called from onToken; return false to stop instead');
    this.#module._attend_session_free(this.#session);
    this.#module._attend_status_free(this.#status);
    this.#session = this.#status = this.#module = null;
  }

  async translate(input, { onToken, ...options } = {}) {
    this.#checkUsable();
    const inputs = Array.isArray(input) ? input : [input];
    const encoded = inputs.map((input, i) => encodeInput(input, `input ${i}`));
    this.#busy = true;
    try {
      const results = this.#translateEncoded(encoded, options, onToken);
      return Array.isArray(input) ? results : results[0];
    } finally {
      this.#busy = false;
    }
  }

  // The document cut as translateDocument cuts it: [{source, translate}] in order, translate
  // true for a sentence and false for text kept as it is. `options`: translate's; captionRules
  // says whether a greeting or label is a sentence of its own and a letter's signature kept.
  planDocument(input, options = {}) {
    this.#checkUsable();
    const { bytes, segments } = this.#planned(input, options);
    const decoder = new TextDecoder();
    return segments.map(([begin, end, translate]) => ({ source: decoder.decode(bytes.subarray(begin, end)), translate: translate === 1 }));
  }

  // A document of any length: cut into sentences and the text kept around them (line breaks,
  // indentation, list markers, whitespace), its sentences translated in groups, put back together.
  // `input` may be cut already: planDocument's result, not cut again.
  async translateDocument(input, { onProgress, signal, onToken, ...options } = {}) {
    this.#checkUsable();
    const { bytes, segments } = this.#planned(input, options);
    const sentences = segments.filter(([, , translate]) => translate).map(([begin, end]) => bytes.subarray(begin, end));
    if (sentences.length === 0) throw new AttendError('empty_input', 'nothing to translate: the document has no sentence');
    const cancelled = () => new AttendError('cancelled', 'document translation cancelled by the caller');
    const translations = [];
    for (let first = 0; first < sentences.length; first += DOCUMENT_GROUP) {
      if (signal?.aborted) throw cancelled();
      // onToken hears sentences numbered in the document.
      const onGroupToken = onToken && ((event) => onToken({ ...event, sentence: event.sentence + first }));
      this.#busy = true;
      let group;
      try {
        group = this.#translateEncoded(sentences.slice(first, first + DOCUMENT_GROUP), options, onGroupToken);
      } finally {
        this.#busy = false;
      }
      translations.push(...group);
      // The group's translations too, so a caller can show sentences as they finish.
      onProgress?.({ sentencesDone: translations.length, sentences: sentences.length, first, translations: group });
      await yieldToEventLoop();  // a worker hears a cancel message here
      this.#checkLoaded();
    }
    if (signal?.aborted) throw cancelled();
    const decoder = new TextDecoder();
    let next = 0;
    const parts = segments.map(([begin, end, translate]) => {
      const source = decoder.decode(bytes.subarray(begin, end));
      return translate ? { source, translation: translations[next++] } : { source };
    });
    return { text: parts.map((p) => (p.translation ? p.translation.text : p.source)).join(''), segments: parts };
  }

  // An HTML fragment translated with its inline markup (b, i, em, a href, span, br, ...) kept
  // around the words of the translation the cross-attention aligns with the words it held;
  // block markup, attributes, comments, script, style and template copied untouched; nothing
  // executed. Sentences are cut in each block as translateDocument cuts text.
  async translateHTML(input, { onToken, ...options } = {}) {
    this.#checkUsable();
    const m = this.#module;
    const bytes = encodeInput(input, 'input 0');
    const html = this.#heapBytes(bytes);
    let breaks = 0;
    let offsets = 0;
    let optionsJson = 0;
    this.#busy = true;
    try {
      const blocks = JSON.parse(takeJson(m, this.#checked(m._attend_html_blocks(html, bytes.length, this.#status))));
      const blockBreaks = blocks.map((block) => sentenceBreaks(block, this.#info.sourceLanguage));
      const starts = [0];
      for (const b of blockBreaks) starts.push(starts.at(-1) + b.length);
      breaks = this.#heapWords(blockBreaks.flat());
      offsets = this.#heapWords(starts);
      optionsJson = this.#heapString(JSON.stringify(options));
      const result = this.#withStepCallback(onToken, (callback) => m._attend_translate_html(
        this.#session, optionsJson, html, bytes.length, breaks, offsets, blocks.length, callback, this.#status));
      const translated = JSON.parse(m.UTF8ToString(m._attend_result_json(result)));
      const sentences = translated.sentences.map(({ block, source, translation }, i) => ({
        block, source, translation: toResult(translation, translation.attention && this.#attention(result, i, translation.attention)),
      }));
      m._attend_result_free(result);
      return { html: translated.html, sentences };
    } finally {
      this.#busy = false;
      [html, breaks, offsets, optionsJson].forEach((pointer) => m._free(pointer));
    }
  }

  // {bytes, segments: [[begin, end, translate]]} of a document (a string or UTF-8 bytes, or a plan:
  // its segments' sources one after another), cut with translate's `options`.
  #planned(input, options) {
    if (Array.isArray(input)) {
      const sources = encodePlan(input);
      const bytes = new Uint8Array(sources.reduce((n, source) => n + source.length, 0));
      let at = 0;
      const segments = sources.map((source, i) => {
        bytes.set(source, at);
        at += source.length;
        return [at - source.length, at, input[i].translate ? 1 : 0];
      });
      return { bytes, segments };
    }
    const bytes = encodeInput(input, 'input 0');
    let text = input;
    if (typeof input !== 'string') {
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        throw new AttendError('invalid_input', 'the document is not valid UTF-8');
      }
    }
    return { bytes, segments: this.#plan(bytes, sentenceBreaks(text, this.#info.sourceLanguage), options) };
  }

  #plan(bytes, breaks, options) {
    const m = this.#module;
    const text = this.#heapBytes(bytes);
    let offsets = 0;
    let optionsJson = 0;
    try {
      offsets = this.#heapWords(breaks);
      optionsJson = this.#heapString(JSON.stringify(options));
      return JSON.parse(takeJson(m, this.#checked(m._attend_plan_document(this.#session, optionsJson, text, bytes.length,
        offsets, breaks.length, this.#status))));
    } finally {
      [text, offsets, optionsJson].forEach((pointer) => m._free(pointer));
    }
  }

  #checkLoaded() {
    if (!this.#session) throw new AttendError('invalid_argument', 'this Translator has been disposed');
  }

  #checkUsable() {
    this.#checkLoaded();
    if (this.#busy) throw new AttendError('invalid_argument', 'translate() is already running (called from onToken?)');
  }

  #translateEncoded(encoded, options, onToken) {
    const m = this.#module;
    const size = encoded.reduce((sum, bytes) => sum + bytes.length, 0);
    const texts = m._malloc(Math.max(size, 1));
    const ends = m._malloc(4 * Math.max(encoded.length, 1));
    let optionsJson = 0;
    try {
      if (!texts || !ends) throw new AttendError('out_of_memory', `out of memory copying ${size} bytes of input`);
      let offset = 0;
      encoded.forEach((bytes, i) => {
        m.HEAPU8.set(bytes, texts + offset);
        offset += bytes.length;
        m.HEAPU32[(ends >> 2) + i] = offset;
      });
      optionsJson = this.#heapString(JSON.stringify(options));
      const result = this.#withStepCallback(onToken, (callback) =>
        m._attend_translate(this.#session, optionsJson, texts, ends, encoded.length, callback, this.#status));
      const translations = JSON.parse(m.UTF8ToString(m._attend_result_json(result)));
      const out = translations.map((t, i) => toResult(t, t.attention && this.#attention(result, i, t.attention)));
      m._attend_result_free(result);
      return out;
    } finally {
      [texts, ends, optionsJson].forEach((pointer) => m._free(pointer));
    }
  }

  // call(callback) with onToken (if any) as the module's step callback; returns its result, a
  // handle checked against the status. An exception thrown by onToken stops the call and is
  // rethrown here.
  #withStepCallback(onToken, call) {
    const m = this.#module;
    let callbackError = null;
    const callback = onToken ? m.addFunction((sentence, step, token, piece, pieceSize, logProb, cross, srcLen) => {
      try {
        return onToken(this.#stepEvent(sentence, step, token, piece, pieceSize, logProb, cross, srcLen)) === false ? 0 : 1;
      } catch (error) {
        callbackError = error;
        return 0;
      }
    }, 'iiiiiifii') : 0;
    try {
      const result = call(callback);
      if (callbackError) {
        if (result) m._attend_result_free(result);
        throw callbackError;
      }
      return this.#checked(result);
    } finally {
      if (callback) m.removeFunction(callback);
    }
  }

  // A handle, or the status's error.
  #checked(handle) {
    if (!handle) throw statusError(this.#module, this.#status);
    return handle;
  }

  // Copies into the heap; the caller frees the pointer.
  #heapBytes(bytes) {
    const pointer = this.#module._malloc(Math.max(bytes.length, 1));
    if (!pointer) throw new AttendError('out_of_memory', `out of memory copying ${bytes.length} bytes of input`);
    this.#module.HEAPU8.set(bytes, pointer);
    return pointer;
  }

  #heapWords(numbers) {
    const pointer = this.#module._malloc(4 * Math.max(numbers.length, 1));
    if (!pointer) throw new AttendError('out_of_memory', `out of memory copying ${numbers.length} offsets`);
    this.#module.HEAPU32.set(numbers, pointer >> 2);
    return pointer;
  }

  #heapString(text) {
    const bytes = new TextEncoder().encode(text);
    const pointer = this.#module._malloc(bytes.length + 1);
    if (!pointer) throw new AttendError('out_of_memory', 'out of memory copying the options');
    this.#module.HEAPU8.set(bytes, pointer);
    this.#module.HEAPU8[pointer + bytes.length] = 0;
    return pointer;
  }

  // Copies of the heap: the views would be invalidated by the next memory growth.
  #floats(pointer, count) {
    return this.#module.HEAPF32.slice(pointer >> 2, (pointer >> 2) + count);
  }

  #stepEvent(sentence, step, token, piece, pieceSize, logProb, cross, srcLen) {
    const event = { sentence, step, token, piece: this.#module.UTF8ToString(piece, pieceSize), logProb };
    if (cross) {
      const shape = [this.#info.config.decoderLayers, this.#info.config.numHeads, srcLen];
      event.crossAttention = { data: this.#floats(cross, shape[0] * shape[1] * shape[2]), shape };
    }
    return event;
  }

  // The maps shown (member -1) and, for an ensemble, every member's in `members` with
  // `attentionMember` naming the one shown (from 0).
  #attention(result, sentence, a) {
    const tensors = ({ encoderLayers, decoderLayers, heads }, member) => {
      const shapes = {
        encoder: [encoderLayers, heads, a.srcLen, a.srcLen],
        decoder: [decoderLayers, heads, a.tgtLen, a.tgtLen],
        cross: [decoderLayers, heads, a.tgtLen, a.srcLen],
      };
      const out = {};
      ATTENTION_KINDS.forEach((kind, number) => {
        const shape = shapes[kind];
        const pointer = this.#module._attend_result_attention(result, sentence, member, number);
        out[kind] = { data: this.#floats(pointer, shape.reduce((x, y) => x * y, 1)), shape };
      });
      return out;
    };
    const maps = {
      sourcePieces: a.sourcePieces, targetPieces: a.targetPieces, targetInputPieces: a.targetInputPieces,
      ...tensors(a, -1),
    };
    if (a.members) {
      maps.attentionMember = this.#info.attentionMember;
      maps.members = a.members.map((shape, member) => tensors(shape, member));
    }
    return maps;
  }
}

// A Marian model (a Firefox Translations or OPUS-MT folder, or its files) made into an Attend model
// file, as `attend import` makes it natively: the same choice of files (attend::choose_marian_files),
// the same checks and messages, byte for byte the same file. `files`: [{path, folder, data}], path
// as the host names the file ("ende/model.ende.bin"), folder the folder the person gave that holds it
// ("ende"), or "" (the default) for a file named by itself; data a Blob (a File), an ArrayBuffer or a
// Uint8Array. A File alone stands for itself: from a folder chosen with <input webkitdirectory>
// (its webkitRelativePath names the folder), else named by itself. gzip data is inflated
// (DecompressionStream). languages: "en-de", else the pair the file names give, else the one an
// OPUS-MT README states ("* source language(s): eng", "* target language(s): deu": en-de), as the
// CLI reads it, each code written as ISO 639-1 where Intl.getCanonicalLocales gives one (twoLetterCode);
// else none. A README stating several languages a side (a multilingual model) is refused asking for
// `languages`, or with multilingual: 'unnamed' gives none (the model's >>xxx<< tokens then choose
// the target: info().targetTokens); READMEs that disagree are refused.
// onProgress({stage: 'reading', file, filesDone, files}) before each file read, then
// ({stage: 'converting'}). Resolves with {bytes (the model file), files: {model, sourceVocab,
// targetVocab, shortlist, sourcePieces, targetPieces, decoderYml, licenses}, languages, license}; Translator.load(bytes) then loads it.
// The conversion runs in a WebAssembly instance of its own, let go afterwards.
export async function importMarian(files, { languages, multilingual = 'refuse', simd = 'auto', onProgress } = {}) {
  if (!Array.isArray(files)) throw new AttendError('invalid_argument', 'importMarian takes an array of files');
  if (languages !== undefined && typeof languages !== 'string') {
    throw new AttendError('invalid_argument', `languages must be a string as "en-de", got ${typeof languages}`);
  }
  if (multilingual !== 'refuse' && multilingual !== 'unnamed') {
    throw new AttendError('invalid_argument', `multilingual must be "refuse" or "unnamed", got ${JSON.stringify(multilingual)}`);
  }
  const entries = files.map(marianEntry);
  const module = await instantiate(chooseVariant(simd));
  const status = module._attend_status_new();
  if (!status) throw new AttendError('out_of_memory', 'out of memory creating a status');
  const buffers = [];
  const pointers = [];
  let twoLetter = 0;  // the function two_letter calls (addFunction)
  try {
    const checked = (handle) => {
      if (!handle) throw statusError(module, status);
      return handle;
    };
    const heapString = (text) => {
      const bytes = new TextEncoder().encode(text);
      const pointer = module._malloc(bytes.length + 1);
      if (!pointer) throw new AttendError('out_of_memory', 'out of memory copying the file names');
      module.HEAPU8.set(bytes, pointer);
      module.HEAPU8[pointer + bytes.length] = 0;
      pointers.push(pointer);
      return pointer;
    };
    const listing = heapString(JSON.stringify(entries.map(({ path, folder }) => ({ path, folder }))));
    const chosen = JSON.parse(takeJson(module, checked(module._attend_marian_files(listing, status))));
    const names = [chosen.model, chosen.sourceVocab, chosen.targetVocab, chosen.shortlist, chosen.sourcePieces,
      chosen.targetPieces, chosen.decoderYml, ...chosen.licenses].filter(Boolean);
    const byPath = new Map(entries.map((entry) => [entry.path, entry]));
    for (const [i, name] of names.entries()) {
      onProgress?.({ stage: 'reading', file: name, filesDone: i, files: names.length });
      const bytes = await inflated(await bytesOf(byPath.get(name).data, name), name);
      const buffer = checked(module._attend_bytes_new(bytes.length, status));
      buffers.push(buffer);
      module.HEAPU8.set(bytes, module._attend_bytes_data(buffer));
    }
    onProgress?.({ stage: 'converting' });
    const request = heapString(JSON.stringify({ ...chosen, languages: languages || chosen.languages, multilingual }));
    const list = module._malloc(4 * Math.max(buffers.length, 1));
    if (!list) throw new AttendError('out_of_memory', 'out of memory listing the files');
    pointers.push(list);
    module.HEAPU32.set(buffers, list >>> 2);
    const summary = module._malloc(4);
    if (!summary) throw new AttendError('out_of_memory', 'out of memory for the summary');
    pointers.push(summary);
    // The README's codes as ISO 639-1 (attend::marian_languages_from_readmes asks for each).
    twoLetter = module.addFunction((code, out) => {
      const two = twoLetterCode(module.UTF8ToString(code));
      const written = /^[a-z]{2,3}$/.test(two) ? two : '';
      for (let i = 0; i < written.length; i++) module.HEAPU8[out + i] = written.charCodeAt(i);
      module.HEAPU8[out + written.length] = 0;
    }, 'vii');
    const out = checked(module._attend_import_marian(request, list, buffers.length, twoLetter, summary, status));
    const { license, languages: pair } = JSON.parse(takeJson(module, module.HEAPU32[summary >>> 2]));
    const data = module._attend_bytes_data(out);
    const bytes = module.HEAPU8.slice(data, data + module._attend_bytes_size(out));
    module._attend_bytes_free(out);
    const read = { ...chosen };
    delete read.languages;  // the pair the names give; the one used is below
    return {
      bytes,
      files: read,
      languages: pair,
      license,
    };
  } finally {
    if (twoLetter) module.removeFunction(twoLetter);
    for (const buffer of buffers) module._attend_bytes_free(buffer);
    for (const pointer of pointers) module._free(pointer);
    module._attend_status_free(status);
  }
}

// The ISO 639-1 code of an ISO 639 code ("fra", "fr": "fr"), by the CLDR aliases the browser's
// Intl applies ("deu" → "de"); the code itself where it names no two-letter code ("gil"). The CLI asks
// ICU's uloc_canonicalize, which applies fewer aliases: a macrolanguage's member ("cmn", "arb", "pes")
// and a few deprecated codes are folded here and not there (docs/marian-models.md).
export function twoLetterCode(code) {
  try {
    const { language } = new Intl.Locale(Intl.getCanonicalLocales(code)[0]);
    return language.length === 2 ? language : code;
  } catch {
    return code;  // not a language tag
  }
}

// {path, folder, data} of one of importMarian's files.
function marianEntry(file, i) {
  if (typeof Blob === 'function' && file instanceof Blob) {
    const relative = file.webkitRelativePath || '';
    return { path: relative || file.name, folder: relative.includes('/') ? relative.slice(0, relative.indexOf('/')) : '', data: file };
  }
  if (typeof file?.path !== 'string' || !file.path || (file.folder !== undefined && typeof file.folder !== 'string')) {
    throw new AttendError('invalid_argument', `importMarian file ${i} must be {path: string, folder?: string, data} or a File`);
  }
  const { data } = file;
  if (!(data instanceof Uint8Array || data instanceof ArrayBuffer || (typeof Blob === 'function' && data instanceof Blob))) {
    throw new AttendError('invalid_argument', `the data of '${file.path}' must be a Blob, an ArrayBuffer or a Uint8Array`);
  }
  return { path: file.path, folder: file.folder ?? '', data };
}

// A file's bytes (a File the browser cannot read any more, moved or deleted since it was chosen: io).
async function bytesOf(data, name) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(await data.arrayBuffer().catch((error) => { throw new AttendError('io', `cannot read '${name}': ${error.message}`); }));
}

// The bytes, inflated when they start with gzip's magic (as the CLI reads a file: every member of
// a multi-member file), by the host's DecompressionStream.
async function inflated(bytes, name) {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  if (typeof DecompressionStream !== 'function') {
    throw new AttendError('io', `cannot read '${name}': it is gzip data, and this browser has no DecompressionStream`);
  }
  const chunks = [];
  let length = 0;
  try {
    const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
  } catch (error) {
    throw new AttendError('io', `cannot read '${name}': damaged or truncated gzip data (${error.message})`);
  }
  return joined(chunks, length);
}

// An error of the reverse model's load (also TranslatorPool's), named by its source;
// `reverseDetail` keeps the message without the name, so that an error crossing to another
// thread can be named again (wasm/pool.mjs).
export function reverseError(source, error) {
  const name = source instanceof Uint8Array || source instanceof ArrayBuffer ? `${source.byteLength} bytes` : String(source);
  return Object.assign(new AttendError(error.code ?? 'internal', `the reverse model (${name}): ${error.message}`),
    { reverseDetail: error.message });
}

function statusError(module, status) {
  const code = module.UTF8ToString(module._attend_status_code(status));
  return new AttendError(code, module.UTF8ToString(module._attend_status_message(status)));
}

function takeJson(module, result) {
  const text = module.UTF8ToString(module._attend_result_json(result));
  module._attend_result_free(result);
  return text;
}

function toResult(t, attention) {
  // JSON has no -Infinity: the score of a hypothesis the reverse model could not read comes as null.
  const hypotheses = t.hypotheses.map((h) => (h.score === null ? { ...h, score: -Infinity } : h));
  const [best] = hypotheses;
  const result = {
    text: best.text, pieces: best.pieces, ids: best.ids, score: best.score, confidence: best.confidence,
    rewritten: best.rewritten, status: t.status, reranked: t.reranked, hypotheses, sourcePieces: t.sourcePieces, sourceIds: t.sourceIds,
  };
  if (attention) result.attention = attention;
  return result;
}
