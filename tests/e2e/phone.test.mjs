// The page on a 360 px touch screen: a finger on the heatmap reads its cells (tap or drag) and
// does not scroll the page, the grid's thumbnails keep their proportions, nothing spills out
// of its card, and the links view says it scrolls sideways; a finger reads <attend-translator>'s
// small heatmap too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeServedRoot } from './support/environment.mjs';
import { dataset, download, openApp, translate, waitForAblation } from './support/app-page.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';
import { readablePiece } from '../../web/app/piece-names.js';

const SENTENCE = 'A man in a blue shirt is standing on a ladder and cleaning the windows.';
const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

let server;
let context;
let page;

before(async () => {
  ({ server, context } = await startServedBrowser(makeServedRoot(), PHONE));
  page = await openApp(context, server.origin);
  await translate(page, SENTENCE);
  await page.waitForSelector('#live-decoding[data-state="done"]');  // its replay grows the page above the views
});

after(() => stopServedBrowser({ server, context }));

// The page coordinates of the centre of heatmap cell (row, col), with the heatmap scrolled into view.
async function cellCentre(row, col) {
  const { gridLeft, gridTop, cellSize } = await dataset(page, '#heatmap');
  const box = await page.$eval('#heatmap', (canvas) => {
    canvas.scrollIntoView({ block: 'center' });
    return canvas.getBoundingClientRect().toJSON();
  });
  return {
    x: box.x + Number(gridLeft) + (col + 0.5) * Number(cellSize),
    y: box.y + Number(gridTop) + (row + 0.5) * Number(cellSize),
  };
}

async function expectedReading(row, col) {
  const record = JSON.parse(await download(page, '#export-json'));
  const { layer, head } = await dataset(page, '#heatmap');
  const weight = record.attention.cross[Number(layer)][Number(head)][row][col];
  return `${readablePiece(record.target_tokens[row])} → ${readablePiece(record.source_tokens[col])}: ${weight.toFixed(3)}`;
}

test('tapping a heatmap cell shows its weight', async () => {
  const { x, y } = await cellCentre(2, 3);
  await page.touchscreen.tap(x, y);
  assert.equal(await page.isVisible('#heatmap-tooltip'), true);
  assert.equal(await page.textContent('#heatmap-tooltip'), await expectedReading(2, 3));
});

test('dragging a finger up or down the heatmap reads the cells under it and does not scroll the page', async () => {
  const from = await cellCentre(0, 1);
  const to = await cellCentre(6, 2);
  const scrolledBefore = await page.evaluate(() => window.scrollY);
  const touch = await context.newCDPSession(page);
  const send = (type, { x, y }) => touch.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  await send('touchStart', from);
  for (let step = 1; step <= 10; step++) {
    await send('touchMove', { x: from.x + ((to.x - from.x) * step) / 10, y: from.y + ((to.y - from.y) * step) / 10 });
  }
  await send('touchEnd', to);
  await page.waitForTimeout(300);  // a fling would go on scrolling
  assert.equal(await page.evaluate(() => window.scrollY), scrolledBefore, 'the page did not scroll');
  assert.equal(await page.textContent('#heatmap-tooltip'), await expectedReading(6, 2));
  assert.equal(await page.isVisible('#heatmap-tooltip'), true, 'the value stays once the finger lifts');
});

test('the heatmap\'s value at its last cell stays inside the heatmap\'s frame (no scrolling, nothing cut)', async () => {
  const { rows, cols } = await dataset(page, '#heatmap');
  await page.$eval('#heatmap', (canvas) => { canvas.parentElement.scrollLeft = canvas.parentElement.scrollWidth; });
  const { x, y } = await cellCentre(Number(rows) - 1, Number(cols) - 1);
  await page.mouse.move(x, y);
  assert.deepEqual(await dataset(page, '#heatmap-tooltip'), { row: String(Number(rows) - 1), col: String(Number(cols) - 1) });
  const fits = await page.$eval('#heatmap-tooltip', (tooltip) => {
    const frame = tooltip.parentElement;
    const [inner, outer] = [tooltip.getBoundingClientRect(), frame.getBoundingClientRect()];
    return { inside: inner.left >= outer.left && inner.right <= outer.right && inner.top >= outer.top && inner.bottom <= outer.bottom,
      scrollsDown: frame.scrollHeight > frame.clientHeight };
  });
  assert.deepEqual(fits, { inside: true, scrollsDown: false });
  await page.mouse.move(0, 0);
});

test('tapping a piece of the links view lights its links, and they stay lit (it takes the focus)', async () => {
  await page.$eval('#lines text[data-row="2"]', (text) => text.scrollIntoView({ block: 'center', inline: 'center' }));
  await page.tap('#lines text[data-row="2"]');
  await page.waitForTimeout(100);
  const lit = await page.$$eval('#lines line.lit', (lines) => lines.map((line) => Number(line.dataset.row)));
  assert.ok(lit.length > 0 && lit.every((row) => row === 2), `lit rows: ${lit}`);
});

