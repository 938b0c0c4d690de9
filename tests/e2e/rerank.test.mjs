// The page's "better" quality with reranking: a shipped model whose folder names a reverse
// direction (web/app/shipped-models.js's rerankWith) offers better even with one file, says what it
// downloads (the reverse model's MB too) and costs, loads the reverse direction's file it names, and
// translates as the CLI's --rerank-with; with beam 1 it says that reranking is not used and
// translates greedily. The page's list is routed here so that en-de holds one file (the shipped
// default) reranked by de-en, as `attend translate --rerank-with models/de-en/model.int8.safetensors`;
// de-en and fr-en are the shipped entries: ensembles reranked by the file of the other direction
// that better.json names, at their own weights; en-fr's better.json names none, and its better
// quality downloads and reranks by no other direction.
import assert from 'node:assert/strict';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { cliTranslate } from './support/cli.mjs';
import { makeServedRoot, MODEL, REPO_ROOT } from './support/environment.mjs';
import { saveScreenshot, translate } from './support/app-page.mjs';
import { seriousViolations } from './support/axe.mjs';
import { stopServedBrowser } from './support/served-browser.mjs';
import { openPageWithShippedModels } from './support/shipped-models.mjs';
import { SHIPPED_MODELS } from '../../web/app/shipped-models.js';

const REVERSE = join(REPO_ROOT, 'models/de-en/model.int8.safetensors');
const SENTENCE = 'A guy works on a building.';  // reranking changes its translation at beam 4 (checked below)
const TIMEOUT_MS = 120_000;
const { name, languages, files } = SHIPPED_MODELS['en-de'];
const RERANKED = { name, languages, rerankWith: 'de-en/model.int8.safetensors', rerankWeight: 0.3, files: files.slice(0, 1) };

let server;
let context;
let page;
const requested = [];

before(async (t) => {
  if (!existsSync(REVERSE) || !MODEL.endsWith('models/en-de/model.int8.safetensors')) {
    t.skip('needs the shipped models/en-de and models/de-en');
    return;
  }
  const root = makeServedRoot();
  for (const folder of ['de-en', 'en-fr', 'fr-en']) symlinkSync(join(REPO_ROOT, 'models', folder), join(root, 'models', folder));
  ({ server, context, page } = await openPageWithShippedModels(root, { 'en-de': RERANKED }, requested));
});

after(() => server && stopServedBrowser({ server, context }));

test('one file and a reverse direction: better is offered, with what it downloads and costs', async () => {
  assert.deepEqual(requested, ['/models/en-de/model.int8.safetensors'], 'fast: the one file');
  assert.equal(await page.isVisible('#model-quality'), true);
  const megabytes = (files[0].megabytes + SHIPPED_MODELS['de-en'].files[0].megabytes).toFixed(1);
  assert.equal(await page.textContent('#model-quality input[value="better"] ~ .cost'),
    `slightly more accurate (German → English checks the wording); ${megabytes} MB to download, each sentence about 1.9× as long`);
});

test('better loads the reverse model and translates as the CLI\'s --rerank-with', async () => {
  await page.check('#model-quality input[value="better"]');
  await page.waitForFunction(() => document.body.dataset.model === 'ready'
    && document.getElementById('model-status').textContent === 'English → German (reranked by German → English) is ready.', null, { timeout: TIMEOUT_MS });
  assert.deepEqual(requested.slice(1).sort(), ['/models/de-en/model.int8.safetensors', '/models/en-de/model.int8.safetensors']);
  const reranked = cliTranslate(SENTENCE, { rerankWith: REVERSE });
  assert.notEqual(reranked, cliTranslate(SENTENCE), 'reranking changes this sentence\'s translation');
  assert.equal(await translate(page, SENTENCE), reranked);
  assert.equal(await page.isVisible('#rerank-note'), false);
  await saveScreenshot(page, 'page-rerank');
  assert.deepEqual(await seriousViolations(page), [], 'axe-core with better and reranking chosen');
});

