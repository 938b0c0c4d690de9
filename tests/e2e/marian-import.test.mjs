// A Firefox Translations (Marian) model folder imported in the page: chosen with the folder button
// or dropped as a folder (gzipped as Firefox serves its files), converted in the worker, listed with
// its languages, its licence shown, kept for the next visit, translating as the native CLI translates
// the file `attend import` writes from the same folder; its SSRU decoder's missing self-attention
// said in words; a folder without a vocabulary and a model Attend does not run refused in plain
// words, the model in use kept; an OPUS-MT folder listed with the languages its README states. The
// folders are made from tests/marian/fixtures/ssru-ende and opus-ende.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { cliTranslate } from './support/cli.mjs';
import { CLI, makeServedRoot, REPO_ROOT } from './support/environment.mjs';
import { openApp, translate } from './support/app-page.mjs';
import { seriousViolations } from './support/axe.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

const FIXTURE = join(REPO_ROOT, 'tests/marian/fixtures/ssru-ende');
const SENTENCE = 'A man is riding a bicycle down the street.';
const LICENSE = 'Fixture student of tests/marian, trained here on Multi30k: for the tests only.\n';
const LOAD_TIMEOUT_MS = 120_000;
// decoder.yml's normalize in the test of the length penalty slider, and a sentence it translates
// otherwise than the slider's default 1.0 does (both at decoder.yml's beam 6).
const ALPHA = 0.2;
const ALPHA_SENTENCE = 'Two dogs play in the snow.';

const work = mkdtempSync(join(tmpdir(), 'attend-e2e-marian-'));
let server;
let context;
let page;

// A folder `name` of the work directory with the fixture's files (or texts) named in `files`.
function folder(name, files, { gzip = false } = {}) {
  const path = join(work, name);
  mkdirSync(path);
  for (const [file, from] of Object.entries(files)) {
    const bytes = typeof from === 'string' ? readFileSync(join(FIXTURE, from)) : Buffer.from(from.text);
    writeFileSync(join(path, gzip ? `${file}.gz` : file), gzip ? gzipSync(bytes) : bytes);
  }
  return path;
}

const FIREFOX = {
  'model.ende.intgemm.alphas.bin': 'model.ende.intgemm.alphas.bin',
  'vocab.ende.spm': 'vocab.ende.spm',
  'lex.50.50.ende.s2t.bin': 'lex.50.50.ende.s2t.bin',
  LICENSE: { text: LICENSE },
};

let nativeModel;

before(async () => {
  folder('ende', FIREFOX);
  nativeModel = join(work, 'ende.safetensors');
  execFileSync(CLI, ['import', join(work, 'ende'), '-o', nativeModel], { encoding: 'utf8' });
  ({ server, context } = await startServedBrowser(makeServedRoot()));
  page = await openApp(context, server.origin);
});

after(async () => {
  await stopServedBrowser({ server, context });
  rmSync(work, { recursive: true, force: true });
});

async function assertNoSeriousViolations(state) {
  await page.emulateMedia({ reducedMotion: 'reduce' });  // axe reads colours, not a piece fading in
  assert.deepEqual(await seriousViolations(page), [], state);
}

const waitForModel = (name) => page.waitForFunction((wanted) => document.body.dataset.model === 'ready'
  && document.getElementById('model-status').textContent.includes(wanted), name, { timeout: LOAD_TIMEOUT_MS });

const waitForError = () => page.waitForFunction(() => document.body.dataset.model === 'error', null, { timeout: LOAD_TIMEOUT_MS });

// Chooses "Import a Marian model (Firefox Translations, OPUS-MT)…" and a folder with its folder button.
async function chooseFolder(path) {
  await page.selectOption('#model-select', 'marian');
  await page.setInputFiles('#marian-folder', path);
}

