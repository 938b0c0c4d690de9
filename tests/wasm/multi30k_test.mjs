// The shipped model of a language pair on all 1000 lines of Multi30k test 2016: the
// WebAssembly build prints exactly what the native CLI prints, greedy and beam 5, for every
// models/<pair>/*.safetensors file. Skipped while the pair has no model file.
// The scalar build runs greedy only: its beam 5 takes ~10x the SIMD build's time (minutes),
// and parity_test.mjs already checks its beam search.
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

// Lists every line that differs (up to 5), not only the first.
function assertSameLines(actual, expected) {
  const differing = expected.flatMap((line, i) => (actual[i] === line ? [] : [i]));
  assert.ok(differing.length === 0, `${differing.length} of ${expected.length} lines differ:\n` +
    differing.slice(0, 5).map((i) => `  line ${i + 1}: ${lines[i]}\n    native: ${expected[i]}\n    wasm:   ${actual[i]}`).join('\n'));
}

for (const file of files) {
  const model = join(directory, file);
  for (const beam of [1, 5]) {
    describe(`${pair}/${file}, beam ${beam}`, () => {
      const native = cliTranslate(model, lines, ['--beam', String(beam)]);
      for (const variant of VARIANTS.filter((v) => v.simd || beam === 1)) {
        it(`${variant.name} build: the CLI's 1000 translations`, async () => {
          const translator = await Translator.load(model, { simd: variant.simd });
          const results = await translator.translate(lines, { beam });
          assertSameLines(results.map((r) => r.text), native);
          translator.dispose();
        });
      }
    });
  }
}
