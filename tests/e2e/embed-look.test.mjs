// The embed example as a visitor and an embedder meet it: no console errors, the input box with
// a visible label, a placeholder and its language, the element in the host page's font, and
// themed by the host with --attend-* custom properties and ::part().
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeServedRoot } from './support/environment.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

let server;
let context;
let page;
const consoleErrors = [];

before(async () => {
  ({ server, context } = await startServedBrowser(makeServedRoot()));
  page = await context.newPage();
  page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(`${server.origin}/web/examples/embed.html`);
  await page.waitForFunction(() => document.querySelector('#greeting').shadowRoot.querySelector('.translation').textContent !== '',
    null, { timeout: 60_000 });
});

after(() => stopServedBrowser({ server, context }));

test('"Try it yourself": a visible label, a placeholder naming the language, the box in that language', async () => {
  const input = await page.$eval('#playground', (element) => {
    const box = element.shadowRoot.querySelector('textarea');
    const label = box.labels[0];
    const shown = label.getBoundingClientRect();
    return { label: label.textContent, labelShown: shown.width > 20 && shown.height > 8, placeholder: box.placeholder, lang: box.lang };
  });
  assert.deepEqual(input, { label: 'Text to translate', labelShown: true,
    placeholder: 'Type an English sentence, e.g. Two dogs are playing in the snow.', lang: 'en' });
  await page.$eval('#playground', (element) => element.removeAttribute('placeholder'));
  assert.equal(await page.$eval('#playground', (element) => element.shadowRoot.querySelector('textarea').placeholder), 'Type English here…');
  const hiddenLabel = await page.$eval('#greeting', (element) => element.shadowRoot.querySelector('label').checkVisibility());
  assert.equal(hiddenLabel, false, 'no label without an input box');
});

test('the element writes in the host page\'s font', async () => {
  const fonts = await page.evaluate(() => ({
    page: getComputedStyle(document.body).fontFamily,
    translation: getComputedStyle(document.querySelector('#greeting').shadowRoot.querySelector('.translation')).fontFamily,
    input: getComputedStyle(document.querySelector('#playground').shadowRoot.querySelector('textarea')).fontFamily,
  }));
  assert.equal(fonts.translation, fonts.page);
  assert.equal(fonts.input, fonts.page);
});

test('the host themes it with --attend-* custom properties and ::part()', async () => {
  const look = await page.evaluate(() => {
    const element = document.querySelector('#greeting');
    const style = getComputedStyle(element);
    return {
      background: style.backgroundColor,
      border: style.borderTopColor,
      sourceColor: getComputedStyle(element.shadowRoot.querySelector('.source')).color,
      translationStyle: getComputedStyle(element.shadowRoot.querySelector('.translation')).fontStyle,
    };
  });
  assert.deepEqual(look, { background: 'rgb(255, 253, 247)', border: 'rgb(217, 203, 176)', sourceColor: 'rgb(107, 95, 79)', translationStyle: 'italic' });
});

test('a translated sentence shows no progress bar or Stop button', async () => {
  const shown = await page.$eval('#greeting', (element) => ['.progress', 'button']
    .map((selector) => element.shadowRoot.querySelector(selector).checkVisibility()));
  assert.deepEqual(shown, [false, false]);
});

test('no console errors while it loads, translates and is typed into', async () => {
  await page.locator('#playground textarea').fill('Two dogs play in the snow.');
  await page.waitForFunction(() => document.querySelector('#playground').shadowRoot.querySelector('.translation').textContent !== '',
    null, { timeout: 60_000 });
  assert.deepEqual(consoleErrors, []);
});
