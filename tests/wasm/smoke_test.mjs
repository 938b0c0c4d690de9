// Smoke test of the WebAssembly build on the tiny random model: the same tokens as the PyTorch
// reference (greedy), consistent attention maps, onToken, n-best, batches, head masks.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, before, after } from 'node:test';

import { AttendError, TINY, Translator, VARIANTS, tinyModel } from './common.mjs';

const reference = JSON.parse(readFileSync(join(TINY, 'reference.json'), 'utf8'));
const SENTENCE = reference.sentences[1];

// Σ over the last axis of every row is 1 (probabilities).
function assertRowsSumToOne({ data, shape }) {
  const width = shape.at(-1);
  for (let row = 0; row < data.length / width; ++row) {
    const sum = data.subarray(row * width, (row + 1) * width).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-4, `row ${row} sums to ${sum}`);
  }
}

for (const variant of VARIANTS) {
  describe(`tiny model, ${variant.name} build`, () => {
    let translator;
    before(async () => {
      const progress = [];
      translator = await Translator.load(tinyModel('f32'), { simd: variant.simd, onProgress: (p) => progress.push(p) });
      assert.ok(progress.length > 0 && progress.at(-1).loaded === progress.at(-1).total);
    });
    after(() => translator.dispose());

    it('describes the model', () => {
      const info = translator.info();
      assert.equal(info.simd, variant.simd);
      assert.equal(info.kernels, variant.simd ? 'wasm_simd128' : 'scalar');
      assert.equal(info.dtype, 'f32');
      assert.deepEqual([info.config.dModel, info.config.numHeads, info.config.encoderLayers, info.config.decoderLayers],
        [32, 4, 2, 2]);
      assert.deepEqual([info.srcVocabSize, info.tgtVocabSize], [200, 180]);
      assert.equal(info.fileBytes, readFileSync(tinyModel('f32')).length);
      assert.ok(info.parameterCount > 50000);
    });

    it('decodes the tokens the PyTorch reference decodes (greedy)', async () => {
      const results = await translator.translate(reference.sentences);
      results.forEach((result, i) => {
        const expected = reference.greedy[i];
        assert.deepEqual(result.sourceIds, expected.source_ids, `source ids of sentence ${i}`);
        assert.deepEqual(result.ids, expected.ids, `target ids of sentence ${i}`);
        assert.ok(Math.abs(result.score - expected.score) < 1e-3, `score ${result.score} vs ${expected.score}`);
        assert.equal(result.pieces.length, result.ids.length);
        assert.equal(result.hypotheses.length, 1);
        assert.equal(result.text, result.hypotheses[0].text);
      });
    });

    it('translates a batch as it translates each sentence', async () => {
      const batch = await translator.translate(reference.sentences.slice(0, 3), { beam: 5 });
      for (const [i, sentence] of reference.sentences.slice(0, 3).entries()) {
        assert.deepEqual(batch[i], await translator.translate(sentence, { beam: 5 }));
      }
    });

    it('captures attention maps with consistent shapes', async () => {
      const result = await translator.translate(SENTENCE, { attention: true });
      const a = result.attention;
      const S = result.sourceIds.length;
      const T = result.ids.length + (result.hypotheses[0].endedWithEos ? 1 : 0);
      assert.deepEqual(a.encoder.shape, [2, 4, S, S]);
      assert.deepEqual(a.decoder.shape, [2, 4, T, T]);
      assert.deepEqual(a.cross.shape, [2, 4, T, S]);
      assert.deepEqual(a.sourcePieces, result.sourcePieces);
      assert.deepEqual(a.targetPieces.slice(0, result.pieces.length), result.pieces);
      assert.equal(a.targetInputPieces.length, T);
      for (const kind of ['encoder', 'decoder', 'cross']) {
        assert.ok(a[kind].data instanceof Float32Array);
        assertRowsSumToOne(a[kind]);
      }
      for (let t = 0; t < T; ++t) {  // causal: no attention to later target positions
        for (let u = t + 1; u < T; ++u) assert.equal(a.decoder.data[t * T + u], 0);
      }
      assert.equal((await translator.translate(SENTENCE)).attention, undefined);
    });

    it('reports every generated token to onToken, with its cross-attention', async () => {
      const steps = [];
      const result = await translator.translate(SENTENCE, { attention: true, onToken: (s) => { steps.push(s); } });
      const generated = result.ids.length + (result.hypotheses[0].endedWithEos ? 1 : 0);
      assert.equal(steps.length, generated);
      assert.deepEqual(steps.map((s) => s.step), [...Array(generated).keys()]);
      assert.deepEqual(steps.slice(0, result.ids.length).map((s) => s.token), result.ids);
      assert.deepEqual(steps.slice(0, result.ids.length).map((s) => s.piece), result.pieces);
      const S = result.sourceIds.length;
      const last = steps.at(-1).crossAttention;
      assert.deepEqual(last.shape, [2, 4, S]);
      const T = result.attention.cross.shape[2];
      // The step's cross-attention is the last row of the final maps (layer 0, head 0).
      assert.deepEqual(last.data.subarray(0, S), result.attention.cross.data.subarray((T - 1) * S, T * S));
    });

    it('stops when onToken returns false, and rethrows what onToken throws', async () => {
      await assert.rejects(translator.translate(SENTENCE, { onToken: (s) => s.step < 2 }),
        (e) => e instanceof AttendError && e.code === 'cancelled');
      const thrown = new Error('from the callback');
      await assert.rejects(translator.translate(SENTENCE, { onToken: () => { throw thrown; } }), (e) => e === thrown);
      assert.deepEqual((await translator.translate(reference.sentences[0])).ids, reference.greedy[0].ids);
    });

    it('returns n-best hypotheses best first', async () => {
      const result = await translator.translate(SENTENCE, { beam: 5, nbest: 3 });
      assert.equal(result.hypotheses.length, 3);
      const scores = result.hypotheses.map((h) => h.score);
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
      assert.equal(result.score, scores[0]);
    });

    it('masks heads', async () => {
      const allCross = [0, 1].flatMap((layer) => [0, 1, 2, 3].map((head) => ({ kind: 'cross', layer, head })));
      const masked = await translator.translate(SENTENCE, { maskedHeads: allCross, attention: true });
      const plain = await translator.translate(SENTENCE, { attention: true });
      // Masking cross heads leaves the encoder untouched and changes what the decoder sees.
      assert.deepEqual(masked.attention.encoder.data, plain.attention.encoder.data);
      assert.notDeepEqual(masked.attention.decoder.data, plain.attention.decoder.data);
    });

    it('reads int8 models', async () => {
      const int8 = await Translator.load(tinyModel('int8'), { simd: variant.simd });
      assert.equal(int8.info().dtype, 'int8');
      assert.equal(int8.info().int8Activations, true, "int8Activations: 'auto' by default");
      assert.ok((await int8.translate(SENTENCE)).ids.length > 0);
      int8.dispose();
    });
  });
}
