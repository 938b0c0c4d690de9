// The models of the <attend-translator> elements on a page: one worker per model URL, shared
// by every element that shows that model, so the file is downloaded, compiled and held in
// memory once however many elements use it. Each element translates on its own lane of the
// worker (web/app/worker-client.js): its requests supersede only its own, and the worker
// takes the elements' requests in turn.
import { TranslationWorker } from '../app/worker-client.js';

const models = new Map();  // URL → {worker, ready: Promise<info>, users, progressListeners}

// The model at `url` for one user: {lane, ready, release()}. ready resolves with the model's
// info, or rejects with the load's error (for every user of that load; the next use() starts
// again in a new worker). onProgress({loaded, total}) hears the download while it lasts.
// release() when done: the last user's release stops the worker.
export function useModel(url, onProgress) {
  let model = models.get(url);
  if (!model || model.worker.failed) {
    model = startModel(url);
    models.set(url, model);
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
      if (models.get(url) === model) models.delete(url);
    },
  };
}

function startModel(url) {
  const model = { worker: new TranslationWorker(), users: 0, progressListeners: new Set() };
  // Several URLs (separated by spaces): one translator of them all, an ensemble.
  model.ready = model.worker.load(url.includes(' ') ? url.split(' ') : url, {
    onProgress: (update) => model.progressListeners.forEach((listener) => listener(update)),
  });
  model.ready.catch(() => {
    if (models.get(url) === model) models.delete(url);  // its users see the error; the next use tries again
  });
  return model;
}
