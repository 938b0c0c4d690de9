// The browser half of the benchmark: Attend's WebAssembly build and onnxruntime-web (WebAssembly
// SIMD, 1 thread, its .wasm served from node_modules) on the same sentences and weights.
// bench/browser.mjs serves the repository at /repo/ and the scratch folder (model file, ONNX
// export) at /scratch/, then calls window.runBench(config) and reads back the JSON it returns.
import { Translator } from '/repo/wasm/attend.mjs';
import { TranslatorPool } from '/repo/wasm/pool.mjs';
import * as ort from '/repo/node_modules/onnxruntime-web/dist/ort.wasm.min.mjs';
import { OnnxTranslator, quantile, runSetting } from '/repo/bench/search.mjs';

const log = (line) => { document.getElementById('log').textContent += `${line}\n`; };
const now = () => performance.now();
const noCpu = () => null;

// Attend through its public JS API: text in (tokenized inside), batch = sentences per translate() call.
// threads > 1: a TranslatorPool given all the sentences in one call, which it hands to its workers in
// groups of 32 (the batch: each worker decodes 32 at a time, as each native thread does).
async function attendSetting(translator, texts, { beam, batch, threads }, options) {
  if (threads > 1 && batch !== 32) throw new Error(`a pool decodes batches of 32, not ${batch}`);
  const ids = [], latencies = [];
  const start = now();
  const callOptions = { beam, alpha: options.length_penalty, maxLength: options.max_length,
    maxLengthRatio: options.max_length_ratio };
  const perCall = threads > 1 ? texts.length : batch;
  for (let first = 0; first < texts.length; first += perCall) {
    const t0 = now();
    const results = await translator.translate(texts.slice(first, first + perCall), callOptions);
    latencies.push(now() - t0);
    for (const r of results) ids.push(r.ids);
  }
  const seconds = (now() - start) / 1e3;
  const tokens = ids.reduce((sum, o) => sum + o.length, 0);
  const run = { name: `beam${beam}_batch${batch}_threads${threads}`, beam, batch, threads, seconds, cpu_seconds: null,
    sentences: texts.length, target_tokens: tokens, sentences_per_second: texts.length / seconds,
    target_tokens_per_second: tokens / seconds };
  if (batch === 1) run.latency_ms = { p50: quantile(latencies, 0.5), p90: quantile(latencies, 0.9), mean: seconds * 1e3 / texts.length };
  return { run, ids };
}

