// What bench/bergamot_node.mjs and bench/bergamot_browser.mjs both measure: the three ways of
// translating, the lines, and a Marian folder's files (Firefox Translations' names).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

// nativeBatch: `attend translate --batch` for the same way natively (bergamot_node.mjs only).
export const WAYS = [
  { name: 'greedy, one sentence per call', beam: 1, perLine: true, nativeBatch: 1 },
  { name: 'greedy, the whole file in one call', beam: 1, perLine: false, nativeBatch: 32 },
  { name: 'beam 4, one sentence per call', beam: 4, perLine: true, nativeBatch: 1 },
];

// The non-empty lines of `path` (gzipped if it ends in .gz), the first `limit` if given.
export function readLines(path, limit) {
  const text = path.endsWith('.gz') ? gunzipSync(readFileSync(path)).toString('utf8') : readFileSync(path, 'utf8');
  return text.split('\n').filter((line) => line.length).slice(0, limit ? Number(limit) : undefined);
}

// The folder's vocabulary, shortlist and two models: {vocab, shortlist, files: {f32, int8}}, each
// model with the gemmPrecision Bergamot loads it with.
export function marianFiles(folder) {
  const names = readdirSync(folder);
  const inFolder = (test) => {
    const name = names.find(test);
    if (!name) throw new Error(`${folder}: no file for ${test}`);
    return join(folder, name);
  };
  return {
    vocab: inFolder((n) => n.startsWith('vocab.') && n.endsWith('.spm')),
    shortlist: inFolder((n) => n.startsWith('lex.') && n.endsWith('.bin')),
    files: {
      f32: { model: inFolder((n) => /^model\..*\.bin$/.test(n) && !n.includes('intgemm')), precision: 'float32' },
      int8: { model: inFolder((n) => /^model\..*intgemm.*\.bin$/.test(n)), precision: 'int8shiftAlphaAll' },
    },
  };
}