// The page asks which languages a folder translates where its names and README state none, or a README
// states several (marian-languages.test.mjs): the answer that imports it naming none.
async function importNamingNone() {
  await page.waitForSelector('#import-languages:not([hidden])', { timeout: LOAD_TIMEOUT_MS });
  await page.click('#import-languages [data-part="without"]');
}

test('a folder chosen with the folder button is imported, listed, translates as the CLI, and shows its licence', async () => {
  await chooseFolder(join(work, 'ende'));
  await waitForModel('English → German (imported: ende) is ready.');
  const option = await page.$eval('#model-select', (select) => select.selectedOptions[0].textContent);
  assert.equal(option, 'English → German, imported: ende');
  assert.match(await page.textContent('#model-details'), /3 \+ 2 layers.*imported in this browser from model\.ende\.intgemm\.alphas\.bin/);
  assert.equal(await page.getAttribute('#source-text', 'lang'), 'en');
  assert.equal(await page.getAttribute('#translation', 'lang'), 'de');
  assert.equal(await page.isHidden('#target-language-field'), true, 'no target language to choose: its vocabulary has no >>xxx<< tokens');

  const translation = await translate(page, SENTENCE);
  assert.ok(translation.length > 0);
  assert.equal(translation, cliTranslate(SENTENCE, { model: nativeModel }), 'the page and the CLI translate the imported model alike');

  assert.equal(await page.isVisible('#model-license'), true);
  assert.equal(await page.textContent('#model-license-summary'), 'Licence (LICENSE, as the folder gave it)');
  assert.equal(await page.textContent('#model-license-text'), LICENSE);
  assert.equal(await page.isVisible('#model-forget'), true);
  await page.click('#model-license-summary');
  await assertNoSeriousViolations('an imported model translating, its licence open');
});

test('its decoder has no self-attention (SSRU): the view says so instead of drawing zeros', async () => {
  await page.waitForSelector('#attention:not([hidden])');
  await page.selectOption('#attention-kind', 'decoder');
  const message = await page.textContent('#no-self-attention');
  assert.match(message, /This model has no decoder self-attention: .*SSRU/);
  assert.equal(await page.isVisible('#no-self-attention'), true);
  assert.equal(await page.isVisible('#attention-views'), false, 'no heatmap or head grid of zeros');
  assert.equal(await page.isVisible('#links-view'), false);
  assert.match(await page.$eval('#attention-kind', (select) => select.selectedOptions[0].textContent), /none in this model/);
  await assertNoSeriousViolations('the SSRU decoder\'s missing self-attention said');
  await page.selectOption('#attention-kind', 'cross');
  assert.equal(await page.isVisible('#no-self-attention'), false);
  assert.equal(await page.isVisible('#heatmap'), true);
  const kind = await page.getAttribute('#heatmap', 'data-kind');
  assert.equal(kind, 'cross');
});

test('a folder without a vocabulary is refused in plain words, and the model in use stays', async () => {
  await chooseFolder(folder('no-vocab', { 'model.ende.bin': 'model.ende.bin', 'lex.50.50.ende.s2t.bin': 'lex.50.50.ende.s2t.bin' }));
  await waitForError();
  const status = await page.textContent('#model-status');
  assert.match(status, /^"no-vocab" cannot be imported: no vocabulary \(vocab\*\.spm, or srcvocab\*\.spm and trgvocab\*\.spm[^)]*\) among the files given\. Choose the model's whole folder/);
  assert.match(status, /English → German \(imported: ende\) is still in use\.$/);
  await assertNoSeriousViolations('an import refused');
  assert.equal(await page.$eval('#model-select', (select) => select.value.startsWith('imported:')), true, 'the list shows the model in use');
  assert.equal(await translate(page, SENTENCE), cliTranslate(SENTENCE, { model: nativeModel }));
});

