// <attend-translator marian="…">: a Marian model folder given as the URLs of its files (made from
// tests/marian/fixtures and served here), imported in the element's worker by importMarian as the page
// imports a folder, translating as the CLI translates the file `attend import` writes from the same
// folder; kept in Cache Storage, so the next visit asks the server only whether the files changed
// (HEAD) and downloads them again once they have; a multilingual OPUS-MT model's target-token; a
// folder the importer refuses, a file the server does not have, and both model and marian given,
// each one attend-error shown as the element's other load errors are.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { cliTranslate } from './support/cli.mjs';
import { CLI, makeServedRoot, REPO_ROOT } from './support/environment.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

const SSRU = join(REPO_ROOT, 'tests/marian/fixtures/ssru-ende');
const OPUS = join(REPO_ROOT, 'tests/marian/fixtures/opus-ende');
const SENTENCE = 'A man is riding a bicycle down the street.';
const PAGE = '/marian-element-test.html';
const PAGE_HTML = '<!doctype html><title>test</title><script type="module" src="/web/element/attend-translator.js"></script><main></main>';
const FIREFOX_FILES = ['model.ende.intgemm.alphas.bin', 'vocab.ende.spm', 'lex.50.50.ende.s2t.bin'];
const OPUS_FILES = ['opus.spm2k-spm2k.transformer-align.model1.npz.best-perplexity.npz', 'opus.spm2k-spm2k.vocab.yml',
  'source.spm', 'target.spm', 'decoder.yml'];

let root;
let server;
let context;
let firefoxModel;  // the file `attend import` writes from the Firefox folder
let multilingualModel;  // and from the multilingual OPUS-MT folder

// A folder /marian/<name> of the served root: `files` (name → bytes) written there.
function servedFolder(name, files) {
  const path = join(root, 'marian', name);
  mkdirSync(path, { recursive: true });
  for (const [file, bytes] of Object.entries(files)) writeFileSync(join(path, file), bytes);
  return path;
}

before(async () => {
  root = makeServedRoot();
  const ende = servedFolder('ende', Object.fromEntries(FIREFOX_FILES.map((file) => [`${file}.gz`, gzipSync(readFileSync(join(SSRU, file)))])));
  firefoxModel = join(root, 'ende.safetensors');
  execFileSync(CLI, ['import', ende, '-o', firefoxModel], { encoding: 'utf8' });
  // A multilingual OPUS-MT folder: the fixture's vocab.yml with its last two pieces renamed to target
  // tokens (as tests/marian/opus_cli.py makes it), which the model then reads as those pieces.
  const lines = readFileSync(join(OPUS, 'opus.spm2k-spm2k.vocab.yml'), 'utf8').trimEnd().split('\n');
  const opus = servedFolder('opus-ml', {
    ...Object.fromEntries(OPUS_FILES.map((file) => [file, readFileSync(join(OPUS, file))])),
    'opus.spm2k-spm2k.vocab.yml': `${[...lines.slice(0, -2), '">>fra<<": 1998', '">>deu<<": 1999'].join('\n')}\n`,
  });
  multilingualModel = join(root, 'opus-ml.safetensors');
  execFileSync(CLI, ['import', opus, '-o', multilingualModel], { encoding: 'utf8' });
  servedFolder('no-vocab', { 'model.ende.bin': readFileSync(join(SSRU, 'model.ende.bin')) });
  symlinkSync(join(SSRU, 'vocab.ende.spm'), join(root, 'marian', 'vocab.ende.spm'));
  ({ server, context } = await startServedBrowser(root));
});

after(() => stopServedBrowser({ server, context }));

// Opens a page with one element of `attributes`; resolves with the page, its element's first
// event ('attend-translation text' or 'attend-error code: message'), its status line and the
// requests made for /marian/ files ('GET /marian/ende/…').
async function elementWith(attributes) {
  const page = await context.newPage();
  const requests = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/marian/')) requests.push(`${request.method()} ${pathname}`);
  });
  await page.route(`**${PAGE}`, (route) => route.fulfill({ contentType: 'text/html', body: PAGE_HTML }));
  await page.goto(`${server.origin}${PAGE}`);
  const event = await page.evaluate((attrs) => new Promise((resolve) => {
    const element = document.createElement('attend-translator');
    for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
    element.addEventListener('attend-translation', (e) => resolve(`attend-translation ${e.detail.text}`));
    element.addEventListener('attend-error', (e) => resolve(`attend-error ${e.detail.code}: ${e.detail.message}`));
    document.querySelector('main').append(element);
  }), attributes);
  const status = await page.evaluate(() => document.querySelector('attend-translator').shadowRoot.querySelector('.status').textContent);
  return { page, event, status, requests };
}

const files = (folder, names) => names.map((name) => `/marian/${folder}/${name}`).join(' ');

