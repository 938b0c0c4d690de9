// Documents in the WebAssembly build (translateDocument, planDocument) on the shipped en-de
// model: the splitting corpus cut as natively (tests/text), a 12-sentence paragraph equal to
// its sentences translated one per line and to the native CLI's line, the structure kept, a
// plan translated as it is, progress, cancelling, errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { AttendError, MODELS, Translator, cliTranslate } from './common.mjs';

const MODEL = join(MODELS, 'en-de/model.int8.safetensors');
const CORPUS = JSON.parse(readFileSync(new URL('../data/real_text/splitting.json', import.meta.url), 'utf8'));
const TWELVE = [
  'A dog runs through the snow.', 'Two children are playing football on the beach.', 'A woman is reading a book.',
  'A man in a blue shirt is riding a bike.', 'Mr. Smith is cooking in the kitchen.', 'Three girls are dancing on a stage.',
  'An old man sits on a bench.', 'A black cat sleeps on the sofa.', 'People are walking down a busy street.',
  'A boy jumps into the lake.', 'Two women are talking at a table.', 'A dog catches a ball in the park.',
];

describe('documents, shipped en-de model', () => {
  let translator;
  // The native CLI's arithmetic (int8 weights, f32 activations), for parity with it.
  before(async () => { translator = await Translator.load(MODEL, { int8Activations: false }); });
  after(() => translator.dispose());

  it('cuts the splitting corpus\'s English as the native build does', () => {
    for (const { name, text, sentences } of CORPUS.filter((c) => (c.language ?? 'en') === 'en')) {
      const plan = translator.planDocument(text);
      assert.equal(plan.map((s) => s.source).join(''), text, name);
      assert.deepEqual(plan.filter((s) => s.translate).map((s) => s.source), sentences, name);
    }
  });

  it('translates a 12-sentence paragraph as its sentences one per line, and as the CLI', async () => {
    const oneByOne = (await translator.translate(TWELVE)).map((r) => r.text);
    const document = await translator.translateDocument(TWELVE.join(' '));
    assert.equal(document.segments.filter((s) => s.translation).length, 12);
    assert.equal(document.text, oneByOne.join(' '));
    assert.deepEqual(cliTranslate(MODEL, [TWELVE.join(' ')]), [document.text]);
  });

  it('keeps blank lines, lists and whitespace', async () => {
    const [a, b, c] = (await translator.translate(TWELVE.slice(0, 3))).map((r) => r.text);
    const text = `  - ${TWELVE[0]}  ${TWELVE[1]}\n\n***\n2) ${TWELVE[2]}\t\n`;
    const document = await translator.translateDocument(text);
    assert.equal(document.text, `  - ${a}  ${b}\n\n***\n2) ${c}\t\n`);
    assert.equal(document.segments.map((s) => s.source).join(''), text);
  });

  it('translates a plan as it is: planDocument\'s as the text, an edited one with its sentences kept', async () => {
    const text = `${TWELVE[0]} ${TWELVE[1]}\n\n${TWELVE[2]}`;
    const plan = translator.planDocument(text);
    const [fromText, fromPlan] = [await translator.translateDocument(text), await translator.translateDocument(plan)];
    assert.deepEqual(fromPlan, fromText);
    // The second sentence kept as it is, the first cut differently: both as the plan says.
    const edited = [{ source: 'A dog runs', translate: true }, { source: ' through the snow. ', translate: false },
      { source: TWELVE[1], translate: false }, { source: '\n\n', translate: false }, { source: TWELVE[2], translate: true }];
    const [runs, reading] = (await translator.translate(['A dog runs', TWELVE[2]])).map((r) => r.text);
    const document = await translator.translateDocument(edited);
    assert.equal(document.text, `${runs} through the snow. ${TWELVE[1]}\n\n${reading}`);
    assert.deepEqual(document.segments.map((s) => s.source), edited.map((s) => s.source));
    assert.deepEqual(translator.planDocument(edited), edited);
  });

  it('reports progress per group of 32 sentences and stops when aborted', async () => {
    const many = Array.from({ length: 6 }, () => TWELVE).flat();  // 72 sentences
    const progress = [];
    await translator.translateDocument(many.join(' '), { onProgress: (p) => progress.push(p) });
    assert.deepEqual(progress.map((p) => [p.sentencesDone, p.sentences]), [[32, 72], [64, 72], [72, 72]]);
    const controller = new AbortController();
    await assert.rejects(
      translator.translateDocument(many.join(' '), { signal: controller.signal, onProgress: () => controller.abort() }),
      (error) => error instanceof AttendError && error.code === 'cancelled');
    const words = Array.from({ length: 2000 }, (_, i) => TWELVE[i % 12].split(' ')[i % 4]).join(' ');
    const long = await translator.translateDocument(words);  // 2,000 words, no sentence end: cut to fit
    assert.ok(long.segments.filter((s) => s.translation).length >= 8);
  });

  it('numbers onToken sentences in the document', async () => {
    const seen = new Set();
    await translator.translateDocument(Array.from({ length: 3 }, () => TWELVE).flat().join(' '),
      { onToken: (event) => { seen.add(event.sentence); } });
    assert.deepEqual([...seen].sort((x, y) => x - y), Array.from({ length: 36 }, (_, i) => i));
  });

  it('says which sentences not to trust: a script the model cannot read, a low confidence', async () => {
    const document = await translator.translateDocument(
      'A dog runs through the snow. 我们今天去公园散步。 Please send me the invoice by Friday.');
    const [caption, chinese, everyday] = document.segments.filter((s) => s.translation).map((s) => s.translation);
    assert.deepEqual([caption.status, chinese.status, everyday.status], ['translated', 'unreadable_script', 'translated']);
    assert.equal(chinese.text, '我们今天去公园散步。');
    assert.equal(caption.hypotheses[0].lowConfidence, false);
    assert.equal(everyday.hypotheses[0].lowConfidence, true);
    assert.ok(everyday.confidence < caption.confidence && caption.confidence <= 0);
    const { logProb, tokens } = everyday.hypotheses[0];
    assert.ok(Math.abs(everyday.confidence - logProb / tokens) < 1e-6);
  });

  it('errors', async () => {
    const code = (promise) => promise.then(() => 'none', (error) => error.code);
    assert.equal(await code(translator.translateDocument('')), 'empty_input');
    assert.equal(await code(translator.translateDocument(' \n...\n')), 'empty_input');
    assert.equal(await code(translator.translateDocument(new Uint8Array([0x41, 0xC3, 0x28]))), 'invalid_input');
    assert.equal(await code(translator.translateDocument('A dog.\uD800')), 'invalid_input');
    assert.equal(await code(translator.translateDocument('A dog runs.', { beam: 0 })), 'invalid_argument');
    assert.throws(() => translator.planDocument(new Uint8Array([0xFF])), (error) => error.code === 'invalid_input');
    assert.equal(await code(translator.translateDocument([{ source: 'A dog.', translate: 'yes' }])), 'invalid_argument');
    assert.equal(await code(translator.translateDocument([null])), 'invalid_argument');
    assert.equal(await code(translator.translateDocument([{ source: 'A dog.\uD800', translate: true }])), 'invalid_input');
    assert.equal(await code(translator.translateDocument([{ source: 'A dog.', translate: true }, { source: '\uD800', translate: false }])),
      'invalid_input');
    assert.equal(await code(translator.translateDocument([{ source: 'A dog.', translate: false }])), 'empty_input');
  });
});
