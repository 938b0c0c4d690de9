// Attend's SIMD build with and without the relaxed-SIMD int8 product (wasm/relaxed/) on one model
// file, alternating, the least of 3 runs each, in one Node process: the figure docs/benchmarks.md
// quotes for Node with the flag. Prints one line per way: the two times, their ratio, whether the
// lines are the same.
//   node --experimental-wasm-relaxed-simd bench/relaxed_simd_ab.mjs MODEL.safetensors [ATTEND_JS] [LINES]
import { pathToFileURL } from 'node:url';

import { readLines } from './bergamot_inputs.mjs';

const [model, attendJs = new URL('../wasm/attend.mjs', import.meta.url).pathname, count = '300'] = process.argv.slice(2);
const lines = readLines(new URL('../../shared/data/multi30k/test_2016_flickr.en.gz', import.meta.url).pathname, Number(count));
const { Translator } = await import(pathToFileURL(attendJs).href);
const engines = {
  relaxed: await Translator.load(model, { simd: true, int8Activations: false }),
  own: await Translator.load(model, { simd: true, int8Activations: false, relaxedSimd: false }),
};
if (!engines.relaxed.info().relaxedSimd) throw new Error('relaxed SIMD not taken: run node with --experimental-wasm-relaxed-simd');
const WAYS = {
  'greedy, one sentence per call': async (t) => { const out = []; for (const l of lines) out.push((await t.translate(l)).text); return out; },
  'greedy, the whole file in one call': async (t) => (await t.translate(lines)).map((r) => r.text),
  'beam 4, one sentence per call': async (t) => { const out = []; for (const l of lines) out.push((await t.translate(l, { beam: 4 })).text); return out; },
};
for (const [way, run] of Object.entries(WAYS)) {
  const best = {}, texts = {};
  for (const t of Object.values(engines)) await t.translate(lines.slice(0, 8));
  for (let r = 0; r < 3; ++r) {
    for (const [name, t] of Object.entries(engines)) {
      const start = performance.now();
      texts[name] = await run(t);
      best[name] = Math.min(best[name] ?? Infinity, performance.now() - start);
    }
  }
  const same = texts.relaxed.filter((text, i) => text === texts.own[i]).length;
  console.log(`${way}: relaxed ${best.relaxed.toFixed(0)} ms, without ${best.own.toFixed(0)} ms, ` +
              `${(best.own / best.relaxed).toFixed(2)}x, ${same}/${lines.length} lines the same`);
}
