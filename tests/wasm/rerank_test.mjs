// A reverse model (Translator.load's reverse) reranks the beam as the native CLI's --rerank-with:
// the shipped en-de model reranked by de-en at beam 5 gives the CLI's 5 best texts and scores, in
// order, and its pieces, on both builds and on a TranslatorPool; each hypothesis carries the reverse
// model's score, in the reranked score's formula; greedy is refused unless rerank: false; a reverse
// file that fails names itself. Skipped while models/en-de or models/de-en has no int8 model.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { TranslatorPool } from '../../wasm/pool.mjs';
import { AttendError, MODELS, Translator, VARIANTS, cliAttention, cliTranslate, parseNbest, skip } from './common.mjs';

const EN_DE = join(MODELS, 'en-de', 'model.int8.safetensors');
const DE_EN = join(MODELS, 'de-en', 'model.int8.safetensors');
if (!existsSync(EN_DE) || !existsSync(DE_EN)) skip(`needs ${EN_DE} and ${DE_EN}`);

// Multi30k test 2016 lines 1, 9, 16, 31, 44, 60: reranking changes the best of all but the first;
// the last's beam holds an empty hypothesis, which the reverse model cannot read (score -inf).
const SENTENCES = [
  'Two young, White males are outside near many bushes.',
  'A guy works on a building.',
  'A girl in a jean dress is walking along a raised balance beam.',
  'Six people ride mountain bikes through a jungle environment.',
  'A kid swings with his feet up in the air in a forest.',
  'Two men wearing hats and using walking sticks are walking near a body of water during sundown.',
];
const CLI_SEARCH = ['--beam', '5', '--int8-activations', '--no-split'];  // attend.mjs loads int8 files with int8 activations
const RERANK = ['--rerank-with', DE_EN];
// With int8 activations a last-bit difference in a layer's input can move one quantized value by
// a step, and a score by a few thousandths (parity_test.mjs; measured here: 3.1e-3).
const SCORE_TOLERANCE = 2e-2;
const WEIGHT = 0.3;  // the core's default reverse weight
const lengthPenalty = (tokens, alpha = 1) => ((5 + tokens) / 6) ** alpha;

const nativeNbest = parseNbest(cliTranslate(EN_DE, SENTENCES, [...CLI_SEARCH, '--nbest', '5', ...RERANK]), SENTENCES.length)
  .map((hypotheses) => hypotheses.map(({ text, score }) => ({ text, score: Number.isNaN(score) ? -Infinity : score })));  // '-inf'
const nativePlain = cliTranslate(EN_DE, SENTENCES, CLI_SEARCH);
const nativePieces = SENTENCES.map((sentence) => cliAttention(EN_DE, sentence, ['--beam', '5', '--int8-activations', ...RERANK]).target_tokens);

function assertAsTheCli(results) {
  results.forEach((result, i) => {
    assert.equal(result.reranked, true);
    assert.deepEqual(result.hypotheses.map((h) => h.text), nativeNbest[i].map((h) => h.text), `sentence ${i}: the 5 best in order`);
    result.hypotheses.forEach((h, k) => {
      const want = nativeNbest[i][k].score;
      assert.ok(h.score === want || Math.abs(h.score - want) < SCORE_TOLERANCE, `sentence ${i}, hypothesis ${k}: ${h.score} vs ${want}`);
    });
    const withEos = [...result.pieces, ...(result.hypotheses[0].endedWithEos ? ['</s>'] : [])];
    assert.deepEqual(withEos, nativePieces[i], `sentence ${i}: the pieces of the CLI's best`);
  });
}

describe('the native reference', () => {
  it('reranking changes the CLI\'s best translation of all sentences but the first', () => {
    const best = nativeNbest.map((hypotheses) => hypotheses[0].text);
    assert.deepEqual(best.map((text, i) => text !== nativePlain[i]), [false, true, true, true, true, true]);
  });
});