test('beam 1: the page says reranking is not used, and translates greedily', async () => {
  await page.fill('#beam', '1');
  await page.dispatchEvent('#beam', 'change');
  await page.waitForSelector('#rerank-note', { state: 'visible' });
  assert.match(await page.textContent('#rerank-note'), /^Beam size 1 translates without the better quality's reranking: the German → English model chooses among candidates only with a beam size of 2 or more\.$/);
  assert.equal(await translate(page, 'A dog runs on the beach.'), cliTranslate('A dog runs on the beach.', { beam: 1 }));
  assert.deepEqual(await seriousViolations(page), [], 'axe-core with the note shown');
  await page.fill('#beam', '4');
  await page.dispatchEvent('#beam', 'change');
  await page.waitForSelector('#rerank-note', { state: 'hidden' });
  assert.equal(await translate(page, SENTENCE), cliTranslate(SENTENCE, { rerankWith: REVERSE }));
});

// Chooses a shipped folder (better stays chosen) and waits until the page says `status`; gives
// the CLI's files for its better quality: the members (model) and the reranking file (reverse).
async function chooseShipped(folder, status) {
  await page.selectOption('#model-select', folder);
  await page.waitForFunction((status) => document.body.dataset.model === 'ready'
    && document.getElementById('model-status').textContent === status, status, { timeout: TIMEOUT_MS });
  const { files, rerankWith } = SHIPPED_MODELS[folder];
  return { model: files.map((file) => join(REPO_ROOT, 'models', folder, file.name)), reverse: rerankWith && join(REPO_ROOT, 'models', rerankWith) };
}

test('an ensemble without reranking (the shipped en-fr: 3 files at 2,1,2): its files only, their weights', async () => {
  const { files: members, rerankWith, weights } = SHIPPED_MODELS['en-fr'];
  assert.equal(rerankWith, undefined, 'en-fr\'s better.json names no reverse file, or this test proves nothing new');
  assert.ok(members.length > 2 && new Set(weights).size > 1, 'three members at unequal weights, or this test proves nothing');
  const { model } = await chooseShipped('en-fr', 'English → French (ensemble of 3) is ready.');
  const paths = members.map((file) => `/models/en-fr/${file.name}`);
  assert.deepEqual(requested.filter((path) => !path.startsWith('/models/en-de/') && !path.startsWith('/models/de-en/')).sort(), paths.sort());
  const megabytes = members.reduce((sum, file) => sum + file.megabytes, 0).toFixed(1);
  assert.equal(await page.textContent('#model-quality input[value="better"] ~ .cost'),
    `slightly more accurate (3 models vote on each word); ${megabytes} MB to download, each sentence about 3× as long`);
  // A val sentence that reads otherwise with equal weights ("… en train de courir …"); with the
  // folder's, its best leads the next by 0.065 (length-normalised log-probability, `--nbest 2`).
  const text = 'A young girl running by herself in a park.';
  const want = cliTranslate(text, { model, weights });
  assert.notEqual(want, cliTranslate(text, { model }));
  assert.equal(await translate(page, text), want);
});

test('a folder\'s own weight, not the API\'s default (the shipped de-en, reranked at 0.2)', async () => {
  const { rerankWeight } = SHIPPED_MODELS['de-en'];
  assert.notEqual(rerankWeight, 0.3, 'a weight other than the default, or this test proves nothing');
  const { model, reverse } = await chooseShipped('de-en', 'German → English (ensemble of 2, reranked by English → German) is ready.');
  // At the folder's weight and at the default this val sentence reads otherwise, the best ahead
  // of the next by 0.08 at the folder's weight (not by a margin the wasm arithmetic could flip).
  const text = 'Eine Frau in einem blauen T-Shirt spielt ein Instrument.';
  const want = cliTranslate(text, { model, rerankWith: reverse, rerankWeight });
  assert.notEqual(want, cliTranslate(text, { model, rerankWith: reverse, rerankWeight: 0.3 }));
  assert.equal(await translate(page, text), want);
});

test('a folder\'s member weights (the shipped fr-en: 2,1), not equal ones', async () => {
  const { rerankWeight, weights } = SHIPPED_MODELS['fr-en'];
  assert.ok(weights && new Set(weights).size > 1, 'unequal weights, or this test proves nothing');
  const { model, reverse } = await chooseShipped('fr-en', 'French → English (ensemble of 2, reranked by English → French) is ready.');
  // A val sentence that reads otherwise with equal weights; with the folder's, its best leads by 0.66.
  const text = 'Une personne sur une motoneige en plein saut.';
  const want = cliTranslate(text, { model, weights, rerankWith: reverse, rerankWeight });
  assert.notEqual(want, cliTranslate(text, { model, rerankWith: reverse, rerankWeight }));
  assert.equal(await translate(page, text), want);
});

// <attend-translator rerank-with>: on the embed example's page, the element's events as strings.
async function elementEvents(attributes, text, count) {
  const embed = await context.newPage();
  await embed.goto(`${server.origin}/web/examples/embed.html`);
  const element = await embed.evaluateHandle(({ attributes, text }) => {
    const element = document.createElement('attend-translator');
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    element.textContent = text;
    globalThis.rerankEvents = [];
    element.addEventListener('attend-translation', (event) => globalThis.rerankEvents.push(`translation: ${event.detail.text}`));
    element.addEventListener('attend-error', (event) => globalThis.rerankEvents.push(`error ${event.detail.code}: ${event.detail.message}`));
    document.body.append(element);
    return element;
  }, { attributes, text });
  const next = async (n) => {
    await embed.waitForFunction((n) => globalThis.rerankEvents.length >= n, n, { timeout: TIMEOUT_MS });
    return embed.evaluate(() => globalThis.rerankEvents);
  };
  return { embed, element, events: await next(count), next };
}

test('<attend-translator rerank-with> reranks as the CLI; beam 1 and a reverse file that fails are named', async () => {
  const model = '../../models/en-de/model.int8.safetensors';
  const { embed, element, next } = await elementEvents({ model, 'rerank-with': '../../models/de-en/model.int8.safetensors' }, SENTENCE, 1);
  assert.deepEqual(await next(1), [`translation: ${cliTranslate(SENTENCE, { rerankWith: REVERSE })}`]);
  await element.evaluate((e) => e.setAttribute('beam', '1'));
  assert.deepEqual((await next(2))[1],
    'error invalid_argument: beam="1" cannot rerank: rerank-with needs a beam of 2 or more (greedy search has one candidate)');
  await embed.close();
  const missing = await elementEvents({ model, 'rerank-with': '../../models/de-en/missing.safetensors' }, SENTENCE, 1);
  assert.match(missing.events[0], /^error io: the reverse model \(http:\/\/[^)]*\/models\/de-en\/missing\.safetensors\): cannot fetch /);
  await missing.embed.close();
});

