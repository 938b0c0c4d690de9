// web/examples/embed.html: <attend-translator> elements on an unrelated page translate
// their text (as the CLI does), draw their attention, and their own input box works.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './support/browser.mjs';
import { cliTranslate } from './support/cli.mjs';
import { makeServedRoot } from './support/environment.mjs';
import { saveScreenshot } from './support/app-page.mjs';
import { startServer } from './support/server.mjs';

let server;
let context;

before(async () => {
  server = await startServer(makeServedRoot());
  context = await launchBrowser();
});

after(async () => {
  await context?.close();
  await server?.stop();
});

// Resolves with the detail of the element's next attend-translation event.
const nextTranslation = (page, id) => page.evaluate((elementId) => new Promise((resolve, reject) => {
  const element = document.getElementById(elementId);
  element.addEventListener('attend-translation', (event) => resolve({ text: event.detail.text }), { once: true });
  element.addEventListener('attend-error', (event) => reject(new Error(event.detail.message)), { once: true });
}), id);

test('the embedded elements translate', async () => {
  const page = await context.newPage();
  await page.addInitScript(() => {
    globalThis.attendEvents = [];
    for (const type of ['attend-ready', 'attend-translation', 'attend-error']) {
      document.addEventListener(type, (event) => globalThis.attendEvents.push(`${type} #${event.target.id}`));
    }
  });
  await page.goto(`${server.origin}/web/examples/embed.html`);
  const greetingText = 'A group of people are walking up a hill.';
  await page.waitForFunction(() => document.querySelector('#greeting').shadowRoot.querySelector('.translation').textContent !== '', null, { timeout: 60_000 });
  const shown = await page.$eval('#greeting', (element) => element.shadowRoot.querySelector('.translation').textContent);
  assert.equal(shown, cliTranslate(greetingText, { beam: 4, alpha: 1.0 }));
  assert.equal(await page.$eval('#greeting', (element) => element.shadowRoot.querySelector('.heatmap').hidden), false);

  const translated = nextTranslation(page, 'playground');
  await page.fill('#playground textarea', 'Two dogs play in the snow.');
  assert.equal((await translated).text, cliTranslate('Two dogs play in the snow.', { beam: 4, alpha: 1.0 }));
  const retranslated = nextTranslation(page, 'greeting');
  await page.$eval('#greeting', (element) => element.setAttribute('src-text', 'A boy jumps into a lake.'));
  assert.equal((await retranslated).text, cliTranslate('A boy jumps into a lake.', { beam: 4, alpha: 1.0 }));

  const events = await page.evaluate(() => globalThis.attendEvents);
  for (const expected of ['attend-ready #greeting', 'attend-translation #greeting', 'attend-ready #playground', 'attend-translation #playground']) {
    assert.ok(events.includes(expected), `${expected} in ${events}`);
  }
  assert.ok(!events.some((event) => event.startsWith('attend-error')), String(events));
  await saveScreenshot(page, 'embed');
});

test('an element with a model that cannot be loaded reports attend-error', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);
  const error = await page.evaluate(() => new Promise((resolve) => {
    const element = document.createElement('attend-translator');
    element.setAttribute('model', '/models/missing.safetensors');
    element.textContent = 'Hello.';
    element.addEventListener('attend-error', (event) => resolve(event.detail));
    document.body.append(element);
  }));
  assert.ok(error.code && error.message, JSON.stringify(error));
});
