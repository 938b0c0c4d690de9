// Bergamot (Marian compiled to WebAssembly, npm @browsermt/bergamot-translator 0.4.9) driven as its
// worker/translator-worker.js drives it, with no Node imports, so that the same code runs it in Node
// (tests/marian/bergamot.mjs reads the package's files) and in a page (bench/web/bergamot.mjs fetches
// them). Each part mirrors a part of translator-worker.js, named in its comment.

// translator-worker.js, BergamotTranslatorWorker.GEMM_TO_FALLBACK_FUNCTIONS_MAP: the wasm imports
// module wasm_gemm, and the worker links each import to the instance's own export.
const GEMM_TO_FALLBACK = {
  int8_prepare_a: 'int8PrepareAFallback',
  int8_prepare_b: 'int8PrepareBFallback',
  int8_prepare_b_from_transposed: 'int8PrepareBFromTransposedFallback',
  int8_prepare_b_from_quantized_transposed: 'int8PrepareBFromQuantizedTransposedFallback',
  int8_prepare_bias: 'int8PrepareBiasFallback',
  int8_multiply_and_add_bias: 'int8MultiplyAndAddBiasFallback',
  int8_select_columns_of_b: 'int8SelectColumnsOfBFallback',
};

/** The emscripten module with a BlockingService, from the package's glue (its text) and its
 *  compiled wasm (a WebAssembly.Module): `{Module, service, log, memory}`. `log` holds what Marian
 *  printed (stdout and stderr of the wasm), each line also given to `print` if given; `memory` is the
 *  WebAssembly.Memory the glue made (its buffer's byteLength: the most the instance has held, as
 *  wasm memory only grows). Runs in Node and in a page (no Node imports here). */
export async function instantiateBergamot(glue, wasm, {print: echo} = {}) {
  const log = [];
  const print = (line) => {
    log.push(line);
    echo?.(line);
  };
  let memory = null;
  const mangled = Object.fromEntries(WebAssembly.Module.exports(wasm)
    .map(({name}) => [name.startsWith('dynCall_') ? name : `_${name}`, name]));
  const Module = await new Promise((resolve, reject) => {
    // translator-worker.js, loadModule(): instantiateWasm with wasm_gemm added to the imports,
    // resolved by onRuntimeInitialized. The worker's fake `self` (importScripts, fetch, location)
    // is not needed: with instantiateWasm the glue fetches nothing, and Node has the globals it
    // reads (performance, crypto, TextDecoder). Its output goes to `print`, not to our stdout.
    const Module = {
      print, printErr: print,
      instantiateWasm(info, accept) {
        memory = info.env.memory;  // the glue's WebAssembly.Memory, imported as env.memory
        const wasm_gemm = Object.fromEntries(Object.entries(GEMM_TO_FALLBACK)
          .map(([name, fallback]) => [name, (...args) => Module.asm[fallback](...args)]));
        WebAssembly.instantiate(wasm, {...info, wasm_gemm}).then((instance) => {
          bindExports(instance.exports);
          accept(instance);
        }, reject);
        return {};
      },
      onRuntimeInitialized: () => resolve(Module),
      onAbort: (what) => reject(new Error(`Bergamot aborted while loading: ${what}`)),
    };
    // translator-worker.js runs the glue with importScripts (eval in the global scope); here its
    // `var Module` is this object, and its other top-level names stay inside the function.
    const bindExports = new Function('Module', `var ${Object.keys(mangled)};\n${glue}\n` +
      `return (exports) => { ${Object.entries(mangled).map(([js, name]) => `${js} = exports.${name};`).join(' ')} };`)(Module);
  });
  for (const js of Object.keys(mangled)) {
    if (globalThis[js] === Module[js]) delete globalThis[js];
  }
  // translator-worker.js, loadTranslationService(): cacheSize 0 (no translation cache).
  const service = new Module.BlockingService({cacheSize: 0});
  return {Module, service, log, memory};
}

// translator-worker.js, YAML.stringify: `key: value`, lists as `- item` lines, nothing quoted.
function yaml(config) {
  return Object.entries(config).map(([key, value]) => Array.isArray(value)
    ? `${key}:${value.map((v) => `\n  - ${v}`).join('')}\n` : `${key}: ${value}\n`).join('');
}

/** The config YAML as translator-worker.js loadTranslationModel() builds it: its defaults, then
 *  the caller's (extra keys in `config`), then the forced overrides. */
export function modelConfig({beamSize = 1, normalize = '1.0', wordPenalty = 0,
                             gemmPrecision = 'int8shiftAlphaAll', skipCost = true, config = {}} = {}) {
  const merged = {
    'beam-size': beamSize, 'normalize': normalize, 'word-penalty': wordPenalty, 'cpu-threads': 0,
    'gemm-precision': gemmPrecision, 'skip-cost': skipCost, ...config,
  };
  // "WASM marian is only compiled with support for shiftedAll."
  if (merged['gemm-precision'] === 'int8') merged['gemm-precision'] = 'int8shiftAll';
  return yaml(Object.assign(merged, {
    'alignment': 'soft', 'quiet': true, 'quiet-translation': true, 'max-length-break': 128,
    'mini-batch-words': 1024, 'workspace': 128, 'max-length-factor': '2.0',
  }));
}