test('a long document with a reverse model goes to the 2-thread pool, which reranks as one Translator', async () => {
  const worker = await context.newPage();
  await worker.goto(`${server.origin}/web/examples/embed.html`);  // any page of the origin
  const outcome = await worker.evaluate(async () => {
    const sentences = ['A guy works on a building.', 'A girl in a jean dress is walking along a raised balance beam.',
      'The person in the striped shirt is mountain climbing.', 'A kid swings with his feet up in the air in a forest.'];
    const text = Array.from({ length: 10 }, () => sentences.join(' ')).join('\n\n');  // 40 sentences
    const model = new URL('/models/en-de/model.int8.safetensors', location.href).href;
    const reverse = new URL('/models/de-en/model.int8.safetensors', location.href).href;
    const { TranslationWorker } = await import('/web/app/worker-client.js');
    const translations = new TranslationWorker();
    await translations.load(model, { reverse });
    const { document, timing } = await translations.translate(text, { beam: 4 }, { document: true });
    translations.terminate();
    const { Translator } = await import('/wasm/attend.mjs');
    const alone = await Translator.load(model, { reverse });
    const reranked = await alone.translateDocument(text, { beam: 4 });
    const plain = await alone.translateDocument(text, { beam: 4, rerank: false });
    alone.dispose();
    return { cores: navigator.hardwareConcurrency, threads: timing.threads, text: document.text, reranked: reranked.text, plain: plain.text };
  });
  await worker.close();
  assert.equal(outcome.threads, outcome.cores >= 2 ? 2 : 1);
  assert.notEqual(outcome.reranked, outcome.plain, 'reranking changes these sentences');
  assert.equal(outcome.text, outcome.reranked, 'the pool reranks as one Translator');
});