test('a Firefox folder\'s gzipped files by URL are imported and translate as the CLI translates the file attend import writes', async () => {
  const { page, event, status, requests } = await elementWith({ marian: files('ende', FIREFOX_FILES.map((f) => `${f}.gz`)), 'src-text': SENTENCE });
  try {
    assert.equal(event, `attend-translation ${cliTranslate(SENTENCE, { model: firefoxModel, beam: 4 })}`);
    assert.equal(status, '');
    assert.deepEqual(requests.filter((r) => r.startsWith('GET')).sort(), FIREFOX_FILES.map((f) => `GET /marian/ende/${f}.gz`).sort());
  } finally {
    await page.close();
  }
});

test('the import is kept: the next visit only asks whether the files changed, and downloads them again once one has', async () => {
  const attributes = { marian: files('ende', FIREFOX_FILES.map((f) => `${f}.gz`)), 'src-text': SENTENCE };
  const expected = `attend-translation ${cliTranslate(SENTENCE, { model: firefoxModel, beam: 4 })}`;
  const again = await elementWith(attributes);
  await again.page.close();
  assert.equal(again.event, expected);
  assert.deepEqual(again.requests.sort(), FIREFOX_FILES.map((f) => `HEAD /marian/ende/${f}.gz`).sort(), 'nothing downloaded');
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(root, 'marian/ende/vocab.ende.spm.gz'), later, later);  // a new ETag
  const changed = await elementWith(attributes);
  await changed.page.close();
  assert.equal(changed.event, expected);
  assert.ok(changed.requests.includes('GET /marian/ende/vocab.ende.spm.gz'), `downloaded again: ${changed.requests}`);
});

test('a multilingual OPUS-MT folder translates into the language target-token names, as the CLI\'s --target-token', async () => {
  const cli = (token) => execFileSync(CLI, ['translate', '--model', multilingualModel, '--beam', '4', '--target-token', token, SENTENCE],
    { encoding: 'utf8' }).trim();
  assert.notEqual(cli('>>fra<<'), cli('>>deu<<'), 'the token changes this translation');
  for (const token of ['>>fra<<', '>>deu<<']) {
    const { page, event } = await elementWith({ marian: files('opus-ml', OPUS_FILES), 'target-token': token, 'src-text': SENTENCE });
    await page.close();
    assert.equal(event, `attend-translation ${cli(token)}`, token);
  }
  const { page, event } = await elementWith({ marian: files('opus-ml', OPUS_FILES), 'target-token': 'ita', 'src-text': SENTENCE });
  await page.close();
  assert.match(event, /^attend-error invalid_argument: target token '>>ita<<': not a piece of the model's source vocabulary, which has 2 such tokens: >>fra<<, >>deu<</);
});

test('a folder the importer refuses, a file the server lacks, and model with marian: one attend-error each, shown in the status', async () => {
  const refused = await elementWith({ marian: '/marian/no-vocab/model.ende.bin', 'src-text': SENTENCE });
  await refused.page.close();
  assert.match(refused.event, /^attend-error invalid_argument: no vocabulary \(vocab\*\.spm, or srcvocab\*\.spm and trgvocab\*\.spm[^)]*\) among the files given/);
  assert.equal(refused.status, `Translation unavailable: ${refused.event.replace(/^attend-error invalid_argument: /, '')}`);

  const missing = await elementWith({ marian: '/marian/ende/model.ende.intgemm.alphas.bin.gz /marian/ende/vocab.missing.spm', 'src-text': SENTENCE });
  await missing.page.close();
  assert.equal(missing.event, `attend-error io: cannot fetch ${server.origin}/marian/ende/vocab.missing.spm: HTTP 404`);
  assert.match(missing.status, /^Translation unavailable: cannot fetch .*vocab\.missing\.spm: HTTP 404$/);

  const both = await elementWith({ model: '/models/en-de/model.int8.safetensors', marian: '/marian/no-vocab/model.ende.bin', 'src-text': SENTENCE });
  await both.page.close();
  assert.match(both.event, /^attend-error invalid_argument: the model and marian attributes are both given/);
});

test('files of several folders are given as files named by themselves, as the CLI takes files', async () => {
  // The model of /marian/no-vocab with the vocabulary of /marian: the files, not one folder.
  const { page, event } = await elementWith({ marian: '/marian/no-vocab/model.ende.bin /marian/vocab.ende.spm', 'src-text': SENTENCE });
  await page.close();
  const native = join(root, 'separate.safetensors');
  execFileSync(CLI, ['import', join(root, 'marian/no-vocab/model.ende.bin'), join(root, 'marian/vocab.ende.spm'), '-o', native], { encoding: 'utf8' });
  // A float32 file: the worker's int8Activations 'auto' leaves it f32, so no --int8-activations (which cliTranslate adds).
  const expected = execFileSync(CLI, ['translate', '--model', native, '--beam', '4', SENTENCE], { encoding: 'utf8' }).trim();
  assert.equal(event, `attend-translation ${expected}`);
});
