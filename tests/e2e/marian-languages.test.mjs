// A Marian model whose import cannot tell its languages: in the page, a folder whose file names and
// README name none gets a labelled form in place (focus moved to it, codes read by the browser's Intl,
// a code that is not one said in an alert), imported with the pair typed and translating as the CLI
// translates `attend import --languages`; Cancel and Escape keep the model in use; a README stating
// several targets offers the multilingual import or one pair (READMEs that disagree only the pair). In
// <attend-translator marian>, the languages and multilingual attributes. The folders are copies of
// tests/marian/fixtures/opus-ende.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CLI, makeServedRoot, REPO_ROOT } from './support/environment.mjs';
import { openApp, saveScreenshot, translate } from './support/app-page.mjs';
import { seriousViolations } from './support/axe.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

const OPUS = join(REPO_ROOT, 'tests/marian/fixtures/opus-ende');
const SENTENCE = 'A man is riding a bicycle down the street.';
const OTHER = 'Two dogs play in the snow.';
const LOAD_TIMEOUT_MS = 120_000;
const VOCAB = 'opus.spm2k-spm2k.vocab.yml';
const README = `# opus-2021-02-19.zip

* source language(s): eng
* target language(s): deu fra
`;
// The fixture's vocab.yml with its last two pieces renamed to target tokens (as tests/marian/opus_cli.py does).
const withTargetTokens = (text) => `${[...text.trimEnd().split('\n').slice(0, -2), '">>fra<<": 1998', '">>deu<<": 1999'].join('\n')}\n`;

const work = mkdtempSync(join(tmpdir(), 'attend-e2e-languages-'));
let root;
let server;
let context;
let page;

// A copy of the OPUS-MT fixture as folder `name` under `parent`: its README left out (its own states
// no languages, and no file name gives any), or `readme`'s text, its vocab.yml made multilingual.
function opusFolder(parent, name, { readme = null } = {}) {
  const path = join(parent, name);
  mkdirSync(path, { recursive: true });
  for (const file of readdirSync(OPUS)) {
    if (file === 'README.md') continue;
    const bytes = readFileSync(join(OPUS, file));
    writeFileSync(join(path, file), readme && file === VOCAB ? withTargetTokens(bytes.toString('utf8')) : bytes);
  }
  if (readme) writeFileSync(join(path, 'README.md'), readme);
  return path;
}

before(async () => {
  root = makeServedRoot();
  opusFolder(join(root, 'marian'), 'opus');
  opusFolder(join(root, 'marian'), 'opus-several', { readme: README });
  ({ server, context } = await startServedBrowser(root));
  page = await openApp(context, server.origin);
});

after(async () => {
  await stopServedBrowser({ server, context });
  rmSync(work, { recursive: true, force: true });
});

const form = '#import-languages';
const status = () => page.textContent('#model-status');
const focused = () => page.evaluate(() => document.activeElement?.id);
const waitForModel = (name) => page.waitForFunction((wanted) => document.body.dataset.model === 'ready'
  && document.getElementById('model-status').textContent.includes(wanted), name, { timeout: LOAD_TIMEOUT_MS });
const waitForQuestion = () => page.waitForSelector(`${form}:not([hidden])`, { timeout: LOAD_TIMEOUT_MS });

async function chooseFolder(path) {
  await page.selectOption('#model-select', 'marian');
  await page.setInputFiles('#marian-folder', path);
}

// The CLI's translation with the file `attend import --languages` writes from `folder`: an f32 file
// (no --int8-activations), at decoder.yml's beam (where the page's field starts) unless `beam` is given.
function cliTranslation(folder, text, languages, beam = []) {
  const model = join(work, `${folder.replace(/\W/g, '_')}.safetensors`);
  execFileSync(CLI, ['import', folder, '-o', model, '--languages', languages], { encoding: 'utf8' });
  return execFileSync(CLI, ['translate', '--model', model, ...beam, text], { encoding: 'utf8' }).trim();
}

async function assertNoSeriousViolations(state) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  assert.deepEqual(await seriousViolations(page), [], state);
}