test('a model Attend does not run is refused naming what it is', async () => {
  const model = readFileSync(join(FIXTURE, 'model.ende.bin'));
  const lstm = folder('lstm', { 'vocab.ende.spm': 'vocab.ende.spm' });
  writeFileSync(join(lstm, 'model.ende.bin'), Buffer.from(model.toString('latin1').replace('dec-cell: ssru', 'dec-cell: lstm'), 'latin1'));
  await chooseFolder(lstm);
  await waitForError();
  assert.match(await page.textContent('#model-status'),
    /^"lstm" cannot be imported: lstm\/model\.ende\.bin: model\.yml 'dec-cell' is 'lstm': the only recurrent decoder layer Attend runs is ssru\. Attend runs Marian's transformer models/);
});

test('a folder dropped on the page, gzipped as Firefox serves it, imports the same model', async () => {
  const gz = folder('ende-gz', FIREFOX, { gzip: true });
  // A real drag of a folder from the desktop, as the browser receives it (DataTransferItem.webkitGetAsEntry).
  const cdp = await context.newCDPSession(page);
  const data = { items: [], files: [gz], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop']) {
    await cdp.send('Input.dispatchDragEvent', { type, x: 200, y: 200, data });
  }
  await waitForModel('English → German (imported: ende-gz) is ready.');
  assert.equal(await translate(page, `${SENTENCE} `), cliTranslate(SENTENCE, { model: nativeModel }));
  const imported = await page.$$eval('#model-select option[data-imported="true"]', (options) => options.map((o) => o.textContent));
  assert.deepEqual(imported, ['English → German, imported: ende', 'English → German, imported: ende-gz']);
});

test('imported models are kept for the next visit, and can be removed', async () => {
  const next = await openApp(context, server.origin);
  try {
    const options = await next.$$eval('#model-select option[data-imported="true"]', (all) => all.map((o) => ({ value: o.value, text: o.textContent })));
    assert.deepEqual(options.map((o) => o.text), ['English → German, imported: ende', 'English → German, imported: ende-gz']);
    await next.selectOption('#model-select', options[0].value);
    await next.waitForFunction(() => document.body.dataset.model === 'ready'
      && document.getElementById('model-status').textContent.includes('(imported: ende) is ready.'), null, { timeout: LOAD_TIMEOUT_MS });
    assert.equal(await translate(next, SENTENCE), cliTranslate(SENTENCE, { model: nativeModel }));
    await next.click('#model-forget');
    await next.waitForFunction(() => document.querySelectorAll('#model-select option[data-imported="true"]').length === 1);
    assert.match(await next.textContent('#model-status'), /removed from this browser; it stays in use until you choose another model/);
    assert.equal(await translate(next, 'Two dogs play in the snow.'), cliTranslate('Two dogs play in the snow.', { model: nativeModel }));
  } finally {
    await next.close();
  }
});

test('an OPUS-MT folder: the beam field starts at its decoder.yml\'s beam, and it translates as the CLI with that beam', async () => {
  const opus = join(REPO_ROOT, 'tests/marian/fixtures/opus-ende');
  const native = join(work, 'opus.safetensors');
  execFileSync(CLI, ['import', opus, '-o', native], { encoding: 'utf8' });
  await chooseFolder(opus);
  await importNamingNone();
  await waitForModel('is ready.');
  assert.equal(await page.inputValue('#beam'), '6');  // decoder.yml: beam-size 6 (the field was 4)
  assert.equal(await page.isHidden('#target-language-field'), true);
  const translation = await translate(page, SENTENCE);
  assert.ok(translation.length > 0);
  // The CLI without --beam: the file's beam, 6 (an f32 file: no --int8-activations, which cliTranslate adds).
  const expected = execFileSync(CLI, ['translate', '--model', native, SENTENCE], { encoding: 'utf8' }).trim();
  assert.equal(translation, expected);
  assert.equal(expected, execFileSync(CLI, ['translate', '--model', native, '--beam', '6', SENTENCE], { encoding: 'utf8' }).trim());
});

// A copy of the OPUS-MT fixture as folder `name`, its files changed by `edit` (file name → text → text).
function opusFolder(name, edit) {
  const from = join(REPO_ROOT, 'tests/marian/fixtures/opus-ende');
  const path = join(work, name);
  mkdirSync(path);
  for (const file of readdirSync(from)) {
    const bytes = readFileSync(join(from, file));
    writeFileSync(join(path, file), edit[file] ? edit[file](bytes.toString('utf8')) : bytes);
  }
  return path;
}

// The CLI on an imported f32 file (no --int8-activations, which cliTranslate adds), with `args`.
const cliOn = (model, text, ...args) => execFileSync(CLI, ['translate', '--model', model, ...args, text], { encoding: 'utf8' }).trim();

// Waits for a translation shown after `action` (a change of a setting), and returns its text.
async function translationAfter(action) {
  const shownBefore = Number(await page.$eval('#translation', (output) => output.dataset.shown ?? 0));
  await action();
  await page.waitForFunction((before) => Number(document.getElementById('translation').dataset.shown) > before
    && document.body.dataset.translating === 'false', shownBefore, { timeout: LOAD_TIMEOUT_MS });
  return page.$eval('#translation', (output) => output.dataset.text);
}

test('a multilingual OPUS-MT folder: its target languages in a labelled list, the one chosen translated into and kept for the next visit', async () => {
  // The fixture's vocab.yml with its last two pieces renamed to target tokens, as tests/marian/opus_cli.py makes it.
  const opus = opusFolder('opus-ml', {
    'opus.spm2k-spm2k.vocab.yml': (text) => `${[...text.trimEnd().split('\n').slice(0, -2), '">>fra<<": 1998', '">>deu<<": 1999'].join('\n')}\n`,
  });
  const native = join(work, 'opus-ml.safetensors');
  execFileSync(CLI, ['import', opus, '-o', native], { encoding: 'utf8' });
  const [french, german] = ['>>fra<<', '>>deu<<'].map((token) => cliOn(native, SENTENCE, '--target-token', token));
  assert.notEqual(french, german, 'the token changes this translation');

  await chooseFolder(opus);
  await importNamingNone();
  await waitForModel('(imported: opus-ml) is ready.');
  assert.equal(await page.isVisible('#target-language-field'), true);
  assert.equal(await page.$eval('#target-language', (select) => select.labels[0].textContent), 'Translate into');
  const options = await page.$$eval('#target-language option', (all) => all.map((o) => [o.value, o.textContent]));
  assert.deepEqual(options, [['>>fra<<', 'French'], ['>>deu<<', 'German']], 'named by Intl.DisplayNames, in order of their names');
  assert.equal(await page.inputValue('#target-language'), '>>fra<<', 'the model names no languages: the first');
  assert.equal(await translate(page, SENTENCE), french, 'as the CLI with --target-token >>fra<< (and decoder.yml\'s beam 6)');
  assert.equal(await page.getAttribute('#translation', 'lang'), 'fr');

  assert.equal(await translationAfter(() => page.selectOption('#target-language', '>>deu<<')), german);
  assert.equal(await page.getAttribute('#translation', 'lang'), 'de');
  await assertNoSeriousViolations('a multilingual model\'s target language chosen');

  const next = await openApp(context, server.origin);
  try {
    const value = await next.$eval('#model-select', (select) => [...select.options].find((o) => o.textContent.endsWith('imported: opus-ml')).value);
    await next.selectOption('#model-select', value);
    await next.waitForFunction(() => document.body.dataset.model === 'ready'
      && document.getElementById('model-status').textContent.includes('(imported: opus-ml) is ready.'), null, { timeout: LOAD_TIMEOUT_MS });
    assert.equal(await next.inputValue('#target-language'), '>>deu<<', 'the choice kept for this model');
    assert.equal(await translate(next, SENTENCE), german);
  } finally {
    await next.close();
  }
});

// An OPUS-MT release's README as Tatoeba-Challenge writes them (the fixture's own states no languages).
const TATOEBA_README = `# opus-2021-02-19.zip

* dataset: opus
* model: transformer-align
* source language(s): eng
* target language(s): deu
* pre-processing: normalization + SentencePiece (spm2k,spm2k)
`;

test('an OPUS-MT folder is listed with the languages its README states; a multilingual README names none, its targets offered', async () => {
  const opus = opusFolder('opus-readme', { 'README.md': () => TATOEBA_README });
  await chooseFolder(opus);
  await waitForModel('English → German (imported: opus-readme) is ready.');
  assert.equal(await page.$eval('#model-select', (select) => select.selectedOptions[0].textContent), 'English → German, imported: opus-readme');
  assert.equal(await page.getAttribute('#source-text', 'lang'), 'en');
  assert.equal(await page.getAttribute('#translation', 'lang'), 'de');
  // The pair `attend import` reads from the same README.
  const native = execFileSync(CLI, ['import', opus, '-o', join(work, 'opus-readme.safetensors')], { encoding: 'utf8' });
  assert.match(native, /languages\s+en-de \(README\)/);

  // Several targets: the CLI asks for --languages; the page asks too (marian-languages.test.mjs), and
  // imported as a multilingual model it names no languages and offers its >>xxx<< tokens.
  const several = opusFolder('opus-several', {
    'README.md': () => TATOEBA_README.replace('target language(s): deu', 'target language(s): deu fra'),
    'opus.spm2k-spm2k.vocab.yml': (text) => `${[...text.trimEnd().split('\n').slice(0, -2), '">>fra<<": 1998', '">>deu<<": 1999'].join('\n')}\n`,
  });
  await chooseFolder(several);
  await importNamingNone();
  await waitForModel('(imported: opus-several) is ready.');
  assert.equal(await page.$eval('#model-select', (select) => select.selectedOptions[0].textContent), 'languages not named, imported: opus-several');
  const options = await page.$$eval('#target-language option', (all) => all.map((o) => [o.value, o.textContent]));
  assert.deepEqual(options, [['>>fra<<', 'French'], ['>>deu<<', 'German']]);
});

test('the length penalty slider starts at decoder.yml\'s normalize and overrides it only once moved', async () => {
  const opus = opusFolder('opus-alpha', { 'decoder.yml': (text) => text.replace('normalize: 1', `normalize: ${ALPHA}`) });
  const native = join(work, 'opus-alpha.safetensors');
  execFileSync(CLI, ['import', opus, '-o', native], { encoding: 'utf8' });
  const asked = cliOn(native, ALPHA_SENTENCE);  // the file's normalize
  assert.notEqual(asked, cliOn(native, ALPHA_SENTENCE, '--alpha', '1'), 'the slider\'s old 1.0 translates this otherwise');
  await chooseFolder(opus);
  await importNamingNone();
  await waitForModel('(imported: opus-alpha) is ready.');
  assert.equal(await page.inputValue('#alpha'), String(ALPHA));
  assert.equal(await page.textContent('#alpha-value'), String(ALPHA));
  assert.equal(await translate(page, ALPHA_SENTENCE), asked);
  // Moved (End: the keyboard's way to its end, one step): now it is what translate() is given.
  const moved = await translationAfter(async () => {
    await page.focus('#alpha');
    await page.keyboard.press('End');
  });
  assert.equal(await page.textContent('#alpha-value'), '2.0');
  assert.equal(moved, cliOn(native, ALPHA_SENTENCE, '--alpha', '2'));
  // Another model that asks for its own starts the slider there again.
  await chooseFolder(join(REPO_ROOT, 'tests/marian/fixtures/opus-ende'));
  await importNamingNone();
  await waitForModel('(imported: opus-ende) is ready.');
  assert.equal(await page.textContent('#alpha-value'), '1.0');
});
