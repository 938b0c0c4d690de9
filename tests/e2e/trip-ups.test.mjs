// What a person tripped over on the page (issue 67), each as they would meet it: Stop keeps the
// sentences translated so far; text not in the model's source language is said so, with the model
// that reads it; the translation can be copied; controls say what they changed, and the model list
// loads a model only once the choice is confirmed; the reason a sentence is underlined is reachable
// by tap, keyboard and screen reader; a model of one's own is described as the shipped ones are; the
// first visit shows the shipped models at once, and the translation on a phone's first screen.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cliTranslate } from './support/cli.mjs';
import { makeServedRoot } from './support/environment.mjs';
import { openApp, translate } from './support/app-page.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

const CAPTIONS = [
  'A dog runs through the snow.', 'Two children are playing football on the beach.', 'A woman is reading a book.',
  'A man in a blue shirt is riding a bike.', 'Three girls are dancing on a stage.', 'An old man sits on a bench.',
  'A black cat sleeps on the sofa.', 'People are walking down a busy street.', 'A boy jumps into the lake.',
  'Two women are talking at a table.', 'A dog catches a ball in the park.', 'A girl in a red coat walks home.',
];

let server;
let context;

before(async () => ({ server, context } = await startServedBrowser(makeServedRoot({ alsoModels: ['de-en'] }))));
after(() => stopServedBrowser({ server, context }));

describe('Stop', () => {
  test('shows sentences as they finish, in order, and keeps them when stopped, saying how many are left', async () => {
    const page = await openApp(context, server.origin);
    const sentences = Array.from({ length: 400 }, (_, i) => CAPTIONS[i % CAPTIONS.length]);
    await page.fill('#source-text', sentences.join(' '));
    // While it runs, finished sentences are shown (the first group of 32 at least), from the first on.
    await page.waitForFunction(() => document.body.dataset.translating === 'true'
      && document.querySelectorAll('#translation .sentence').length >= 32, null, { timeout: 120_000 });
    const running = await page.$$eval('#translation .sentence', (shown) => shown.map((s) => s.textContent));
    assert.ok(running.length < 400, 'stopped before the end');
    await page.click('#document-stop');
    await page.waitForTimeout(2000);  // were anything still to land, it would have
    const kept = await page.$$eval('#translation .sentence', (shown) => shown.map((s) => s.textContent));
    assert.ok(kept.length >= running.length && kept.length < 400, `${kept.length} sentences kept`);
    assert.deepEqual(kept.slice(0, running.length), running);  // what was shown stays, in order
    const references = new Map(CAPTIONS.map((caption) => [caption, cliTranslate(caption)]));
    kept.forEach((text, i) => assert.equal(text, references.get(sentences[i]), `sentence ${i + 1}`));
    const note = await page.textContent('#document-stopped');
    assert.equal(note, `Stopped: ${kept.length} of 400 sentences translated, ${400 - kept.length} left untranslated. Edit the text to translate it again.`);
    assert.equal(await page.isHidden('#document-progress'), true);
    assert.equal(await page.isHidden('#input-message'), true);
    // A kept sentence still shows its attention when chosen.
    await page.click('#translation .sentence[data-index="1"]');
    await page.waitForFunction(() => !document.getElementById('attention').hidden, null, { timeout: 60_000 });
    // Editing the text translates it again and the note goes.
    assert.equal(await translate(page, CAPTIONS[0]), references.get(CAPTIONS[0]));
    assert.equal(await page.isHidden('#document-stopped'), true);
    await page.close();
  });
});
