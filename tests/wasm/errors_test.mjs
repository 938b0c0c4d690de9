// Bad input to the WebAssembly build: each case is a typed AttendError with the core's message,
// never an abort, and the translator (or the next load) keeps working afterwards.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it, before, after } from 'node:test';

import { AttendError, Translator, tinyModel } from './common.mjs';

const modelBytes = readFileSync(tinyModel('f32'));
const SENTENCE = 'A brown dog is running after the black dog.';

const attendError = (code, pattern = /./) => (e) => {
  assert.ok(e instanceof AttendError, `expected an AttendError, got ${e}`);
  assert.equal(e.code, code, e.message);
  assert.match(e.message, pattern);
  return true;
};

describe('damaged model bytes', () => {
  const damaged = {
    'empty': new Uint8Array(0),
    'three bytes': new Uint8Array([1, 2, 3]),
    'truncated to half': modelBytes.subarray(0, modelBytes.length >> 1),
    'header length beyond the file': (() => { const b = Uint8Array.from(modelBytes); b[6] = 0x7f; return b; })(),
    'garbage in the JSON header': (() => { const b = Uint8Array.from(modelBytes); b.fill(0x7b, 8, 40); return b; })(),
  };
  for (const [name, bytes] of Object.entries(damaged)) {
    it(`${name}: invalid_model`, async () => {
      await assert.rejects(Translator.load(bytes), attendError('invalid_model'));
    });
  }

  it('a missing file: io', async () => {
    await assert.rejects(Translator.load('/nonexistent/model.safetensors'), attendError('io', /nonexistent/));
  });

  it('a server that cannot be reached: io naming the URL', async () => {
    const url = 'http://127.0.0.1:9/model.safetensors';  // the discard port: connection refused
    await assert.rejects(Translator.load(url), attendError('io', /cannot fetch http:\/\/127\.0\.0\.1:9\/model/));
  });

  it('int8 activations: an f32 file with true and an unknown mode are invalid_argument; auto leaves it f32', async () => {
    await assert.rejects(Translator.load(modelBytes, { int8Activations: true }),
      attendError('invalid_argument', /int8 activations need an int8 model file/));
    await assert.rejects(Translator.load(modelBytes, { int8Activations: 'yes' }),
      attendError('invalid_argument', /int8Activations must be true, false or 'auto'/));
    const auto = await Translator.load(modelBytes, { int8Activations: 'auto' });  // f32: left as it is
    assert.equal(auto.info().int8Activations, false);
    auto.dispose();
  });

  it('a good model still loads after the failures', async () => {
    const translator = await Translator.load(modelBytes.buffer.slice(modelBytes.byteOffset, modelBytes.byteOffset + modelBytes.length));
    assert.ok((await translator.translate(SENTENCE)).text.length > 0);
    translator.dispose();
  });
});

