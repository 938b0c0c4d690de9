// The translation worker: owns one Translator (wasm/attend.mjs), loads models into it and
// translates requests that arrive on lanes (one per user of the worker: the page, or each
// <attend-translator> of one model). On a lane only the newest request is translated: one
// that a newer request of its lane supersedes before it starts is dropped; one that is already
// decoding is cancelled at its next token when the page shares the lane's "newest request id"
// through a SharedArrayBuffer (cross-origin isolated pages only). Lanes take turns, oldest
// request first. Protocol (see web/app/worker-client.js for the page's side; lane defaults to 0):
//   in:  {type:'init', lane?, newestRequest?: Int32Array(SharedArrayBuffer)}
//        {type:'load', id, source: URL string | ArrayBuffer | URL strings (an ensemble), weights?
//         (an ensemble's, Translator.load's), reverse?: URL string, reverseWeight?} (reverse: the
//         model of the other direction, reranking each beam)
//        {type:'translate', id, lane?, text, options, compareWithoutMasks, live, document?, html?}
//        (html: text is an HTML fragment, translated with its markup kept by translateHTML)
//        (document: text of any length, translated sentence by sentence with translateDocument;
//        attention, live tokens and the comparison only when it holds one sentence)
//        {type:'import', id, files: [{path, folder, data: File}], languages?} (a Marian model folder
//         or its files, made into an Attend model file by importMarian; the model in use is untouched)
//        {type:'cancel', lane?} (the lane's request not yet started is dropped)
//        {type:'close', lane} (the same, and the lane is forgotten)
//   out: {type:'progress', id, loaded, total}  {type:'ready', id, info}  {type:'load-error', id, code, message}
//        (a load that a newer one supersedes ends silently and its model is disposed; the model in
//        use stays until a load is ready, and after a failed one)
//        {type:'token', id, step}  {type:'result', id, result, baseline?, timing}
//        {type:'document-progress', id, sentencesDone, sentences, otherLanguage?, plan?, first?, translations?}
//        (the first one carries otherLanguage: Translator.otherLanguage's, null when the text is in the
//        language the model reads, also on the document message; with more
//        than one sentence: the first one carries planDocument's plan, the others a group's translations,
//        its first sentence's index first; groups may come out of order)
//        {type:'html', id, html, sentences, single} (translateHTML's result; attention only for single)
//        {type:'document', id, document: {text, segments}, single, baseline?, timing} (single: one
//        sentence, whose translation then carries the attention; baseline: the text without masks;
//        timing.threads: 2 when the document went to the pool, see POOL_ABOVE_SENTENCES)
//        (a document's first document-progress, sentencesDone 0, comes before any translating)
//        {type:'dropped', id}  {type:'translate-error', id, code, message}
//        {type:'import-progress', id, stage: 'reading', file, filesDone, files | stage: 'converting'}
//        {type:'imported', id, bytes: Uint8Array (transferred), files, languages, license}
//        {type:'import-error', id, code, message}
const ATTEND_MODULE_URL = new URL('../wasm/attend.mjs', import.meta.url);
const POOL_MODULE_URL = new URL('../wasm/pool.mjs', import.meta.url);
// A document of more sentences than this (translateDocument's group) is translated on a pool of
// POOL_WORKERS workers (wasm/pool.mjs: each its own Translator, no cross-origin isolation
// needed), when the device has that many cores; a shorter one, or where a pool cannot start,
// here. The pool starts at the first such document and ends with the model.
const POOL_ABOVE_SENTENCES = 32;
const POOL_WORKERS = 2;

let attendModule = null;
let translator = null;
let modelSource = null;  // what the model in use was loaded from, for the pool: {source, reverse, reverseWeight}
let pool = null;  // Promise<TranslatorPool | null> for the model in use, once a long document asked
let newestLoad;  // the id of the newest load request
const newestRequests = new Map();  // lane → Int32Array of length 1 (the page's newest request id)
const pendingRequests = new Map();  // lane → its newest translate request not yet started
let running = null;  // the request being translated

const post = (message, transfer = []) => self.postMessage(message, transfer);

function errorMessage(error) {
  return { code: error?.code ?? 'internal', message: String(error?.message ?? error) };
}

// A missing JS API or WebAssembly build is a `worker` error (the translator cannot start),
// not a failure of the model being loaded.
const cannotStart = (message) => Object.assign(new Error(message), { code: 'worker' });

async function importAttend() {
  try {
    attendModule ??= await import(ATTEND_MODULE_URL.href);
  } catch (error) {
    throw cannotStart(`${ATTEND_MODULE_URL.pathname} did not load: ${error.message}`);
  }
  return attendModule;
}

// Translator.load(source), the build compiled while the model downloads; when it fails
// because the build is missing, the error says so.
async function loadTranslator(source, options) {
  const { Translator, prepare } = await importAttend();
  const compiled = prepare();
  try {
    return await Translator.load(source, options);
  } catch (error) {
    await compiled.catch((buildError) => { throw cannotStart(buildError.message); });
    throw error;
  }
}

