// Offline: after one visit the service worker has the app, the translator and the model,
// so with the server stopped a reload still translates, the same as before, and the page stays
// cross-origin isolated (the cached responses keep their headers); a new version
// of the service worker replaces the old caches; a model replaced on the server replaces
// the cached one at the next visit, an unchanged one is not downloaded again, and one the
// server fails to give (404) comes from the cache.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { makeServedRoot, REPO_ROOT } from './support/environment.mjs';
import { openApp, saveScreenshot, translate } from './support/app-page.mjs';
import { cliTranslate } from './support/cli.mjs';
import { startServer } from './support/server.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

let root;
let server;
let context;

before(async () => {
  root = makeServedRoot({ ownServiceWorker: true });
  ({ server, context } = await startServedBrowser(root));
});

after(() => stopServedBrowser({ server, context }));

// Every file the page or the element may load: web/ but its examples, docs and the
// service worker itself (the browser keeps that one).
function appFiles() {
  const web = join(REPO_ROOT, 'web');
  return readdirSync(web, { recursive: true })
    .filter((path) => /\.(js|mjs|css|html)$/.test(path) && !path.startsWith('examples') && path !== 'sw.js')
    .map((path) => `/web/${relative(web, join(web, path))}`);
}

test('a reload with the server stopped still translates', async () => {
  const page = await openApp(context, server.origin);
  assert.ok(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), 'the service worker controls the page');
  const online = await translate(page, 'A little girl climbs into a wooden playhouse.');
  const caches = await page.evaluate(() => globalThis.caches.keys());
  assert.deepEqual(caches.sort(), ['attend-models-v1', 'attend-shell-v1']);
  const cached = await page.evaluate(async () => (await (await globalThis.caches.open('attend-shell-v1')).keys())
    .map((request) => new URL(request.url).pathname));
  assert.deepEqual(appFiles().filter((path) => !cached.includes(path)), [], 'files the service worker does not keep');
  // The translator's threads (wasm/pool.mjs, for long documents) work offline too.
  assert.deepEqual(['/wasm/pool.mjs', '/wasm/pool_worker.mjs'].filter((path) => !cached.includes(path)), []);

  await server.stop();
  await page.reload();
  await page.waitForSelector('body[data-model="ready"]', { timeout: 60_000 });
  assert.equal(await translate(page, 'A little girl climbs into a wooden playhouse.'), online);
  // The cached responses keep their COOP/COEP headers: offline, the page is still cross-origin isolated.
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  await saveScreenshot(page, 'offline');
});

test('a new version of the service worker replaces the old caches', async () => {
  await server.stop();  // done already unless the test before failed early: a running one would keep node alive
  server = await startServer(root);
  const page = await openApp(context, server.origin);
  const serviceWorker = join(root, 'web/sw.js');
  writeFileSync(serviceWorker, readFileSync(serviceWorker, 'utf8').replace("const VERSION = '1';", "const VERSION = '2';"));
  // Its `activate` handler has finished (older caches deleted) once its state is "activated".
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration.update();
    const worker = registration.installing ?? registration.waiting ?? registration.active;
    await new Promise((resolve) => {
      if (worker.state === 'activated') resolve();
      worker.addEventListener('statechange', () => worker.state === 'activated' && resolve());
    });
  });
  assert.deepEqual(await page.evaluate(() => caches.keys()), ['attend-shell-v2']);
  await page.reload();
  await page.waitForSelector('body[data-model="ready"]', { timeout: 60_000 });
  assert.deepEqual((await page.evaluate(() => caches.keys())).sort(), ['attend-models-v2', 'attend-shell-v2']);
});

test('a model replaced on the server replaces the cached copy at the next visit; an unchanged one costs a 304; a server error falls back to the cache', async () => {
  const modelPath = '/models/en-de/model.int8.safetensors';
  const first = await fetch(server.origin + modelPath);
  await first.arrayBuffer();
  const unchanged = await fetch(server.origin + modelPath, { headers: { 'If-None-Match': first.headers.get('ETag') } });
  assert.equal(unchanged.status, 304, 'the server answers a request naming the current ETag with 304');

  const sentence = 'A little girl climbs into a wooden playhouse.';
  const page = await openApp(context, server.origin);  // the previous test's visit cached the en-de model
  assert.equal(await translate(page, sentence), cliTranslate(sentence));
  // The server's Date header of the cached response changes only when the cache takes a new download.
  const cachedDate = () => page.evaluate(async (url) => (await caches.match(url)).headers.get('Date'), server.origin + modelPath);
  const dateBefore = await cachedDate();
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await page.reload();
  await page.waitForSelector('body[data-model="ready"]', { timeout: 60_000 });
  assert.equal(await cachedDate(), dateBefore, 'the unchanged model came from the cache after a 304');

  const french = join(REPO_ROOT, 'models/en-fr/model.int8.safetensors');
  unlinkSync(join(root, modelPath));
  symlinkSync(french, join(root, modelPath));  // the served "en-de" file is now another model
  await page.reload();
  await page.waitForSelector('body[data-model="ready"]', { timeout: 60_000 });
  assert.equal(await translate(page, sentence), cliTranslate(sentence, { model: french }));
  const cachedSize = await page.evaluate(async (url) => (await (await caches.match(url)).arrayBuffer()).byteLength,
    server.origin + modelPath);
  assert.equal(cachedSize, statSync(french).size, 'the cache holds the new model');

  unlinkSync(join(root, modelPath));  // the server answers 404: the cached copy still serves
  await page.reload();
  await page.waitForSelector('body[data-model="ready"]', { timeout: 60_000 });
  assert.equal(await translate(page, sentence), cliTranslate(sentence, { model: french }));
});
