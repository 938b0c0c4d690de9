// The shipped model of a language pair on all 1000 lines of Multi30k test 2016: the
// WebAssembly build (int8Activations: false, as the CLI's default) prints exactly what the
// native CLI prints, greedy and beam 5, for every
// models/<pair>/*.safetensors file, and with int8 activations for the int8 files (beam 5,
// SIMD build, where the native CLI can; a few lines may differ, see below). Skipped while the
// pair has no model file.
// translate() takes each line as one sentence, so the CLI runs with --no-split (cut into sentences,
// a line would keep the spaces around it: a few French test lines begin or end with one).
// The scalar build runs greedy only, on the pair's default file (model.int8.safetensors): its beam
// 5 takes ~10x the SIMD build's time (minutes), its kernels are the same for every file, and
// parity_test.mjs already checks its beam search.
//   node multi30k_test.mjs en-de
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { MODELS, MULTI30K, Translator, VARIANTS, cliTranslate, skip } from './common.mjs';

const pair = process.argv[2];
const source = pair.split('-')[0];
const directory = join(MODELS, pair);
const files = existsSync(directory) ? readdirSync(directory).filter((f) => f.endsWith('.safetensors')).sort() : [];
if (files.length === 0) skip(`no model file in ${directory}`);

const lines = gunzipSync(readFileSync(join(MULTI30K, `test_2016_flickr.${source}.gz`)))
  .toString('utf8').split('\n').slice(0, -1);
assert.equal(lines.length, 1000);

// With int8 activations, a last-bit difference in a layer's input (from the other kernels,
// which round differently per ISA) can move a value across a rounding boundary and so tip a
// near-tie: a few lines may differ (measured at beam 5: en-de 3, de-en 13 of 1000, en-fr and
// fr-en at most 10); a broken kernel changes most lines.
const INT8_ACTIVATIONS_MAY_DIFFER = 25;

// Lists every line that differs (up to 5), not only the first.
function assertSameLines(actual, expected, allowed = 0) {
  const differing = expected.flatMap((line, i) => (actual[i] === line ? [] : [i]));
  assert.ok(differing.length <= allowed, `${differing.length} of ${expected.length} lines differ (${allowed} allowed):\n` +
    differing.slice(0, 5).map((i) => `  line ${i + 1}: ${lines[i]}\n    native: ${expected[i]}\n    wasm:   ${actual[i]}`).join('\n'));
}

for (const file of files) {
  const model = join(directory, file);
  if (file.includes('int8')) {
    describe(`${pair}/${file}, beam 5, int8 activations`, () => {
      it('SIMD build: the CLI\'s 1000 translations with --int8-activations', async () => {
        const expected = cliTranslate(model, lines, ['--beam', '5', '--int8-activations', '--no-split']);
        const translator = await Translator.load(model, { simd: true, int8Activations: true });
        assert.equal(translator.info().int8Activations, true);
        const results = await translator.translate(lines, { beam: 5 });
        assertSameLines(results.map((r) => r.text), expected, INT8_ACTIVATIONS_MAY_DIFFER);
        translator.dispose();
      });
    });
  }
  for (const beam of [1, 5]) {
    describe(`${pair}/${file}, beam ${beam}`, () => {
      const native = cliTranslate(model, lines, ['--beam', String(beam), '--no-split']);
      // The scalar build's kernels do not depend on the file: it runs greedy on the pair's default.
      const scalarToo = beam === 1 && file === 'model.int8.safetensors';
      for (const variant of VARIANTS.filter((v) => v.simd || scalarToo)) {
        it(`${variant.name} build: the CLI's 1000 translations`, async () => {
          const translator = await Translator.load(model, { simd: variant.simd, int8Activations: false });
          const results = await translator.translate(lines, { beam });
          assertSameLines(results.map((r) => r.text), native);
          translator.dispose();
        });
      }
    });
  }
}
