// web/worker.js keeps only the newest request: each older one is answered `dropped`
// (never started, or cancelled at its next token through the shared newest-request id),
// and only the newest is translated. Its client (web/app/worker-client.js) settles only
// the newest model load with its own model, and cancel(), load() and terminate() leave no
// request in flight to land later or to hang.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { withoutCrossOriginIsolation } from './support/browser.mjs';
import { cliTranslate } from './support/cli.mjs';
import { makeServedRoot, REPO_ROOT } from './support/environment.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

const DE_EN_MODEL = join(REPO_ROOT, 'models/de-en/model.int8.safetensors');
const EN_DE_URL = '/models/en-de/model.int8.safetensors';
const DE_EN_URL = '/models/de-en/model.int8.safetensors';

let server;
let context;

before(async () => {
  const root = makeServedRoot();
  symlinkSync(join(REPO_ROOT, 'models/de-en'), join(root, 'models/de-en'));  // a second model
  ({ server, context } = await startServedBrowser(root, { serviceWorkers: 'block' }));
});

after(() => stopServedBrowser({ server, context }));

test('superseded requests are dropped, only the newest is translated', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);  // any page of the origin
  const answers = await page.evaluate(async () => {
    const worker = new Worker('/web/worker.js', { type: 'module' });
    const newestRequest = new Int32Array(new SharedArrayBuffer(4));
    const messages = [];
    const answered = new Promise((resolve) => {
      worker.onmessage = ({ data }) => {
        if (data.type === 'ready') {
          // Four requests at once, the page having already sent the fourth.
          Atomics.store(newestRequest, 0, 4);
          ['A dog.', 'A dog runs.', 'A dog runs on the beach.', 'A dog runs on the beach with a ball.']
            .forEach((text, index) => worker.postMessage({ type: 'translate', id: index + 1, text, options: { beam: 4 } }));
        } else if (data.type !== 'progress') {
          messages.push({ type: data.type, id: data.id, text: data.result?.text, message: data.message });
          if (messages.filter((message) => message.type !== 'token').length === 4) resolve();
        }
      };
    });
    worker.postMessage({ type: 'init', newestRequest });
    worker.postMessage({ type: 'load', id: 1, source: new URL('/models/en-de/model.int8.safetensors', location.href).href });
    await answered;
    worker.terminate();
    return { crossOriginIsolated, messages };
  });
  assert.equal(answers.crossOriginIsolated, true, 'scripts/serve.mjs serves pages cross-origin isolated');
  const byId = Object.fromEntries(answers.messages.map((message) => [message.id, message]));
  assert.deepEqual([1, 2, 3].map((id) => byId[id].type), ['dropped', 'dropped', 'dropped'], JSON.stringify(answers.messages));
  assert.equal(byId[4].type, 'result', JSON.stringify(byId[4]));
  assert.ok(byId[4].text.length > 0);
});

test('every request is answered once: a lane\'s cancel or close answers its request not yet started `dropped`', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);  // any page of the origin
  const messages = await page.evaluate(async (url) => {
    const worker = new Worker('/web/worker.js', { type: 'module' });
    const seen = [];
    const done = new Promise((resolve) => {
      worker.onmessage = ({ data }) => {
        if (data.type === 'ready') {
          // A long request on lane 0, then one each on lanes 1 and 2, cancelled and closed before they start.
          worker.postMessage({ type: 'translate', id: 1, lane: 0, text: 'A man in a red jacket is climbing a steep rock wall.', options: { beam: 4 } });
          worker.postMessage({ type: 'translate', id: 2, lane: 1, text: 'A dog.', options: { beam: 4 } });
          worker.postMessage({ type: 'translate', id: 3, lane: 2, text: 'A cat.', options: { beam: 4 } });
          worker.postMessage({ type: 'cancel', lane: 1 });
          worker.postMessage({ type: 'close', lane: 2 });
        } else if (data.type === 'result' || data.type === 'dropped') {
          seen.push(`${data.id} ${data.type}`);
          if (seen.length === 3) setTimeout(() => resolve(seen), 500);  // time for a stray answer
        }
      };
    });
    worker.postMessage({ type: 'load', id: 1, source: new URL(url, location.href).href });
    const answers = await done;
    worker.terminate();
    return answers;
  }, EN_DE_URL);
  assert.deepEqual(messages.sort(), ['1 result', '2 dropped', '3 dropped']);
});

