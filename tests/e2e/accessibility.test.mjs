// Keyboard and screen readers: axe-core finds no serious or critical violation in any state of
// the page or of the embed example; the keyboard reaches every control in order, each showing
// where the focus is (the heatmap's ring not clipped by its frame, the link pieces marked), the
// export buttons are told apart by name, skip links pass the many attention buttons, and
// nothing is logged as an error on the way.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeServedRoot } from './support/environment.mjs';
import { openApp, translate, waitForAblation } from './support/app-page.mjs';
import { seriousViolations } from './support/axe.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

const SENTENCE = 'A man is riding a bicycle down the street.';
const PARAGRAPH = 'Two dogs are playing in the snow. A woman in a red coat watches them from a bench.';

let server;
let context;

before(async () => ({ server, context } = await startServedBrowser(makeServedRoot())));

after(() => stopServedBrowser({ server, context }));

async function assertNoSeriousViolations(page, state) {
  const violations = await seriousViolations(page);
  assert.deepEqual(violations, [], `${state}: ${JSON.stringify(violations, null, 2)}`);
}

describe('the page', () => {
  let page;
  const consoleErrors = [];

  before(async () => {
    context.once('page', (opened) => {  // the page openApp opens, heard from its start
      opened.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
      opened.on('pageerror', (error) => consoleErrors.push(error.message));
    });
    page = await openApp(context, server.origin);
    await page.emulateMedia({ reducedMotion: 'reduce' });  // axe reads colours, not a piece fading in
  });

  after(() => page.close());

  test('axe: no serious or critical violation in any state', async () => {
    await assertNoSeriousViolations(page, 'a model ready, nothing translated yet');
    await translate(page, SENTENCE);
    await page.waitForSelector('#live-decoding[data-state="done"]');
    await assertNoSeriousViolations(page, 'a sentence translated, its attention shown');
    await page.focus('#heatmap');
    await page.keyboard.press('ArrowDown');
    await assertNoSeriousViolations(page, 'the heatmap read with the keyboard');
    await page.click('.head-cell[data-layer="0"][data-head="0"] .head-mask');
    await waitForAblation(page);
    await assertNoSeriousViolations(page, 'a head masked, the change shown');
    await page.click('#clear-masks');
    await waitForAblation(page, false);
    await translate(page, PARAGRAPH);
    await assertNoSeriousViolations(page, 'several sentences translated');
    await page.setInputFiles('#model-file', { name: 'notes.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from('no model') });
    await page.waitForSelector('body[data-model="error"]');
    await assertNoSeriousViolations(page, 'a file that is not a model');
    await page.setViewportSize({ width: 360, height: 740 });
    await assertNoSeriousViolations(page, 'a phone');
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  // What has the focus, from the first control (the model list) on, Tab after Tab, until `stop`
  // has it: for each stop its id or class, whether it shows the focus (an outline, or the link
  // pieces' mark) and whether it can be seen.
  async function tabUntil(stop, limit = 200) {
    const focused = () => page.evaluate(() => {
      const element = document.activeElement;
      const style = getComputedStyle(element);
      const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      const marked = element.classList.contains('piece') && style.textDecorationLine.includes('underline') && style.fill !== 'rgb(34, 34, 34)';
      const box = element.getBoundingClientRect();
      return { name: element.id ? `#${element.id}` : `.${element.getAttribute('class')}`, shown: outlined || marked, visible: box.width > 1 && box.height > 1 };
    });
    await page.focus('#model-select');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');  // focused by the keyboard, so :focus-visible applies
    const stops = [await focused()];
    while (stops.at(-1).name !== stop && stops.length < limit) {
      await page.keyboard.press('Tab');
      stops.push(await focused());
    }
    return stops;
  }

  test('the keyboard reaches every control, and each shows that it has the focus', async () => {
    await translate(page, SENTENCE);
    const stops = await tabUntil('#export-json');
    assert.equal(stops.at(-1).name, '#export-json');
    const names = new Set(stops.map(({ name }) => name));
    const controls = await page.$$eval('main button:not([hidden]), main select, main input:not([type="file"]), main [tabindex="0"]',
      (elements) => elements.filter((element) => element.checkVisibility() && !element.disabled)
        .map((element) => (element.id ? `#${element.id}` : `.${element.getAttribute('class')}`)));
    assert.deepEqual(controls.filter((name) => !names.has(name)), [], 'controls the keyboard does not reach');
    assert.deepEqual(stops.filter(({ shown }) => !shown), [], 'stops that do not show the focus');
    assert.deepEqual(stops.filter(({ visible }) => !visible), [], 'stops that cannot be seen (skip links once focused included)');
  });

  test('skip links pass the head buttons and the link pieces', async () => {
    const all = (await tabUntil('#export-json')).length;
    await page.focus('#model-select');
    let presses = 0;
    const tabTo = async (name) => {
      for (; presses < all; presses++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate((wanted) => document.activeElement.matches(wanted), name)) return presses++;
      }
      throw new Error(`${name} not reached`);
    };
    await tabTo('a[href="#links-heading"]');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'lines-png', 'past the head buttons');
    await tabTo('a[href="#attention-end"]');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'export-json', 'past the link pieces');
    assert.ok(presses + 2 < all - 30, `${presses + 2} key presses to the JSON export with the skip links, ${all} without`);
  });

  test('the heatmap\'s focus ring is not clipped by its frame, at desktop and phone widths', async () => {
    for (const width of [1200, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.focus('#beam');
      await page.evaluate(() => document.getElementById('heatmap').focus({ focusVisible: true }));
      const { ring, frame } = await page.evaluate(() => {
        const canvas = document.getElementById('heatmap');
        const style = getComputedStyle(canvas);
        const out = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
        const box = canvas.getBoundingClientRect();
        const clip = canvas.parentElement.getBoundingClientRect();
        return {
          ring: { left: box.left - out, right: Math.min(box.right, clip.right) + Math.max(0, out), top: box.top - out, bottom: box.bottom + out, visible: style.outlineStyle !== 'none' },
          frame: { left: clip.left, right: clip.right, top: clip.top, bottom: clip.bottom },
        };
      });
      assert.ok(ring.visible, `${width}px: a focus ring`);
      for (const side of ['left', 'top']) assert.ok(ring[side] >= frame[side] - 0.5, `${width}px: the ring's ${side} is clipped (${ring[side]} < ${frame[side]})`);
      for (const side of ['right', 'bottom']) assert.ok(ring[side] <= frame[side] + 0.5, `${width}px: the ring's ${side} is clipped (${ring[side]} > ${frame[side]})`);
    }
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  test('no console errors in any of these states', () => {
    assert.deepEqual(consoleErrors, []);
  });

  test('every button has a name of its own', async () => {
    const names = await page.$$eval('button', (buttons) => buttons.filter((button) => button.checkVisibility())
      .map((button) => button.getAttribute('aria-label') ?? button.textContent.trim()));
    const repeated = names.filter((name, index) => names.indexOf(name) !== index);
    assert.deepEqual(repeated, []);
    assert.ok(names.includes('Save heatmap as PNG') && names.includes('Save links as PNG'));
  });
});

describe('the embed example', () => {
  test('axe: no serious or critical violation, the elements translated, typed into and failing', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/web/examples/embed.html`);
    await page.waitForFunction(() => document.querySelector('#greeting').shadowRoot.querySelector('.translation').textContent !== '',
      null, { timeout: 60_000 });
    await assertNoSeriousViolations(page, 'the embed example');
    await page.locator('#playground textarea').fill('Two dogs play in the snow.');
    await page.waitForFunction(() => document.querySelector('#playground').shadowRoot.querySelector('.translation').textContent !== '',
      null, { timeout: 60_000 });
    await assertNoSeriousViolations(page, 'the playground translating');
    await page.evaluate(() => document.querySelector('aside').insertAdjacentHTML('beforeend',
      '<attend-translator id="broken" model="/models/none/model.safetensors">A dog runs.</attend-translator>'));
    await page.waitForFunction(() => document.querySelector('#broken').shadowRoot.querySelector('.status.error'), null, { timeout: 60_000 });
    await assertNoSeriousViolations(page, 'an element whose model failed to download');
    await page.close();
  });
});
