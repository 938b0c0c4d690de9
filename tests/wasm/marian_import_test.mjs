// importMarian (wasm/attend.mjs): a Marian model folder imported in WebAssembly is, byte for byte,
// the file `attend import` writes natively from the same folder: Firefox's int8 layout with its
// shortlist, licence and README; the float32 model gzipped as Firefox serves it; an OPUS-MT folder
// (tests/marian/fixtures/opus-ende), plain and gzipped, and its languages read from a README as the
// CLI reads them; files named one by one. What the CLI refuses is refused with the same code and message, and the imported file
// translates as the CLI translates the native one. The folders are made in a temporary directory
// from tests/marian/fixtures/ssru-ende (which holds two models, itself an error), and the CLI runs
// there, so both name the files alike ("ende/model.ende.bin").
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';

import { AttendError, CLI, Translator, cliTranslate } from './common.mjs';
import { importMarian, twoLetterCode } from '../../wasm/attend.mjs';

const FIXTURE = new URL('../marian/fixtures/ssru-ende/', import.meta.url).pathname;
const LICENSE = 'The fixture student of tests/marian: trained on Multi30k for the tests, MIT like Attend.\n';
const README = '# ssru-ende\nA tiny SSRU student laid out as Firefox Translations lays out its models.\n';
const SENTENCES = ['A man is riding a bicycle down the street.', 'Two dogs are playing in the snow.'];

const work = mkdtempSync(join(tmpdir(), 'attend-wasm-marian-'));
after(() => rmSync(work, { recursive: true, force: true }));

// A folder `name` in the work directory holding `files`: {name: fixture file name or text}.
function folder(name, files, { gzip = false } = {}) {
  mkdirSync(join(work, name));
  for (const [file, from] of Object.entries(files)) {
    const bytes = from.text === undefined ? readFileSync(join(FIXTURE, from)) : Buffer.from(from.text);
    if (gzip) writeFileSync(join(work, name, `${file}.gz`), gzipSync(bytes));
    else writeFileSync(join(work, name, file), bytes);
  }
  return name;
}

// `attend import ARGS... -o OUT` run in the work directory: {bytes} or {error} (its one line).
function nativeImport(args, out) {
  const run = spawnSync(resolve(CLI), ['import', ...args, '-o', out], { cwd: work, encoding: 'utf8' });
  if (run.error) throw run.error;
  if (run.status !== 0) return { error: run.stderr.trim().replace(/^attend: error: /, ''), status: run.status };
  return { bytes: readFileSync(join(work, out)) };
}

// The folder's files as the page gives them: paths from the folder's parent, the folder named.
const folderFiles = (name) => readdirSync(join(work, name)).map((file) => ({
  path: `${name}/${file}`, folder: name, data: readFileSync(join(work, name, file)),
}));

const FIREFOX = {
  'model.ende.intgemm.alphas.bin': 'model.ende.intgemm.alphas.bin',
  'vocab.ende.spm': 'vocab.ende.spm',
  'lex.50.50.ende.s2t.bin': 'lex.50.50.ende.s2t.bin',
  LICENSE: { text: LICENSE },
  'README.md': { text: README },
};

const OPUS_FIXTURE = new URL('../marian/fixtures/opus-ende/', import.meta.url).pathname;
const TATOEBA_README = `# opus-2021-02-19.zip

* dataset: opus
* model: transformer-align
* source language(s): eng
* target language(s): deu
* model: transformer-align
* pre-processing: normalization + SentencePiece (spm2k,spm2k)
`;

// A copy of the OPUS-MT fixture as folder `name` of the work directory, its files changed by `edit`
// (file name → text → text).
function opusCopy(name, edit = {}) {
  mkdirSync(join(work, name));
  for (const file of readdirSync(OPUS_FIXTURE)) {
    const bytes = readFileSync(join(OPUS_FIXTURE, file));
    writeFileSync(join(work, name, file), edit[file] ? edit[file](bytes.toString('utf8')) : bytes);
  }
  return name;
}

