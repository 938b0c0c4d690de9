// The models of the <attend-translator> elements on a page: one worker per model URL, shared
// by every element that shows that model, so the file is downloaded, compiled and held in
// memory once however many elements use it. Each element translates on its own lane of the
// worker (web/app/worker-client.js): its requests supersede only its own, and the worker
// takes the elements' requests in turn.
import { keepElementImport, keptElementImport } from '../app/imported-models.js';
import { TranslationWorker } from '../app/worker-client.js';

const ATTEND_MODULE_URL = new URL('../../wasm/attend.mjs', import.meta.url);  // only for a Marian folder's files

const models = new Map();  // key of a source → {worker, ready: Promise<info>, users, progressListeners}

// The model of `source` for one user: {lane, ready, release()}. source: {url (several separated
// by spaces: an ensemble), marian (instead of url: the absolute URLs of a Marian model folder's files,
// imported as the page imports a folder, importMarian in the worker, and kept in Cache Storage),
// languages and multilingual (importMarian's, for marian; undefined: its defaults, but multilingual
// 'unnamed'), reverse (a reverse model's URL, reranking each beam, or null), reverseWeight}. ready
// resolves with the model's info, or rejects with the load's error (for
// every user of that load; the next use() starts again in a new worker). onProgress({loaded,
// total}) hears the download while it lasts. release() when done: the last user's release stops the worker.
export function useModel(source, onProgress) {
  const key = JSON.stringify([source.url ?? null, source.marian ?? null, source.languages ?? null, source.multilingual ?? null,
    source.reverse, source.reverseWeight ?? null]);
  let model = models.get(key);
  if (!model || model.worker.failed) {
    model = startModel(source, key);
    models.set(key, model);
  }
  model.users++;
  if (onProgress) model.progressListeners.add(onProgress);
  const lane = model.worker.openLane();
  let released = false;
  return {
    lane,
    ready: model.ready,
    release() {
      if (released) return;
      released = true;
      lane.close();
      model.progressListeners.delete(onProgress);
      if (--model.users > 0) return;
      model.worker.terminate();
      if (models.get(key) === model) models.delete(key);
    },
  };
}

function startModel({ url, marian, languages, multilingual, reverse, reverseWeight }, key) {
  const model = { worker: new TranslationWorker(), users: 0, progressListeners: new Set() };
  const onProgress = (update) => model.progressListeners.forEach((listener) => listener(update));
  // Several URLs (separated by spaces): one translator of them all, an ensemble.
  const file = marian ? importedMarian(marian, { languages, multilingual }, model.worker, onProgress) : Promise.resolve(url.includes(' ') ? url.split(' ') : url);
  model.ready = file.then((source) => model.worker.load(source, { reverse: reverse ?? undefined, reverseWeight, onProgress }));
  model.ready.catch(() => {
    if (models.get(key) === model) models.delete(key);  // its users see the error; the next use tries again
  });
  return model;
}

// The Attend model file (an ArrayBuffer) of the Marian model whose files are at `urls`: the import kept
// for these URLs while the server says its files are unchanged (HEAD: ETag, else Last-Modified, else
// Content-Length; offline, or with none of them, the kept one), else the files downloaded and imported
// by `worker` (importMarian, as the page imports a folder: core's rules choose the files by name, with
// `options`' languages and multilingual), and kept.
async function importedMarian(urls, options, worker, onProgress) {
  const key = await importKey(urls, options);
  const [kept, validators] = await Promise.all([key && keptElementImport(key).catch(() => null), fileValidators(urls)]);
  if (kept && (validators === null || JSON.stringify(validators) === JSON.stringify(kept.description.validators))) {
    return kept.bytes;
  }
  // The wasm API's download, with its errors (io, naming the URL).
  const { readSource } = await import(ATTEND_MODULE_URL.href).catch((error) => {
    throw Object.assign(new Error(`cannot load ${ATTEND_MODULE_URL.href}: ${error.message}`), { code: 'io' });
  });
  const loaded = urls.map(() => ({ loaded: 0, total: null }));
  const datas = await Promise.all(urls.map((url, i) => readSource(url, (progress) => {
    loaded[i] = progress;
    const known = loaded.every(({ total }) => total !== null);
    onProgress({ loaded: loaded.reduce((n, { loaded: bytes }) => n + bytes, 0), total: known ? loaded.reduce((n, { total }) => n + total, 0) : null });
  })));
  const imported = await worker.importMarian(marianFiles(urls, datas), options);
  const { files, languages, license } = imported;
  if (key) await keepElementImport(key, imported.bytes, { urls, validators, files, languages, license }).catch(() => {});  // it still loads
  return imported.bytes.buffer;
}

// importMarian's files: as one folder's (named by the folder's last path segment) where every URL is
// in one folder, as the CLI reads a folder; else each file named by itself.
function marianFiles(urls, datas) {
  const parts = urls.map((url) => {
    const path = new URL(url).pathname;
    const slash = path.lastIndexOf('/');
    return { directory: `${new URL(url).origin}${path.slice(0, slash)}`, name: decodeURIComponent(path.slice(slash + 1)) };
  });
  const oneFolder = parts.every(({ directory }) => directory === parts[0].directory);
  const folderPath = parts[0].directory.slice(parts[0].directory.lastIndexOf('/') + 1);
  const folder = oneFolder ? decodeURIComponent(folderPath) || 'model' : '';
  return parts.map(({ name }, i) => ({ path: folder ? `${folder}/${name}` : name, folder, data: datas[i] }));
}

// A name for the import of these URLs with these options: the hex SHA-256 of them (of the URLs alone
// with the default options, as before there were any); null where the page has no crypto.subtle (not a
// secure context: nothing is kept there, Cache Storage neither).
async function importKey(urls, { languages, multilingual }) {
  if (!globalThis.crypto?.subtle) return null;
  const named = languages || multilingual ? { urls, languages: languages ?? null, multilingual: multilingual ?? null } : urls;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(named)));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

// What the server says of each file (its ETag, else Last-Modified, else Content-Length, else '';
// an HTTP error's status), or null when it cannot be asked (offline).
async function fileValidators(urls) {
  try {
    return await Promise.all(urls.map(async (url) => {
      const response = await fetch(url, { method: 'HEAD', cache: 'no-cache' });
      if (!response.ok) return `HTTP ${response.status}`;
      const { headers } = response;
      return headers.get('ETag') ?? headers.get('Last-Modified') ?? headers.get('Content-Length') ?? '';
    }));
  } catch {
    return null;
  }
}