describe('bad input text', () => {
  let translator;
  let expected;
  before(async () => {
    translator = await Translator.load(modelBytes);
    expected = await translator.translate(SENTENCE);
  });
  after(() => translator.dispose());

  // JS strings are UTF-16 and may hold unpaired surrogates, which have no UTF-8 encoding;
  // they are rejected rather than replaced by U+FFFD.
  for (const [name, text, index] of [['a lone high surrogate', 'A dog\uD83D.', 5],
    ['a lone low surrogate', '\uDE00 dog', 0], ['a reversed pair', 'ab\uDE00\uD83D', 2]]) {
    it(`${name}: invalid_input with its position`, async () => {
      await assert.rejects(translator.translate(text), attendError('invalid_input', new RegExp(`index ${index}\\b`)));
    });
  }

  it('the same in a batch names the input', async () => {
    await assert.rejects(translator.translate([SENTENCE, 'x\uD800']), attendError('invalid_input', /input 1 /));
  });

  it('a valid surrogate pair (emoji) translates', async () => {
    const result = await translator.translate('A dog 🐕.');
    assert.ok(result.sourcePieces.length > 0);
  });

  it('invalid UTF-8 bytes: the core rejects them', async () => {
    for (const bytes of [[0xff], [0x41, 0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
      await assert.rejects(translator.translate(new Uint8Array(bytes)), attendError('invalid_input', /UTF-8/));
    }
  });

  it('an enormous sentence: invalid_input naming the sizes', async () => {
    await assert.rejects(translator.translate('dog '.repeat(200000)), attendError('invalid_input', /128/));
  });

  it('an empty or invisible sentence: empty_input', async () => {
    for (const text of ['', ' \t', '\u00a0', '\u200b']) {
      await assert.rejects(translator.translate(text), attendError('empty_input', /nothing to translate/));
    }
  });

  it('wrong options: invalid_argument', async () => {
    await assert.rejects(translator.translate(SENTENCE, { beam: 0 }), attendError('invalid_argument', /beam/));
    await assert.rejects(translator.translate(SENTENCE, { beam: 2.5 }), attendError('invalid_argument', /beam/));
    await assert.rejects(translator.translate(SENTENCE, { beam: 2, nbest: 3 }), attendError('invalid_argument', /nbest/));
    await assert.rejects(translator.translate(SENTENCE, { bem: 5 }), attendError('invalid_argument', /bem/));
    await assert.rejects(translator.translate(SENTENCE, { maskedHeads: [{ kind: 'cross', layer: 9, head: 0 }] }),
      attendError('invalid_argument'));
    await assert.rejects(translator.translate(SENTENCE, { maskedHeads: [{ kind: 'self', layer: 0, head: 0 }] }),
      attendError('invalid_argument', /self/));
    await assert.rejects(translator.translate(42), attendError('invalid_argument', /string/));
  });

  it('option values of the wrong type or beyond int: invalid_argument naming the option, never wrapped', async () => {
    const wrong = [
      [{ beam: 4294967297 }, /beam must be an integer .* got 4294967297/],  // would wrap to 1: greedy search
      [{ beam: -4294967295 }, /beam must be an integer/],
      [{ beam: 1e30 }, /beam must be an integer/],
      [{ maxLength: 2 ** 63 }, /maxLength must be an integer/],
      [{ beam: NaN }, /beam must be an integer .* got null/],  // JSON has no NaN
      [{ alpha: NaN }, /alpha must be a number, got null/],
      [{ alpha: '1.0' }, /alpha must be a number, got "1.0"/],
      [{ maxLengthRatio: true }, /maxLengthRatio must be a number/],
      [{ maxRepeats: 1.5 }, /maxRepeats must be an integer/],
      [{ maxRepeats: -1 }, /max repeats must be at least 0/],
      [{ attention: 1 }, /attention must be true or false/],
      [{ maskedHeads: { kind: 'cross', layer: 0, head: 0 } }, /maskedHeads must be an array/],
      [{ maskedHeads: [{ kind: 'cross', layer: 0 }] }, /maskedHeads head must be an integer .* got null/],
      [{ maskedHeads: [{ kind: 'cross', layer: 4294967296, head: 0 }] }, /maskedHeads layer must be an integer/],
      [{ maskedHeads: [7] }, /maskedHeads must be an array of \{kind, layer, head\}/],
    ];
    for (const [options, pattern] of wrong) {
      await assert.rejects(translator.translate(SENTENCE, options), attendError('invalid_argument', pattern),
        JSON.stringify(options));
    }
  });

  it('the translator still works after every error', async () => {
    assert.deepEqual(await translator.translate(SENTENCE), expected);
  });

  it('a disposed translator says so', async () => {
    const other = await Translator.load(modelBytes);
    other.dispose();
    await assert.rejects(other.translate(SENTENCE), attendError('invalid_argument', /disposed/));
    assert.throws(() => other.info(), attendError('invalid_argument', /disposed/));
  });
});

describe('re-entry from onToken', () => {
  it('translate() and dispose() inside onToken are refused; info() works', async () => {
    const translator = await Translator.load(modelBytes);
    let nested;
    let disposeError;
    let info;
    await assert.rejects(translator.translate(SENTENCE, {
      onToken: (step) => {
        if (step.step > 0) return false;
        nested = translator.translate(SENTENCE);
        try { translator.dispose(); } catch (e) { disposeError = e; }
        info = translator.info();
        return true;
      },
    }), attendError('cancelled'));
    await assert.rejects(nested, attendError('invalid_argument', /already running/));
    assert.ok(attendError('invalid_argument', /onToken/)(disposeError));
    assert.equal(info.dtype, 'f32');
    translator.dispose();
  });
});
