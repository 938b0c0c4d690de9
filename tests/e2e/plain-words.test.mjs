// The page in plain words: short help where people meet the search settings and the model's
// arithmetic, pieces shown as people read them in every view (no "▁", no <s>, </s>, <unk>),
// and failures of a model explained with what to do, the working model kept.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeServedRoot } from './support/environment.mjs';
import { download, openApp, translate } from './support/app-page.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';
import { readablePiece } from '../../web/app/piece-names.js';

const SENTENCE = 'A man is riding a bicycle down the street.';
const MODEL_NOTATION = /▁|<\/?s>|<unk>/;

let server;
let context;
let page;

before(async () => {
  ({ server, context } = await startServedBrowser(makeServedRoot()));
  // Every text drawn on a canvas (the heatmaps' labels), to read what the pictures say.
  await context.addInitScript(() => {
    window.canvasTexts = [];
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function record(text, ...rest) {
      window.canvasTexts.push(String(text));
      return fillText.call(this, text, ...rest);
    };
  });
  page = await openApp(context, server.origin);
});

after(() => stopServedBrowser({ server, context }));

const describedBy = (selector) => page.$eval(selector, (control) => control.getAttribute('aria-describedby')
  .split(' ').map((id) => document.getElementById(id).textContent).join(' '));

test('beam size, length penalty α and int8 come with short help where they are met', async () => {
  assert.match(await describedBy('#beam'), /Beam size.*candidate translations.*each step/);
  assert.match(await describedBy('#alpha'), /Length penalty α.*longer translations/);
  assert.equal(await page.isVisible('#beam-help'), true);
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
