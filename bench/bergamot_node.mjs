// Attend's WebAssembly against Bergamot's (npm @browsermt/bergamot-translator 0.4.9: Marian in
// WebAssembly) on the same Marian files, in Node, one thread each (issue 65): the folder's model
// (f32, and intgemm8 with alphas) with its lexical shortlist and vocabulary, imported with
// `attend import`; both translate the same lines in the same three ways: greedy one sentence per
// call, greedy the whole file in one call, beam 4 one sentence per call. Then:
//   - speed: both engines in this process, on each way after a warm-up of 8 lines each, the timed
//     run --repeat times (3) with the engines alternating: each engine's least wall time and least
//     CPU time (the process's: the engines run on its one thread), and its output texts;
//   - native Attend (the CLI, `attend translate --threads 1`) on the same imported files and lines,
//     `--batch 1` for one sentence per call, `--batch 32` for the whole file: the least wall time of
//     the process over --repeat runs less the least of the same command on no lines (starting,
//     loading the model), and its texts;
//   - memory: each engine alone in its own child process (`--memory-of ENGINE`), doing the three
//     ways as above: its wasm memory's bytes after loading and at the end (wasm memory only grows:
//     the most it held), the most V8 heap used (sampled after loading and after each way) and the
//     process's peak RSS (and node's own, before loading the engine).
// Prints one JSON object on stdout: {node, threads, lines, rows: [{dtype, way, beam, per_line, lines,
// bergamot_seconds, attend_seconds, bergamot_cpu_seconds, attend_cpu_seconds, native_seconds, speedup, same_lines, native_same_lines,
// attend_relaxed_simd (Attend's int8 product on relaxed SIMD), bergamot_texts, attend_texts, native_texts}], memory: {f32: {bergamot, attend}, int8: {...}}}.
// bench/run.py counts the tokens of the texts (the vocabulary's SentencePiece model) and drops them.
//
//   node bench/bergamot_node.mjs --cli build/release/native/cli/attend --folder tests/marian/fixtures/ssru-ende
//        --lines ../shared/data/multi30k/test_2016_flickr.en.gz [--limit N] [--repeat N] [--attend-js wasm/attend.mjs]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { createModel, loadBergamot } from '../tests/marian/bergamot.mjs';
import { WAYS, marianFiles, readLines } from './bergamot_inputs.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const { values: args } = parseArgs({
  options: {
    cli: { type: 'string' }, folder: { type: 'string' }, lines: { type: 'string' }, limit: { type: 'string' },
    repeat: { type: 'string', default: '3' },
    'attend-js': { type: 'string', default: join(HERE, '..', 'wasm', 'attend.mjs') },
    // a child's: one engine alone on one file, for its memory
    'memory-of': { type: 'string' }, dtype: { type: 'string' }, imported: { type: 'string' },
  },
});
const child = Boolean(args['memory-of']);
if (!args.folder || !args.lines || (!child && !args.cli) || (child && (!args.dtype || !args.imported))) {
  console.error('usage: node bench/bergamot_node.mjs --cli ATTEND --folder MARIAN_DIR --lines TEXT[.gz] [--limit N] [--repeat N] ' +
                '[--attend-js PATH]');
  process.exit(2);
}

const WARMUP_LINES = 8;
const REPEAT = Number(args.repeat);

const lines = readLines(args.lines, args.limit);
const { vocab, shortlist, files: FILES } = marianFiles(args.folder);
const { Translator } = await import(pathToFileURL(resolve(args['attend-js'])).href);

// Wall and CPU time (this process's user + system: the engines run on this thread) of one run.
async function timed(run) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const out = await run();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - start) / 1000, cpu_seconds: (used.user + used.system) / 1e6, out };
}

// One engine on one way: prepare() makes it ready and warms it up (Bergamot builds its graph on the first call),
// run() translates the lines (timed), finish() lets go of what prepare() made.
function bergamotWay(bergamot, file, way) {
  let model = null;
  return {
    prepare() {
      model = createModel(bergamot, { model: readFileSync(file.model), vocab: readFileSync(vocab),
        shortlist: readFileSync(shortlist) }, { beamSize: way.beam, gemmPrecision: file.precision });
      model.translate(lines.slice(0, WARMUP_LINES), { perLine: true });
    },
    run: () => timed(() => model.translate(lines, { perLine: way.perLine })),
    finish: () => model.delete(),
  };
}

function attendWay(translator, way) {
  return {
    prepare: () => translator.translate(lines.slice(0, WARMUP_LINES), { beam: way.beam }),
    run: () => timed(async () => {
      if (!way.perLine) return (await translator.translate(lines, { beam: way.beam })).map((r) => r.text);
      const out = [];
      for (const line of lines) out.push((await translator.translate(line, { beam: way.beam })).text);
      return out;
    }),
    finish: () => {},
  };
}

// Each engine's run --repeat times, the engines alternating (Bergamot first on even repeats): the least wall time
// and the least CPU time of each, with its texts (the same every time: the first run's).
async function race(engines) {
  const best = {};
  for (const engine of Object.values(engines)) await engine.prepare();
  for (let r = 0; r < REPEAT; ++r) {
    const names = Object.keys(engines);
    for (const name of r % 2 ? names.reverse() : names) {
      const run = await engines[name].run();
      best[name] = best[name] ? { ...best[name], seconds: Math.min(best[name].seconds, run.seconds),
        cpu_seconds: Math.min(best[name].cpu_seconds, run.cpu_seconds), runs: [...best[name].runs, run.seconds] }
        : { ...run, runs: [run.seconds] };
    }
  }
  for (const engine of Object.values(engines)) await engine.finish();
  return best;
}