test('the grid\'s thumbnails keep the proportions of their matrices', async () => {
  const shapes = await page.$$eval('.head-open canvas', (canvases) => canvases.map((canvas) => {
    const { width, height } = canvas.getBoundingClientRect();
    return { shown: width / height, drawn: canvas.width / canvas.height, width };
  }));
  assert.ok(shapes.length > 0);
  for (const { shown, drawn, width } of shapes) {
    assert.ok(Math.abs(shown / drawn - 1) < 0.05, `a thumbnail drawn ${drawn.toFixed(2)}:1 is shown ${shown.toFixed(2)}:1`);
  }
});

test('nothing spills out of its card at 360 px, masked heads included', async () => {
  for (let head = 0; head < 4; head++) await page.tap(`.head-cell[data-layer="0"][data-head="${head}"] .head-mask`);
  await waitForAblation(page);
  const spills = await page.evaluate(() => {
    const scrolls = (element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
    const found = [];
    for (const section of document.querySelectorAll('main section:not([hidden])')) {
      const card = section.getBoundingClientRect();
      for (const element of section.querySelectorAll('*')) {
        if (element.closest('[hidden]') || element.closest('.visually-hidden')) continue;
        let inScroller = false;  // what a frame scrolls sideways is not spilling
        for (let node = element.parentElement; node && node !== section; node = node.parentElement) inScroller ||= scrolls(node);
        if (inScroller) continue;
        const box = element.getBoundingClientRect();
        if (box.width === 0) continue;
        if (box.right > card.right + 0.5 || box.left < card.left - 0.5) found.push(`${element.tagName}#${element.id}.${element.className} ${box.left}–${box.right} of ${card.left}–${card.right}`);
      }
    }
    return found;
  });
  assert.deepEqual(spills, []);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the page does not scroll sideways');
  await page.tap('#clear-masks');
  await waitForAblation(page, false);
});

test('the heatmap and the links view, wider than the phone, say they scroll sideways', async () => {
  await page.$eval('#heatmap', (canvas) => { canvas.parentElement.scrollLeft = 0; });
  await page.waitForFunction(() => document.getElementById('heatmap').parentElement.dataset.more === 'right');
  assert.equal(await page.isVisible('#heatmap-scroll-cue'), true);
  assert.equal(await page.$eval('#heatmap', (canvas) => canvas.parentElement.dataset.more), 'right');
  await page.$eval('#lines', (svg) => {
    svg.scrollIntoView();
    svg.parentElement.scrollLeft = 0;
  });
  await page.waitForFunction(() => document.getElementById('lines').parentElement.dataset.more === 'right');
  assert.equal(await page.isVisible('#lines-scroll-cue'), true);
  await page.$eval('#lines', (svg) => { svg.parentElement.scrollLeft = svg.parentElement.scrollWidth; });
  await page.waitForFunction(() => document.getElementById('lines').parentElement.dataset.more === 'left');
  await translate(page, 'Two dogs play.');
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.waitForFunction(() => document.getElementById('lines-scroll-cue').hidden
    && !('more' in document.getElementById('lines').parentElement.dataset));
  await page.setViewportSize(PHONE.viewport);
});

test("a finger reads a cell of <attend-translator>'s heatmap", async () => {
  const embed = await context.newPage();
  await embed.goto(`${server.origin}/web/examples/embed.html`);
  const attention = await embed.$eval('#greeting', async (element) => {
    await element.ready;
    const { segments } = await element.translate();
    const { data, shape: [layers, heads, rows, cols] } = segments[0].translation.attention.cross;
    const mean = (row, col) => Array.from({ length: heads }, (_, h) => data[(((layers - 1) * heads + h) * rows + row) * cols + col])
      .reduce((sum, value) => sum + value, 0) / heads;
    return { weight: mean(1, 2), target: segments[0].translation.attention.targetPieces[1], source: segments[0].translation.attention.sourcePieces[2] };
  });
  const point = await embed.$eval('#greeting', (element) => {
    const canvas = element.shadowRoot.querySelector('.heatmap canvas');
    canvas.scrollIntoView({ block: 'center' });
    const box = canvas.getBoundingClientRect();
    const { gridLeft, gridTop, cellSize } = canvas.dataset;
    return { x: box.x + Number(gridLeft) + 2.5 * Number(cellSize), y: box.y + Number(gridTop) + 1.5 * Number(cellSize) };
  });
  await embed.touchscreen.tap(point.x, point.y);
  const reading = await embed.$eval('#greeting', (element) => element.shadowRoot.querySelector('.reading').textContent);
  assert.equal(reading, `${readablePiece(attention.target)} → ${readablePiece(attention.source)}: ${attention.weight.toFixed(3)}`);
  await embed.close();
});
