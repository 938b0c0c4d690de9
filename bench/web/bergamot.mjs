// The browser half of bench/bergamot_browser.mjs: one engine per page, Bergamot (npm
// @browsermt/bergamot-translator 0.4.9, its glue and wasm served from node_modules, driven as its
// worker/translator-worker.js drives it: tests/marian/bergamot_core.mjs) or Attend's WebAssembly
// build (wasm/attend.mjs, or the build the driver names) on the same Marian files imported. Each
// way: a warm-up of 8 lines, then the lines timed (as often as the driver asks), one call per line
// or all in one call.
import { createModel, instantiateBergamot } from '/repo/tests/marian/bergamot_core.mjs';

const BERGAMOT = '/repo/node_modules/@browsermt/bergamot-translator/worker/';
const WARMUP_LINES = 8;
const bytesOf = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
};

let engine = null;
let lines = [];

window.bergamotBench = {
  // {model, vocab, shortlist}: URLs of the Marian files; precision: Bergamot's gemm-precision.
  async loadBergamot({ model, vocab, shortlist, precision }) {
    const [glue, wasm] = await Promise.all([
      fetch(`${BERGAMOT}bergamot-translator-worker.js`).then((r) => r.text()),
      WebAssembly.compileStreaming(fetch(`${BERGAMOT}bergamot-translator-worker.wasm`))]);
    const bergamot = await instantiateBergamot(glue, wasm);
    const files = { model: await bytesOf(model), vocab: await bytesOf(vocab), shortlist: await bytesOf(shortlist) };
    let translation = null;
    engine = {
      // The model is made per way (its beam size is in its config), as translator-worker.js makes one per config.
      prepare({ beam }) {
        translation = createModel(bergamot, files, { beamSize: beam, gemmPrecision: precision });
        translation.translate(lines.slice(0, WARMUP_LINES), { perLine: true });
      },
      run({ perLine }) {
        const start = performance.now();
        const texts = translation.translate(lines, { perLine });
        return { seconds: (performance.now() - start) / 1000, texts };
      },
      finish() {
        translation.delete();
        translation = null;
      },
      memoryBytes: () => bergamot.memory.buffer.byteLength,
    };
    return engine.memoryBytes();
  },
  // attendJs: the URL of attend.mjs (its dist/ beside it); model: the imported file's URL.
  async loadAttend({ attendJs, model }) {
    const { Translator } = await import(attendJs);
    const translator = await Translator.load(model, { simd: true, int8Activations: false });
    engine = {
      async prepare({ beam }) {
        await translator.translate(lines.slice(0, WARMUP_LINES), { beam });
      },
      async run({ beam, perLine }) {
        const start = performance.now();
        let texts;
        if (perLine) {
          texts = [];
          for (const line of lines) texts.push((await translator.translate(line, { beam })).text);
        } else {
          texts = (await translator.translate(lines, { beam })).map((r) => r.text);
        }
        return { seconds: (performance.now() - start) / 1000, texts };
      },
      finish() {},
      memoryBytes: () => translator.memoryBytes(),
      relaxedSimd: translator.info().relaxedSimd,
    };
    return engine.memoryBytes();
  },
  setLines: (given) => { lines = given; },
  // prepare(way): ready for the way, warmed up on the first 8 lines; run(way): the lines, timed; finish(): done with it.
  prepare: (way) => engine.prepare(way),
  run: (way) => engine.run(way),
  finish: () => engine.finish(),
  memoryBytes: () => engine.memoryBytes(),
  // Attend's: whether its int8 product runs on relaxed SIMD (wasm/relaxed/); Bergamot's: undefined.
  relaxedSimd: () => engine.relaxedSimd,
};
window.benchReady = true;
