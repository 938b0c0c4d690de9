// The page's "better" quality: a shipped model whose folder holds several files offers fast
// (the first file) and better (all of them decoding as an ensemble), each with its cost, and
// the ensemble translates as the CLI's ensemble of the same files does. The page's list of
// shipped files is replaced here (web/app/shipped-models.js, routed) by one whose en-de folder
// holds two random models of one vocabulary, tests/fixtures' tiny and tiny-wide, without
// reranking (rerank.test.mjs has it).
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { cliTranslate } from './support/cli.mjs';
import { makeServedRoot, TINY_MODELS_DIR } from './support/environment.mjs';
import { openPageWithShippedModels } from './support/shipped-models.mjs';
import { SHIPPED_MODELS } from '../../web/app/shipped-models.js';
import { download, saveScreenshot, translate } from './support/app-page.mjs';
import { seriousViolations } from './support/axe.mjs';
import { stopServedBrowser } from './support/served-browser.mjs';

const MEMBERS = ['tiny.int8.safetensors', 'tiny-wide.int8.safetensors'].map((name) => join(TINY_MODELS_DIR, name));
const SENTENCE = 'A dog runs on the beach.';
const TIMEOUT_MS = 120_000;

// web/app/shipped-models.js with en-de's files replaced by the two members, and no reranking.
const { name, languages } = SHIPPED_MODELS['en-de'];
const ENSEMBLE = { name, languages, files: [{ name: 'first.int8.safetensors', megabytes: 0.1 }, { name: 'second.int8.safetensors', megabytes: 0.2 }] };

let server;
let context;
let page;
const requested = [];

before(async () => {
  const root = makeServedRoot();
  symlinkSync(MEMBERS[0], join(root, 'models/en-de/first.int8.safetensors'));
  symlinkSync(MEMBERS[1], join(root, 'models/en-de/second.int8.safetensors'));
  ({ server, context, page } = await openPageWithShippedModels(root, { 'en-de': ENSEMBLE }, requested));
});

after(() => stopServedBrowser({ server, context }));

test('fast is the first file alone; the choice says what each costs', async () => {
  assert.deepEqual(requested, ['/models/en-de/first.int8.safetensors']);
  assert.equal(await page.isVisible('#model-quality'), true);
  assert.equal(await page.isChecked('#model-quality input[value="fast"]'), true);
  assert.equal(await page.textContent('#model-quality input[value="fast"] ~ .cost'), '0.1 MB to download, quickest');
  assert.equal(await page.textContent('#model-quality input[value="better"] ~ .cost'),
    'slightly more accurate (2 models vote on each word); 0.3 MB to download, each sentence about 2× as long');
  assert.equal(await translate(page, SENTENCE), cliTranslate(SENTENCE, { model: MEMBERS[0] }));
  assert.equal(await page.isVisible('#attention-member'), false, 'one model: no choice of model in the views');
});

test('better loads every file as one ensemble and translates as the CLI\'s ensemble', async () => {
  await page.focus('#model-quality input[value="fast"]');
  await page.keyboard.press('ArrowDown');  // the keyboard moves between the radio buttons; Enter chooses
  assert.equal(await page.isChecked('#model-quality input[value="better"]'), true);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.body.dataset.model === 'ready'
    && document.getElementById('model-status').textContent === 'English → German (ensemble of 2) is ready.', null, { timeout: TIMEOUT_MS });
  assert.deepEqual(requested.slice(1).sort(), ['/models/en-de/first.int8.safetensors', '/models/en-de/second.int8.safetensors']);
  assert.match(await page.textContent('#model-details'), /^2 models deciding together, \d+K parameters in all \(int8 weights and activations: .*\), the first with 2 \+ 2 layers and 2 heads, /);
  const ensemble = cliTranslate(SENTENCE, { model: MEMBERS });
  assert.notEqual(ensemble, cliTranslate(SENTENCE, { model: MEMBERS[0] }), 'the members together translate otherwise than the first alone');
  assert.equal(await translate(page, SENTENCE), ensemble);
  await saveScreenshot(page, 'page-ensemble');
  const record = JSON.parse(await download(page, '#export-json'));  // every member's maps, as the CLI writes them
  assert.equal(record.attention_member, 1);
  assert.deepEqual(record.members.map((member) => member.heads), [2, 4]);
  assert.deepEqual(record.members[0].attention, record.attention);

  // The views show the model chosen in the attention section; masks reach the first one only.
  assert.equal(await page.isVisible('#attention-member'), true);
  assert.deepEqual(await page.$$eval('#attention-member option', (options) => options.map((o) => o.textContent)),
    ['Model 1 (its heads can be masked)', 'Model 2']);
  const grid = () => page.$$eval('#head-grid .head-cell', (cells) => ({ cells: cells.length, masks: cells.filter((c) => c.querySelector('.head-mask')).length }));
  assert.deepEqual(await grid(), { cells: 2 * 2, masks: 2 * 2 });
  await page.selectOption('#attention-member', '1');
  assert.deepEqual(await grid(), { cells: 2 * 4, masks: 0 });
  assert.equal(await page.$$eval('#attention-head option', (options) => options.length), 4);
  await page.selectOption('#attention-member', '0');
  assert.deepEqual(await seriousViolations(page), [], 'axe-core with the choice of quality shown');
});

test('another model and back: the quality in use is kept and shown', async () => {
  await page.selectOption('#model-select', 'fr-en');  // not served: fails, the ensemble stays
  await page.waitForFunction(() => document.body.dataset.model === 'error' || document.body.dataset.model === 'ready', null, { timeout: TIMEOUT_MS });
  await page.waitForFunction(() => document.getElementById('model-select').value === 'en-de');
  assert.equal(await page.isChecked('#model-quality input[value="better"]'), true);
  assert.match(await page.textContent('#model-status'), /English → German \(ensemble of 2\) is still in use\./);
  await page.check('#model-quality input[value="fast"]');
  await page.waitForFunction(() => document.getElementById('model-status').textContent === 'English → German is ready.', null, { timeout: TIMEOUT_MS });
  assert.equal(await translate(page, SENTENCE), cliTranslate(SENTENCE, { model: MEMBERS[0] }));
});
