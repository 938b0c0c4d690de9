// The models of the <attend-translator> elements on a page: one worker per model URL, shared
// by every element that shows that model, so the file is downloaded, compiled and held in
// memory once however many elements use it. Each element translates on its own lane of the
// worker (web/app/worker-client.js): its requests supersede only its own, and the worker
// takes the elements' requests in turn.
import { TranslationWorker } from '../app/worker-client.js';

const models = new Map();  // key of a source → {worker, ready: Promise<info>, users, progressListeners}

// The model of `source` for one user: {lane, ready, release()}. source: {url (several separated
// by spaces: an ensemble), reverse (a reverse model's URL, reranking each beam, or null),
// reverseWeight}. ready resolves with the model's info, or rejects with the load's error (for
// every user of that load; the next use() starts again in a new worker). onProgress({loaded,
// total}) hears the download while it lasts. release() when done: the last user's release stops the worker.
export function useModel(source, onProgress) {
  const key = JSON.stringify([source.url, source.reverse, source.reverseWeight ?? null]);
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

function startModel({ url, reverse, reverseWeight }, key) {
  const model = { worker: new TranslationWorker(), users: 0, progressListeners: new Set() };
  // Several URLs (separated by spaces): one translator of them all, an ensemble.
  model.ready = model.worker.load(url.includes(' ') ? url.split(' ') : url, {
    reverse: reverse ?? undefined,
    reverseWeight,
    onProgress: (update) => model.progressListeners.forEach((listener) => listener(update)),
  });
  model.ready.catch(() => {
    if (models.get(key) === model) models.delete(key);  // its users see the error; the next use tries again
  });
  return model;
}
