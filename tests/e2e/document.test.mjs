// Documents in Chromium: the splitting corpus and Multi30k val lines joined into paragraphs
// are cut by the browser's Intl.Segmenter and the core exactly as the native build cuts them
// (tests/text checks the same expectations natively); a 12-sentence paragraph, blank lines and
// lists in the page and in <attend-translator> give what the native CLI gives, a letter's set
// phrases say why they have no attention; a 2,000-word
// paste translates with progress instead of being refused, and Stop stops it, keeping what is done.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { cliTranslate } from './support/cli.mjs';
import { makeServedRoot, REPO_ROOT } from './support/environment.mjs';
import { download, openApp, saveScreenshot, translate } from './support/app-page.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

const CORPUS = JSON.parse(readFileSync(join(REPO_ROOT, 'tests/data/real_text/splitting.json'), 'utf8'));
const MULTI30K = process.env.ATTEND_MULTI30K ?? join(REPO_ROOT, '../shared/data/multi30k');
const TWELVE = [
  'A dog runs through the snow.', 'Two children are playing football on the beach.', 'A woman is reading a book.',
  'A man in a blue shirt is riding a bike.', 'Mr. Smith is cooking in the kitchen.', 'Three girls are dancing on a stage.',
  'An old man sits on a bench.', 'A black cat sleeps on the sofa.', 'People are walking down a busy street.',
  'A boy jumps into the lake.', 'Two women are talking at a table.', 'A dog catches a ball in the park.',
];

// Multi30k lines that end a sentence and start with a capital, five to a paragraph (as tests/text).
function joinedParagraphs(file) {
  const lines = gunzipSync(readFileSync(join(MULTI30K, file))).toString('utf8').split('\n')
    .filter((line) => /[.!?]$/.test(line) && /^[A-Z]/.test(line));
  const paragraphs = [];
  for (let first = 0; first < lines.length; first += 5) paragraphs.push(lines.slice(first, first + 5));
  return paragraphs;
}

let server;
let context;

before(async () => ({ server, context } = await startServedBrowser(makeServedRoot({ alsoModels: ['de-en', 'fr-en'] }))));
after(() => stopServedBrowser({ server, context }));

// Each text cut by a shipped model whose source language it is: Intl.Segmenter and the
// abbreviations of that language.
const MODEL_FROM = { en: '/models/en-de/model.int8.safetensors', de: '/models/de-en/model.int8.safetensors',
  fr: '/models/fr-en/model.int8.safetensors' };

test('the browser cuts documents as the native build does, in the model\'s source language', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);  // any page of the origin
  const documents = [
    ...CORPUS.map((c) => ({ language: c.language ?? 'en', text: c.text, sentences: c.sentences, name: c.name })),
    ...['en', 'de', 'fr'].flatMap((language) => joinedParagraphs(`val.${language}.gz`)
      .map((lines) => ({ language, text: lines.join(' '), sentences: lines, name: `val.${language}` }))),
  ];
  const cut = await page.evaluate(async ({ documents, models }) => {
    const { Translator } = await import('/wasm/attend.mjs');
    const sentences = [];
    for (const [language, model] of Object.entries(models)) {
      const translator = await Translator.load(model);
      documents.forEach(({ language: of, text }, i) => {
        if (of === language) sentences[i] = translator.planDocument(text).filter((s) => s.translate).map((s) => s.source);
      });
      translator.dispose();
    }
    return sentences;
  }, { documents, models: MODEL_FROM });
  documents.forEach(({ sentences, name }, i) => assert.deepEqual(cut[i], sentences, name));
});

