// WebAssembly vs native: the tiny models' translations by wasm/attend.mjs (SIMD and scalar
// builds) are the ones the native `attend translate` CLI prints, greedy and beam 5 (5-best).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { TINY, Translator, VARIANTS, cliTranslate, parseNbest, tinyModel } from './common.mjs';

const sentences = readFileSync(join(TINY, 'sentences.txt'), 'utf8').split('\n').slice(0, -1);
const SCORE_TOLERANCE = 1e-3;  // the CLI prints scores with 6 decimals; f32 sums differ in the last bits

for (const dtype of ['f32', 'int8']) {
  const model = tinyModel(dtype);
  const nativeGreedy = cliTranslate(model, sentences);
  const nativeBeam = parseNbest(cliTranslate(model, sentences, ['--beam', '5', '--nbest', '5']), sentences.length);
  for (const variant of VARIANTS) {
    describe(`${dtype} model, ${variant.name} build`, () => {
      it('greedy: the same translations as the CLI', async () => {
        const translator = await Translator.load(model, { simd: variant.simd });
        const results = await translator.translate(sentences);
        assert.deepEqual(results.map((r) => r.text), nativeGreedy);
        translator.dispose();
      });

      it('beam 5: the same 5 best hypotheses and scores as the CLI', async () => {
        const translator = await Translator.load(model, { simd: variant.simd });
        const results = await translator.translate(sentences, { beam: 5, nbest: 5 });
        results.forEach((result, i) => {
          assert.deepEqual(result.hypotheses.map((h) => h.text), nativeBeam[i].map((h) => h.text), `sentence ${i}`);
          result.hypotheses.forEach((h, k) => {
            assert.ok(Math.abs(h.score - nativeBeam[i][k].score) < SCORE_TOLERANCE,
              `sentence ${i} hypothesis ${k}: score ${h.score} vs ${nativeBeam[i][k].score}`);
          });
        });
        translator.dispose();
      });
    });
  }
}