// Resolves once no request is being translated (the page cancelled it when it asked for a load).
async function idle() {
  while (running) await new Promise((resolve) => setTimeout(resolve, 10));
}

// The model in use stays until the new one is ready, so a load that fails leaves it working;
// the requests queued for it are dropped at once, and a model that a newer load supersedes is
// disposed when it ends.
async function load({ id, source, weights, reverse, reverseWeight }) {
  newestLoad = id;
  for (const request of pendingRequests.values()) post({ type: 'dropped', id: request.id });  // for the old model
  pendingRequests.clear();
  try {
    const model = await loadTranslator(source, {
      ...(weights ? { weights } : {}),
      reverse,
      reverseWeight,
      onProgress: ({ loaded, total }) => {
        if (id === newestLoad) post({ type: 'progress', id, loaded, total });
      },
    });
    await idle();  // the old model may still be translating
    if (id !== newestLoad) return model.dispose();  // another model was asked for meanwhile
    translator?.dispose();
    translator = model;
    modelSource = { source, reverse, reverseWeight };
    endPool();
    post({ type: 'ready', id, info: translator.info() });
  } catch (error) {
    if (id === newestLoad) post({ type: 'load-error', id, ...errorMessage(error) });
  }
}

// A Marian model imported (wasm/attend.mjs importMarian, in a WebAssembly instance of its own):
// the model file's bytes go back to the page, which keeps and loads them. Its languages are the
// ones given, else those its file names or its OPUS-MT README state; a README stating several (a
// multilingual model) names none unless the request says multilingual: 'refuse' (the page does, to
// ask the person): the model's >>xxx<< tokens choose the target (app/target-language.js, the
// target-token attribute).
async function importModel({ id, files, languages, multilingual = 'unnamed' }) {
  try {
    const { importMarian } = await importAttend();
    const imported = await importMarian(files, {
      languages,
      multilingual,
      onProgress: (progress) => post({ type: 'import-progress', id, ...progress }),
    });
    post({ type: 'imported', id, ...imported }, [imported.bytes.buffer]);
  } catch (error) {
    post({ type: 'import-error', id, ...errorMessage(error) });
  }
}

// The pool for the model in use, started on first use; null where it cannot run (one core, no
// nested workers, its files not reachable offline): documents then stay on this thread.
function documentPool() {
  if ((navigator.hardwareConcurrency ?? 1) < POOL_WORKERS || typeof Worker !== 'function') return null;
  const { source, reverse, reverseWeight } = modelSource;
  if (Array.isArray(source)) return null;  // an ensemble's files: TranslatorPool loads one
  pool ??= import(POOL_MODULE_URL.href)
    .then(({ TranslatorPool }) => TranslatorPool.load(source, { workers: POOL_WORKERS, reverse, reverseWeight }))
    .catch(() => null);
  return pool;
}

function endPool() {
  pool?.then((started) => started?.dispose());
  pool = null;
}

// A newer request of the lane is queued here (seen if translate() yields between tokens) or
// the page has already sent one (seen through the shared id even while this thread is busy).
// A document also hears its lane's cancel message between groups of sentences.
function isSuperseded({ id, lane, cancelled }) {
  const newest = newestRequests.get(lane);
  return cancelled || pendingRequests.has(lane) || (newest !== undefined && Atomics.load(newest, 0) !== id);
}

function attentionBuffers(result) {
  if (!result.attention) return [];
  return ['encoder', 'decoder', 'cross'].map((kind) => result.attention[kind].data.buffer);
}

