// Several model files loaded as one Translator (an ensemble, attend::Model::ensemble): one file
// in an array and two copies of it translate as the model; the tiny models of two shapes at
// weights 3:1 translate as the native CLI's ensemble of them; another vocabulary is refused.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { AttendError, MODELS, TINY, Translator, VARIANTS, cliAttention, cliTranslate, tinyModel } from './common.mjs';

const SENTENCES = ['A dog runs.', 'Two children are playing in the snow near a red house.', 'A man rides a bike.'];
const narrow = join(TINY, 'tiny.f32.safetensors');  // 2 heads, 64 positions: first, as the fewest positions must be

async function texts(translator, options = {}) {
  return (await translator.translate(SENTENCES, options)).map((t) => t.hypotheses[0].text);
}

for (const variant of VARIANTS) {
  describe(`ensembles, ${variant.name} build`, () => {
    it('of one file and of two copies translate as the model', async () => {
      const single = await Translator.load(tinyModel('f32'), { simd: variant.simd });
      const one = await Translator.load([tinyModel('f32')], { simd: variant.simd });
      const two = await Translator.load([tinyModel('f32'), tinyModel('f32')], { simd: variant.simd });
      assert.equal(two.info().members, 2);
      for (const options of [{}, { beam: 4 }]) {
        const want = await texts(single, options);
        assert.deepEqual(await texts(one, options), want);
        assert.deepEqual(await texts(two, options), want);
      }
      for (const t of [single, one, two]) t.dispose();
    });

    it('of two shapes translate as the native ensemble, the chosen member\'s attention shown', async () => {
      const both = await Translator.load([narrow, tinyModel('f32')], { simd: variant.simd, weights: [3, 1], attentionMember: 1 });
      const want = cliTranslate(narrow, SENTENCES, ['--model', tinyModel('f32'), '--weights', '3,1', '--no-split']);
      assert.deepEqual(await texts(both), want);
      const [withMaps] = await both.translate([SENTENCES[0]], { attention: true });
      assert.equal(withMaps.attention.cross.shape[1], 4);  // the 4-head member's
      assert.equal(withMaps.attention.attentionMember, 1);
      assert.deepEqual(withMaps.attention.members.map((m) => m.cross.shape[1]), [2, 4], 'every member\'s maps');
      for (const kind of ['encoder', 'decoder', 'cross']) {
        assert.deepEqual(withMaps.attention.members[1][kind], withMaps.attention[kind], `${kind}: the shown member's`);
      }
      // The native CLI's record of the same ensemble holds the same members' maps.
      const native = cliAttention(narrow, SENTENCES[0], ['--model', tinyModel('f32'), '--weights', '3,1', '--attention-member', '2']);
      assert.equal(native.attention_member, 2);
      native.members.forEach((member, m) => {
        const flat = member.attention.cross.flat(3);
        const wasm = withMaps.attention.members[m].cross.data;
        assert.equal(wasm.length, flat.length);
        assert.ok(flat.every((value, i) => Math.abs(value - wasm[i]) < 1e-4), `member ${m + 1}: cross-attention as the CLI's`);
      });
      both.dispose();
    });

    it('refuses another vocabulary and wrong weights', async () => {
      await assert.rejects(Translator.load([narrow, join(MODELS, 'en-de', 'model.int8.safetensors')], { simd: variant.simd }),
        (e) => e instanceof AttendError && e.code === 'invalid_argument' && /vocabular/.test(e.message));
      await assert.rejects(Translator.load([narrow, narrow], { simd: variant.simd, weights: [1] }),
        (e) => e instanceof AttendError && e.code === 'invalid_argument');
      await assert.rejects(Translator.load([narrow, narrow], { simd: variant.simd, weights: [1, -1] }),
        (e) => e instanceof AttendError && e.code === 'invalid_argument');
    });
  });
}
