// Attend's WebAssembly against Bergamot's (npm @browsermt/bergamot-translator 0.4.9: Marian in
// WebAssembly) on the same Marian files in Debian's Chromium (headless, through playwright-core, as
// bench/browser.mjs), one thread each, in the pages' main threads (bench/web/bergamot.mjs): the
// folder's model (f32, and intgemm8 with alphas) with its lexical shortlist and vocabulary, imported
// with `attend import` for Attend; the same lines in the same three ways as bench/bergamot_node.mjs.
// Each engine has its own page in its own browser context, so its own renderer process: per way,
// after a warm-up of 8 lines in each, the lines timed --repeat times (3), the pages alternating: each
// engine's least wall time and least CPU time of its page's main thread (DevTools ThreadTime); then
// each engine's memory: its wasm memory's bytes after loading and at the end (the most it held: wasm
// memory only grows), the most V8 heap its page used (DevTools Runtime.getHeapUsage, sampled after
// loading and after each way) and its renderer process's peak RSS (VmHWM).
// Serves the repository at /repo/ and the imported files at /scratch/ on 127.0.0.1, no other host.
// Prints one JSON object: {browser, lines, rows: [{dtype, way, beam, per_line, lines, bergamot_seconds,
// attend_seconds, speedup, same_lines, attend_relaxed_simd, bergamot_texts, attend_texts}], memory: {f32: {bergamot, attend}, int8}}.
//
//   node bench/bergamot_browser.mjs --cli ATTEND --folder tests/marian/fixtures/ssru-ende
//        --lines ../shared/data/multi30k/test_2016_flickr.en.gz [--limit N] [--repeat N] [--attend-js wasm/attend.mjs]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WAYS, marianFiles, readLines } from './bergamot_inputs.mjs';
import { serveFiles } from './local_files.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

const { values: args } = parseArgs({
  options: {
    cli: { type: 'string' }, folder: { type: 'string' }, lines: { type: 'string' }, limit: { type: 'string' },
    'attend-js': { type: 'string', default: fileURLToPath(new URL('../wasm/attend.mjs', import.meta.url)) },
    repeat: { type: 'string', default: '3' }, timeout: { type: 'string', default: '900' },
  },
});
if (!args.cli || !args.folder || !args.lines) {
  console.error('usage: node bench/bergamot_browser.mjs --cli ATTEND --folder MARIAN_DIR --lines TEXT[.gz] [--limit N] [--repeat N] [--attend-js PATH]');
  process.exit(2);
}

const lines = readLines(args.lines, args.limit);
const { vocab, shortlist, files: FILES } = marianFiles(args.folder);

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const scratch = mkdtempSync(join(tmpdir(), 'attend-bergamot-browser-'));
const { server, origin, urlOf } = await serveFiles({ repo, scratch });

const finiteOrNull = (kib) => (Number.isFinite(kib) ? kib : null);