// A child: one engine alone, the three ways, its memory.
async function memoryOf(engine, dtype, imported) {
  const report = { engine, dtype, node_max_rss_kib_before: process.resourceUsage().maxRSS };
  let heapPeak = process.memoryUsage().heapUsed;
  const sample = () => { heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed); };
  if (engine === 'bergamot') {
    const bergamot = await loadBergamot();
    report.wasm_bytes_after_load = bergamot.memory.buffer.byteLength;  // the model is loaded per way, below
    sample();
    report.wasm_bytes_after_each_way = [];
    for (const way of WAYS) {
      const engine = bergamotWay(bergamot, FILES[dtype], way);
      engine.prepare();
      await engine.run();
      engine.finish();
      sample();
      report.wasm_bytes_after_each_way.push(bergamot.memory.buffer.byteLength);
    }
    report.wasm_bytes_peak = bergamot.memory.buffer.byteLength;
  } else {
    const translator = await Translator.load(imported, { simd: true, int8Activations: false });
    report.wasm_bytes_after_load = translator.memoryBytes();
    sample();
    report.wasm_bytes_after_each_way = [];
    for (const way of WAYS) {
      const engine = attendWay(translator, way);
      await engine.prepare();
      await engine.run();
      sample();
      report.wasm_bytes_after_each_way.push(translator.memoryBytes());
    }
    report.wasm_bytes_peak = translator.memoryBytes();
  }
  report.js_heap_used_peak = heapPeak;
  report.max_rss_kib = process.resourceUsage().maxRSS;
  return report;
}

if (child) {
  console.log(JSON.stringify(await memoryOf(args['memory-of'], args.dtype, args.imported)));
  process.exit(0);
}

const scratch = mkdtempSync(join(tmpdir(), 'attend-bergamot-bench-'));
const rows = [];
const memory = {};
try {
  const linesFile = join(scratch, 'lines.txt');
  writeFileSync(linesFile, lines.map((line) => `${line}\n`).join(''));
  const bergamot = await loadBergamot();
  for (const [dtype, file] of Object.entries(FILES)) {
    const imported = join(scratch, `${dtype}.safetensors`);
    execFileSync(args.cli, ['import', file.model, vocab, shortlist, '-o', imported], { stdio: 'ignore' });
    const attend = await Translator.load(imported, { simd: true, int8Activations: false });
    for (const way of WAYS) {
      const { bergamot: theirs, attend: ours } = await race({ bergamot: bergamotWay(bergamot, file, way),
        attend: attendWay(attend, way) });
      // The CLI's time on the lines less its time on no lines (starting, loading the model).
      const native = (input) => timed(() => execFileSync(args.cli, ['translate', '--model', imported, '--beam',
        String(way.beam), '--batch', String(way.nativeBatch), '--threads', '1'], { input, stdio: ['pipe', 'pipe', 'ignore'] })
        .toString('utf8').split('\n').slice(0, lines.length));
      let nativeStart = null, nativeRun = null;
      for (let r = 0; r < REPEAT; ++r) {
        const [start, run] = [await native(''), await native(readFileSync(linesFile))];
        if (!nativeStart || start.seconds < nativeStart.seconds) nativeStart = start;
        if (!nativeRun || run.seconds < nativeRun.seconds) nativeRun = run;
      }
      const same = (out) => lines.filter((_, i) => theirs.out[i] === out[i]).length;
      const row = { dtype, way: way.name, beam: way.beam, per_line: way.perLine, lines: lines.length,
        bergamot_seconds: theirs.seconds, attend_seconds: ours.seconds, bergamot_cpu_seconds: theirs.cpu_seconds,
        attend_cpu_seconds: ours.cpu_seconds, bergamot_runs: theirs.runs, attend_runs: ours.runs,
        native_seconds: nativeRun.seconds - nativeStart.seconds, native_process_seconds: nativeRun.seconds, native_start_seconds: nativeStart.seconds,
        speedup: theirs.seconds / ours.seconds, same_lines: same(ours.out),
        native_same_lines: lines.filter((_, i) => nativeRun.out[i] === ours.out[i]).length,
        attend_relaxed_simd: attend.info().relaxedSimd,
        bergamot_texts: theirs.out, attend_texts: ours.out, native_texts: nativeRun.out };
      console.error(`node ${dtype} ${way.name}: Bergamot ${theirs.seconds.toFixed(2)} s, Attend ${ours.seconds.toFixed(2)} s ` +
                    `(${row.speedup.toFixed(2)}x), ${row.same_lines}/${lines.length} lines the same; native Attend ` +
                    `${row.native_seconds.toFixed(2)} s, ${row.native_same_lines}/${lines.length} as its wasm`);
      rows.push(row);
    }
    attend.dispose?.();
    memory[dtype] = {};
    for (const engine of ['bergamot', 'attend']) {  // each alone, so they do not share a peak
      memory[dtype][engine] = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url),
        '--memory-of', engine, '--dtype', dtype, '--imported', imported, '--folder', args.folder, '--lines', args.lines,
        '--attend-js', args['attend-js'], ...(args.limit ? ['--limit', args.limit] : [])], { stdio: ['ignore', 'pipe', 'inherit'] }));
      console.error(`node ${dtype} memory of ${engine}: ${JSON.stringify(memory[dtype][engine])}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(JSON.stringify({ node: process.version, threads: 1, lines: lines.length, rows, memory }));