describe('importMarian is attend import', { timeout: 600000 }, () => {
  it('a Firefox folder (intgemm8 with alphas, shortlist, licence, README): the same bytes', async () => {
    const name = folder('ende', { ...FIREFOX, 'metadata.json': { text: '{}' } });
    const native = nativeImport([name], 'ende.safetensors');
    assert.ok(native.bytes, native.error);
    const stages = [];
    const imported = await importMarian(folderFiles(name), { onProgress: (p) => stages.push(p.stage === 'reading' ? p.file : p.stage) });
    assert.ok(Buffer.from(imported.bytes).equals(native.bytes), 'the model file differs from the CLI\'s');
    assert.equal(imported.languages, 'en-de');
    assert.deepEqual(imported.files, {
      model: 'ende/model.ende.intgemm.alphas.bin', sourceVocab: 'ende/vocab.ende.spm', targetVocab: '',
      shortlist: 'ende/lex.50.50.ende.s2t.bin', sourcePieces: '', targetPieces: '', decoderYml: '',
      licenses: ['ende/LICENSE', 'ende/README.md'],
    });
    assert.equal(imported.license, `==> LICENSE <==\n${LICENSE}\n==> README.md <==\n${README}`);
    assert.deepEqual(stages, ['ende/model.ende.intgemm.alphas.bin', 'ende/vocab.ende.spm', 'ende/lex.50.50.ende.s2t.bin',
      'ende/LICENSE', 'ende/README.md', 'converting']);

    // It translates as the CLI translates the native file (int8 weights times f32 activations, the CLI's default).
    const translator = await Translator.load(imported.bytes, { int8Activations: false });
    try {
      const info = translator.info();
      assert.equal(info.config.decoderAutoreg, 'ssru');
      assert.equal(info.sourceLanguage, 'en');
      assert.equal(info.targetLanguage, 'de');
      const expected = cliTranslate(join(work, 'ende.safetensors'), SENTENCES);
      const texts = (await translator.translate(SENTENCES)).map((r) => r.text);
      assert.deepEqual(texts, expected);
      assert.ok(texts.every((text) => text.length > 0));
    } finally {
      translator.dispose();
    }
  });

  it('the float32 model gzipped, as Firefox serves its files: the same bytes as the CLI, and as unzipped', async () => {
    const files = { 'model.ende.bin': 'model.ende.bin', 'vocab.ende.spm': 'vocab.ende.spm', 'lex.50.50.ende.s2t.bin': 'lex.50.50.ende.s2t.bin' };
    const gz = folder('ende-gz', files, { gzip: true });
    const plain = folder('ende-f32', files);
    const native = nativeImport([gz], 'ende-gz.safetensors');
    assert.ok(native.bytes, native.error);
    const imported = await importMarian(folderFiles(gz));
    assert.equal(imported.files.model, 'ende-gz/model.ende.bin.gz');
    assert.ok(Buffer.from(imported.bytes).equals(native.bytes), 'the model file differs from the CLI\'s');
    const unzipped = await importMarian(folderFiles(plain));
    assert.ok(Buffer.from(unzipped.bytes).equals(native.bytes), 'gzip changed the model file');
  });

  it('an OPUS-MT folder (.npz, vocab.yml, source.spm and target.spm, decoder.yml), gzipped too: the same bytes', async () => {
    const OPUS = new URL('../marian/fixtures/opus-ende/', import.meta.url).pathname;
    const files = Object.fromEntries(readdirSync(OPUS).map((file) => [file, { path: join(OPUS, file) }]));
    for (const [name, gzip] of [['opus', false], ['opus-gz', true]]) {
      mkdirSync(join(work, name));
      for (const [file, { path }] of Object.entries(files)) {
        const bytes = readFileSync(path);
        writeFileSync(join(work, name, gzip ? `${file}.gz` : file), gzip ? gzipSync(bytes) : bytes);
      }
      const native = nativeImport([name, '--languages', 'en-de'], `${name}.safetensors`);
      assert.ok(native.bytes, native.error);
      const imported = await importMarian(folderFiles(name), { languages: 'en-de' });
      assert.ok(Buffer.from(imported.bytes).equals(native.bytes), `${name}: the model file differs from the CLI's`);
      const z = gzip ? '.gz' : '';
      assert.equal(imported.files.sourcePieces, `${name}/opus.spm2k-spm2k.vocab.yml${z}`);
      assert.equal(imported.files.decoderYml, `${name}/decoder.yml${z}`);
      assert.equal(imported.files.targetVocab, `${name}/target.spm${z}`);
    }
    // decoder.yml's beam-size 6 is the search translate() runs without a beam, as the CLI's without --beam.
    const translator = await Translator.load(readFileSync(join(work, 'opus.safetensors')));
    try {
      assert.equal(translator.info().search.beam, 6);
      assert.equal(translator.info().search.search, 'marian');
      const expected = cliTranslate(join(work, 'opus.safetensors'), SENTENCES);
      assert.deepEqual((await translator.translate(SENTENCES)).map((r) => r.text), expected);
      assert.deepEqual(expected, cliTranslate(join(work, 'opus.safetensors'), SENTENCES, ['--beam', '6']));
      const six = await translator.translate(SENTENCES[0], { nbest: 6 });  // nbest 6 needs a beam of 6
      assert.equal(six.hypotheses.length, 6);
      assert.equal((await translator.translate(SENTENCES[0], { beam: 1 })).hypotheses.length, 1);  // the call's beam first
      // This model is not multilingual: it has no >>xxx<< target tokens to ask for.
      assert.deepEqual(translator.info().targetTokens, []);
      await assert.rejects(translator.translate(SENTENCES[0], { targetToken: '>>fra<<' }), (error) => {
        assert.equal(error.code, 'invalid_argument');
        assert.match(error.message, /target token '>>fra<<': the model's source vocabulary has no >>xxx<< tokens/);
        return true;
      });
    } finally {
      translator.dispose();
    }
  });

  it('a multilingual OPUS-MT folder: info().targetTokens lists its >>xxx<< pieces, and each translates as the CLI\'s --target-token', async () => {
    // The fixture's vocab.yml with its last two pieces renamed to target tokens, as tests/marian/opus_cli.py makes it.
    const OPUS = new URL('../marian/fixtures/opus-ende/', import.meta.url).pathname;
    mkdirSync(join(work, 'opus-ml'));
    for (const file of readdirSync(OPUS)) {
      let bytes = readFileSync(join(OPUS, file));
      if (file.endsWith('.vocab.yml')) {
        const lines = bytes.toString('utf8').trimEnd().split('\n');
        bytes = Buffer.from(`${[...lines.slice(0, -2), '">>fra<<": 1998', '">>deu<<": 1999'].join('\n')}\n`);
      }
      writeFileSync(join(work, 'opus-ml', file), bytes);
    }
    const native = nativeImport(['opus-ml'], 'opus-ml.safetensors');
    assert.ok(native.bytes, native.error);
    const translator = await Translator.load((await importMarian(folderFiles('opus-ml'))).bytes);
    try {
      assert.deepEqual(translator.info().targetTokens, ['>>fra<<', '>>deu<<'], 'in id order');
      for (const token of translator.info().targetTokens) {
        const result = await translator.translate(SENTENCES[0], { targetToken: token });
        assert.equal(result.sourcePieces[0], token);
        assert.deepEqual([result.text], cliTranslate(join(work, 'opus-ml.safetensors'), [SENTENCES[0]], ['--target-token', token]));
      }
    } finally {
      translator.dispose();
    }
  });

  it('an OPUS-MT folder whose README states its languages: the pair from the README, as the CLI reads it', async () => {
    // The fixture's README states none (as OPUS-MT-train's 2019 releases): replaced by one as
    // Tatoeba-Challenge writes them, as tests/marian/opus_cli.py does.
    const readme = opusCopy('opus-readme', { 'README.md': () => TATOEBA_README });
    const native = nativeImport([readme], 'opus-readme.safetensors');
    assert.ok(native.bytes, native.error);
    const imported = await importMarian(folderFiles(readme));
    assert.equal(imported.languages, 'en-de', 'eng and deu as ISO 639-1');
    assert.ok(Buffer.from(imported.bytes).equals(native.bytes), 'the model file differs from the CLI\'s');
    assert.equal((await importMarian(folderFiles(readme), { languages: 'en-fr' })).languages, 'en-fr', 'the languages given win');
    // OPUS-MT-train's 2020 releases wrote ISO 639-1 codes already; a code with no such code stays as stated.
    const gil = opusCopy('opus-gil', { 'README.md': () => TATOEBA_README.replace('target language(s): deu', 'target language(s): gil') });
    assert.equal((await importMarian(folderFiles(gil))).languages, 'en-gil');
    assert.ok(Buffer.from((await importMarian(folderFiles(gil))).bytes).equals(nativeImport([gil], 'opus-gil.safetensors').bytes));
    // A multilingual README: refused asking for the languages, as the CLI asks for --languages, and
    // saying that importing it naming none would take it (multilingual: 'unnamed', the page's offer).
    const several = opusCopy('opus-several', { 'README.md': () => TATOEBA_README.replace('target language(s): deu', 'target language(s): deu fra') });
    const cli = nativeImport([several], 'opus-several.safetensors');
    assert.match(cli.error, /README\.md' states 2 target languages \(deu fra\): give the pair to import it as, as 'en-de' \(--languages\)$/);
    await assert.rejects(importMarian(folderFiles(several)), (error) => {
      assert.equal(error.code, 'invalid_argument');
      assert.equal(error.message, cli.error.replace(/\(--languages\)$/, '(languages, multilingual)'));
      return true;
    });
    const unnamed = await importMarian(folderFiles(several), { multilingual: 'unnamed' });
    assert.equal(unnamed.languages, '');
    const nativeUnnamed = nativeImport([several, '--languages', 'en-de'], 'opus-several-en-de.safetensors');
    assert.ok(Buffer.from((await importMarian(folderFiles(several), { languages: 'en-de' })).bytes).equals(nativeUnnamed.bytes));
    // READMEs that disagree: refused, with the CLI's message, naming none would not take them either.
    const disagree = opusCopy('opus-disagree', { 'README.md': () => TATOEBA_README });
    writeFileSync(join(work, disagree, 'README.txt'), TATOEBA_README.replace('target language(s): deu', 'target language(s): fra'));
    const refused = nativeImport([disagree], 'opus-disagree.safetensors');
    assert.match(refused.error, /README\.md' states en-de, '.*README\.txt' en-fr: give the languages it translates/);
    for (const multilingual of ['refuse', 'unnamed']) {
      await assert.rejects(importMarian(folderFiles(disagree), { multilingual }),
        (error) => error.code === 'invalid_argument' && error.message === refused.error.replace(/\(--languages\)$/, '(languages)'));
    }
  });

  it('twoLetterCode: the browser\'s ISO 639-1 code of a README\'s code, as the CLI\'s ICU gives it for these', () => {
    for (const [code, two] of [['eng', 'en'], ['deu', 'de'], ['fra', 'fr'], ['nob', 'nb'], ['srp', 'sr'], ['en', 'en'], ['gil', 'gil'], ['zho', 'zh']]) {
      assert.equal(twoLetterCode(code), two, code);
    }
    // Where CLDR's aliases (the browser's) and ICU's uloc_canonicalize (the CLI's) differ: a
    // macrolanguage's member is folded into it here, and Tagalog's tgl is Filipino's fil, no two letters.
    assert.equal(twoLetterCode('cmn'), 'zh');
    assert.equal(twoLetterCode('tgl'), 'tgl');
    assert.equal(twoLetterCode('not a code'), 'not a code');
  });

  it('files named one by one, File objects too, and the languages given', async () => {
    const names = ['model.ende.bin', 'vocab.ende.spm'];
    const native = nativeImport(names.map((file) => join(FIXTURE, file)).concat(['--languages', 'en-de']), 'named.safetensors');
    assert.ok(native.bytes, native.error);
    const imported = await importMarian(names.map((file) => ({ path: join(FIXTURE, file), data: readFileSync(join(FIXTURE, file)) })),
      { languages: 'en-de' });
    assert.ok(Buffer.from(imported.bytes).equals(native.bytes));
    const asFiles = await importMarian(names.map((file) => new File([readFileSync(join(FIXTURE, file))], file)), { languages: 'en-de' });
    assert.equal(asFiles.files.model, 'model.ende.bin');
    assert.equal(asFiles.files.shortlist, '');
    assert.ok(Buffer.from(asFiles.bytes).equals(native.bytes), 'a File named by itself is the file of that name');
  });
});

describe('importMarian refuses what attend import refuses, with the same message', { timeout: 600000 }, () => {
  const same = async (args, files, options, code) => {
    const native = nativeImport(args, 'refused.safetensors');
    assert.ok(native.error, 'the CLI imported it');
    await assert.rejects(importMarian(files, options), (error) => {
      assert.ok(error instanceof AttendError, String(error));
      assert.equal(error.code, code, error.message);
      assert.equal(error.message, native.error);
      return true;
    });
    return native.error;
  };

  it('a folder without a vocabulary', async () => {
    const name = folder('no-vocab', { 'model.ende.bin': 'model.ende.bin', 'lex.50.50.ende.s2t.bin': 'lex.50.50.ende.s2t.bin' });
    const message = await same([name], folderFiles(name), {}, 'invalid_argument');
    assert.match(message, /^no vocabulary \(vocab\*\.spm, or srcvocab\*\.spm and trgvocab\*\.spm[^)]*\) among the files given/);
  });

  it('two models in one folder (the fixture folder itself)', async () => {
    const name = folder('ssru-ende', Object.fromEntries(readdirSync(FIXTURE).map((file) => [file, file])));
    const message = await same([name], folderFiles(name), {}, 'invalid_argument');
    assert.match(message, /^two model files, 'ssru-ende\/model\.ende\.bin' and 'ssru-ende\/model\.ende\.intgemm\.alphas\.bin'/);
  });

  it('a vocabulary that is not a SentencePiece model: invalid_model naming the file', async () => {
    const name = folder('bad-vocab', { 'model.ende.bin': 'model.ende.bin', 'vocab.ende.spm': { text: 'not a sentencepiece model' } });
    const message = await same([name], folderFiles(name), {}, 'invalid_model');
    assert.match(message, /^bad-vocab\/vocab\.ende\.spm: /);
  });

  it('languages not as "en-de"', async () => {
    const name = folder('languages', { 'model.ende.bin': 'model.ende.bin', 'vocab.ende.spm': 'vocab.ende.spm' });
    const message = await same([name, '--languages', 'english'], folderFiles(name), { languages: 'english' }, 'invalid_argument');
    assert.match(message, /^languages 'english'/);
  });

  it('gzip data cut short: io naming the file, nothing imported', async () => {
    const name = folder('cut-gz', { 'model.ende.bin': 'model.ende.bin', 'vocab.ende.spm': 'vocab.ende.spm' }, { gzip: true });
    const path = join(work, name, 'model.ende.bin.gz');
    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, whole.length >> 1));
    assert.ok(nativeImport([name], 'cut.safetensors').error.includes("cannot read 'cut-gz/model.ende.bin.gz'"));
    await assert.rejects(importMarian(folderFiles(name)), (error) => {
      assert.equal(error.code, 'io');
      assert.match(error.message, /^cannot read 'cut-gz\/model\.ende\.bin\.gz': damaged or truncated gzip data/);
      return true;
    });
  });

  it('arguments of the wrong kind', async () => {
    await assert.rejects(importMarian('ende'), (e) => e.code === 'invalid_argument');
    await assert.rejects(importMarian([{ path: 'x.bin', data: 'bytes' }]), (e) => e.code === 'invalid_argument' && /'x\.bin'/.test(e.message));
    await assert.rejects(importMarian([{ data: new Uint8Array(1) }]), (e) => e.code === 'invalid_argument');
    await assert.rejects(importMarian([], { languages: 7 }), (e) => e.code === 'invalid_argument' && /languages/.test(e.message));
  });
});
