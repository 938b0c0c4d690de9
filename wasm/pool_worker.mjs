// One thread of wasm/pool.mjs's TranslatorPool: a Translator of its own, answering
//   {type: 'load', id, bytes, options} with {id, result: info} and
//   {type: 'translate', id, inputs, options} with {id, result: [translation]},
//   {type: 'plan', id, input} with {id, result: [{source, translate}]} (Translator.planDocument),
// or {id, error: {code, message, reverseDetail}} (reverseDetail: set by attend.mjs's reverseError).
// In a page a module Worker, in Node a worker_threads Worker.
import { Translator } from './attend.mjs';

const IN_NODE = typeof process === 'object' && typeof process.versions?.node === 'string';
const port = IN_NODE ? (await import('node:worker_threads')).parentPort : self;

let translator = null;

async function answer({ type, bytes, options, inputs, input }) {
  if (type === 'load') {
    translator?.dispose();
    translator = await Translator.load(bytes, options);
    return translator.info();
  }
  if (!translator) throw Object.assign(new Error('no model loaded'), { code: 'invalid_argument' });
  if (type === 'translate') return translator.translate(inputs, options);
  if (type === 'plan') return translator.planDocument(input);
  throw Object.assign(new Error(`unknown request ${type}`), { code: 'invalid_argument' });
}

const onMessage = async (message) => {
  try {
    port.postMessage({ id: message.id, result: await answer(message) });
  } catch (error) {
    port.postMessage({
      id: message.id,
      error: { code: error?.code ?? 'internal', message: String(error?.message ?? error), reverseDetail: error?.reverseDetail },
    });
  }
};
if (IN_NODE) {
  port.on('message', onMessage);
} else {
  self.onmessage = (event) => onMessage(event.data);
}
