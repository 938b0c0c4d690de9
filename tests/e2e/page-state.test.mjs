// The page shows only what is true now: masks do not outlive their model, a failed
// translation leaves no other text's results, live decoding is seen from the first step,
// redrawn views keep the keyboard focus and drop stale tooltips, the beam field shows the beam
// used, dragging text stays the browser's, and the heads PNG shows what the grid shows.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { cliTranslate } from './support/cli.mjs';
import { makeServedRoot, REPO_ROOT } from './support/environment.mjs';
import { dataset, download, translate, waitForAblation } from './support/app-page.mjs';
import { startServedApp, stopServedBrowser } from './support/served-browser.mjs';
import { FIGURE_LAYOUT } from '../../web/app/png-export.js';

const SENTENCE = 'A man is riding a bicycle down the street.';
const DE_EN_MODEL = join(REPO_ROOT, 'models/de-en/model.int8.safetensors');

let server;
let context;
let page;

before(async () => ({ server, context, page } = await startServedApp(makeServedRoot())));

after(() => stopServedBrowser({ server, context }));

const focusedButton = () => page.evaluate(() => {
  const button = document.activeElement;
  const cell = button?.closest('.head-cell');
  return cell ? { layer: cell.dataset.layer, head: cell.dataset.head, role: button.className } : button?.tagName;
});

test('opening or masking a head with the keyboard keeps the focus on that button', async () => {
  await translate(page, SENTENCE);
  await page.focus('.head-cell[data-layer="0"][data-head="1"] .head-open');
  await page.keyboard.press('Enter');
  assert.equal((await dataset(page, '#heatmap')).layer, '0');
  assert.deepEqual(await focusedButton(), { layer: '0', head: '1', role: 'head-open' });

  await page.focus('.head-cell[data-layer="1"][data-head="2"] .head-mask');
  await page.keyboard.press('Space');
  await waitForAblation(page);
  assert.deepEqual(await focusedButton(), { layer: '1', head: '2', role: 'head-mask' });
  await page.click('#clear-masks');
  await waitForAblation(page, false);
});

test('a translation landing under the pointer hides the tooltip of the picture it replaces', async () => {
  await translate(page, SENTENCE);
  const { gridLeft, gridTop, cellSize } = await dataset(page, '#heatmap');
  const box = await page.$eval('#heatmap', (canvas) => {
    canvas.scrollIntoView({ block: 'center' });
    return canvas.getBoundingClientRect().toJSON();
  });
  await page.mouse.move(box.x + Number(gridLeft) + Number(cellSize) / 2, box.y + Number(gridTop) + Number(cellSize) / 2);
  assert.equal(await page.$eval('#heatmap-tooltip', (tooltip) => tooltip.hidden), false);
  // New text arrives without focusing or scrolling to the text box (as a paste elsewhere would),
  // so the pointer stays where it is.
  const shown = Number((await dataset(page, '#translation')).shown);
  await page.evaluate(() => {
    const input = document.getElementById('source-text');
    input.value = 'Two dogs play in the snow.';
    input.dispatchEvent(new Event('input'));
  });
  await page.waitForFunction((before) => Number(document.getElementById('translation').dataset.shown) > before
    && document.body.dataset.translating === 'false', shown, { timeout: 60_000 });
  assert.equal(await page.$eval('#heatmap-tooltip', (tooltip) => tooltip.hidden), true);
});

test('a text that cannot be translated clears the previous text\'s translation and attention', async () => {
  await translate(page, SENTENCE);
  await page.fill('#source-text', '\u200B');  // only an invisible character
  await page.waitForSelector('#input-message:not([hidden])');
  assert.match(await page.textContent('#input-message'), /nothing to translate/);
  assert.equal(await page.textContent('#translation'), '');
  assert.equal(await page.$eval('#attention', (section) => section.hidden), true);
  assert.equal(await page.$eval('#live-decoding', (view) => view.hidden), true);
});

test('live decoding is seen from its first step, also when no translation was shown before', async () => {
  await page.fill('#source-text', '');  // clears the translation and hides its views
  await page.waitForFunction(() => document.getElementById('translation').textContent === '');
  await page.evaluate(() => {
    const canvas = document.getElementById('live-heatmap');
    window.liveSteps = [];  // [steps shown, canvas visible] after each change
    new MutationObserver(() => window.liveSteps.push([Number(canvas.dataset.steps), canvas.checkVisibility()]))
      .observe(canvas, { attributeFilter: ['data-steps'] });
  });
  await translate(page, SENTENCE);
  const steps = await page.evaluate(() => window.liveSteps.filter(([shown]) => shown > 0));
  assert.ok(steps.length > 0, 'no decoding step was shown');
  assert.deepEqual(steps.filter(([, visible]) => !visible), [], 'steps drawn while the view was hidden');
});

test('the beam field shows the beam used when it was out of range', async () => {
  await page.fill('#beam', '12');
  await page.dispatchEvent('#beam', 'change');
  assert.equal(await translate(page, 'A woman sings on a stage.'), cliTranslate('A woman sings on a stage.', { beam: 8 }));
  assert.equal(await page.inputValue('#beam'), '8');
  await page.fill('#beam', '4');
  await page.dispatchEvent('#beam', 'change');
});

