// Node half of the wasm tokenizer test (see run_wasm_test.sh).
//   node run_wasm_test.mjs <tokenizer_wasm.cjs> <model> [<text> <spm ids> <spm decoded>]...
// Encodes and decodes every line of each text in WebAssembly and compares line by line
// with spm_encode/spm_decode; also checks that bad input and bad model bytes come back as
// typed errors. Exits 1 at the first mismatch, naming the line.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [jsPath, modelPath, ...triples] = process.argv.slice(2);
const createModule = createRequire(import.meta.url)(path.resolve(jsPath));
// Hand the bytes over: the glue's own fetch() of a file path fails under Node 20.
const wasm = await createModule({ wasmBinary: fs.readFileSync(jsPath.replace(/\.cjs$/, '.wasm')) });

function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exit(1);
}

// Copies bytes into the wasm heap, calls fn(pointer, size, errorSlot), returns
// { result, error } as the function's pointer and the error string, freeing both.
function call(bytes, fn) {
  const input = wasm._malloc(bytes.length + 1);
  wasm.HEAPU8.set(bytes, input);
  const errorSlot = wasm._malloc(4);
  wasm.HEAPU32[errorSlot >> 2] = 0;
  const result = fn(input, bytes.length, errorSlot);
  const errorPointer = wasm.HEAPU32[errorSlot >> 2];
  const error = errorPointer ? wasm.UTF8ToString(errorPointer) : null;
  wasm._free(errorPointer);
  wasm._free(errorSlot);
  wasm._free(input);
  return { result, error };
}

function load(bytes) {
  return call(bytes, (p, n, e) => wasm._tokenizer_load(p, n, e));
}

function mapLines(tokenizer, fnName, bytes) {
  const { result, error } = call(bytes, (p, n, e) => wasm[fnName](tokenizer, p, n, e));
  if (!result) return { error };
  const text = Buffer.from(wasm.HEAPU8.subarray(result, wasm.HEAPU8.indexOf(0, result))).toString('utf8');
  wasm._free(result);
  return { lines: text.split('\n').slice(0, -1) };
}

function readLines(path) {
  return fs.readFileSync(path, 'utf8').split('\n').slice(0, -1);
}

function compare(what, path, ours, theirs) {
  if (ours.length !== theirs.length) fail(`${path}: ${ours.length} ${what} lines, expected ${theirs.length}`);
  for (let i = 0; i < ours.length; ++i) {
    if (ours[i] !== theirs[i]) fail(`${path} line ${i + 1}: ${what}\n  wasm: ${ours[i]}\n  spm:  ${theirs[i]}`);
  }
}

const { result: tokenizer, error: loadError } = load(fs.readFileSync(modelPath));
if (!tokenizer) fail(`cannot load ${modelPath}: ${loadError}`);

let compared = 0;
for (let k = 0; k < triples.length; k += 3) {
  const [textPath, idsPath, decodedPath] = triples.slice(k, k + 3);
  const encoded = mapLines(tokenizer, '_tokenizer_encode_lines', fs.readFileSync(textPath));
  if (encoded.error) fail(`${textPath}: ${encoded.error}`);
  compare('ids', textPath, encoded.lines, readLines(idsPath));
  const decoded = mapLines(tokenizer, '_tokenizer_decode_lines', fs.readFileSync(idsPath));
  if (decoded.error) fail(`${idsPath}: ${decoded.error}`);
  compare('decoded text', textPath, decoded.lines, readLines(decodedPath));
  console.log(`wasm: ${encoded.lines.length} lines of ${textPath} encode and decode as spm does`);
  compared += encoded.lines.length;
}

const invalid = mapLines(tokenizer, '_tokenizer_encode_lines', Buffer.from([0x41, 0xe2, 0x82]));
if (invalid.error !== 'invalid_input: input is not valid UTF-8 at byte 1') {
  fail(`invalid UTF-8 gave ${JSON.stringify(invalid)}`);
}
const corrupt = load(fs.readFileSync(modelPath).subarray(0, 1000));
if (corrupt.result || !corrupt.error.startsWith('invalid_model: ')) {
  fail(`a truncated model gave ${JSON.stringify(corrupt)}`);
}
wasm._tokenizer_free(tokenizer);
console.log(`wasm: ${compared} lines identical; invalid UTF-8 and a truncated model give typed errors`);