test('a folder naming no languages: the page asks for them in place and imports it with the pair typed', async () => {
  const inUse = await translate(page, OTHER);
  const plain = opusFolder(work, 'opus-plain');
  await chooseFolder(plain);
  await waitForQuestion();
  assert.equal(await page.evaluate(() => document.body.dataset.model), 'asking');
  assert.match(await status(), /^Importing opus-plain: which languages does it translate\? .+ is still in use\.$/);
  assert.equal(await focused(), 'import-source', 'the focus moves to the form');
  assert.equal(await page.textContent('#import-languages-title'), 'Which languages does “opus-plain” translate?');
  assert.match(await page.textContent('#import-languages-why'), /^Neither its file names nor a README say which languages it translates\./);
  assert.deepEqual(await page.$$eval(`${form} input`, (inputs) => inputs.map((input) => input.labels[0].textContent)),
    ['Source language', 'Target language']);
  assert.equal(await page.textContent(`${form} [data-part="without"]`), 'Import without naming them');
  await assertNoSeriousViolations('the import asks for the languages');
  assert.equal(await translate(page, OTHER), inUse, 'the model in use still translates');

  // By keyboard, as ISO 639-2 codes in capitals: the browser's Intl makes them en and de.
  await page.focus('#import-source');
  await page.keyboard.type('ENG');
  await page.keyboard.press('Tab');
  await page.keyboard.type('deu');
  assert.equal(await page.textContent('#import-source-name'), 'English');
  assert.equal(await page.textContent('#import-target-name'), 'German');
  await page.keyboard.press('Enter');
  await waitForModel('English → German (imported: opus-plain) is ready.');
  assert.equal(await page.isHidden(form), true);
  assert.equal(await page.$eval('#model-select', (select) => select.selectedOptions[0].textContent), 'English → German, imported: opus-plain');
  assert.equal(await page.getAttribute('#source-text', 'lang'), 'en');
  assert.equal(await page.getAttribute('#translation', 'lang'), 'de');
  assert.equal(await translate(page, SENTENCE), cliTranslation(plain, SENTENCE, 'en-de'));
});

test('a code that is not one is said and its field marked; Escape and Cancel keep the model in use', async () => {
  const inUse = await translate(page, OTHER);
  const chosen = await page.inputValue('#model-select');
  const folder = opusFolder(work, 'opus-cancel');
  await chooseFolder(folder);
  await waitForQuestion();
  const submit = async (source, target) => {
    await page.fill('#import-source', source);
    await page.fill('#import-target', target);
    await page.click(`${form} button[type="submit"]`);
    await page.waitForSelector('#import-languages-error:not([hidden])');
    return page.textContent('#import-languages-error');
  };
  assert.equal(await submit('english', 'de'),
    'The source language “english” is not a language code: type ISO 639\'s two or three letters, as en, de or fra.');
  assert.equal(await page.getAttribute('#import-languages-error', 'role'), 'alert');
  assert.equal(await page.getAttribute('#import-source', 'aria-invalid'), 'true');
  assert.equal(await focused(), 'import-source', 'the focus goes to the field at fault');
  await assertNoSeriousViolations('a language code refused');
  await saveScreenshot(page, 'import-languages-refused');
  assert.equal(await submit('en', 'pt-BR'), 'The target language “pt-BR” names more than a language: type the language alone, pt.');
  assert.equal(await focused(), 'import-target');
  assert.equal(await submit('en', ''), 'The target language is empty: type its code, as en or de.');
  assert.equal(await submit('eng', 'en'), 'The source and target languages are both en: a model translates from one language into another.');
  assert.equal(await page.isVisible(form), true, 'still asking');

  await page.keyboard.press('Escape');
  await page.waitForSelector(form, { state: 'hidden' });
  assert.equal(await page.evaluate(() => document.body.dataset.model), 'ready');
  assert.match(await status(), /^"opus-cancel" was not imported\. English → German \(imported: opus-plain\) is still in use\.$/);
  assert.equal(await focused(), 'model-select', 'the focus leaves the hidden form for the model list');
  assert.equal(await page.inputValue('#model-select'), chosen, 'the list shows the model in use');
  assert.equal(await page.$$eval('#model-select option', (all) => all.filter((o) => o.textContent.includes('opus-cancel')).length), 0);
  assert.equal(await translate(page, OTHER), inUse);

  await chooseFolder(folder);
  await waitForQuestion();
  await page.click(`${form} [data-part="cancel"]`);
  await page.waitForSelector(form, { state: 'hidden' });
  assert.match(await status(), /^"opus-cancel" was not imported\./);
  assert.equal(await translate(page, OTHER), inUse);
});

test('another model chosen while the page asks closes the question', async () => {
  await chooseFolder(opusFolder(work, 'opus-left'));
  await waitForQuestion();
  await page.selectOption('#model-select', 'en-de');
  await page.waitForSelector(form, { state: 'hidden' });
  await waitForModel('English → German is ready.');
});

test('a README stating several targets: imported as a multilingual model, or as the pair named', async () => {
  await chooseFolder(opusFolder(work, 'opus-several', { readme: README }));
  await waitForQuestion();
  assert.equal(await page.textContent('#import-languages-why'),
    '\'opus-several/README.md\' states 2 target languages (deu fra): give the pair to import it as, as \'en-de\'. '
    + 'Or import it as a multilingual model: its >>xxx<< target tokens then choose the language it writes.');
  const multilingual = `${form} [data-part="without"]`;
  assert.equal(await page.textContent(multilingual), 'Import as a multilingual model');
  await page.click(multilingual);
  await waitForModel('languages not named (imported: opus-several) is ready.');
  assert.deepEqual(await page.$$eval('#target-language option', (all) => all.map((o) => [o.value, o.textContent])),
    [['>>fra<<', 'French'], ['>>deu<<', 'German']]);

  await chooseFolder(opusFolder(work, 'opus-several-de', { readme: README }));
  await waitForQuestion();
  await page.fill('#import-source', 'en');
  await page.fill('#import-target', 'de');
  await page.press('#import-target', 'Enter');
  await waitForModel('English → German (imported: opus-several-de) is ready.');
  assert.equal(await page.inputValue('#target-language'), '>>deu<<', 'the pair named chooses its target token first');
});

