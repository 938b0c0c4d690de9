// Attend's WebAssembly against Bergamot's (npm @browsermt/bergamot-translator 0.4.9: Marian in
// WebAssembly) on the same Marian files, in Node, one thread each (issue 65): each file imported
// with `attend import`, both translating the same lines in the same three ways: greedy one
// sentence per call, greedy the whole file in one call, beam 4 one sentence per call; f32 and
// int8. Reports seconds, the ratio (Bergamot's time / Attend's: above 1, Attend is faster) and
// how many lines came out the same, as one JSON object on stdout.
//
//   node bench/bergamot_node.mjs --cli build/release/native/cli/attend --folder tests/marian/fixtures/ssru-ende
//        --lines ../shared/data/multi30k/test_2016_flickr.en.gz [--limit N]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';

import { Translator } from '../wasm/attend.mjs';
import { createModel, loadBergamot } from '../tests/marian/bergamot.mjs';

const { values: args } = parseArgs({
  options: { cli: { type: 'string' }, folder: { type: 'string' }, lines: { type: 'string' }, limit: { type: 'string' } },
});
if (!args.cli || !args.folder || !args.lines) {
  console.error('usage: node bench/bergamot_node.mjs --cli ATTEND --folder MARIAN_DIR --lines TEXT[.gz] [--limit N]');
  process.exit(2);
}
const text = args.lines.endsWith('.gz') ? gunzipSync(readFileSync(args.lines)).toString('utf8') : readFileSync(args.lines, 'utf8');
const lines = text.split('\n').filter((line) => line.length).slice(0, args.limit ? Number(args.limit) : undefined);
const names = readdirSync(args.folder);
const vocab = join(args.folder, names.find((n) => n.startsWith('vocab.') && n.endsWith('.spm')));
const files = {
  f32: { model: names.find((n) => /^model\..*\.bin$/.test(n) && !n.includes('intgemm')), precision: 'float32' },
  int8: { model: names.find((n) => /^model\..*intgemm.*\.bin$/.test(n)), precision: 'int8shiftAlphaAll' },
};
const ways = [
  { name: 'greedy, one sentence per call', beam: 1, perLine: true },
  { name: 'greedy, the whole file in one call', beam: 1, perLine: false },
  { name: 'beam 4, one sentence per call', beam: 4, perLine: true },
];

async function timed(run) {
  const start = performance.now();
  const out = await run();
  return { seconds: (performance.now() - start) / 1000, out };
}

const scratch = mkdtempSync(join(tmpdir(), 'attend-bergamot-bench-'));
const rows = [];
try {
  const bergamot = await loadBergamot();
  for (const [dtype, file] of Object.entries(files)) {
    const marian = join(args.folder, file.model);
    const imported = join(scratch, `${dtype}.safetensors`);
    execFileSync(args.cli, ['import', marian, vocab, '-o', imported], { stdio: 'ignore' });
    const attend = await Translator.load(imported, { int8Activations: false });
    for (const way of ways) {
      const model = createModel(bergamot, { model: readFileSync(marian), vocab: readFileSync(vocab) },
        { beamSize: way.beam, gemmPrecision: file.precision });
      model.translate(lines.slice(0, 8), { perLine: true });  // warm-up: Bergamot builds its graph on the first call
      await attend.translate(lines.slice(0, 8), { beam: way.beam });
      const theirs = await timed(() => model.translate(lines, { perLine: way.perLine }));
      const ours = await timed(async () => {
        if (!way.perLine) return (await attend.translate(lines, { beam: way.beam })).map((r) => r.text);
        const out = [];
        for (const line of lines) out.push((await attend.translate(line, { beam: way.beam })).text);
        return out;
      });
      model.delete();
      const same = lines.filter((_, i) => theirs.out[i] === ours.out[i]).length;
      const row = { dtype, way: way.name, lines: lines.length, bergamot_seconds: theirs.seconds,
        attend_seconds: ours.seconds, speedup: theirs.seconds / ours.seconds, same_lines: same };
      console.error(`${dtype} ${way.name}: Bergamot ${theirs.seconds.toFixed(2)} s, Attend ${ours.seconds.toFixed(2)} s ` +
                    `(${row.speedup.toFixed(2)}x), ${same}/${lines.length} lines the same`);
      rows.push(row);
    }
    attend.dispose?.();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(JSON.stringify({ node: process.version, threads: 1, rows }, null, 1));
