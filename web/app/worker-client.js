// The page's side of web/worker.js: starts the worker, loads models and sends translation
// requests on lanes. On a lane only the newest request matters: an older one settles as
// `superseded` as soon as a newer one is sent on that lane (or a model load, or the
// lane's cancel()), and the worker is told (shared id) so it can stop decoding it. Lanes are
// independent: several users of one worker and its model (the <attend-translator> elements of
// one model, web/element/shared-models.js) each open their own. The worker's own translate()
// and cancel() are those of its first lane. Only the newest load settles with its own model.

const WORKER_URL = new URL('../worker.js', import.meta.url);
const LOAD_MESSAGES = new Set(['progress', 'ready', 'load-error']);
const IMPORT_MESSAGES = new Set(['import-progress', 'imported', 'import-error']);  // the rest answer translate requests

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

// One user's sequence of translation requests on a TranslationWorker.
class TranslationLane {
  #client;
  #id;
  #requests = new Map();  // id → {resolve, reject, onToken}
  #newestRequest = null;  // Int32Array over a SharedArrayBuffer when the page may share one

  constructor(client, id) {
    this.#client = client;
    this.#id = id;
    if (globalThis.crossOriginIsolated) {
      this.#newestRequest = new Int32Array(new SharedArrayBuffer(4));
      client.send({ type: 'init', lane: id, newestRequest: this.#newestRequest });
    }
  }

  // Resolves with {result, baseline?, timing}; rejects with SupersededError when a newer
  // request was sent on this lane first, or WorkerError (code, message) when translation failed.
  // With `document`, text of any length is translated sentence by sentence and the promise
  // resolves with {document, single, timing}; onProgress hears {sentencesDone, sentences}. With
  // `html`, text is an HTML fragment and the promise resolves with {html, sentences, single}.
  translate(text, options, { onToken, onProgress, compareWithoutMasks = false, document = false, html = false } = {}) {
    const failure = this.#client.failure;
    if (failure) return Promise.reject(new WorkerError(failure));
    this.cancel();
    const id = this.#client.requestId();
    if (this.#newestRequest) Atomics.store(this.#newestRequest, 0, id);
    return new Promise((resolve, reject) => {
      this.#requests.set(id, { resolve, reject, onToken, onProgress });
      this.#client.send({
        type: 'translate', id, lane: this.#id, text, options, compareWithoutMasks, live: Boolean(onToken), document, html,
      }, this);
    });
  }

  // Settles this lane's translation in flight (if any) as superseded, so no result lands
  // after this. The worker drops it if it has not started it, and stops decoding it at its
  // next token when the page shares the id (cross-origin isolated pages); else it runs to its end.
  cancel() {
    if (this.#requests.size === 0) return;
    this.fail(new SupersededError());
    if (this.#newestRequest) Atomics.store(this.#newestRequest, 0, this.#client.requestId());
    this.#client.send({ type: 'cancel', lane: this.#id });
  }

  // Cancels this lane's request in flight and frees the lane in the worker; the lane must not
  // be used again.
  close() {
    this.cancel();
    this.#client.send({ type: 'close', lane: this.#id });
    this.#client.forgetLane(this);
  }

  // For the client: a message answering request `message.id` of this lane.
  receive(message) {
    const request = this.#requests.get(message.id);
    if (!request) return;  // already superseded
    if (message.type === 'token') return request.onToken?.(message.step);
    if (message.type === 'document-progress') return request.onProgress?.(message);
    this.#requests.delete(message.id);
    if (['result', 'document', 'html'].includes(message.type)) request.resolve(message);
    else if (message.type === 'dropped') request.reject(new SupersededError());
    else request.reject(new WorkerError(message));
  }

  // For the client: every request in flight rejects with `error`.
  fail(error) {
    for (const request of this.#requests.values()) request.reject(error);
    this.#requests.clear();
  }
}

export class TranslationWorker {
  #worker;
  #nextId = 1;
  #lanes = new Set();
  #nextLaneId = 0;
  #laneOfRequest = new Map();  // request id → its TranslationLane, until answered
  #firstLane = null;  // the lane of translate() and cancel()
  #nextLoadId = 1;
  #loading = null;  // {id, resolve, reject, onProgress} while a model loads
  #failure = null;  // {code, message} once the worker has failed or been stopped
  #imports = new Map();  // import id → {resolve, reject, onProgress}

  // A worker the browser refuses to create (a Content Security Policy without worker-src, a
  // script from another origin) makes a failed TranslationWorker: its calls reject with `worker`.
  constructor() {
    try {
      this.#worker = new Worker(WORKER_URL, { type: 'module' });
      this.#worker.onmessage = ({ data }) => this.#receive(data);
      this.#worker.onerror = (event) => this.#fail({ code: 'worker', message: event.message || 'the translation worker failed to start' });
    } catch (error) {
      this.#fail({ code: 'worker', message: `the translation worker could not be created: ${error.message}` });
    }
    this.openLane();
  }

  // True once the worker has failed (it did not start) or been terminated: every request
  // rejects, and only a new TranslationWorker works.
  get failed() {
    return this.#failure !== null;
  }

  // {code, message} once failed, else null (for its lanes).
  get failure() {
    return this.#failure;
  }

  // A new lane: its requests supersede only each other.
  openLane() {
    const lane = new TranslationLane(this, this.#nextLaneId++);
    this.#lanes.add(lane);
    this.#firstLane ??= lane;
    return lane;
  }

  // For lanes: `lane` is closed.
  forgetLane(lane) {
    this.#lanes.delete(lane);
  }

  // source: a URL string, an ensemble's URL strings or an ArrayBuffer with the model file;
  // weights: an ensemble's members' weights (Translator.load's; null or absent: equal); reverse: the URL of a model of the other direction that reranks each beam at reverseWeight
  // (Translator.load's). Resolves with info(), or rejects with SupersededError when another load
  // was asked for before this one ended. Translations in flight on every lane are superseded:
  // they were for the previous model.
  load(source, { onProgress, weights, reverse, reverseWeight } = {}) {
    if (this.#failure) return Promise.reject(new WorkerError(this.#failure));
    this.#cancelAll();
    this.#loading?.reject(new SupersededError());
    const id = this.#nextLoadId++;
    return new Promise((resolve, reject) => {
      this.#loading = { id, resolve, reject, onProgress };
      const transfer = source instanceof ArrayBuffer ? [source] : [];
      this.#worker.postMessage({ type: 'load', id, source, weights, reverse, reverseWeight }, transfer);
    });
  }

  // A Marian model folder or its files ([{path, folder, data: File}]) made into an Attend model file
  // in the worker (importMarian). Resolves with {bytes, files, languages, license}; onProgress hears
  // {stage: 'reading', file, filesDone, files} and {stage: 'converting'}. The model in use is untouched.
  // languages and multilingual as importMarian takes them (multilingual: 'unnamed' unless given).
  importMarian(files, { onProgress, languages, multilingual } = {}) {
    if (this.#failure) return Promise.reject(new WorkerError(this.#failure));
    const id = this.requestId();
    return new Promise((resolve, reject) => {
      this.#imports.set(id, { resolve, reject, onProgress });
      this.#worker.postMessage({ type: 'import', id, files, languages, multilingual });
    });
  }

  // The first lane's translate() and cancel().
  translate(text, options, settings) {
    return this.#firstLane.translate(text, options, settings);
  }

  cancel() {
    this.#firstLane.cancel();
  }

  terminate() {
    this.#worker?.terminate();
    this.#fail({ code: 'terminated', message: 'the translation worker was stopped' });
  }

  // For lanes: a new request id (ids are unique across lanes).
  requestId() {
    return this.#nextId++;
  }

  // For lanes: posts `message` (unless the worker has failed); a translate request is
  // remembered as `lane`'s.
  send(message, lane) {
    if (this.#failure) return;
    if (lane) this.#laneOfRequest.set(message.id, lane);
    this.#worker.postMessage(message);
  }

  #cancelAll() {
    for (const lane of this.#lanes) lane.cancel();
  }

  #receive(message) {
    if (LOAD_MESSAGES.has(message.type)) return this.#receiveForLoad(message);
    if (IMPORT_MESSAGES.has(message.type)) return this.#receiveForImport(message);
    const lane = this.#laneOfRequest.get(message.id);
    if (message.type !== 'token' && message.type !== 'document-progress') this.#laneOfRequest.delete(message.id);
    lane?.receive(message);
  }

  #receiveForLoad(message) {
    const loading = this.#loading;
    if (loading?.id !== message.id) return;  // a superseded load's, sent before the worker saw the newer one
    if (message.type === 'progress') return loading.onProgress?.(message);
    this.#loading = null;
    if (message.type === 'ready') loading.resolve(message.info);
    else loading.reject(new WorkerError(message));
  }

  #receiveForImport(message) {
    const pending = this.#imports.get(message.id);
    if (!pending) return;
    if (message.type === 'import-progress') return pending.onProgress?.(message);
    this.#imports.delete(message.id);
    if (message.type === 'imported') pending.resolve(message);
    else pending.reject(new WorkerError(message));
  }

  // Everything pending and everything asked for later rejects with `failure`.
  #fail(failure) {
    this.#failure ??= failure;
    for (const pending of this.#imports.values()) pending.reject(new WorkerError(failure));
    this.#imports.clear();
    this.#loading?.reject(new WorkerError(failure));
    this.#loading = null;
    for (const lane of this.#lanes) lane.fail(new WorkerError(failure));
    this.#laneOfRequest.clear();
  }
}