for (const variant of VARIANTS) {
  describe(`reranking by a reverse model, ${variant.name} build`, () => {
    it('beam 5: the CLI\'s --rerank-with translations, scores and pieces; each hypothesis\' reverse score', async () => {
      const translator = await Translator.load(EN_DE, { simd: variant.simd, reverse: DE_EN });
      assert.equal(translator.info().reverse.dtype, 'int8');
      assert.equal(translator.info().reverse.int8Activations, true, 'loaded as the model is');
      const results = await translator.translate(SENTENCES, { beam: 5, nbest: 5 });
      assertAsTheCli(results);
      const unreadable = results.flatMap((result) => result.hypotheses).filter((h) => h.reverse === null);
      assert.deepEqual(unreadable.map((h) => [h.text, h.score]), [['', -Infinity]], 'the empty hypothesis, ranked last');
      for (const h of results.flatMap((result) => result.hypotheses).filter((h) => h.reverse !== null)) {
        assert.ok(h.reverse.logProb < 0 && h.reverse.tokens > 0, JSON.stringify(h.reverse));
        const reranked = h.logProb / lengthPenalty(h.tokens) + WEIGHT * h.reverse.logProb / lengthPenalty(h.reverse.tokens);
        assert.ok(Math.abs(h.score - reranked) < 1e-4, `${h.text}: ${h.score} vs ${reranked}`);
      }
      // One sentence, as the page asks: the same best; a document reranks its sentences too.
      assert.equal((await translator.translate(SENTENCES[2], { beam: 5 })).text, nativeNbest[2][0].text);
      const document = await translator.translateDocument(SENTENCES.slice(1, 3).join(' '), { beam: 5 });
      assert.equal(document.text, `${nativeNbest[1][0].text} ${nativeNbest[2][0].text}`);
      translator.dispose();
    });

    it('rerank: false translates as the model alone; greedy needs it', async () => {
      const translator = await Translator.load(EN_DE, { simd: variant.simd, reverse: DE_EN });
      const plain = await translator.translate(SENTENCES, { beam: 5, rerank: false });
      assert.deepEqual(plain.map((result) => result.text), nativePlain);
      assert.ok(plain.every((result) => result.reranked === false && result.hypotheses.every((h) => !('reverse' in h))));
      await assert.rejects(translator.translate(SENTENCES[0]),
        (e) => e instanceof AttendError && e.code === 'invalid_argument' && /beam 2 or more, or rerank: false/.test(e.message));
      const greedy = await translator.translate(SENTENCES[0], { rerank: false });
      assert.equal(greedy.reranked, false);
      assert.equal(greedy.text, cliTranslate(EN_DE, [SENTENCES[0]], ['--int8-activations', '--no-split'])[0]);
      translator.dispose();
      const weightless = await Translator.load(EN_DE, { simd: variant.simd, reverse: DE_EN, reverseWeight: 0 });
      const kept = await weightless.translate(SENTENCES, { beam: 5 });
      assert.ok(kept.every((result) => result.reranked), 'reranked, at weight 0');
      assert.deepEqual(kept.map((result) => result.text), nativePlain, 'weight 0 keeps the search\'s order');
      weightless.dispose();
    });
  });
}

// An AttendError of the reverse model named `name` once, its reverseDetail the rest of the message.
const namedReverseError = (code, name) => (e) => e instanceof AttendError && e.code === code
  && e.message === `the reverse model (${name}): ${e.reverseDetail}` && !e.reverseDetail.includes('the reverse model (');

describe('reranking: errors and the pool', () => {
  it('a reverse file that cannot be read or is no model names itself; rerank without one is refused', async () => {
    const missing = join(MODELS, 'de-en', 'no-such-file.safetensors');
    await assert.rejects(Translator.load(EN_DE, { reverse: missing }), namedReverseError('io', missing));
    await assert.rejects(Translator.load(EN_DE, { reverse: new Uint8Array(64) }), namedReverseError('invalid_model', '64 bytes'));
    const alone = await Translator.load(EN_DE);
    assert.equal(alone.info().reverse, null);
    await assert.rejects(alone.translate(SENTENCES[0], { beam: 5, rerank: true }),
      (e) => e instanceof AttendError && e.code === 'invalid_argument' && /no reverse model/.test(e.message));
    await assert.rejects(alone.translate(SENTENCES[0], { beam: 5, rerank: 'yes' }),
      (e) => e instanceof AttendError && e.code === 'invalid_argument' && /rerank/.test(e.message));
    alone.dispose();
    await assert.rejects(Translator.load(EN_DE, { reverse: DE_EN, reverseWeight: -1 }),
      (e) => e instanceof AttendError && e.code === 'invalid_argument' && /reverseWeight/.test(e.message));
  });

  it('a TranslatorPool given the reverse model reranks as one Translator', async () => {
    const pool = await TranslatorPool.load(EN_DE, { workers: 2, reverse: DE_EN });
    try {
      assertAsTheCli(await pool.translate(SENTENCES, { beam: 5, nbest: 5 }));
    } finally {
      pool.dispose();  // its workers would keep the test running
    }
  });

  it('a TranslatorPool given a reverse file that is no model names the file, not its size', async () => {
    const damaged = join(mkdtempSync(join(tmpdir(), 'attend-rerank-')), 'damaged.safetensors');
    writeFileSync(damaged, new Uint8Array(64));
    await assert.rejects(TranslatorPool.load(EN_DE, { workers: 1, reverse: damaged }), namedReverseError('invalid_model', damaged));
    await assert.rejects(TranslatorPool.load(EN_DE, { workers: 1, reverse: new Uint8Array(64) }), namedReverseError('invalid_model', '64 bytes'));
  });
});
