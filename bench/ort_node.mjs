// ONNX Runtime for Node peer: bench/export_onnx.py's graphs (fp32, CPU execution provider, all graph
// optimizations) decoded by bench/search.mjs on the same source ids as `attend bench` (--ids-out).
// Threads are ONNX Runtime's intra-op threads. Prints one JSON object (runs and output ids).
//
//   node bench/ort_node.mjs --onnx DIR --ids FILE --options JSON [--settings 1:1,1:32,5:1] [--threads 1,2]
//                           [--warmup N] [--spinning 0|1]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import { OnnxTranslator, runSetting } from './search.mjs';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');

const { values: args } = parseArgs({
  options: {
    onnx: { type: 'string' }, ids: { type: 'string' },
    settings: { type: 'string', default: '1:1,1:32,5:1' }, threads: { type: 'string', default: '1,2' },
    options: { type: 'string' }, warmup: { type: 'string', default: '8' },
    spinning: { type: 'string', default: '0' },
  },
});
if (!args.onnx || !args.ids || !args.options) {
  console.error('usage: node bench/ort_node.mjs --onnx DIR --ids FILE --options JSON [options]');
  process.exit(2);
}
const options = JSON.parse(args.options); // length_penalty, max_length, max_length_ratio (from bench/run.py)
const meta = JSON.parse(readFileSync(`${args.onnx}/meta.json`, 'utf8'));
const sources = JSON.parse(readFileSync(args.ids, 'utf8')).sources;
const now = () => performance.now();
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

async function open(threads) {
  const sessionOptions = {
    executionProviders: ['cpu'], intraOpNumThreads: threads, interOpNumThreads: 1,
    executionMode: 'sequential', graphOptimizationLevel: 'all',
    // Idle intra-op threads sleep instead of spinning (the default spins): on a machine shared with
    // other work, spinning threads fight for the cores and 2 threads run many times slower than 1.
    extra: { session: { intra_op: { allow_spinning: args.spinning } } },
  };
  const t0 = now();
  const sessions = {
    encoder: await ort.InferenceSession.create(`${args.onnx}/encoder.onnx`, sessionOptions),
    decoder: await ort.InferenceSession.create(`${args.onnx}/decoder.onnx`, sessionOptions),
  };
  return { translator: new OnnxTranslator(ort, sessions, meta), loadMs: now() - t0 };
}

const runs = [], ids = {};
let loadMs = null;
for (const threads of args.threads.split(',').map(Number)) {
  const opened = await open(threads);
  loadMs ??= opened.loadMs;
  for (const text of args.settings.split(',')) {
    const [beam, batch] = text.split(':').map(Number);
    await runSetting(opened.translator, sources.slice(0, Number(args.warmup)), { beam, batch, threads }, options, now, cpu);
    const { run, ids: outputs } = await runSetting(opened.translator, sources, { beam, batch, threads }, options, now, cpu);
    console.error(`onnxruntime-node: ${run.name} ${run.seconds.toFixed(2)} s`);
    runs.push(run);
    ids[run.name] = outputs;
  }
}
const version = JSON.parse(readFileSync(require.resolve('onnxruntime-node/package.json'), 'utf8')).version;
process.stdout.write(JSON.stringify({ engine: 'onnxruntime-node', version, load_ms: loadMs, options, runs, ids }));
