// web/examples/embed.html: <attend-translator> elements on an unrelated page translate
// their text (as the CLI does), draw their attention, and their own input box works.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { withoutCrossOriginIsolation } from './support/browser.mjs';
import { cliTranslate } from './support/cli.mjs';
import { makeServedRoot } from './support/environment.mjs';
import { saveScreenshot } from './support/app-page.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

let server;
let context;

before(async () => ({ server, context } = await startServedBrowser(makeServedRoot())));

after(() => stopServedBrowser({ server, context }));

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

// Adds an element for the shipped en-de model to the page; returns a handle to it.
const addElement = (page, text) => page.evaluateHandle((content) => {
  const element = document.createElement('attend-translator');
  element.setAttribute('model', '../../models/en-de/model.int8.safetensors');
  element.textContent = content;
  globalThis.attendErrors = [];
  element.addEventListener('attend-error', (event) => globalThis.attendErrors.push(event.detail.message));
  return element;
}, text);

test('editing the element\'s text in place re-translates it; emptying it clears the translation', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);
  const element = await addElement(page, 'A dog runs on the beach.');
  const first = element.evaluate((e) => new Promise((resolve) => {
    e.addEventListener('attend-translation', (event) => resolve(event.detail.text), { once: true });
    document.body.append(e);
  }));
  assert.equal(await first, cliTranslate('A dog runs on the beach.', { beam: 4, alpha: 1.0 }));
  const edited = element.evaluate((e) => new Promise((resolve, reject) => {
    e.addEventListener('attend-translation', (event) => resolve(event.detail.text), { once: true });
    setTimeout(() => reject(new Error('no translation 20 s after the text was edited')), 20_000);
    e.firstChild.nodeValue = 'Two children are playing in the snow.';  // as frameworks update text
  }));
  assert.equal(await edited, cliTranslate('Two children are playing in the snow.', { beam: 4, alpha: 1.0 }));
  const translationsAfterUnchangedText = await element.evaluate((e) => new Promise((resolve) => {
    let count = 0;
    e.addEventListener('attend-translation', () => { count += 1; });
    e.append(document.createComment('note'));  // the text stays the same (an element would make it markup: html.test.mjs)
    e.firstChild.nodeValue = e.firstChild.nodeValue;  // a mutation record, the same text
    setTimeout(() => resolve(count), 1500);  // ample for a translation to land, were one asked for
  }));
  assert.equal(translationsAfterUnchangedText, 0);
  await element.evaluate((e) => { e.firstChild.nodeValue = ''; });
  await element.evaluate((e) => new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error('the translation is still shown 5 s after the text was emptied')), 5000);
    const poll = () => (e.shadowRoot.querySelector('.translation').textContent === '' ? resolve() : setTimeout(poll, 50));
    poll();
  }));
  assert.deepEqual(await page.evaluate(() => globalThis.attendErrors), []);
});

test('caption-rules turns the caption model\'s rules off and on as the CLI\'s --caption-rules does; a bad value is an error', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);
  const question = 'Where is the dog going?';
  const element = await addElement(page, question);
  const translationOf = (change) => element.evaluate((e, changeAttribute) => new Promise((resolve, reject) => {
    e.addEventListener('attend-translation', (event) => resolve(event.detail.text), { once: true });
    e.addEventListener('attend-error', (event) => reject(new Error(event.detail.message)), { once: true });
    if (changeAttribute) e.setAttribute('caption-rules', changeAttribute);
    else document.body.append(e);
  }), change);
  const auto = await translationOf(null);
  assert.equal(auto, cliTranslate(question, { beam: 4, alpha: 1.0 }));
  const off = await translationOf('off');
  assert.equal(off, cliTranslate(question, { beam: 4, alpha: 1.0, captionRules: 'off' }));
  assert.notEqual(off, auto, 'the rules keep the question\'s "?"');
  assert.equal(await translationOf('on'), auto);
  const error = await element.evaluate((e) => new Promise((resolve) => {
    e.addEventListener('attend-error', (event) => resolve(event.detail), { once: true });
    e.setAttribute('caption-rules', 'maybe');
  }));
  assert.equal(error.code, 'invalid_argument');
  assert.match(error.message, /caption-rules="maybe"/);
});

test('an element moved in the document while it loads reports no error and translates', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);
  const element = await addElement(page, 'A dog runs on the beach.');
  const translated = element.evaluate((e) => new Promise((resolve) => {
    e.addEventListener('attend-translation', (event) => resolve(event.detail.text), { once: true });
    document.body.append(e);
    document.querySelector('aside').append(e);  // removed and inserted again, in one task
  }));
  assert.equal(await translated, cliTranslate('A dog runs on the beach.', { beam: 4, alpha: 1.0 }));
  await page.waitForTimeout(1000);  // the stopped worker's rejections have landed
  assert.deepEqual(await page.evaluate(() => globalThis.attendErrors), []);
  assert.equal(await element.evaluate((e) => e.shadowRoot.querySelector('.status').textContent), '');
});

