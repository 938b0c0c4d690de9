// The page in plain words: short help where people meet the search settings and the model's
// arithmetic, pieces shown as people read them in every view (no "▁", no <s>, </s>, <unk>),
// and failures of a model explained with what to do, the working model kept.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cliTranslate } from './support/cli.mjs';
import { makeServedRoot } from './support/environment.mjs';
import { download, openApp, translate } from './support/app-page.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';
import { readablePiece } from '../../web/app/piece-names.js';
import { recordCanvasTexts } from './support/canvas-texts.mjs';

const SENTENCE = 'A man is riding a bicycle down the street.';
const MODEL_NOTATION = /▁|<\/?s>|<unk>/;

let server;
let context;
let page;

before(async () => {
  ({ server, context } = await startServedBrowser(makeServedRoot()));
  await recordCanvasTexts(context);
  page = await openApp(context, server.origin);
});

after(() => stopServedBrowser({ server, context }));

const describedBy = (selector) => page.$eval(selector, (control) => control.getAttribute('aria-describedby')
  .split(' ').map((id) => document.getElementById(id).textContent).join(' '));

test('beam size, length penalty α and int8 come with short help where they are met', async () => {
  assert.match(await describedBy('#beam'), /Beam size.*candidate translations.*each step/);
  assert.match(await describedBy('#alpha'), /Length penalty α.*longer translations/);
  assert.equal(await page.isVisible('#beam-help'), true);
  assert.equal(await page.textContent('#alpha-value'), '1.0', 'α shown as the number it is');
  assert.match(await page.textContent('#model-details'), /int8 weights and activations: numbers kept as 8-bit integers/);
});

test('pieces are shown as people read them in every view, and the marks are explained', async () => {
  await page.evaluate(() => { window.canvasTexts = []; });
  await translate(page, SENTENCE);
  await page.waitForSelector('#live-decoding[data-state="done"]');
  const record = JSON.parse(await download(page, '#export-json'));
  assert.ok(record.source_tokens.some((piece) => MODEL_NOTATION.test(piece)), 'the model\'s own pieces carry its notation');

  const shown = await page.evaluate(() => ({
    canvas: window.canvasTexts,
    live: [...document.querySelectorAll('#live-pieces .live-piece')].map((chip) => chip.textContent),
    links: [...document.querySelectorAll('#lines text')].map((text) => `${text.textContent} ${text.getAttribute('aria-label')}`),
    caption: document.getElementById('heatmap-caption').textContent,
  }));
  for (const [view, texts] of Object.entries(shown)) {
    const raw = [texts].flat().filter((text) => MODEL_NOTATION.test(text));
    assert.deepEqual(raw, [], `${view} shows the model's notation`);
  }
  const expectedLabels = [...record.target_tokens, ...record.source_tokens].map(readablePiece);
  for (const label of expectedLabels) assert.ok(shown.canvas.includes(label), `the heatmap labels ${label}`);
  assert.ok(expectedLabels.includes('(end)'));
  assert.match(await page.textContent('#piece-notation'), /“·” marks a piece that continues a word.*\(end\) the end of a sentence/);
});

test('a file that is not a model: what is wrong and what to do in plain words, and the working model stays in use', async () => {
  await page.selectOption('#model-select', 'en-de');
  const before = await translate(page, SENTENCE);
  await page.setInputFiles('#model-file', { name: 'holiday.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from('{"not": "a model"}') });
  await page.waitForSelector('body[data-model="error"]');
  const status = await page.textContent('#model-status');
  assert.equal(status, '"holiday.safetensors" cannot be used: it is not an Attend model file, or it is damaged (cut short or changed). '
    + 'Choose a model file made for Attend (.safetensors), or one of the models in the list. English → German is still in use.');
  assert.notEqual(await page.textContent('#model-error-technical'), '', 'the engine\'s message is kept for a bug report');
  assert.equal(await page.isVisible('#model-error-technical'), false, 'behind "Technical details"');
  assert.equal(await page.inputValue('#model-select'), 'en-de', 'the list shows the model in use');
  assert.equal(await page.isVisible('#model-file-label'), false);
  assert.equal(await page.textContent('#translation'), before, 'its translation stays');
  assert.equal(await translate(page, 'Two dogs play in the snow.'), cliTranslate('Two dogs play in the snow.'), 'and it still translates');
});

test('offline, the list marks the models used before, and another one is explained', async () => {
  await page.waitForFunction(() => document.querySelector('#model-select option[value="en-de"]').textContent === 'English → German (works offline)');
  assert.equal(await page.textContent('#model-select option[value="en-fr"]'), 'English → French');
  await context.setOffline(true);
  try {
    await page.selectOption('#model-select', 'en-fr');
    await page.waitForSelector('body[data-model="error"]');
    assert.equal(await page.textContent('#model-status'), 'You are offline, and the model "English → French" has not been used on '
      + 'this device before: only models marked "works offline" in the list can be used without a connection. Connect and try '
      + 'again. English → German is still in use.');
    assert.equal(await page.inputValue('#model-select'), 'en-de');
    assert.equal(await translate(page, SENTENCE), cliTranslate(SENTENCE));
  } finally {
    await context.setOffline(false);
  }
});