// A renderer's peak resident set (VmHWM, KiB), or null where /proc does not say.
function peakRssKib(pid) {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  } catch {
    return null;
  }
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const rows = [];
const memory = {};
try {
  const browserCdp = await browser.newBrowserCDPSession();
  const renderers = async () => new Set((await browserCdp.send('SystemInfo.getProcessInfo')).processInfo
    .filter((p) => p.type === 'renderer').map((p) => p.id));

  // One engine in a page of its own context: {page, heapPeak(), pid}.
  async function open(load, config) {
    const before = await renderers();
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('console', (message) => { if (message.type() === 'error') console.error(`page: ${message.text()}`); });
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    page.on('response', (response) => { if (!response.ok()) console.error(`page: ${response.status()} ${response.url()}`); });
    await page.route((url) => !url.href.startsWith(origin), (route) => route.abort());
    await page.goto(`${origin}/repo/bench/web/bergamot.html`);
    await page.waitForFunction(() => window.benchReady === true, null, { timeout: 20_000 });
    page.setDefaultTimeout(Number(args.timeout) * 1000);
    const fresh = [...await renderers()].filter((pid) => !before.has(pid));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const threadTime = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value;
    let heapPeak = 0;
    const sample = async () => { heapPeak = Math.max(heapPeak, (await cdp.send('Runtime.getHeapUsage')).usedSize); };
    await page.evaluate((l) => window.bergamotBench.setLines(l), lines);
    const afterLoad = await page.evaluate(([name, c]) => window.bergamotBench[name](c), [load, config]);
    await sample();
    // Opening a page starts more than one renderer (a spare among them): the page's is the one that holds the engine,
    // the largest of those at the end.
    return { context, page, sample, threadTime, heapPeak: () => heapPeak, afterLoad, afterWays: [],
      peakRssKib: () => Math.max(...fresh.map(peakRssKib).filter((kib) => kib !== null)) };
  }

  for (const [dtype, file] of Object.entries(FILES)) {
    const imported = join(scratch, `${dtype}.safetensors`);
    execFileSync(args.cli, ['import', file.model, vocab, shortlist, '-o', imported], { stdio: 'ignore' });
    const engines = {
      bergamot: await open('loadBergamot', { model: urlOf(file.model), vocab: urlOf(vocab), shortlist: urlOf(shortlist),
        precision: file.precision }),
      attend: await open('loadAttend', { attendJs: urlOf(args['attend-js']), model: urlOf(imported) }),
    };
    for (const way of WAYS) {
      // Each engine's run --repeat times, the engines alternating (Bergamot first on even repeats): the least wall
      // time and the least CPU time of its page's main thread (DevTools ThreadTime), with its texts.
      const out = {};
      for (const engine of Object.values(engines)) await engine.page.evaluate((w) => window.bergamotBench.prepare(w), way);
      for (let r = 0; r < Number(args.repeat); ++r) {
        const names = Object.keys(engines);
        for (const name of r % 2 ? names.reverse() : names) {
          const engine = engines[name];
          const cpu = await engine.threadTime();
          const run = await engine.page.evaluate((w) => window.bergamotBench.run(w), way);
          run.cpu_seconds = await engine.threadTime() - cpu;
          out[name] = out[name] ? { ...out[name], seconds: Math.min(out[name].seconds, run.seconds),
            cpu_seconds: Math.min(out[name].cpu_seconds, run.cpu_seconds), runs: [...out[name].runs, run.seconds] }
            : { ...run, runs: [run.seconds] };
        }
      }
      for (const engine of Object.values(engines)) {
        await engine.page.evaluate(() => window.bergamotBench.finish());
        await engine.sample();
        engine.afterWays.push(await engine.page.evaluate(() => window.bergamotBench.memoryBytes()));
      }
      const row = { dtype, way: way.name, beam: way.beam, per_line: way.perLine, lines: lines.length,
        bergamot_seconds: out.bergamot.seconds, attend_seconds: out.attend.seconds,
        bergamot_cpu_seconds: out.bergamot.cpu_seconds, attend_cpu_seconds: out.attend.cpu_seconds,
        bergamot_runs: out.bergamot.runs, attend_runs: out.attend.runs,
        speedup: out.bergamot.seconds / out.attend.seconds,
        same_lines: lines.filter((_, i) => out.bergamot.texts[i] === out.attend.texts[i]).length,
        attend_relaxed_simd: await engines.attend.page.evaluate(() => window.bergamotBench.relaxedSimd()),
        bergamot_texts: out.bergamot.texts, attend_texts: out.attend.texts };
      console.error(`chromium ${dtype} ${way.name}: Bergamot ${row.bergamot_seconds.toFixed(2)} s, Attend ` +
                    `${row.attend_seconds.toFixed(2)} s (${row.speedup.toFixed(2)}x), ${row.same_lines}/${lines.length} the same`);
      rows.push(row);
    }
    memory[dtype] = {};
    for (const [name, engine] of Object.entries(engines)) {
      memory[dtype][name] = { engine: name, dtype, wasm_bytes_after_load: engine.afterLoad, wasm_bytes_after_each_way: engine.afterWays,
        wasm_bytes_peak: await engine.page.evaluate(() => window.bergamotBench.memoryBytes()),
        js_heap_used_peak: engine.heapPeak(), renderer_peak_rss_kib: finiteOrNull(engine.peakRssKib()) };
      console.error(`chromium ${dtype} memory of ${name}: ${JSON.stringify(memory[dtype][name])}`);
      await engine.context.close();
    }
  }
  process.stdout.write(JSON.stringify({ browser: `Chromium ${browser.version()}`, lines: lines.length, rows, memory }));
} finally {
  await browser.close();
  server.close();
  rmSync(scratch, { recursive: true, force: true });
}
