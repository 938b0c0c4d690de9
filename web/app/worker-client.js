// The page's side of web/worker.js: starts the worker, loads models and sends translation
// requests. Only the newest request matters: an older one settles as `superseded` as soon
// as a newer one is sent, and the worker is told (shared id) so it can stop decoding it.

const WORKER_URL = new URL('../worker.js', import.meta.url);

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
  #loading = null;  // {resolve, reject, onProgress} while a model loads
  #newestRequest = null;  // Int32Array over a SharedArrayBuffer when the page may share one

  constructor() {
    this.#worker = new Worker(WORKER_URL, { type: 'module' });
    this.#worker.onmessage = ({ data }) => this.#receive(data);
    this.#worker.onerror = (event) => this.#failAll({ code: 'worker', message: event.message || 'the translation worker failed to start' });
    if (globalThis.crossOriginIsolated) {
      this.#newestRequest = new Int32Array(new SharedArrayBuffer(4));
      this.#worker.postMessage({ type: 'init', newestRequest: this.#newestRequest });
    }
  }

  // source: a URL string or an ArrayBuffer with the model file. Resolves with info().
  load(source, { onProgress } = {}) {
    this.#loading?.reject(new SupersededError());
    return new Promise((resolve, reject) => {
      this.#loading = { resolve, reject, onProgress };
      const transfer = source instanceof ArrayBuffer ? [source] : [];
      this.#worker.postMessage({ type: 'load', source }, transfer);
    });
  }

  // Resolves with {result, baseline?, timing}; rejects with SupersededError when a newer
  // request was sent first, or WorkerError (code, message) when translation failed.
  translate(text, options, { onToken, compareWithoutMasks = false } = {}) {
    const id = this.#nextId++;
    for (const [olderId, request] of this.#requests) {
      request.reject(new SupersededError());
      this.#requests.delete(olderId);
    }
    if (this.#newestRequest) Atomics.store(this.#newestRequest, 0, id);
    return new Promise((resolve, reject) => {
      this.#requests.set(id, { resolve, reject, onToken });
      this.#worker.postMessage({ type: 'translate', id, text, options, compareWithoutMasks, live: Boolean(onToken) });
    });
  }

  terminate() {
    this.#worker.terminate();
    this.#failAll({ code: 'terminated', message: 'the translation worker was stopped' });
  }

  #receive(message) {
    if (message.type === 'progress') this.#loading?.onProgress?.(message);
    else if (message.type === 'ready') this.#settleLoad((loading) => loading.resolve(message.info));
    else if (message.type === 'load-error') this.#settleLoad((loading) => loading.reject(new WorkerError(message)));
    else this.#receiveForRequest(message);
  }

  #settleLoad(settle) {
    const loading = this.#loading;
    this.#loading = null;
    if (loading) settle(loading);
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

  #failAll(failure) {
    this.#settleLoad((loading) => loading.reject(new WorkerError(failure)));
    for (const request of this.#requests.values()) request.reject(new WorkerError(failure));
    this.#requests.clear();
  }
}
