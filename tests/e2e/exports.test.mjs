// PNG exports read on their own: each has a title (what it shows), the sentence and its
// translation, the picture and a legend; labels are not cut at the edges, and the live
// heatmap's slanted column labels have room.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeServedRoot } from './support/environment.mjs';
import { download, openApp, translate } from './support/app-page.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';
import { FIGURE_LAYOUT } from '../../web/app/png-export.js';
import { recordCanvasTexts } from './support/canvas-texts.mjs';

const SENTENCE = 'Photographers are taking pictures of a wedding.';

let server;
let context;
let page;

before(async () => {
  ({ server, context } = await startServedBrowser(makeServedRoot()));
  await recordCanvasTexts(context);
  page = await openApp(context, server.origin);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await translate(page, SENTENCE);
  await page.waitForSelector('#live-decoding[data-state="done"]');
});

after(() => stopServedBrowser({ server, context }));

// The PNG's size and the darkest pixel of its header (title) and of its bottom strip (legend).
const inspectPng = (png) => page.evaluate(async ({ base64, layout }) => {
  const image = new Image();
  image.src = `data:image/png;base64,${base64}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [image.width, image.height];
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const darkest = (top, height) => {
    const data = context.getImageData(0, top, canvas.width, height).data;
    let min = 255;
    for (let i = 0; i < data.length; i += 4) min = Math.min(min, data[i], data[i + 1], data[i + 2]);
    return min;
  };
  const legendTop = canvas.height - 2 * (layout.legendHeight + layout.margin);
  return { width: image.width, height: image.height, header: darkest(0, layout.pictureTop * 2), legend: darkest(legendTop, 2 * layout.legendHeight) };
}, { base64: png.toString('base64'), layout: FIGURE_LAYOUT });

test('each PNG has a title, the sentence and its translation, and a legend', async () => {
  const translation = await page.$eval('#translation', (output) => output.dataset.text);
  const views = {
    '#heatmap-png': { title: 'Cross-attention, layer 4, head 1', legend: 'weight 0' },
    '#grid-png': { title: 'Cross-attention, all layers and heads', legend: 'weight 0' },
    '#lines-png': { title: 'Cross-attention, layer 4, head 1: links', legend: 'weight' },
    '#live-png': { title: 'Live decoding: cross-attention, last layer, mean of its heads', legend: 'weight 0' },
  };
  for (const [button, { title, legend }] of Object.entries(views)) {
    await page.evaluate(() => { window.canvasTexts = []; });
    const png = await download(page, button);
    const texts = await page.evaluate(() => window.canvasTexts);
    assert.ok(texts.includes(title), `${button}: "${title}" in ${JSON.stringify(texts.slice(0, 4))}`);
    assert.ok(texts.includes(`“${SENTENCE}” → “${translation}”`), `${button}: the sentence and its translation`);
    assert.ok(texts.includes(legend), `${button}: a legend`);
    const seen = await inspectPng(png);
    assert.ok(seen.header < 80, `${button}: ink in the title (darkest ${seen.header})`);
    assert.ok(seen.legend < 120, `${button}: ink in the legend (darkest ${seen.legend})`);
  }
});

test('the links\' first and last pieces are not cut at the edges, also at phone width', async () => {
  for (const width of [1200, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(100);  // redrawn on the next frame
    const cut = await page.$$eval('#lines text', (texts) => {
      const svgWidth = Number(texts[0].ownerSVGElement.getAttribute('width'));
      return texts.map((text) => ({ label: text.textContent, box: text.getBBox() }))
        .filter(({ box }) => box.x < 0 || box.x + box.width > svgWidth).map(({ label }) => label);
    });
    assert.deepEqual(cut, [], `${width}px`);
  }
  await page.setViewportSize({ width: 1200, height: 900 });
});

test('the live heatmap\'s cells leave room between its slanted column labels', async () => {
  await page.setViewportSize({ width: 390, height: 900 });
  await translate(page, 'A man in a blue shirt is standing on a ladder and cleaning the windows of a tall building.');
  await page.waitForSelector('#live-decoding[data-state="done"]');
  // Labels slanted at 45° in a 12 px font are a cell × sin 45° apart: 20 px cells leave 14 px.
  assert.ok(Number(await page.$eval('#live-heatmap', (canvas) => canvas.dataset.cellSize)) >= 20);
  await page.setViewportSize({ width: 1200, height: 900 });
});
