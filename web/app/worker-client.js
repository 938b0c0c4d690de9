// The page's side of web/worker.js: starts the worker, loads models and sends translation
// requests. Only the newest request matters: an older one settles as `superseded` as soon
// as a newer one is sent (or a model load or unload, or cancel()), and the worker is told (shared id)
// so it can stop decoding it. Likewise only the newest load settles with its own model.

const WORKER_URL = new URL('../worker.js', import.meta.url);
const LOAD_MESSAGES = new Set(['progress', 'ready', 'load-error']);  // the rest answer translate requests

class SupersededError extends Error {
  constructor() {
    super('superseded by a newer request');
    this.code = 'superseded';
  }
}

class WorkerError extends Error {
  constructor({ code, message }) {
    super(message);
    this.code = code;
  }
}

export class TranslationWorker {
  #worker;
  #nextId = 1;
  #requests = new Map();  // id → {resolve, reject, onToken}
  #nextLoadId = 1;
  #loading = null;  // {id, resolve, reject, onProgress} while a model loads
  #newestRequest = null;  // Int32Array over a SharedArrayBuffer when the page may share one
  #failure = null;  // {code, message} once the worker has failed or been stopped

  constructor() {
    this.#worker = new Worker(WORKER_URL, { type: 'module' });
    this.#worker.onmessage = ({ data }) => this.#receive(data);
    this.#worker.onerror = (event) => this.#fail({ code: 'worker', message: event.message || 'the translation worker failed to start' });
    if (globalThis.crossOriginIsolated) {
      this.#newestRequest = new Int32Array(new SharedArrayBuffer(4));
      this.#worker.postMessage({ type: 'init', newestRequest: this.#newestRequest });
    }
  }

  // True once the worker has failed (it did not start) or been terminated: every request
  // rejects, and only a new TranslationWorker works.
  get failed() {
    return this.#failure !== null;
  }

  // source: a URL string or an ArrayBuffer with the model file. Resolves with info(), or
  // rejects with SupersededError when another load was asked for before this one ended.
  // Translations in flight are superseded: they were for the previous model.
  load(source, { onProgress } = {}) {
    if (this.#failure) return Promise.reject(new WorkerError(this.#failure));
    this.cancel();
    this.#loading?.reject(new SupersededError());
    const id = this.#nextLoadId++;
    return new Promise((resolve, reject) => {
      this.#loading = { id, resolve, reject, onProgress };
      const transfer = source instanceof ArrayBuffer ? [source] : [];
      this.#worker.postMessage({ type: 'load', id, source }, transfer);
    });
  }

  // Leaves the worker with no model: the load in flight, if any, settles as superseded and its
  // model is dropped; translations in flight are superseded.
  unload() {
    if (this.#failure) return;
    this.cancel();
    this.#loading?.reject(new SupersededError());
    this.#loading = null;
    this.#worker.postMessage({ type: 'unload', id: this.#nextLoadId++ });
  }

  // Resolves with {result, baseline?, timing}; rejects with SupersededError when a newer
  // request was sent first, or WorkerError (code, message) when translation failed.
  translate(text, options, { onToken, compareWithoutMasks = false } = {}) {
    if (this.#failure) return Promise.reject(new WorkerError(this.#failure));
    this.cancel();
    const id = this.#nextId++;
    if (this.#newestRequest) Atomics.store(this.#newestRequest, 0, id);
    return new Promise((resolve, reject) => {
      this.#requests.set(id, { resolve, reject, onToken });
      this.#worker.postMessage({ type: 'translate', id, text, options, compareWithoutMasks, live: Boolean(onToken) });
    });
  }

  // Settles the translation in flight (if any) as superseded, so no result lands after
  // this. The worker drops it if it has not started it, and stops decoding it at its next
  // token when the page shares the id (cross-origin isolated pages); else it runs to its end.
  cancel() {
    if (this.#requests.size === 0) return;
    for (const request of this.#requests.values()) request.reject(new SupersededError());
    this.#requests.clear();
    if (this.#newestRequest) Atomics.store(this.#newestRequest, 0, this.#nextId++);
    this.#worker.postMessage({ type: 'cancel' });
  }

  terminate() {
    this.#worker.terminate();
    this.#fail({ code: 'terminated', message: 'the translation worker was stopped' });
  }

  #receive(message) {
    if (LOAD_MESSAGES.has(message.type)) this.#receiveForLoad(message);
    else this.#receiveForRequest(message);
  }

  #receiveForLoad(message) {
    const loading = this.#loading;
    if (loading?.id !== message.id) return;  // a superseded load's, sent before the worker saw the newer one
    if (message.type === 'progress') return loading.onProgress?.(message);
    this.#loading = null;
    if (message.type === 'ready') loading.resolve(message.info);
    else loading.reject(new WorkerError(message));
  }

  #receiveForRequest(message) {
    const request = this.#requests.get(message.id);
    if (!request) return;  // already superseded
    if (message.type === 'token') return request.onToken?.(message.step);
    this.#requests.delete(message.id);
    if (message.type === 'result') request.resolve(message);
    else if (message.type === 'dropped') request.reject(new SupersededError());
    else request.reject(new WorkerError(message));
  }

  // Everything pending and everything asked for later rejects with `failure`.
  #fail(failure) {
    this.#failure ??= failure;
    this.#loading?.reject(new WorkerError(failure));
    this.#loading = null;
    for (const request of this.#requests.values()) request.reject(new WorkerError(failure));
    this.#requests.clear();
  }
}
