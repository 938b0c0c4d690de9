// Translates on several threads: a pool of Workers (worker_threads in Node), each holding its
// own Translator (wasm/attend.mjs, one WebAssembly instance with its own memory) of the same
// model, as the native CLI splits sentences over translators on its threads. Nothing is
// shared between the instances, so no SharedArrayBuffer is needed: a page that is not
// cross-origin isolated gets its threads too. The price is one copy of the model per worker
// (the shipped int8 models: ~7 MB each with the packed weights).
//
//   const pool = await TranslatorPool.load(url or bytes, { workers: 2, int8Activations: 'auto' });
//   const results = await pool.translate(sentences, { beam: 5 });  // in order, as Translator.translate
//   const { text, segments } = await pool.translateDocument(text, { onProgress, signal });
//   pool.dispose();
//
// A call's sentences go out in groups of GROUP (what translateDocument translates per call) to
// whichever worker is free, so a worker that drew shorter sentences takes more groups. A
// sentence's translation does not depend on the group it is decoded in (the wasm tests check
// the pool against one Translator), so the results are those of Translator.translate.

import { AttendError, encodePlan, readReverse, readSource, reverseError } from './attend.mjs';

const WORKER_URL = new URL('./pool_worker.mjs', import.meta.url);
const IS_NODE = typeof process === 'object' && typeof process.versions?.node === 'string';
const GROUP = 32;

// A Worker of either host behind one interface: post(message), on(message handler), end().
async function startWorker() {
  if (IS_NODE) {
    const { Worker } = await import('node:worker_threads');
    const worker = new Worker(WORKER_URL);
    return {
      post: (message) => worker.postMessage(message),
      listen: (handle, fail) => { worker.on('message', handle); worker.on('error', (error) => fail(new AttendError('worker', error.message))); },
      end: () => worker.terminate(),
    };
  }
  const worker = new Worker(WORKER_URL, { type: 'module' });
  return {
    post: (message) => worker.postMessage(message),
    listen: (handle, fail) => {
      worker.onmessage = (event) => handle(event.data);
      worker.onerror = (event) => fail(new AttendError('worker', event.message ?? 'a translation worker failed'));
    },
    end: () => worker.terminate(),
  };
}

// One worker and the replies it owes, by request id.
class PoolWorker {
  #worker;
  #pending = new Map();
  #next = 0;

  static async start() {
    const self = new PoolWorker();
    self.#worker = await startWorker();
    self.#worker.listen((reply) => self.#settle(reply), (error) => self.#failAll(error));
    return self;
  }

  request(message) {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.post({ ...message, id });
    });
  }

  end() {
    this.#failAll(new AttendError('cancelled', 'the translator pool was disposed'));
    this.#worker.end();
  }

  #settle({ id, result, error }) {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    if (error) {
      const rejected = new AttendError(error.code, error.message);
      if (error.reverseDetail !== undefined) rejected.reverseDetail = error.reverseDetail;
      pending.reject(rejected);
    } else {
      pending.resolve(result);
    }
  }

  #failAll(error) {
    for (const { reject } of this.#pending.values()) reject(error);
    this.#pending.clear();
  }
}

// The workers load the reverse model from the bytes read here, so their errors name it by its
// size ("the reverse model (3406831 bytes): ..."): name the source it was read from instead.
function namingReverseSource(error, source) {
  if (error.reverseDetail === undefined) return error;
  return reverseError(source, { code: error.code, message: error.reverseDetail });
}

export class TranslatorPool {
  #workers;
  #info;

  constructor(workers, info) {
    this.#workers = workers;
    this.#info = info;
  }

  // workers: how many threads (default 2); the other options as Translator.load's (simd,
  // int8Activations, reverse). The model, and the reverse model, are read once here and copied to each worker.
  static async load(source, { workers = 2, ...options } = {}) {
    if (!Number.isInteger(workers) || workers < 1) {
      throw new AttendError('invalid_argument', `workers must be a positive integer, got ${workers}`);
    }
    const bytes = await readSource(source);
    const reverseSource = options.reverse;
    if (reverseSource !== undefined && reverseSource !== null) options.reverse = await readReverse(reverseSource);
    const started = await Promise.all(Array.from({ length: workers }, () => PoolWorker.start()));
    try {
      const infos = await Promise.all(started.map((w) => w.request({ type: 'load', bytes, options })));
      return new TranslatorPool(started, { ...infos[0], workers });
    } catch (error) {
      for (const w of started) w.end();
      throw options.reverse ? namingReverseSource(error, reverseSource) : error;
    }
  }

  info() {
    return structuredClone(this.#info);
  }

  // Translator.translate over the workers: a string or an array of strings (no onToken).
  async translate(input, options = {}) {
    this.#checkUsable(options);
    const inputs = Array.isArray(input) ? input : [input];
    const results = new Array(inputs.length);
    let next = 0;
    // Each worker takes the next group as soon as it is done with its last one.
    const drain = async (worker) => {
      while (next < inputs.length) {
        const first = next;
        next = Math.min(inputs.length, next + GROUP);
        const group = await worker.request({ type: 'translate', inputs: inputs.slice(first, next), options });
        for (let i = 0; i < group.length; ++i) results[first + i] = group[i];
      }
    };
    await Promise.all(this.#workers.map(drain));
    return Array.isArray(input) ? results : results[0];
  }

  // Translator.translateDocument over the workers: the document cut by the first worker (as
  // Translator.planDocument; a plan is taken as it is), its sentences translated in groups of 32, in order, by whichever
  // worker is free, onProgress after each group (with its first sentence's index and its
  // translations: groups may finish out of order), the signal checked before each; the text kept
  // between sentences put back. The same result as one Translator's translateDocument.
  async translateDocument(input, { onProgress, signal, ...options } = {}) {
    this.#checkUsable(options);
    let segments = input;
    if (Array.isArray(input)) encodePlan(input);  // a plan, refused where Translator refuses it
    else segments = await this.#workers[0].request({ type: 'plan', input });
    const sentences = segments.filter((s) => s.translate).map((s) => s.source);
    if (sentences.length === 0) throw new AttendError('empty_input', 'nothing to translate: the document has no sentence');
    const cancelled = () => new AttendError('cancelled', 'document translation cancelled by the caller');
    const translations = new Array(sentences.length);
    let next = 0;
    let done = 0;
    const drain = async (worker) => {
      while (next < sentences.length) {
        if (signal?.aborted) throw cancelled();
        const first = next;
        next = Math.min(sentences.length, next + GROUP);
        const group = await worker.request({ type: 'translate', inputs: sentences.slice(first, next), options });
        for (let i = 0; i < group.length; ++i) translations[first + i] = group[i];
        done += group.length;
        onProgress?.({ sentencesDone: done, sentences: sentences.length, first, translations: group });
      }
    };
    await Promise.all(this.#workers.map(drain));
    if (signal?.aborted) throw cancelled();
    let k = 0;
    const parts = segments.map(({ source, translate }) => (translate ? { source, translation: translations[k++] } : { source }));
    return { text: parts.map((p) => (p.translation ? p.translation.text : p.source)).join(''), segments: parts };
  }

  #checkUsable(options) {
    if (!this.#workers) throw new AttendError('invalid_argument', 'the translator pool was disposed');
    if ('onToken' in options) throw new AttendError('invalid_argument', 'TranslatorPool takes no onToken');
  }

  dispose() {
    for (const w of this.#workers ?? []) w.end();
    this.#workers = null;
  }
}
