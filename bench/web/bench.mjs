// The browser half of the benchmark: Attend's WebAssembly build and onnxruntime-web (WebAssembly
// SIMD, 1 thread, its .wasm served from node_modules) on the same sentences and weights.
// bench/browser.mjs serves the repository at /repo/ and the scratch folder (model file, ONNX
// export) at /scratch/, then calls window.runBench(config) and reads back the JSON it returns.
import { Translator } from '/repo/wasm/attend.mjs';
import * as ort from '/repo/node_modules/onnxruntime-web/dist/ort.wasm.min.mjs';
import { OnnxTranslator, quantile, runSetting } from '/repo/bench/search.mjs';

const log = (line) => { document.getElementById('log').textContent += `${line}\n`; };
const now = () => performance.now();
const noCpu = () => null;

// Attend through its public JS API: text in (tokenized inside), batch = sentences per translate() call.
async function attendSetting(translator, texts, { beam, batch }, options) {
  const ids = [], latencies = [];
  const start = now();
  const callOptions = { beam, alpha: options.length_penalty, maxLength: options.max_length,
    maxLengthRatio: options.max_length_ratio };
  for (let first = 0; first < texts.length; first += batch) {
    const t0 = now();
    const results = await translator.translate(texts.slice(first, first + batch), callOptions);
    latencies.push(now() - t0);
    for (const r of results) ids.push(r.ids);
  }
  const seconds = (now() - start) / 1e3;
  const tokens = ids.reduce((sum, o) => sum + o.length, 0);
  const run = { name: `beam${beam}_batch${batch}_threads1`, beam, batch, threads: 1, seconds, cpu_seconds: null,
    sentences: texts.length, target_tokens: tokens, sentences_per_second: texts.length / seconds,
    target_tokens_per_second: tokens / seconds };
  if (batch === 1) run.latency_ms = { p50: quantile(latencies, 0.5), p90: quantile(latencies, 0.9), mean: seconds * 1e3 / texts.length };
  return { run, ids };
}

// config: {model (URL), int8Model (URL or null), onnx (URL of the folder), texts, sources (ids),
// settings [[beam, batch]], options, warmup, engines ['attend-wasm', 'attend-wasm-int8-weights',
// 'attend-wasm-int8-activations', 'onnxruntime-web']}
window.runBench = async (config) => {
  const report = { userAgent: navigator.userAgent, engines: {} };
  const settings = config.settings.map(([beam, batch]) => ({ beam, batch, threads: 1 }));
  for (const [engine, url, loadOptions] of [['attend-wasm', config.model, {}],
    ['attend-wasm-int8-weights', config.int8Model, { int8Activations: false }],
    ['attend-wasm-int8-activations', config.int8Model, { int8Activations: true }]]) {
    if (!config.engines.includes(engine)) continue;
    const t0 = now();
    const translator = await Translator.load(url, { simd: true, ...loadOptions });
    const loadMs = now() - t0;
    const runs = [], ids = {};
    for (const setting of settings) {
      await attendSetting(translator, config.texts.slice(0, config.warmup), setting, config.options);
      const out = await attendSetting(translator, config.texts, setting, config.options);
      log(`${engine} ${out.run.name}: ${out.run.seconds.toFixed(2)} s`);
      runs.push(out.run);
      ids[out.run.name] = out.ids;
    }
    const info = translator.info();
    translator.dispose();
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
    for (const setting of settings) {
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
// int8Activations 'auto'): translateDocument(document) vs translate(texts) (one call, the core's
// batches of 32, shortest together) vs planDocument alone, interleaved `repeat` times, the order
// alternating. config: {model (URL), texts, document, options, beams, repeat, warmup}
window.runDocumentBench = async (config) => {
  const translator = await Translator.load(config.model);
  const planned = translator.planDocument(config.document).filter((s) => s.translate).map((s) => s.source);
  const firstDifference = planned.findIndex((s, i) => s !== config.texts[i]);
  const equalsLines = planned.length === config.texts.length && firstDifference < 0;
  const report = { userAgent: navigator.userAgent, int8_activations: translator.info().int8Activations,
    plan: { sentences: planned.length, equals_lines: equalsLines,
      first_difference: equalsLines ? null : (firstDifference < 0 ? planned.length : firstDifference) },
    runs: [] };
  for (const beam of config.beams) {
    const options = { beam, alpha: config.options.length_penalty, maxLength: config.options.max_length,
      maxLengthRatio: config.options.max_length_ratio };
    await translator.translate(config.texts.slice(0, config.warmup), options);
    let byLine, asDocument;
    const seconds = { line: [], document: [], cut: [] };
    const timed = async (into, work) => {
      const t0 = now();
      await work();
      seconds[into].push((now() - t0) / 1e3);
    };
    const linesPass = () => timed('line', async () => { byLine = await translator.translate(config.texts, options); });
    const documentPass = () => timed('document', async () => {
      asDocument = await translator.translateDocument(config.document, options);
    });
    const cutPass = () => timed('cut', () => translator.planDocument(config.document));
    for (let r = 0; r < config.repeat; ++r) {
      const passes = r % 2 === 0 ? [linesPass, documentPass, cutPass] : [cutPass, documentPass, linesPass];
      for (const pass of passes) await pass();
    }
    const inDocument = asDocument.segments.filter((s) => s.translation).map((s) => s.translation);
    const differing = byLine.filter((t, k) => inDocument[k]?.ids.join() !== t.ids.join()).length;
    let next = 0;
    const rebuilt = asDocument.segments.map((s) => (s.translation ? byLine[next++].text : s.source)).join('');
    const run = { name: `beam${beam}_batch32_threads1`, beam, batch: 32, threads: 1, sentences: config.texts.length,
      target_tokens: byLine.reduce((sum, t) => sum + t.ids.length, 0), line_seconds: seconds.line,
      document_seconds: seconds.document, cut_seconds: seconds.cut, differing_sentences: differing,
      document_text_equal: inDocument.length === byLine.length && rebuilt === asDocument.text };
    log(`documents ${run.name}: one per line ${Math.min(...seconds.line).toFixed(2)} s, document ${Math.min(...seconds.document).toFixed(2)} s`);
    report.runs.push(run);
  }
  translator.dispose();
  return report;
};
window.benchReady = true;
