// <attend-translator> given bad attributes, text it cannot translate, a failed download or a
// move in the document: each failure is one attend-error with a code, no translation of
// another text or model stays on screen, and a move keeps the model it has loaded.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cliTranslate } from './support/cli.mjs';
import { makeServedRoot } from './support/environment.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

const MODEL_PATH = '/models/en-de/model.int8.safetensors';
// A page of the served origin with the element's script and nothing else that starts a worker.
const BLANK_PAGE = '/element-errors-test.html';
const BLANK_HTML = '<!doctype html><title>test</title><script type="module" src="/web/element/attend-translator.js"></script><aside></aside>';

let server;
let context;

before(async () => ({ server, context } = await startServedBrowser(makeServedRoot())));

after(() => stopServedBrowser({ server, context }));

// A page with one element for the en-de model (not yet in the document) whose events are
// recorded in globalThis.events as `attend-ready`, `attend-error code: message` or
// `attend-translation text`. holdModel holds its download 1.5 s, failModel refuses it; csp is
// a Content-Security-Policy for the page.
async function pageWithElement(text, { holdModel = false, failModel = false, csp } = {}) {
  const page = await context.newPage();
  const headers = csp ? { 'Content-Security-Policy': csp } : {};
  await page.route(`**${BLANK_PAGE}`, (route) => route.fulfill({ contentType: 'text/html', headers, body: BLANK_HTML }));
  if (holdModel || failModel) {
    await page.route(`**${MODEL_PATH}`, async (route) => {
      if (failModel) return route.abort('connectionrefused');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
  }
  await page.goto(`${server.origin}${BLANK_PAGE}`);
  await page.waitForFunction(() => customElements.get('attend-translator'));
  await page.evaluate(({ modelPath, content }) => {
    const element = document.createElement('attend-translator');
    element.id = 'under-test';
    element.setAttribute('model', modelPath);
    element.setAttribute('attention', '');
    element.textContent = content;
    globalThis.events = [];
    element.addEventListener('attend-ready', () => globalThis.events.push('attend-ready'));
    element.addEventListener('attend-error', (event) => globalThis.events.push(`attend-error ${event.detail.code}: ${event.detail.message}`));
    element.addEventListener('attend-translation', (event) => globalThis.events.push(`attend-translation ${event.detail.text}`));
    globalThis.underTest = element;
  }, { modelPath: MODEL_PATH, content: text });
  return page;
}

// Runs `code` (a statement over `element`) in the page, waits until `count` events have been
// recorded, then `settle` ms more for any that should not come; returns the events since.
async function eventsAfter(page, code, { count = 1, settle = 1000 } = {}) {
  return page.evaluate(async ({ source, wanted, quiet }) => {
    const start = globalThis.events.length;
    new Function('element', source)(globalThis.underTest);
    const deadline = Date.now() + 30_000;
    while (globalThis.events.length - start < wanted && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, quiet));
    return globalThis.events.slice(start);
  }, { source: code, wanted: count, quiet: settle });
}

const shown = (page) => page.evaluate(() => {
  const root = globalThis.underTest.shadowRoot;
  return {
    translation: root.querySelector('.translation').textContent,
    heatmapHidden: root.querySelector('.heatmap').hidden,
    status: root.querySelector('.status').textContent,
  };
});

const translated = (text, options = {}) => `attend-translation ${cliTranslate(text, { beam: 4, alpha: 1.0, ...options })}`;

test('removing the model attribute, or one that is not a URL, stops the model in use and the load in flight', async () => {
  const page = await pageWithElement('A dog runs on the beach.', { holdModel: true });
  const whileLoading = await eventsAfter(page, `
    document.body.append(element);
    setTimeout(() => element.removeAttribute('model'), 200);  // its download is held for 1.5 s`, { settle: 3000 });
  assert.deepEqual(whileLoading, ['attend-error invalid_argument: the model attribute is missing']);
  assert.deepEqual(await eventsAfter(page, 'element.setAttribute("src-text", "Two dogs play.");', { count: 0 }), []);
  assert.equal((await shown(page)).translation, '');

  const loaded = await eventsAfter(page, `element.setAttribute('model', ${JSON.stringify(MODEL_PATH)});`, { count: 2 });
  assert.deepEqual(loaded, ['attend-ready', translated('Two dogs play.')]);
  const notUrl = await eventsAfter(page, 'element.setAttribute("model", "http://[::1");');
  assert.deepEqual(notUrl, ['attend-error invalid_argument: the model attribute "http://[::1" is not a URL']);
  assert.deepEqual(await eventsAfter(page, 'element.setAttribute("src-text", "A cat sleeps.");', { count: 0 }), []);
  assert.equal((await shown(page)).translation, '');
});

test('a text that cannot be translated clears the translation shown; emptying the text clears the error', async () => {
  const page = await pageWithElement('A dog runs on the beach.');
  assert.deepEqual(await eventsAfter(page, 'document.body.append(element);', { count: 2 }),
    ['attend-ready', translated('A dog runs on the beach.')]);
  const failed = await eventsAfter(page, 'element.setAttribute("src-text", "A dog \\uD800 runs.");');
  assert.equal(failed.length, 1);
  assert.match(failed[0], /^attend-error invalid_input: .*lone surrogate/);
  assert.deepEqual(await shown(page), { translation: '', heatmapHidden: true, status: `Translation unavailable: ${failed[0].replace(/^[^:]*: /, '')}` });
  assert.deepEqual(await eventsAfter(page, 'element.setAttribute("src-text", "");', { count: 0 }), []);
  assert.deepEqual(await shown(page), { translation: '', heatmapHidden: true, status: '' });

  // Only invisible characters (a zero-width space, as editors leave): nothing to translate, no error.
  await eventsAfter(page, 'element.setAttribute("src-text", "A cat.");');
  assert.deepEqual(await eventsAfter(page, 'element.setAttribute("src-text", "\\u200B");', { count: 0 }), []);
  assert.deepEqual(await shown(page), { translation: '', heatmapHidden: true, status: '' });
});

test('beam and alpha: an empty value is the default, a malformed one an error naming it, a huge one the core\'s error', async () => {
  const text = 'A woman rides a bike.';
  const page = await pageWithElement(text);
  await eventsAfter(page, 'document.body.append(element);', { count: 2 });
  const cases = [
    ['element.setAttribute("beam", "abc")', 'attend-error invalid_argument: beam="abc" is not a whole number'],
    ['element.setAttribute("beam", "1")', translated(text, { beam: 1 })],
    ['element.setAttribute("beam", "")', translated(text)],  // the default, 4
    ['element.setAttribute("beam", "4294967297")', /^attend-error invalid_argument: option beam must be an integer/],
    ['element.removeAttribute("beam"); element.setAttribute("alpha", "-")', 'attend-error invalid_argument: alpha="-" is not a number'],
    ['element.setAttribute("alpha", "0.2")', translated(text, { alpha: 0.2 })],
    ['element.setAttribute("alpha", " ")', translated(text)],  // the default, 1.0
  ];
  for (const [change, expected] of cases) {
    const events = await eventsAfter(page, change, { settle: 300 });
    assert.equal(events.length, 1, `${change}: ${events}`);
    if (expected instanceof RegExp) assert.match(events[0], expected, change);
    else assert.equal(events[0], expected, change);
  }
});

test('a download that fails is an io error naming the model; reload() tries again', async () => {
  const page = await pageWithElement('A dog runs on the beach.', { failModel: true });
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const failed = await eventsAfter(page, 'document.body.append(element);');
  assert.deepEqual(pageErrors, [], 'a failed load nobody awaits (element.ready) is no unhandled rejection');
  assert.equal(failed.length, 1);
  assert.match(failed[0], new RegExp(`^attend-error io: cannot fetch ${server.origin}${MODEL_PATH}`));
  await page.unroute(`**${MODEL_PATH}`);
  assert.deepEqual(await eventsAfter(page, 'element.reload();', { count: 2 }),
    ['attend-ready', translated('A dog runs on the beach.')]);
});

test('ready: the model\'s info once it is loaded, the error of a failed load, a new promise for each model', async () => {
  const page = await pageWithElement('A dog runs on the beach.', { failModel: true });
  const failed = await page.evaluate(() => {
    const { ready } = globalThis.underTest;  // taken before the element is in the document
    document.body.append(globalThis.underTest);
    return ready.then(() => 'resolved', (error) => error);
  });
  assert.equal(failed.code, 'io');
  assert.match(failed.message, new RegExp(`^cannot fetch ${server.origin}${MODEL_PATH}`));
  await page.unroute(`**${MODEL_PATH}`);
  const loaded = await page.evaluate(async () => {
    const element = globalThis.underTest;
    const failedLoad = element.ready;
    const announced = new Promise((resolve) => element.addEventListener('attend-ready', (event) => resolve(event.detail), { once: true }));
    element.reload();
    const info = await element.ready;
    return { newPromise: element.ready !== failedLoad, info, announced: await announced, stillReady: (await element.ready) === info };
  });
  assert.deepEqual(loaded.info, loaded.announced);
  assert.equal(loaded.info.tgtVocabSize, 8000);
  assert.ok(loaded.newPromise && loaded.stillReady);
  const unset = await page.evaluate(() => {
    globalThis.underTest.removeAttribute('model');
    return globalThis.underTest.ready.then(() => 'resolved', (error) => error);
  });
  assert.deepEqual(unset, { code: 'invalid_argument', message: 'the model attribute is missing' });

  const settledWithin = (ms) => `Promise.race([element.ready.then(() => 'resolved', () => 'rejected'),
    new Promise((resolve) => setTimeout(() => resolve('pending'), ${ms}))])`;
  const states = await page.evaluate(new Function(`return (async () => {
    const element = globalThis.underTest;
    element.setAttribute('model', ${JSON.stringify(MODEL_PATH)});
    const loaded = await ${settledWithin(30_000)};
    element.remove();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const removed = await ${settledWithin(500)};
    document.body.append(element);
    return { loaded, removed, inserted: await ${settledWithin(30_000)} };
  })()`));
  assert.deepEqual(states, { loaded: 'resolved', removed: 'pending', inserted: 'resolved' });
});

test('moving a loaded element keeps its worker and model; target-lang labels the translation', async () => {
  const page = await pageWithElement('A dog runs on the beach.');
  await eventsAfter(page, 'document.body.append(element);', { count: 2 });
  assert.equal(page.workers().length, 1);
  const moved = await eventsAfter(page, `
    document.querySelector('aside').prepend(element);  // removed and inserted in one task, as lists reorder
    element.setAttribute('src-text', 'Two dogs play in the snow.');`);
  assert.deepEqual(moved, [translated('Two dogs play in the snow.')]);  // no second attend-ready
  assert.equal(page.workers().filter((worker) => worker.url().endsWith('/web/worker.js')).length, 1);

  await page.evaluate(() => globalThis.underTest.setAttribute('target-lang', 'de'));
  assert.equal(await page.evaluate(() => globalThis.underTest.shadowRoot.querySelector('.translation').lang), 'de');
  const removed = await eventsAfter(page, 'element.remove();', { count: 0, settle: 1000 });
  assert.deepEqual(removed, []);
  assert.equal(page.workers().length, 0, 'a removed element stops its worker');
});

test('reload() after the worker failed to start starts a new one', async () => {
  const page = await pageWithElement('A dog runs on the beach.');
  await page.route('**/web/worker.js', (route) => route.abort('connectionrefused'));
  const failed = await eventsAfter(page, 'document.body.append(element);');
  assert.equal(failed.length, 1);
  assert.match(failed[0], /^attend-error worker: /);
  await page.unroute('**/web/worker.js');
  assert.deepEqual(await eventsAfter(page, 'element.reload();', { count: 2 }),
    ['attend-ready', translated('A dog runs on the beach.')]);
});

test('an element inserted before its model attribute is set loads that model with no error', async () => {
  const page = await pageWithElement('A dog runs on the beach.');
  const events = await eventsAfter(page, `
    element.removeAttribute('model');
    document.body.append(element);
    element.setAttribute('model', ${JSON.stringify(MODEL_PATH)});`, { count: 2 });
  assert.deepEqual(events, ['attend-ready', translated('A dog runs on the beach.')]);
});

test('on a page whose Content Security Policy allows no worker, the element reports a worker error', async () => {
  const page = await pageWithElement('A dog runs on the beach.', { csp: "worker-src 'none'" });
  const failed = await eventsAfter(page, 'document.body.append(element);');
  assert.equal(failed.length, 1, String(failed));
  assert.match(failed[0], /^attend-error worker: /);
  assert.match((await shown(page)).status, /^Translation unavailable: /);
});

test('when the browser refuses to create the worker (a script from another origin), the element reports a worker error', async () => {
  const page = await pageWithElement('A dog runs on the beach.');
  await page.evaluate(() => {
    // As new Worker() throws for a worker script of another origin than the page's.
    globalThis.Worker = class { constructor() { throw new DOMException('the worker script is of another origin', 'SecurityError'); } };
  });
  const failed = await eventsAfter(page, 'document.body.append(element);');
  assert.deepEqual(failed, ['attend-error worker: the translation worker could not be created: the worker script is of another origin']);
  assert.equal((await shown(page)).status, 'Translation unavailable: the translation worker could not be created: the worker script is of another origin');
});

test('an element inserted and removed in the same task starts no worker', async () => {
  const page = await pageWithElement('A dog runs on the beach.');
  await page.evaluate(() => {
    globalThis.workersCreated = 0;
    globalThis.Worker = class extends Worker {
      constructor(...args) {
        super(...args);
        globalThis.workersCreated += 1;
      }
    };
  });
  assert.deepEqual(await eventsAfter(page, 'document.body.append(element); element.remove();', { count: 0 }), []);
  assert.equal(await page.evaluate(() => globalThis.workersCreated), 0);
  assert.deepEqual(await eventsAfter(page, 'document.body.append(element);', { count: 2 }),
    ['attend-ready', translated('A dog runs on the beach.')]);
  assert.equal(await page.evaluate(() => globalThis.workersCreated), 1, 'the counting works');
});
