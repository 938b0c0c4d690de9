// TranslatorPool (wasm/pool.mjs): sentences translated on 2 worker threads, each with its own
// Translator, come back in order and equal to one Translator's on the same sentences (ids),
// greedy and beam 5, f32 and int8 with int8 activations: on the tiny models and, when it is
// there, the shipped en-de model on the first 300 Multi30k test lines, also as a document
// (translateDocument). Errors are AttendErrors.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { TranslatorPool } from '../../wasm/pool.mjs';
import { AttendError, MODELS, MULTI30K, TINY, Translator, tinyModel } from './common.mjs';

// Both engines on the same sentences and options; the pool's results must equal Translator's.
async function assertPoolEqualsOne(model, sentences, options, loadOptions = {}) {
  const pool = await TranslatorPool.load(model, { workers: 2, ...loadOptions });
  const one = await Translator.load(model, loadOptions);
  try {
    assert.equal(pool.info().workers, 2);
    assert.equal(pool.info().int8Activations, one.info().int8Activations);
    const pooled = await pool.translate(sentences, options);
    const alone = await one.translate(sentences, options);
    assert.equal(pooled.length, sentences.length);
    const differing = alone.flatMap((r, i) => (r.ids.join() === pooled[i].ids.join() ? [] : [i]));
    assert.deepEqual(differing, [], `sentences whose ids differ: ${differing.slice(0, 5)}`);
    assert.deepEqual(pooled.map((r) => r.text), alone.map((r) => r.text));
    assert.equal((await pool.translate(sentences[0], options)).text, alone[0].text);  // a string in, one result out
  } finally {
    pool.dispose();
    one.dispose();
  }
}

const tinySentences = readFileSync(join(TINY, 'sentences.txt'), 'utf8').split('\n').filter(Boolean);

describe('TranslatorPool, tiny models', () => {
  // 3 groups of 32 and a partial one, so both workers take several groups.
  const sentences = Array.from({ length: 100 }, (_, i) => tinySentences[i % tinySentences.length]);
  for (const beam of [1, 5]) {
    it(`f32, beam ${beam}: as one Translator`, () => assertPoolEqualsOne(tinyModel('f32'), sentences, { beam }));
    it(`int8 activations, beam ${beam}: as one Translator`,
      () => assertPoolEqualsOne(tinyModel('int8'), sentences, { beam }, { int8Activations: true }));
  }

  it('refuses bad arguments and work after dispose with AttendErrors', async () => {
    await assert.rejects(TranslatorPool.load(tinyModel('f32'), { workers: 0 }),
      (error) => error instanceof AttendError && error.code === 'invalid_argument');
    await assert.rejects(TranslatorPool.load(join(TINY, 'no-such-model.safetensors')),
      (error) => error instanceof AttendError && error.code === 'io');
    const pool = await TranslatorPool.load(tinyModel('f32'), { workers: 2 });
    await assert.rejects(pool.translate(['a'], { onToken: () => true }),
      (error) => error instanceof AttendError && error.code === 'invalid_argument');
    await assert.rejects(pool.translate([42]), (error) => error instanceof AttendError && error.code === 'invalid_argument');
    pool.dispose();
    await assert.rejects(pool.translate(['a']), (error) => error instanceof AttendError && error.code === 'invalid_argument');
  });
});

const shipped = join(MODELS ?? '', 'en-de/model.int8.safetensors');
const test2016 = join(MULTI30K ?? '', 'test_2016_flickr.en.gz');
describe('TranslatorPool, shipped en-de model', { skip: !(existsSync(shipped) && existsSync(test2016)) && 'no shipped model or Multi30k' }, () => {
  const lines = () => gunzipSync(readFileSync(test2016)).toString('utf8').split('\n').slice(0, 300);
  it('greedy, int8 activations (as the page loads it): as one Translator on 300 lines',
    () => assertPoolEqualsOne(shipped, lines(), { beam: 1 }, { int8Activations: 'auto' }));
  it('beam 5, int8 weights: as one Translator on 300 lines',
    () => assertPoolEqualsOne(shipped, lines(), { beam: 5 }, { int8Activations: false }));

  it('translateDocument: as one Translator\'s (text, segments, ids), progress per group, cancelling, errors', async () => {
    // 300 lines as paragraphs of 5 sentences, one line of them a list item: 10 groups of 32 over 2 workers.
    const all = lines();
    const paragraphs = Array.from({ length: 60 }, (_, p) => all.slice(5 * p, 5 * p + 5).join(' '));
    const document = `${paragraphs.join('\n\n')}\n  - ${all[0]}\n`;
    const pool = await TranslatorPool.load(shipped, { workers: 2 });
    const one = await Translator.load(shipped);
    try {
      const progress = [];
      const pooled = await pool.translateDocument(document, { onProgress: (p) => progress.push(p) });
      const alone = await one.translateDocument(document);
      assert.equal(pooled.text, alone.text);
      assert.deepEqual(pooled.segments.map((s) => s.source), alone.segments.map((s) => s.source));
      assert.deepEqual(pooled.segments.map((s) => s.translation?.ids.join()), alone.segments.map((s) => s.translation?.ids.join()));
      const sentences = alone.segments.filter((s) => s.translation).length;
      assert.ok(sentences > 64, `${sentences} sentences`);
      assert.deepEqual(progress.map((p) => p.sentences), progress.map(() => sentences));
      assert.equal(progress.at(-1).sentencesDone, sentences);
      assert.equal(progress.length, Math.ceil(sentences / 32));
      const planned = await pool.translateDocument(one.planDocument(document));  // a plan: not cut again
      assert.equal(planned.text, alone.text);
      const controller = new AbortController();
      await assert.rejects(pool.translateDocument(document, { signal: controller.signal, onProgress: () => controller.abort() }),
        (error) => error instanceof AttendError && error.code === 'cancelled');
      await assert.rejects(pool.translateDocument(' \n\t'), (error) => error instanceof AttendError && error.code === 'empty_input');
      await assert.rejects(pool.translateDocument([{ source: 'A dog.' }]),
        (error) => error instanceof AttendError && error.code === 'invalid_argument');
      await assert.rejects(pool.translateDocument([{ source: 'A dog.', translate: true }, { source: '\uD800', translate: false }]),
        (error) => error instanceof AttendError && error.code === 'invalid_input' && /document plan segment 1/.test(error.message));
      await assert.rejects(pool.translateDocument(document, { onToken: () => true }),
        (error) => error instanceof AttendError && error.code === 'invalid_argument');
    } finally {
      pool.dispose();
      one.dispose();
    }
  });
});
