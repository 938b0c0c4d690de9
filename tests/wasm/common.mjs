// Shared by the wasm tests: paths from the environment (set by CMakeLists.txt), the native CLI,
// and the variants to run on.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export { Translator, AttendError, simdSupported } from '../../wasm/attend.mjs';

export const TINY = process.env.ATTEND_TINY;
export const CLI = process.env.ATTEND_CLI;
export const MODELS = process.env.ATTEND_MODELS;
export const MULTI30K = process.env.ATTEND_MULTI30K;

// Both builds run everywhere Node has SIMD (Node ≥ 16); the scalar one is what engines
// without SIMD get.
export const VARIANTS = [{ name: 'simd', simd: true }, { name: 'scalar', simd: false }];

// The fixture's 4-head model (tests/fixtures/CMakeLists.txt), of which reference.json is the
// PyTorch greedy output.
export const tinyModel = (dtype) => join(TINY, `tiny-wide.${dtype}.safetensors`);

export function skip(reason) {
  console.log(`skipped: ${reason}`);
  process.exit(77);
}

// `attend translate` on `lines` (one sentence each); returns its stdout lines. isa, if given,
// forces the native kernels (ATTEND_ISA: 'scalar' computes as the wasm scalar build does).
export function cliTranslate(model, lines, args = [], { isa } = {}) {
  const stdout = execFileSync(CLI, ['translate', '--model', model, ...args], {
    input: lines.map((line) => `${line}\n`).join(''),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: isa === undefined ? process.env : { ...process.env, ATTEND_ISA: isa },
  });
  return stdout.split('\n').slice(0, -1);
}

// The native CLI's attention record (docs/attention-json.md) of one sentence.
export function cliAttention(model, sentence, args = []) {
  const directory = mkdtempSync(join(tmpdir(), 'attend-wasm-attention-'));
  try {
    const path = join(directory, 'attention.jsonl');
    execFileSync(CLI, ['translate', '--model', model, ...args, '--attention', path, sentence], { encoding: 'utf8' });
    return JSON.parse(readFileSync(path, 'utf8'));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

// `i ||| text ||| score` lines -> [[{text, score}, ...] per input line].
export function parseNbest(lines, count) {
  const out = Array.from({ length: count }, () => []);
  for (const line of lines) {
    const [index, text, score] = line.split(' ||| ');
    out[Number(index)].push({ text, score: Number(score) });
  }
  return out;
}
