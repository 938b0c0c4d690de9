// The npm LibreTranslate client (`libretranslate`) against `attend serve`: every answer equals
// what `attend translate` prints for the same text, with the pair named and with source "auto"
// (the client's default; CLD2 finds the language), the requests sent all at once so that the
// server decodes them together. Environment: ATTEND_CLI, ATTEND_MODELS, ATTEND_MULTI30K.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { translate } from 'libretranslate';

import { startServer, stopServer } from './serve_process.mjs';

const CLI = process.env.ATTEND_CLI;
const model = (pair) => join(process.env.ATTEND_MODELS, pair, 'model.int8.safetensors');
const multi30k = (language, count) =>
  gunzipSync(readFileSync(join(process.env.ATTEND_MULTI30K, `test_2016_flickr.${language}.gz`)))
    .toString('utf8').split('\n').slice(0, count);

// What `attend translate --model FILE` prints for `text` given on stdin (one output line per line).
function cli(pair, text) {
  const out = execFileSync(CLI, ['translate', '--model', model(pair)], { input: `${text}\n`, encoding: 'utf8' });
  return out.slice(0, -1);
}

const english = [
  ...multi30k('en', 24),
  'A man is sitting on a bench. Two dogs play in the snow.',
  'A girl.\nSeveral people are walking down a busy street at night.',
  'Mr. Smith buys 12 apples for $5 at https://example.org :)',
];
const german = [...multi30k('de', 12), 'Ein Hund rennt. Eine Katze schläft.'];

const { child, url } = await startServer(CLI, ['--model', model('en-de'), '--model', model('de-en')]);
try {
  const asked = [
    ...english.map((query) => ({ query, source: 'en', target: 'de', pair: 'en-de' })),
    ...german.map((query) => ({ query, source: 'de', target: 'en', pair: 'de-en' })),
    // Long enough for CLD2 to tell their language.
    ...english.slice(0, 6).map((query) => ({ query, target: 'de', pair: 'en-de' })),
  ];
  const answers = await Promise.all(asked.map(({ query, source, target }) => translate({ query, source, target, apiurl: url })));
  // Asked before the CLI runs below: those synchronous runs hold the event loop for longer than the
  // server keeps an idle connection (5 s under ASan), so a pooled connection would be reused
  // before its close is seen.
  const metrics = await (await fetch(`${url}/metrics`)).text();
  for (let i = 0; i < asked.length; ++i) {
    assert.equal(answers[i], cli(asked[i].pair, asked[i].query), `${asked[i].source ?? 'auto'}: ${asked[i].query}`);
  }
  const batches = /attend_batch_sentences_count (\d+)/.exec(metrics)[1];
  const sentences = /attend_sentences_translated_total (\d+)/.exec(metrics)[1];
  assert.ok(Number(batches) < Number(sentences), `the requests were decoded together (${batches} batches for ${sentences} sentences)`);
  console.log(`${asked.length} answers of the npm client equal the CLI's; ${sentences} sentences in ${batches} batches`);
} finally {
  assert.equal(await stopServer(child), 0);
}
