// Service worker: keeps the app, the translator (wasm) and the models for offline use.
// Online, every same-origin file comes from the network, so a visit gets the newest code and
// the newest model; offline, the last copy. Models (*.safetensors, megabytes) are asked for
// with their cached copy's ETag or Last-Modified, so an unchanged model costs a 304, not a
// download. Bump VERSION when the caches' contents change meaning: the new worker's
// `activate` deletes every cache of an older version.
const VERSION = '1';
const SHELL_CACHE = `attend-shell-v${VERSION}`;
const MODEL_CACHE = `attend-models-v${VERSION}`;
// The models a person imported (app/imported-models.js): theirs, kept across versions of the app.
const IMPORTED_CACHE = 'attend-imported-models';

// The app shell and the translator (wasm/README.md lists its files), relative to this
// file; cached on install so the page works offline even before it has used every file.
const SHELL_FILES = [
  './',
  'index.html',
  'styles.css',
  'worker.js',
  'app/ablation-view.js',
  'app/attention-data.js',
  'app/attention-json.js',
  'app/attention-mean.js',
  'app/attention-panel.js',
  'app/document-render.js',
  'app/document-view.js',
  'app/doubt-reason.js',
  'app/head-grid.js',
  'app/heatmap-canvas.js',
  'app/heatmap-view.js',
  'app/html-render.js',
  'app/import-languages.js',
  'app/imported-models.js',
  'app/language-codes.js',
  'app/line-view.js',
  'app/live-decoding-view.js',
  'app/main.js',
  'app/messages.js',
  'app/model-languages.js',
  'app/model-picker.js',
  'app/piece-names.js',
  'app/png-export.js',
  'app/progress-bar.js',
  'app/scroll-cue.js',
  'app/sentence-doubt.js',
  'app/service-worker-registration.js',
  'app/shipped-models.js',
  'app/target-language.js',
  'app/webassembly-support.js',
  'app/word-diff.js',
  'app/worker-client.js',
  'element/attend-translator.js',
  'element/shared-models.js',
  '../wasm/attend.mjs',
  '../wasm/pool.mjs',
  '../wasm/pool_worker.mjs',
  '../wasm/dist/attend-simd.mjs',
  '../wasm/dist/attend-simd.wasm',
  '../wasm/dist/attend-relaxed.wasm',
  '../wasm/dist/attend-nosimd.mjs',
  '../wasm/dist/attend-nosimd.wasm',
];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    await cache.addAll(SHELL_FILES);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const current = new Set([SHELL_CACHE, MODEL_CACHE, IMPORTED_CACHE]);
    for (const name of await caches.keys()) {
      if (name.startsWith('attend-') && !current.has(name)) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The cached copy if the server says it is still current (304), else the server's copy,
// which replaces it; the cached copy when the server cannot be reached or answers with an
// error (a proxy up with its backend down, a model moved).
async function revalidated(event, cacheName) {
  const { request } = event;
  const cache = await caches.open(cacheName);
  const cached = await cache.match(request);
  const validators = {};
  if (cached?.headers.has('ETag')) validators['If-None-Match'] = cached.headers.get('ETag');
  if (cached?.headers.has('Last-Modified')) validators['If-Modified-Since'] = cached.headers.get('Last-Modified');
  let response;
  try {
    response = await fetch(request.url, { cache: 'no-store', headers: validators });
  } catch (offline) {
    if (cached) return cached;
    throw offline;
  }
  if (cached && !response.ok) return cached;  // 304, or an error
  if (response.ok) event.waitUntil(store(event, cache, response.clone()).then((kept) => kept && announceModelKept(request.url)));
  return response;
}

async function networkFirst(event, cacheName) {
  const { request } = event;
  try {
    const response = await fetch(request);
    if (response.ok) store(event, await caches.open(cacheName), response.clone());
    return response;
  } catch (offline) {
    const cached = await caches.match(request, { ignoreSearch: true });
    if (cached) return cached;
    throw offline;
  }
}

// Caches the response to event's request; the worker stays alive until it is written. A
// write that fails (the storage quota, say) costs only the offline copy: the page has the
// network's response, and the console says what was not kept. Resolves with whether it was kept.
function store(event, cache, response) {
  const kept = cache.put(event.request, response).then(() => true, (error) => {
    console.warn(`attend: ${event.request.url} was not cached for offline use: ${error.message}`);
    return false;
  });
  event.waitUntil(kept);
  return kept;
}

// Tells the open pages that the model at url now works offline (the model picker marks it).
async function announceModelKept(url) {
  for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage({ type: 'model-kept', url });
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.endsWith('.safetensors')) event.respondWith(revalidated(event, MODEL_CACHE));
  else event.respondWith(networkFirst(event, SHELL_CACHE));
});