// A document: one sentence goes the way of runTranslation's (attention, live tokens); more are
// translated in groups with progress, stopping at the next group once superseded (here at the
// next token too); more than one group, on the pool when there is one.
async function runDocument(request) {
  const { id, text, options, live, compareWithoutMasks } = request;
  const plan = translator.planDocument(text, options);  // cut once: every translateDocument below takes it
  const sentences = plan.filter((segment) => segment.translate).length;
  const single = sentences === 1;
  // With more than one sentence, the plan first and each group's translations as they finish, so the
  // page shows them (and keeps them when the person stops the rest).
  // CLD2's word, before any translating, where the text is not in the language the model reads.
  const otherLanguage = translator.otherLanguage(text);
  post({ type: 'document-progress', id, sentencesDone: 0, sentences, otherLanguage, ...(single ? {} : { plan }) });
  const controller = new AbortController();
  const onProgress = ({ sentencesDone, first, translations }) => {
    if (isSuperseded(request)) controller.abort();
    else post({ type: 'document-progress', id, sentencesDone, sentences, ...(single ? {} : { first, translations }) });
  };
  const started = performance.now();
  const threads = sentences > POOL_ABOVE_SENTENCES ? await documentPool() : null;
  const document = threads
    ? await threads.translateDocument(plan, { ...options, attention: false, signal: controller.signal, onProgress })
    : await translator.translateDocument(plan, {
      ...options,
      attention: single && options.attention,
      signal: controller.signal,
      onProgress,
      onToken: (step) => {
        if (isSuperseded(request)) return false;
        if (live && single) post({ type: 'token', id, step });
        return true;
      },
    });
  const milliseconds = performance.now() - started;
  const baseline = compareWithoutMasks  // only its text is shown
    ? (await translator.translateDocument(plan, {
      ...options, maskedHeads: [], attention: false, signal: controller.signal,
      onProgress: () => { if (isSuperseded(request)) controller.abort(); },
    })).text
    : undefined;
  const translations = document.segments.filter((segment) => segment.translation).map((segment) => segment.translation);
  const tokens = translations.reduce((sum, t) => sum + (t.hypotheses[0]?.tokens ?? 0), 0);  // generated, eos included
  post({ type: 'document', id, document, single, baseline, otherLanguage, timing: { milliseconds, tokens, threads: threads ? POOL_WORKERS : 1 } },
    single ? attentionBuffers(translations[0]) : []);
}

// An HTML fragment: translateHTML, stopped at its next token once superseded.
async function runHtml(request) {
  const { id, text, options } = request;
  const { html, sentences } = await translator.translateHTML(text, {
    ...options,
    onToken: () => !isSuperseded(request),
  });
  const single = sentences.length === 1;
  if (!single) sentences.forEach(({ translation }) => delete translation.attention);
  post({ type: 'html', id, html, sentences, single }, single ? attentionBuffers(sentences[0].translation) : []);
}

async function runTranslation(request) {
  const { id, text, options, compareWithoutMasks, live } = request;
  const started = performance.now();
  const result = await translator.translate(text, {
    ...options,
    onToken: (step) => {
      if (isSuperseded(request)) return false;
      if (live) post({ type: 'token', id, step });  // its crossAttention is already a copy
      return true;
    },
  });
  const milliseconds = performance.now() - started;
  const baseline = compareWithoutMasks  // only its text is shown
    ? await translator.translate(text, { ...options, maskedHeads: [], attention: false, onToken: () => !isSuperseded(request) })
    : undefined;
  const tokens = result.hypotheses[0]?.tokens ?? 0;  // generated, eos included
  const timing = { milliseconds, tokens };
  post({ type: 'result', id, result, baseline, timing }, attentionBuffers(result));
}

// The oldest of the lanes' pending requests (ids grow with time), taken off its lane.
function takeOldestRequest() {
  let oldest = null;
  for (const request of pendingRequests.values()) if (!oldest || request.id < oldest.id) oldest = request;
  if (oldest) pendingRequests.delete(oldest.lane);
  return oldest;
}

async function runPendingRequest() {
  if (running) return;
  const request = takeOldestRequest();
  if (!request) return;
  running = request;
  try {
    if (!translator) throw Object.assign(new Error('no model is loaded'), { code: 'invalid_argument' });
    const run = request.html ? runHtml : request.document ? runDocument : runTranslation;
    await run(request);
  } catch (error) {
    if (error?.code === 'cancelled') post({ type: 'dropped', id: request.id });
    else post({ type: 'translate-error', id: request.id, ...errorMessage(error) });
  } finally {
    running = null;
  }
  // Let the messages that arrived while decoding land before picking the next request.
  setTimeout(runPendingRequest, 0);
}

function enqueueTranslation(message) {
  const request = { ...message, lane: message.lane ?? 0 };
  const older = pendingRequests.get(request.lane);
  if (older) post({ type: 'dropped', id: older.id });
  pendingRequests.set(request.lane, request);
  if (!running) setTimeout(runPendingRequest, 0);
}

// Every request is answered once: one taken off its lane before it started, `dropped`; the
// lane's request being translated stops at its next chance (a document's next group).
function dropPendingRequest(lane) {
  if (running?.lane === lane) running.cancelled = true;
  const request = pendingRequests.get(lane);
  if (!request) return;
  pendingRequests.delete(lane);
  post({ type: 'dropped', id: request.id });
}

function closeLane(lane) {
  dropPendingRequest(lane);
  newestRequests.delete(lane);
}

function shareNewestRequest({ lane = 0, newestRequest }) {
  if (newestRequest) newestRequests.set(lane, newestRequest);
}

self.onmessage = ({ data }) => {
  if (data.type === 'init') shareNewestRequest(data);
  else if (data.type === 'load') load(data);
  else if (data.type === 'import') importModel(data);
  else if (data.type === 'translate') enqueueTranslation(data);
  else if (data.type === 'cancel') dropPendingRequest(data.lane ?? 0);  // the page has settled it already
  else if (data.type === 'close') closeLane(data.lane);
};