test('the heads PNG carries the grid\'s labels, the selected head\'s frame and the masked heads\' dimming', async () => {
  await translate(page, SENTENCE);
  await page.click('.head-cell[data-layer="0"][data-head="1"] .head-mask');
  await waitForAblation(page);
  const png = await download(page, '#grid-png');
  const seen = await page.evaluate(async ({ base64, layout }) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const picture = document.createElement('canvas');
    [picture.width, picture.height] = [image.width, image.height];
    const context = picture.getContext('2d');
    context.drawImage(image, 0, 0);
    const grid = document.getElementById('head-grid').getBoundingClientRect();
    // Where a point of the grid is in the PNG (2 pixels per CSS pixel; the grid under the figure's title).
    const x = (left) => Math.round((left - grid.left + layout.margin) * 2);
    const y = (top) => Math.round((top - grid.top + layout.pictureTop) * 2);
    const region = (element) => {  // the element's pixels in the PNG
      const rect = element.getBoundingClientRect();
      return context.getImageData(x(rect.left), y(rect.top), Math.round(rect.width * 2), Math.round(rect.height * 2)).data;
    };
    const darkest = (data) => Math.min(...data.filter((_, i) => i % 4 !== 3));
    const mean = (data) => data.filter((_, i) => i % 4 !== 3).reduce((sum, value) => sum + value, 0) / (data.length * 0.75);
    const ownMean = (canvas) => mean(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data);
    const masked = document.querySelector('.head-cell[data-layer="0"][data-head="1"] canvas');
    const selected = document.querySelector('.head-cell.selected');
    const frame = selected.getBoundingClientRect();
    const framePixel = context.getImageData(x(frame.left) + 1, y(frame.top + frame.height / 2), 1, 1).data;
    return {
      size: [picture.width, picture.height],
      bottomRight: [x(grid.right), y(grid.bottom)],
      labelInk: darkest(region(document.querySelector('#head-grid .grid-header:nth-child(2)'))),  // "Head 1"
      maskedMean: mean(region(masked)),
      maskedOwnMean: ownMean(masked),
      framePixel: [...framePixel.slice(0, 3)],
    };
  }, { base64: png.toString('base64'), layout: FIGURE_LAYOUT });
  assert.ok(seen.bottomRight[0] <= seen.size[0] && seen.bottomRight[1] <= seen.size[1], `the grid at twice its CSS size fits in the PNG (${seen.size})`);
  assert.ok(seen.labelInk < 200, `the "Head 1" label is drawn (darkest channel ${seen.labelInk})`);
  assert.ok(seen.maskedMean > seen.maskedOwnMean + 20, `the masked head is dimmed (${seen.maskedMean} vs ${seen.maskedOwnMean})`);
  assert.notDeepEqual(seen.framePixel, [255, 255, 255], 'the selected head is framed');
  await page.click('#clear-masks');
  await waitForAblation(page, false);
});

test('masked heads are cleared when another model loads; the same file can be chosen twice', async () => {
  await translate(page, SENTENCE);
  await page.click('.head-cell[data-layer="3"][data-head="0"] .head-mask');
  await waitForAblation(page);
  await page.evaluate(() => {
    globalThis.modelLoads = 0;
    new MutationObserver(() => { globalThis.modelLoads += document.body.dataset.model === 'loading'; })
      .observe(document.body, { attributeFilter: ['data-model'] });
  });
  for (let time = 1; time <= 2; time++) {
    await page.setInputFiles('#model-file', DE_EN_MODEL);
    // The input is emptied once the file is read, so choosing the same file again is a change.
    await page.waitForFunction((loads) => globalThis.modelLoads === loads && document.body.dataset.model === 'ready'
      && document.getElementById('model-file').value === '', time, { timeout: 30_000 });
  }
  // Described as a shipped model is: its languages (from the file) and size (issue 67.7).
  assert.equal(await page.textContent('#model-status'), 'German → English (model.int8.safetensors, 3.4 MB) is ready.');
  assert.equal(await page.$eval('#clear-masks', (button) => button.disabled), true);
  const german = 'Ein Hund rennt am Strand.';
  assert.equal(await translate(page, german), cliTranslate(german, { model: DE_EN_MODEL }));
  assert.equal(await page.$eval('#ablation', (ablation) => ablation.hidden), true);
  assert.equal(await page.$$eval('.head-cell[data-masked="true"]', (cells) => cells.length), 0);
});

test('text dragged into the text box is left to the browser; only files are taken as models', async () => {
  const prevented = await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.setData('text/plain', 'A cat sleeps.');
    const target = document.getElementById('source-text');
    return ['dragover', 'drop'].map((type) => {
      const event = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer });
      target.dispatchEvent(event);
      return event.defaultPrevented;
    });
  });
  assert.deepEqual(prevented, [false, false]);
  assert.equal(await page.$eval('body', (body) => body.classList.contains('dragging')), false);
});