// Runs fn(argument) in a page of the served origin, where the globals TranslationWorker
// (web/app/worker-client.js) and settled(promise) ('resolved' or the error's code) are set.
// Downloads of the path `slow` are held for a second, so loads end in a known order. With
// `isolated` false the page is served as most sites are, without cross-origin isolation.
async function inPage(fn, argument, { slow, isolated = true } = {}) {
  const page = await context.newPage();
  if (!isolated) await withoutCrossOriginIsolation(page);
  if (slow) {
    await page.route(`**${slow}`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
  }
  await page.goto(`${server.origin}/web/examples/embed.html`);
  try {
    await page.evaluate(async () => {
      globalThis.TranslationWorker = (await import('/web/app/worker-client.js')).TranslationWorker;
      globalThis.settled = (promise) => promise.then(() => 'resolved', (error) => error.code);
    });
    return await page.evaluate(fn, argument);
  } finally {
    await page.close();
  }
}

test('of two overlapping model loads only the newer settles with a model, and it translates', async () => {
  // The older load reads bytes already in memory, the newer's download is held: the older ends first.
  const olderEndsFirst = await inPage(async (urls) => {
    const bytes = await (await fetch(urls.deEn)).arrayBuffer();
    const worker = new TranslationWorker();
    const older = settled(worker.load(bytes));
    await worker.load(new URL(urls.enDe, location.href).href);
    const { result } = await worker.translate('A dog runs on the beach.', { beam: 4 });
    worker.terminate();
    return { older: await older, text: result.text };
  }, { enDe: EN_DE_URL, deEn: DE_EN_URL }, { slow: EN_DE_URL });
  assert.equal(olderEndsFirst.older, 'superseded');
  assert.equal(olderEndsFirst.text, cliTranslate('A dog runs on the beach.', { beam: 4 }));

  // The older load's download is held, so the newer ends first; the older must not take over.
  const newerEndsFirst = await inPage(async (urls) => {
    const bytes = await (await fetch(urls.deEn)).arrayBuffer();
    const worker = new TranslationWorker();
    const older = settled(worker.load(new URL(urls.enDe, location.href).href));
    await worker.load(bytes);
    const texts = [];
    for (let i = 0; i < 12; i++) {  // 3 s: the older download and load end well within it
      texts.push((await worker.translate('Ein Hund rennt am Strand.', { beam: 4 })).result.text);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    worker.terminate();
    return { older: await older, texts };
  }, { enDe: EN_DE_URL, deEn: DE_EN_URL }, { slow: EN_DE_URL });
  assert.equal(newerEndsFirst.older, 'superseded');
  const expected = cliTranslate('Ein Hund rennt am Strand.', { beam: 4, model: DE_EN_MODEL });
  assert.deepEqual(newerEndsFirst.texts, Array(12).fill(expected));
});

test('cancel() and load() supersede the translation in flight; after terminate() requests reject', async () => {
  const outcomes = await inPage(async (url) => {
    const worker = new TranslationWorker();
    const modelUrl = new URL(url, location.href).href;
    await worker.load(modelUrl);
    const sentence = 'A man in a red jacket is climbing a steep rock wall while his friends watch from below.';
    const cancelled = settled(worker.translate(sentence, { beam: 4 }));
    worker.cancel();
    const beforeLoad = settled(worker.translate(sentence, { beam: 4 }));
    await worker.load(modelUrl);
    const { result } = await worker.translate('A dog runs.', { beam: 4 });  // the worker still works
    worker.terminate();
    const timeout = new Promise((resolve) => setTimeout(() => resolve('pending after 5 s'), 5000));
    const afterStop = await Promise.all([
      Promise.race([settled(worker.load(modelUrl)), timeout]),
      Promise.race([settled(worker.translate('A dog runs.', {})), timeout]),
    ]);
    return { cancelled: await cancelled, beforeLoad: await beforeLoad, text: result.text, afterStop };
  }, EN_DE_URL);
  assert.equal(outcomes.cancelled, 'superseded');
  assert.equal(outcomes.beforeLoad, 'superseded');
  assert.equal(outcomes.text, cliTranslate('A dog runs.', { beam: 4 }));
  assert.deepEqual(outcomes.afterStop, ['terminated', 'terminated']);
});

test('on a page that is not cross-origin isolated, cancel() and newer requests leave only the newest result', async () => {
  // Without a shared id the worker cannot stop a request that is decoding: it runs to its end,
  // and its result must settle nothing.
  const outcomes = await inPage(async (url) => {
    const worker = new TranslationWorker();
    await worker.load(new URL(url, location.href).href);
    const sentence = 'A man in a red jacket is climbing a steep rock wall while his friends watch from below.';
    // Each request is left at its first token: the worker is decoding it, and its result is
    // a later task than the call that supersedes it.
    const decoding = (resolve) => ({ onToken: () => resolve() });  // resolving again does nothing
    let cancelled;
    await new Promise((resolve) => { cancelled = settled(worker.translate(sentence, { beam: 4 }, decoding(resolve))); });
    worker.cancel();
    let superseded;
    await new Promise((resolve) => { superseded = settled(worker.translate(sentence, { beam: 4 }, decoding(resolve))); });
    const { result } = await worker.translate('A dog runs.', { beam: 4 });
    worker.terminate();
    return { isolated: crossOriginIsolated, cancelled: await cancelled, superseded: await superseded, text: result.text };
  }, EN_DE_URL, { isolated: false });
  assert.equal(outcomes.isolated, false);
  assert.equal(outcomes.cancelled, 'superseded');
  assert.equal(outcomes.superseded, 'superseded');
  assert.equal(outcomes.text, cliTranslate('A dog runs.', { beam: 4 }));
});

test('lanes of one worker: each lane\'s requests supersede only its own, and a closed lane\'s request is dropped', async () => {
  const outcomes = await inPage(async (url) => {
    const worker = new TranslationWorker();
    await worker.load(new URL(url, location.href).href);
    const [first, second, third] = [worker.openLane(), worker.openLane(), worker.openLane()];
    const sentence = 'A man in a red jacket is climbing a steep rock wall while his friends watch from below.';
    const text = (promise) => promise.then(({ result }) => result.text, (error) => error.code);
    const firstLong = text(first.translate(sentence, { beam: 4 }));
    const secondOlder = text(second.translate('A dog.', { beam: 4 }));
    const secondNewer = text(second.translate('A dog runs.', { beam: 4 }));
    const thirdClosed = text(third.translate('A cat.', { beam: 4 }));
    third.close();
    const ownLane = text(worker.translate('Two dogs play in the snow.', { beam: 4 }));
    const results = await Promise.all([firstLong, secondOlder, secondNewer, thirdClosed, ownLane]);
    worker.terminate();
    return results;
  }, EN_DE_URL);
  const cli = (text) => cliTranslate(text, { beam: 4 });
  assert.deepEqual(outcomes, [cli('A man in a red jacket is climbing a steep rock wall while his friends watch from below.'),
    'superseded', cli('A dog runs.'), 'superseded', cli('Two dogs play in the snow.')]);
});

test('a document of more than 32 sentences goes to 2 worker threads, isolated or not, and reads as on one', async () => {
  for (const isolated of [true, false]) {
    const outcome = await inPage(async (url) => {
      const sentences = ['A dog runs through the snow.', 'Two children are playing football on the beach.',
        'A woman is reading a book.', 'Mr. Smith is cooking in the kitchen.', 'An old man sits on a bench.'];
      const text = Array.from({ length: 16 }, (_, p) => `${sentences.map((s, i) => (i === p % 5 ? s.toUpperCase() : s)).join(' ')}`)
        .join('\n\n');  // 80 sentences in 16 paragraphs, not all alike
      const worker = new TranslationWorker();
      await worker.load(new URL(url, location.href).href);
      const progress = [];
      const { document, timing } = await worker.translate(text, {}, { document: true, onProgress: (p) => progress.push(p.sentencesDone) });
      worker.terminate();
      const { Translator } = await import('/wasm/attend.mjs');
      const alone = await Translator.load(new URL(url, location.href).href);
      const expected = await alone.translateDocument(text);
      alone.dispose();
      return { isolated: crossOriginIsolated, cores: navigator.hardwareConcurrency, threads: timing.threads, progress,
        same: document.text === expected.text, sentences: expected.segments.filter((s) => s.translation).length };
    }, EN_DE_URL, { isolated });
    assert.equal(outcome.isolated, isolated);
    assert.equal(outcome.sentences, 80);
    assert.equal(outcome.threads, outcome.cores >= 2 ? 2 : 1, JSON.stringify(outcome));
    assert.ok(outcome.same, 'the pooled document reads as one Translator translates it');
    assert.equal(outcome.progress.at(-1), 80);
  }
});
