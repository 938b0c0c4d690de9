// Text the shipped en-de model cannot read, in the WebAssembly build: unknown spans and numbers
// (names, acronyms, initials too) pass through as natively (the native CLI's text), and a sentence in a script the model cannot
// read comes back unchanged with status 'unreadable_script', a set phrase of the model's languages
// written from the table with status 'set_phrase', spans alone ('passed_through') kept as written;
// a question or an exclamation keeps its mark, and what the caption rules wrote is marked
// (docs/alignment.md).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { MODELS, Translator, cliTranslate } from './common.mjs';

const MODEL = join(MODELS, 'en-de/model.int8.safetensors');
const LINES = ['A man 😀 rides a bike in 北京.', '一个男人骑自行车。', 'A runner with the number 512 on his shirt.', 'A dog runs.',
  'Where is the dog?', 'Look at that!', 'A man from IBM meets Anna in the U.S. at 5 p.m. today.', 'Dear Mr Smith,',
  'Merci beaucoup !', '12:30 - 14:00'];

describe('real text, shipped en-de model', () => {
  let translator;
  // The native CLI's arithmetic (int8 weights, f32 activations), for parity with it.
  before(async () => { translator = await Translator.load(MODEL, { int8Activations: false }); });
  after(() => translator.dispose());

  it('passes unknown text and numbers through and keeps final marks as the native CLI does', async () => {
    const results = await translator.translate(LINES);
    assert.deepEqual(results.map((r) => r.text), cliTranslate(MODEL, LINES, ['--no-split']));
    assert.match(results[0].text, /Mann 😀 .*北京\./);
    assert.ok(!results[0].sourcePieces.includes('<unk>'));
    assert.match(results[2].text, / 512 /);
    assert.match(results[4].text, /[^?]\?$/);
    assert.match(results[5].text, /[^!]!$/);
    for (const kept of ['Anna', 'IBM', 'U.S.']) assert.ok(results[6].text.includes(kept), results[6].text);
    // What the caption rules wrote: the number read as "4" in its place, the final marks they put
    // in ("Merci beaucoup !" too); no other text.
    assert.deepEqual(results.map((r) => r.rewritten), [false, false, true, false, true, true, false, false, true, false]);
  });

  it('without the caption rules gives the words its search produced, as the CLI\'s --caption-rules off does', async () => {
    const off = await translator.translate(LINES, { captionRules: false });
    assert.deepEqual(off.map((r) => r.text), cliTranslate(MODEL, LINES, ['--no-split', '--caption-rules', 'off']));
    assert.ok(off.every((r) => !r.rewritten));
    assert.notEqual(off[4].text, (await translator.translate(LINES[4])).text, 'the rules keep the question\'s "?"');
    assert.deepEqual((await translator.translate(LINES[4], { captionRules: 'auto' })).text,
      (await translator.translate(LINES[4], { captionRules: true })).text);
    await assert.rejects(translator.translate(LINES[4], { captionRules: 'maybe' }), /captionRules/);
  });

  it('reports a sentence in a script the model cannot read, and translates the others', async () => {
    const results = await translator.translate(LINES);
    assert.deepEqual(results.map((r) => r.status), ['translated', 'unreadable_script', 'translated', 'translated', 'translated',
      'translated', 'translated', 'set_phrase', 'translated', 'passed_through']);
    assert.equal(results[1].text, LINES[1]);
    assert.deepEqual(results[1].sourceIds, []);
  });

  it('writes a set phrase of its languages from the table, and leaves one of another language to the model', async () => {
    const results = await translator.translate(LINES);
    assert.equal(results[7].text, 'Sehr geehrter Herr Smith,');
    assert.deepEqual(results[7].sourceIds, []);
    assert.notDeepEqual(results[8].sourceIds, []);  // French is not one of an en-de model's languages
    assert.equal(results[9].text, LINES[9]);  // spans alone, as written, without the model
  });
});