// Marian's uncaught C++ exceptions reach JS as a bare pointer (the wasm is built with
// DISABLE_EXCEPTION_CATCHING); its ABORT reaches JS as a RuntimeError "Aborted(...)". Either way
// the message Marian logged before is the useful part.
function marianError(bergamot, what, err, logFrom) {
  const logged = bergamot.log.slice(logFrom).join('\n').trim();
  const cause = typeof err === 'number' ? `uncaught C++ exception (pointer ${err})` : String(err?.message ?? err);
  return new Error(`${what} failed: ${cause}${logged ? `\nMarian said:\n${logged}` : ''}`);
}

/** Throws unless `bytes` is long enough for the .bin its headers describe: the check of
 *  bergamot's validateBinaryModel (src/translator/byte_array_util.cpp), which the worker leaves off
 *  (check-bytearray false); without it Marian reads past the end of a truncated file. */
export function checkMarianBinary(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u64 = (at) => (at + 8 <= bytes.byteLength ? Number(view.getBigUint64(at, true)) : NaN);
  const fail = (why) => { throw new Error(`not a complete Marian .bin (${bytes.byteLength} bytes): ${why}`); };
  if (bytes.byteLength < 16) fail('shorter than the version and item count');
  if (u64(0) !== 1) fail(`version ${u64(0)}, not 1`);
  const n = u64(8);
  if (!(16 + 32 * n <= bytes.byteLength)) fail(`${n} item headers do not fit`);
  let need = 16 + 32 * n, data = 0;
  for (let i = 0; i < n; i++) {
    need += u64(16 + 32 * i) + 4 * u64(16 + 32 * i + 16);  // name and shape
    data += u64(16 + 32 * i + 24);
  }
  if (!(need + 8 <= bytes.byteLength)) fail('names and shapes do not fit');
  need += 8 + u64(need) + data;
  if (!(need <= bytes.byteLength)) fail(`headers describe ${need} bytes`);
}

/** A translation model from bytes: `files` = {model: .bin bytes, vocab: .spm bytes (source and
 *  target), shortlist?: bytes}; `options` as modelConfig(). Returns {translate(texts, {perLine}),
 *  config, delete()}. */
export function createModel(bergamot, files, options = {}) {
  const {Module, service} = bergamot;
  // translator-worker.js, prepareAlignedMemoryFromBuffer(): model 256, shortlist and vocab 64.
  const aligned = (bytes, alignment) => {
    const memory = new Module.AlignedMemory(bytes.byteLength, alignment);
    memory.getByteArrayView().set(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return memory;
  };
  checkMarianBinary(files.model);
  const config = modelConfig(options);
  const memories = [aligned(files.model, 256), aligned(files.shortlist ?? new Uint8Array(0), 64),
                    aligned(files.vocab, 64)];
  const vocabs = new Module.AlignedMemoryList();
  vocabs.push_back(memories[2]);
  const logFrom = bergamot.log.length;
  let model;
  try {
    // translator-worker.js: new TranslationModel(yaml, model, shortlist, vocabs, qualityModel).
    // An empty shortlist means none; one vocab serves source and target.
    model = new Module.TranslationModel(config, memories[0], memories[1], vocabs, null);
  } catch (err) {
    throw marianError(bergamot, 'loading the model', err, logFrom);
  } finally {
    // The model took the bytes (std::move); the JS handles are empty shells now.
    vocabs.delete();
    memories.forEach((memory) => memory.delete());
  }

  // translator-worker.js, translate(): VectorString in, VectorResponse out, text per response.
  // Bergamot builds the graph from the .bin on the first call, so a refused model fails there.
  let calls = 0;
  const translateCall = (texts) => {
    const input = new Module.VectorString();
    const responseOptions = new Module.VectorResponseOptions();
    for (const text of texts) {
      input.push_back(text);
      responseOptions.push_back({qualityScores: false, alignment: false, html: false});
    }
    const logFrom = bergamot.log.length;
    let responses;
    try {
      responses = service.translate(model, input, responseOptions);
    } catch (err) {
      throw marianError(bergamot, calls ? 'translating' : 'loading the model (first translation)', err, logFrom);
    } finally {
      input.delete();
      responseOptions.delete();
    }
    calls++;
    const out = texts.map((_, i) => {
      const response = responses.get(i);
      return {text: response.getTranslatedText(), sentences: response.size()};
    });
    responses.delete();
    return out;
  };

  const translateWithCounts = (texts, {perLine = true} = {}) =>
    perLine ? texts.flatMap((text) => translateCall([text])) : translateCall(texts);

  return {
    config,
    /** perLine (default): each text its own service.translate call, so batches never mix texts.
     *  Otherwise all texts in one call, batched together as Bergamot batches them (§6). */
    translate: (texts, {perLine = true} = {}) => translateWithCounts(texts, {perLine}).map(({text}) => text),
    /** As translate, each text's translation with the number of sentences Bergamot cut it into. */
    translateWithCounts,
    delete: () => model.delete(),
  };
}