describe('the page', () => {
  let page;
  before(async () => { page = await openApp(context, server.origin); });

  test('a 12-sentence paragraph: twelve sentences, as the CLI translates the line', async () => {
    const text = await translate(page, TWELVE.join(' '));
    assert.equal(text, cliTranslate(TWELVE.join(' ')));
    assert.equal(await page.locator('#translation .sentence').count(), 12);
    assert.equal(await page.isVisible('#sentence-hint'), true);
    // Choosing a sentence shows its attention: the exported record is that sentence's.
    await page.locator('#translation .sentence').nth(4).click();
    await page.waitForFunction(() => document.querySelector('#translation .sentence[aria-current="true"]')?.dataset.index === '4');
    await page.waitForFunction((source) => document.getElementById('attention').dataset.source === source, TWELVE[4]);
    const record = JSON.parse(await download(page, '#export-json'));
    assert.equal(record.source_text, TWELVE[4]);
    assert.equal(record.target_text, cliTranslate(TWELVE[4]));
    await saveScreenshot(page, 'page-document');
  });

  test('blank lines and lists survive', async () => {
    const text = `${TWELVE[0]} ${TWELVE[1]}\n\n- ${TWELVE[2]}\n- ${TWELVE[3]}\n\n1. ${TWELVE[4]}`;
    const translated = await translate(page, text);
    assert.equal(translated, cliTranslate(text));
    assert.match(translated, /^[^\n]+\n\n- [^\n]+\n- [^\n]+\n\n1\. [^\n]+$/);
    assert.equal(await page.textContent('#translation'), translated);
  });

  test('sentences not to trust are marked, with the reason', async () => {
    await translate(page, 'A dog runs through the snow. 我们今天去公园散步。 Please send me the invoice by Friday.');
    const marks = await page.$$eval('#translation .sentence', (spans) => spans.map((span) => ({
      unsure: span.classList.contains('unsure'), title: span.title, named: span.getAttribute('aria-label') ?? '',
    })));
    assert.equal(marks.length, 3);
    assert.deepEqual(marks.map((m) => m.unsure), [false, true, true]);
    assert.match(marks[1].title, /cannot read this script/);
    assert.match(marks[2].title, /unsure/);
    assert.match(marks[2].named, /unsure/, 'the sentence buttons name the reason');
    assert.equal(await page.textContent('#doubt-summary'), '2 sentences are underlined: 1 in a script the model '
      + 'cannot read (kept as written); 1 the model is unsure of (it learned from image captions only).');
    assert.match(await page.textContent('#model-scope'), /2\.9M parameters.*30,000 image captions/);
  });

  test('a letter: its greeting and closing are set phrases, with no attention to show (nor have spans alone or an unreadable sentence)', async () => {
    const letter = `Dear Mr Smith,\n\n${TWELVE[0]}\n\nBest regards,`;
    const translated = await translate(page, letter);
    assert.equal(translated, cliTranslate(letter));
    assert.match(translated, /^Sehr geehrter Herr Smith,\n\n.+\n\nMit freundlichen Grüßen$/);
    const phrases = await page.$$eval('#translation .sentence', (spans) => spans.map((span) => span.dataset.withoutModel ?? ''));
    assert.deepEqual(phrases, ['set_phrase', '', 'set_phrase']);
    // The first sentence is chosen: the model did not run on it.
    await page.waitForFunction(() => !document.getElementById('no-attention').hidden);
    assert.match(await page.textContent('#no-attention'), /“Dear Mr Smith,” is a set phrase \(a greeting, a letter’s formula or a label\)/);
    assert.equal(await page.isHidden('#attention'), true);
    await page.locator('#translation .sentence').nth(1).click();
    await page.waitForFunction((source) => document.getElementById('attention').dataset.source === source
      && !document.getElementById('attention').hidden, TWELVE[0]);
    assert.equal(await page.isHidden('#no-attention'), true);
    // One sentence alone: the same, without a document.
    assert.equal(await translate(page, 'Thank you!'), 'Danke!');
    await page.waitForFunction(() => !document.getElementById('no-attention').hidden);
    assert.equal(await page.isHidden('#attention'), true);
    // So do a sentence of spans alone and one in a script the model cannot read.
    assert.equal(await translate(page, 'https://example.com/about'), 'https://example.com/about');
    await page.waitForFunction(() => /Every word of/.test(document.getElementById('no-attention').textContent));
    assert.equal(await page.isHidden('#attention'), true);
    assert.equal(await translate(page, '一个男人骑自行车。'), '一个男人骑自行车。');
    await page.waitForFunction(() => /cannot read the script/.test(document.getElementById('no-attention').textContent));
    assert.equal(await page.isHidden('#attention'), true);
  });

  test('a 2,000-word paste translates with progress; Stop stops the next one', async () => {
    const sentences = Array.from({ length: 300 }, (_, i) => TWELVE[i % 12]);
    const text = sentences.join(' ');
    assert.ok(text.split(' ').length >= 2000);
    // data-sentences-done and data-sentences: the newest progress shown.
    const progressed = (sentences) => page.waitForFunction((count) => {
      const { dataset } = document.getElementById('document-progress');
      return dataset.sentences === String(count) && Number(dataset.sentencesDone) > 0;
    }, sentences, { timeout: 60_000 });
    await page.fill('#source-text', text);
    await progressed(300);
    assert.match(await page.textContent('#document-progress-text'), /^Translated \d+ of 300 sentences$/);
    await page.waitForFunction((expected) => document.getElementById('translation').dataset.source === expected
      && document.body.dataset.translating === 'false', text, { timeout: 120_000 });
    assert.equal(await page.locator('#translation .sentence').count(), 300);
    assert.equal(await page.isHidden('#document-progress'), true);

    await page.fill('#source-text', `${text} ${TWELVE[0]}`);
    await progressed(301);
    // The progress may count a later group done on the second thread first: Stop once the first is shown.
    await page.waitForFunction(() => Number(document.getElementById('translation').dataset.partial) > 0, null, { timeout: 60_000 });
    await page.click('#document-stop');
    await page.waitForTimeout(3000);  // ample for the rest to have landed, were it not stopped
    const kept = await page.locator('#translation .sentence').count();
    assert.ok(kept < 301, `${kept} sentences kept`);  // those finished before Stop (trip-ups.test.mjs)
    assert.match(await page.textContent('#document-stopped'), new RegExp(`^Stopped: .* ${301 - kept} left untranslated`));
    assert.equal(await translate(page, TWELVE[0]), cliTranslate(TWELVE[0]));
  });
});

test('<attend-translator> translates a paragraph sentence by sentence', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);
  const paragraph = [...TWELVE.slice(0, 4), 'Please send me the invoice by Friday.'].join(' ');
  const detail = await page.evaluate((text) => new Promise((resolve, reject) => {
    const element = document.createElement('attend-translator');
    element.setAttribute('model', '/models/en-de/model.int8.safetensors');
    element.textContent = text;
    element.addEventListener('attend-translation', (event) => resolve({
      text: event.detail.text,
      sentences: event.detail.segments.filter((s) => s.translation).length,
      shown: element.shadowRoot.querySelector('.translation').textContent,
      spans: element.shadowRoot.querySelectorAll('.translation .sentence').length,
      notes: element.shadowRoot.querySelector('.notes').hidden ? '' : element.shadowRoot.querySelector('.notes').textContent,
    }), { once: true });
    element.addEventListener('attend-error', (event) => reject(new Error(event.detail.message)), { once: true });
    document.body.append(element);
  }), paragraph);
  // The invoice is no image caption: the model is rightly unsure of it.
  assert.deepEqual(detail, {
    text: cliTranslate(paragraph), sentences: 5, shown: cliTranslate(paragraph), spans: 5,
    notes: '1 sentence is underlined: 1 the model is unsure of (it learned from image captions only).',
  });
});
