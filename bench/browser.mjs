// Runs bench/web/ in Debian's Chromium (headless, through playwright-core): Attend's WebAssembly
// build and onnxruntime-web on the same sentences and weights. Serves the repository at /repo/,
// the scratch folder (the ONNX export) at /scratch/ and the model file on 127.0.0.1, no other host.
// Prints one JSON object: {browser, userAgent, engines: {name: {runs, ids, load_ms, version}}}.
//
//   node bench/browser.mjs --scratch DIR --model FILE --onnx DIR --ids FILE --texts FILE --options JSON
//                          [--model-int8 FILE: adds Attend on it, with int8 weights only and with
//                           int8 activations (as the page loads it)]
//                          [--settings 1:1,1:32,5:1] [--warmup N]
//                          [--engines attend-wasm,onnxruntime-web]
//   node bench/browser.mjs --scratch DIR --model FILE --texts FILE --options JSON --document FILE
//                          [--beams 1,5] [--repeat N] [--warmup N]
//     instead: translateDocument on the document (its sentences: the --texts lines) against
//     translate() on the lines, and planDocument alone, interleaved --repeat times, each pass's
//     wall time, the page thread's CPU time (DevTools Performance.getMetrics ThreadTime) and the
//     document pass's time waiting for its setTimeout callbacks;
//     prints {browser, int8_activations, plan, runs} (bench/web/bench.mjs, documentBench).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { serveFiles } from './local_files.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

const { values: args } = parseArgs({
  options: {
    scratch: { type: 'string' }, model: { type: 'string' }, 'model-int8': { type: 'string' }, onnx: { type: 'string' },
    ids: { type: 'string' }, texts: { type: 'string' },
    settings: { type: 'string', default: '1:1,1:32,5:1' }, options: { type: 'string' },
    warmup: { type: 'string', default: '8' }, engines: { type: 'string', default: 'attend-wasm,onnxruntime-web' },
    timeout: { type: 'string', default: '900' },
    document: { type: 'string' }, beams: { type: 'string', default: '1,5' }, repeat: { type: 'string', default: '5' },
  },
});
const required = args.document ? ['scratch', 'model', 'texts', 'options'] : ['scratch', 'model', 'onnx', 'ids', 'texts', 'options'];
for (const name of required) {
  if (!args[name]) {
    console.error(`usage: node bench/browser.mjs --scratch DIR --model FILE --onnx DIR --ids FILE --texts FILE --options JSON (missing --${name})`);
    process.exit(2);
  }
}

const repo = fileURLToPath(new URL('..', import.meta.url));
const roots = { repo: resolve(repo), scratch: resolve(args.scratch) };
// /model.safetensors is --model, /model.int8.safetensors --model-int8.
const { server, origin } = await serveFiles(roots, (urlPath) => {
  if (urlPath === '/model.safetensors') return resolve(args.model);
  if (urlPath === '/model.int8.safetensors' && args['model-int8']) return resolve(args['model-int8']);
  return null;
});
const scratchUrl = (file) => `${origin}/scratch/${relative(roots.scratch, resolve(file)).split(sep).join('/')}`;

// The document step: each pass is one page.evaluate, between two readings of the page thread's
// CPU time, the order of the three alternating from one repeat to the next.
async function documentBench(page, texts, options) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const threadTime = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value;
  const report = await page.evaluate((c) => window.documentBench.load(c), {
    model: `${origin}/model.safetensors`, texts, document: readFileSync(args.document, 'utf8'), options,
  });
  report.runs = [];
  for (const beam of args.beams.split(',').map(Number)) {
    await page.evaluate(([b, n]) => window.documentBench.warmup(b, n), [beam, Number(args.warmup)]);
    const run = { name: `beam${beam}_batch32_threads1`, beam, batch: 32, threads: 1, sentences: texts.length,
      line_seconds: [], document_seconds: [], cut_seconds: [], line_cpu_seconds: [], document_cpu_seconds: [],
      cut_cpu_seconds: [], document_wait_seconds: [] };
    for (let r = 0; r < Number(args.repeat); ++r) {
      for (const kind of r % 2 === 0 ? ['line', 'document', 'cut'] : ['cut', 'document', 'line']) {
        const cpuStart = await threadTime();
        const { seconds, waited } = await page.evaluate(([k, b]) => window.documentBench.pass(k, b), [kind, beam]);
        run[`${kind}_cpu_seconds`].push(await threadTime() - cpuStart);
        run[`${kind}_seconds`].push(seconds);
        if (kind === 'document') run.document_wait_seconds.push(waited);
      }
    }
    Object.assign(run, await page.evaluate(() => window.documentBench.compare()));
    report.runs.push(run);
  }
  await page.evaluate(() => window.documentBench.dispose());
  return report;
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  page.on('console', (message) => { if (message.type() === 'error') console.error(`page: ${message.text()}`); });
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  // Only this server: anything else would be a CDN or the network, which the benchmark must not use.
  await page.route((url) => !url.href.startsWith(origin), (route) => route.abort());
  await page.goto(`${origin}/repo/bench/web/index.html`);
  await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60_000 });
  page.setDefaultTimeout(Number(args.timeout) * 1000);
  const texts = readFileSync(args.texts, 'utf8').split('\n').slice(0, -1);
  const options = JSON.parse(args.options); // length_penalty, max_length, max_length_ratio (from bench/run.py)
  let report;
  if (args.document) {
    report = await documentBench(page, texts, options);
  } else {
    const config = {
      model: `${origin}/model.safetensors`, onnx: scratchUrl(args.onnx),
      int8Model: args['model-int8'] ? `${origin}/model.int8.safetensors` : null,
      texts, sources: JSON.parse(readFileSync(args.ids, 'utf8')).sources,
      settings: args.settings.split(',').map((s) => s.split(':').map(Number)),
      options, warmup: Number(args.warmup),
      engines: [...args.engines.split(','),
        ...(args['model-int8'] ? ['attend-wasm-int8-weights', 'attend-wasm-int8-activations'] : [])],
    };
    if (config.texts.length !== config.sources.length) {
      throw new Error(`${args.texts} has ${config.texts.length} lines but ${args.ids} has ${config.sources.length} sources`);
    }
    report = await page.evaluate((c) => window.runBench(c), config);
  }
  report.browser = `Chromium ${browser.version()}`;
  process.stdout.write(JSON.stringify(report));
} finally {
  await browser.close();
  server.close();
}