test('READMEs that disagree: the pair asked for, no multilingual import offered (it would be refused too)', async () => {
  const folder = opusFolder(work, 'opus-disagree', { readme: README.replace('deu fra', 'deu') });
  writeFileSync(join(folder, 'README.txt'), README.replace('deu fra', 'fra'));
  await chooseFolder(folder);
  await waitForQuestion();
  assert.equal(await page.textContent('#import-languages-why'),
    '\'opus-disagree/README.md\' states en-de, \'opus-disagree/README.txt\' en-fr: give the languages it translates.');
  assert.equal(await page.isVisible(`${form} [data-part="without"]`), false);
  await page.fill('#import-source', 'en');
  await page.fill('#import-target', 'fr');
  await page.press('#import-target', 'Enter');
  await waitForModel('English → French (imported: opus-disagree) is ready.');
});

// <attend-translator> with `attributes` on a page of its own: its first event ('attend-translation
// text' or 'attend-error code: message') and the languages of its model's info ('en-de', or '').
async function element(attributes) {
  const tab = await context.newPage();
  try {
    await tab.route('**/languages-test.html', (route) => route.fulfill({ contentType: 'text/html',
      body: '<!doctype html><title>test</title><script type="module" src="/web/element/attend-translator.js"></script><main></main>' }));
    await tab.goto(`${server.origin}/languages-test.html`);
    return await tab.evaluate((attrs) => new Promise((resolve) => {
      const translator = document.createElement('attend-translator');
      for (const [name, value] of Object.entries(attrs)) translator.setAttribute(name, value);
      let languages = '';
      translator.addEventListener('attend-ready', ({ detail }) => {
        languages = detail.sourceLanguage ? `${detail.sourceLanguage}-${detail.targetLanguage}` : '';
      });
      translator.addEventListener('attend-translation', (e) => resolve({ event: `attend-translation ${e.detail.text}`, languages }));
      translator.addEventListener('attend-error', (e) => resolve({ event: `attend-error ${e.detail.code}: ${e.detail.message}`, languages }));
      document.querySelector('main').append(translator);
    }), attributes);
  } finally {
    await tab.close();
  }
}

const served = (folder, names) => names.map((name) => `/marian/${folder}/${name}`).join(' ');
const OPUS_FILES = readdirSync(OPUS).filter((file) => file !== 'README.md' && file !== 'LICENSE');

test('<attend-translator marian> takes the languages attribute', async () => {
  const files = served('opus', OPUS_FILES);
  const expected = cliTranslation(join(root, 'marian/opus'), SENTENCE, 'en-de', ['--beam', '4']);
  assert.deepEqual(await element({ marian: files, 'src-text': SENTENCE }), { event: `attend-translation ${expected}`, languages: '' });
  assert.deepEqual(await element({ marian: files, languages: 'eng-DEU', 'src-text': SENTENCE }),
    { event: `attend-translation ${expected}`, languages: 'en-de' }, 'not the import kept without languages');
  const refused = await element({ marian: files, languages: 'english-german', 'src-text': SENTENCE });
  assert.equal(refused.event, 'attend-error invalid_argument: languages="english-german": the source language “english” is not a language code: '
    + 'type ISO 639\'s two or three letters, as en, de or fra.');
  const withModel = await element({ model: '/models/en-de/model.int8.safetensors', languages: 'en-de', 'src-text': SENTENCE });
  assert.equal(withModel.event, 'attend-error invalid_argument: the languages attribute is for a marian import: a model file names its own languages');
});

test('<attend-translator marian> takes the multilingual attribute: a README stating several targets refused, or named', async () => {
  const files = served('opus-several', [...OPUS_FILES, 'README.md']);
  assert.equal((await element({ marian: files, 'src-text': SENTENCE })).languages, '', 'by default imported naming none');
  const refused = await element({ marian: files, multilingual: 'refuse', 'src-text': SENTENCE });
  assert.match(refused.event, /^attend-error invalid_argument: 'opus-several\/README\.md' states 2 target languages \(deu fra\): give the pair to import it as, as 'en-de' \(languages, multilingual\)$/);
  const named = await element({ marian: files, multilingual: 'refuse', languages: 'en-de', 'src-text': SENTENCE });
  assert.match(named.event, /^attend-translation ./);
  assert.equal(named.languages, 'en-de');
  const bad = await element({ marian: files, multilingual: 'yes', 'src-text': SENTENCE });
  assert.equal(bad.event, 'attend-error invalid_argument: multilingual="yes" is not unnamed or refuse');
});
