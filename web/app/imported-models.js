// The Marian models a person imported on this page (wasm/attend.mjs importMarian, in the worker),
// kept in this browser for later visits and offline use: each model file and a description of it
// (its name, languages, the files it came from, its licence) as two entries of one Cache Storage
// cache, the way the service worker keeps the shipped models (web/sw.js, which never deletes this
// cache: it is the person's, not a version of the app's). Nothing here leaves the browser.
export const IMPORTED_CACHE = 'attend-imported-models';

const BASE = new URL('../imported-models/', import.meta.url);
const modelUrl = (id) => new URL(`${id}.safetensors`, BASE).href;
const descriptionUrl = (id) => new URL(`${id}.json`, BASE).href;

// The languages as people read them: "English → German", or "languages not named".
export function languagePairName(languages) {
  if (!languages) return 'languages not named';
  const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'language' }) : null;
  const name = (code) => {
    try {
      return names?.of(code) ?? code;
    } catch {
      return code;
    }
  };
  return languages.split('-').map(name).join(' → ');
}

// {source, target} language tags from "en-de", or undefined.
export function languageTags(languages) {
  if (!languages) return undefined;
  const [source, target] = languages.split('-');
  return { source, target };
}

function storage() {
  if (!globalThis.caches) throw new Error('this browser keeps no files for pages here (no Cache Storage: a private window, or a page not served over https)');
  return caches.open(IMPORTED_CACHE);
}

// Keeps an imported model: `bytes` (a Uint8Array, not kept) and `imported`, importMarian's
// {files, languages, license}; `folder` names it. Resolves with its description {id, name,
// languages, files, license, bytes (the file's size), imported (a date)}.
export async function keepImportedModel(bytes, { files, languages, license }, folder) {
  const id = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const description = {
    id, name: folder, languages, files, license, bytes: bytes.length, imported: new Date().toISOString(),
  };
  const cache = await storage();
  await cache.put(modelUrl(id), new Response(bytes, { headers: { 'Content-Type': 'application/octet-stream' } }));
  await cache.put(descriptionUrl(id), new Response(JSON.stringify(description), { headers: { 'Content-Type': 'application/json' } }));
  return description;
}

// The descriptions of the models kept, oldest first ([] where nothing can be kept).
export async function importedModels() {
  if (!globalThis.caches || !await caches.has(IMPORTED_CACHE)) return [];  // opening would make it
  const cache = await caches.open(IMPORTED_CACHE);
  const descriptions = [];
  for (const request of await cache.keys()) {
    if (!request.url.endsWith('.json')) continue;
    const description = await (await cache.match(request))?.json().catch(() => null);
    if (description?.id && await cache.match(modelUrl(description.id))) descriptions.push(description);
  }
  return descriptions.sort((a, b) => a.imported.localeCompare(b.imported));
}

// The model file kept under `id`, as an ArrayBuffer; rejects when it is no longer there.
export async function importedModelBytes(id) {
  const response = await (await storage()).match(modelUrl(id));
  if (!response) throw Object.assign(new Error('the imported model is no longer kept in this browser'), { code: 'io' });
  return response.arrayBuffer();
}

export async function forgetImportedModel(id) {
  const cache = await storage();
  await cache.delete(modelUrl(id));
  await cache.delete(descriptionUrl(id));
}

// The imports of <attend-translator marian="…"> (web/element/shared-models.js), kept in the same cache
// under imported-models/element/: the model file and a description ({urls, validators, files,
// languages, license}) keyed by `key` (a hash of the files' URLs). Not listed by importedModels(): the
// page's list holds the person's imports, not those of pages that embed the element.
const elementModelUrl = (key) => new URL(`element/${key}.safetensors`, BASE).href;
const elementDescriptionUrl = (key) => new URL(`element/${key}.description`, BASE).href;

// {bytes (an ArrayBuffer), description} of the import kept under `key`, or null (none, or no Cache Storage).
export async function keptElementImport(key) {
  if (!globalThis.caches || !await caches.has(IMPORTED_CACHE)) return null;
  const cache = await caches.open(IMPORTED_CACHE);
  const [model, description] = await Promise.all([cache.match(elementModelUrl(key)), cache.match(elementDescriptionUrl(key))]);
  if (!model || !description) return null;
  return { bytes: await model.arrayBuffer(), description: await description.json() };
}

// Keeps an element's import (bytes: a Uint8Array, copied); rejects where nothing can be kept.
export async function keepElementImport(key, bytes, description) {
  const cache = await storage();
  await cache.put(elementModelUrl(key), new Response(bytes, { headers: { 'Content-Type': 'application/octet-stream' } }));
  await cache.put(elementDescriptionUrl(key), new Response(JSON.stringify(description), { headers: { 'Content-Type': 'application/json' } }));
}