test('on a page that is not cross-origin isolated, as most sites are, the elements translate and only the newest text lands', async () => {
  const page = await context.newPage();
  await withoutCrossOriginIsolation(page);
  await page.goto(`${server.origin}/web/examples/embed.html`);
  assert.equal(await page.evaluate(() => crossOriginIsolated), false);
  await page.waitForFunction(() => document.querySelector('#greeting').shadowRoot.querySelector('.translation').textContent !== '', null, { timeout: 60_000 });
  const shown = await page.$eval('#greeting', (element) => element.shadowRoot.querySelector('.translation').textContent);
  assert.equal(shown, cliTranslate('A group of people are walking up a hill.', { beam: 4, alpha: 1.0 }));

  // Each text supersedes the one before (decoding or not yet started; tests/e2e/worker.test.mjs
  // makes sure of the decoding case): only the newest text's translation may land.
  const texts = ['A man in a red jacket is climbing a steep rock wall while his friends watch from below.',
    'Two dogs play in the snow.', 'A boy jumps into a lake.'];
  const landed = await page.$eval('#greeting', (element, sources) => new Promise((resolve, reject) => {
    const seen = [];
    element.addEventListener('attend-error', (event) => reject(new Error(event.detail.message)));
    element.addEventListener('attend-translation', (event) => {
      seen.push(event.detail.text);
      if (seen.length === 1) setTimeout(() => resolve(seen), 1500);  // ample for a stale result to follow
    });
    for (const text of sources) element.setAttribute('src-text', text);
  }), texts);
  assert.deepEqual(landed, [cliTranslate(texts[2], { beam: 4, alpha: 1.0 })]);
  assert.equal(await page.$eval('#greeting', (element) => element.shadowRoot.querySelector('.translation').textContent), landed[0]);
});

test('the elements of one model share one worker, each one\'s texts supersede only its own, and the last one removed stops it', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);
  await page.waitForFunction(() => document.querySelector('#greeting').shadowRoot.querySelector('.translation').textContent !== '', null, { timeout: 60_000 });
  assert.equal(page.workers().length, 1, 'the two elements of embed.html have one worker');

  // Both elements are given a new text in the same task: each translation lands.
  const texts = { greeting: 'A man in a red jacket is climbing a steep rock wall while his friends watch from below.', playground: 'Two dogs play in the snow.' };
  const landed = await page.evaluate((sources) => Promise.all(Object.entries(sources).map(([id, text]) => {
    const element = document.getElementById(id);
    const translated = new Promise((resolve, reject) => {
      element.addEventListener('attend-translation', (event) => resolve(event.detail.text), { once: true });
      element.addEventListener('attend-error', (event) => reject(new Error(event.detail.message)), { once: true });
      setTimeout(() => reject(new Error(`#${id} got no translation in 30 s`)), 30_000);
    });
    element.setAttribute('src-text', text);
    return translated;
  })), texts);
  assert.deepEqual(landed, Object.values(texts).map((text) => cliTranslate(text, { beam: 4, alpha: 1.0 })));

  // One of them removed: the other still translates with the same worker.
  await page.$eval('#greeting', (element) => element.remove());
  await page.waitForTimeout(500);
  const translated = nextTranslation(page, 'playground');
  await page.$eval('#playground', (element) => element.setAttribute('src-text', 'A boy jumps into a lake.'));
  assert.equal((await translated).text, cliTranslate('A boy jumps into a lake.', { beam: 4, alpha: 1.0 }));
  assert.equal(page.workers().length, 1);

  // The last one removed: the worker is stopped.
  const closed = page.workers()[0].waitForEvent('close', { timeout: 5000 }).then(() => 'closed', () => 'still running after 5 s');
  await page.$eval('#playground', (element) => element.remove());
  assert.equal(await closed, 'closed');
  assert.equal(page.workers().length, 0);
});

test('an element given several model URLs translates with them together (two copies: as the model)', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);
  const text = 'A man in a blue shirt is riding a bike down the street.';
  const result = await page.evaluate((content) => new Promise((resolve, reject) => {
    const element = document.createElement('attend-translator');
    const url = '../../models/en-de/model.int8.safetensors';
    element.setAttribute('model', `${url}  ${url}`);
    element.setAttribute('beam', '4');
    element.textContent = content;
    let members = 0;
    element.addEventListener('attend-ready', (event) => { members = event.detail.members; });
    element.addEventListener('attend-translation', (event) => resolve({ text: event.detail.text, members }), { once: true });
    element.addEventListener('attend-error', (event) => reject(new Error(event.detail.message)), { once: true });
    document.body.append(element);
  }), text);
  assert.equal(result.members, 2);
  assert.equal(result.text, cliTranslate(text, { beam: 4, alpha: 1.0 }));
});