// config: {model (URL), int8Model (URL or null), onnx (URL of the folder), texts, sources (ids),
// settings [[beam, batch, threads?]], options, warmup, engines ['attend-wasm', 'attend-wasm-int8-weights',
// 'attend-wasm-int8-activations', 'onnxruntime-web']}. threads > 1: Attend as a TranslatorPool of that
// many workers (onnxruntime-web runs 1 thread only).
window.runBench = async (config) => {
  const report = { userAgent: navigator.userAgent, engines: {} };
  const settings = config.settings.map(([beam, batch, threads = 1]) => ({ beam, batch, threads }));
  for (const [engine, url, loadOptions] of [['attend-wasm', config.model, {}],
    ['attend-wasm-int8-weights', config.int8Model, { int8Activations: false }],
    ['attend-wasm-int8-activations', config.int8Model, { int8Activations: true }]]) {
    if (!config.engines.includes(engine)) continue;
    const t0 = now();
    const translator = await Translator.load(url, { simd: true, ...loadOptions });
    const loadMs = now() - t0;
    const runs = [], ids = {};
    const pools = new Map();  // threads -> TranslatorPool
    for (const setting of settings) {
      if (setting.threads > 1 && !pools.has(setting.threads)) {
        pools.set(setting.threads, await TranslatorPool.load(url, { simd: true, ...loadOptions, workers: setting.threads }));
      }
      const engineOfSetting = setting.threads > 1 ? pools.get(setting.threads) : translator;
      await attendSetting(engineOfSetting, config.texts.slice(0, setting.threads > 1 ? 32 * setting.threads : config.warmup), setting, config.options);
      const out = await attendSetting(engineOfSetting, config.texts, setting, config.options);
      log(`${engine} ${out.run.name}: ${out.run.seconds.toFixed(2)} s`);
      runs.push(out.run);
      ids[out.run.name] = out.ids;
    }
    const info = translator.info();
    translator.dispose();
    for (const pool of pools.values()) pool.dispose();
    report.engines[engine] = { engine, version: info.kernels, load_ms: loadMs, runs, ids };
  }
  if (config.engines.includes('onnxruntime-web')) {
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
    ort.env.wasm.wasmPaths = '/repo/node_modules/onnxruntime-web/dist/';
    const sessionOptions = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
    const t0 = now();
    const sessions = {
      encoder: await ort.InferenceSession.create(`${config.onnx}/encoder.onnx`, sessionOptions),
      decoder: await ort.InferenceSession.create(`${config.onnx}/decoder.onnx`, sessionOptions),
    };
    const loadMs = now() - t0;
    const meta = await (await fetch(`${config.onnx}/meta.json`)).json();
    const translator = new OnnxTranslator(ort, sessions, meta);
    const runs = [], ids = {};
    for (const setting of settings.filter((s) => s.threads === 1)) {
      await runSetting(translator, config.sources.slice(0, config.warmup), setting, config.options, now, noCpu);
      const out = await runSetting(translator, config.sources, setting, config.options, now, noCpu);
      log(`onnxruntime-web ${out.run.name}: ${out.run.seconds.toFixed(2)} s`);
      runs.push(out.run);
      ids[out.run.name] = out.ids;
    }
    report.engines['onnxruntime-web'] = { engine: 'onnxruntime-web', version: ort.env.versions?.web ?? null,
      load_ms: loadMs, runs, ids };
  }
  return report;
};
// A document against its sentences one per line, as the page translates (Translator.load's defaults:
// int8Activations 'auto'): translateDocument(document), translate(texts) (one call: the core's
// batches of 32, shortest together) and planDocument alone, one pass per call, so that
// bench/browser.mjs can read this thread's CPU time around each. config: {model (URL), texts,
// document, options}
window.documentBench = {
  async load(config) {
    this.config = config;
    this.translator = await Translator.load(config.model);
    const planned = this.translator.planDocument(config.document).filter((s) => s.translate).map((s) => s.source);
    const firstDifference = planned.findIndex((s, i) => s !== config.texts[i]);
    const equalsLines = planned.length === config.texts.length && firstDifference < 0;
    return { int8_activations: this.translator.info().int8Activations,
      plan: { sentences: planned.length, equals_lines: equalsLines,
        first_difference: equalsLines ? null : (firstDifference < 0 ? planned.length : firstDifference) } };
  },
  options(beam) {
    const o = this.config.options;
    return { beam, alpha: o.length_penalty, maxLength: o.max_length, maxLengthRatio: o.max_length_ratio };
  },
  async warmup(beam, sentences) {
    await this.translator.translate(this.config.texts.slice(0, sentences), this.options(beam));
  },
  // One pass ('line', 'document' or 'cut'): {seconds (wall), waited}. waited: the seconds the
  // pass's setTimeout callbacks waited to run (translateDocument yields between its groups that
  // way; the browser holds a nested timer back at least 4 ms), which the thread's CPU time leaves out.
  async pass(kind, beam) {
    const realSetTimeout = window.setTimeout;
    let waited = 0;
    window.setTimeout = (callback, delay, ...rest) => {
      const scheduled = now();
      return realSetTimeout(() => { waited += now() - scheduled; callback(...rest); }, delay);
    };
    const t0 = now();
    try {
      if (kind === 'line') this.byLine = await this.translator.translate(this.config.texts, this.options(beam));
      if (kind === 'document') this.asDocument = await this.translator.translateDocument(this.config.document, this.options(beam));
      if (kind === 'cut') this.translator.planDocument(this.config.document);
    } finally {
      window.setTimeout = realSetTimeout;
    }
    return { seconds: (now() - t0) / 1e3, waited: waited / 1e3 };
  },
  // The last passes' outputs compared: sentences whose ids differ, the document's text against
  // the one-per-line translations put in its places.
  compare() {
    const { byLine, asDocument } = this;
    const inDocument = asDocument.segments.filter((s) => s.translation).map((s) => s.translation);
    let next = 0;
    const rebuilt = asDocument.segments.map((s) => (s.translation ? byLine[next++].text : s.source)).join('');
    return { target_tokens: byLine.reduce((sum, t) => sum + t.ids.length, 0),
      differing_sentences: byLine.filter((t, k) => inDocument[k]?.ids.join() !== t.ids.join()).length,
      document_text_equal: inDocument.length === byLine.length && rebuilt === asDocument.text };
  },
  dispose() {
    this.translator.dispose();
  },
};
window.benchReady = true;
