// Marian's int8 product with relaxed SIMD (wasm/relaxed/u8s8_relaxed.c, attend-relaxed.wasm), run
// with node --experimental-wasm-relaxed-simd (Node 20 has it behind the flag; Chromium by default):
// the kernel's every output bit for bit as kernels.h defines gemm_u8s8_shifted_nt, saturating pairs
// included; the SIMD module takes it (info().relaxedSimd) and translates Marian's int8 fixture
// line for line as without it; without the flag nothing changes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { AttendError, CLI, MULTI30K, Translator } from './common.mjs';

const DIST = new URL('../../wasm/dist/', import.meta.url);
const FIXTURE = new URL('../marian/fixtures/ssru-ende/', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'attend-relaxed-'));
after(() => rmSync(work, { recursive: true, force: true }));

// kernels.h's definition in JS: c[i, j] = fl(fl((float)Σ sat16(pair)·unquant) + bias[j]).
function expected(u8, i8, f32view, { ua, b, bias, m, n, k, ldb }, unquant, i, j) {
  let sum = 0;
  for (let q = 0; q < k; q += 2) {
    const pair = u8[ua + i * k + q] * i8[b + j * ldb + q] + u8[ua + i * k + q + 1] * i8[b + j * ldb + q + 1];
    sum += Math.max(-32768, Math.min(32767, pair));
  }
  return Math.fround(Math.fround(Math.fround(sum) * unquant) + f32view[bias / 4 + j]);
}

describe('the relaxed int8 kernel', () => {
  it('gives every output of kernels.h, saturating pairs included, and writes nothing else', () => {
    const bytes = readFileSync(new URL('attend-relaxed.wasm', DIST));
    assert.ok(WebAssembly.validate(bytes), 'run with node --experimental-wasm-relaxed-simd');
    const memory = new WebAssembly.Memory({ initial: 64 });
    const kernel = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports.attend_u8s8_relaxed;
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    let saturated = 0;
    for (let trial = 0; trial < 300; ++trial) {
      const m = 1 + Math.floor(random() * 7), n = 1 + Math.floor(random() * 11), steps = 1 + Math.floor(random() * 6);
      const k = 16 * steps, ldb = k + Math.floor(random() * 3) * 16, ldc = n + Math.floor(random() * 3);
      const extreme = trial % 3 === 0;  // activations at the clamp, weights at ±127 and -128: pairs saturate
      const at = { ua: 1024, m, n, k, ldb };
      at.b = at.ua + m * k;
      at.bias = at.b + n * ldb + 64;
      const c = at.bias + 4 * n + 64;
      const u8 = new Uint8Array(memory.buffer), i8 = new Int8Array(memory.buffer), f = new Float32Array(memory.buffer);
      for (let i = 0; i < m * k; ++i) u8[at.ua + i] = extreme && random() < 0.7 ? 254 : Math.floor(random() * 255);
      for (let i = 0; i < n * ldb; ++i) i8[at.b + i] = extreme && random() < 0.5 ? 127 : Math.floor(random() * 256) - 128;
      for (let j = 0; j < n; ++j) f[at.bias / 4 + j] = Math.fround((random() - 0.5) * 10);
      f.fill(NaN, c / 4, c / 4 + m * ldc + 8);
      const unquant = Math.fround(1e-4 * (1 + random()));
      kernel(at.ua, steps, at.b, ldb, unquant, at.bias, c, ldc, m, n);
      for (let i = 0; i < m; ++i) {
        for (let j = 0; j < ldc; ++j) {
          const got = f[c / 4 + i * ldc + j];
          if (j >= n) {
            assert.ok(Number.isNaN(got), `row ${i}, column ${j} past n was written`);
            continue;
          }
          assert.ok(Object.is(got, expected(u8, i8, f, at, unquant, i, j)), `m ${m} n ${n} k ${k}: [${i}, ${j}]`);
        }
      }
      for (let i = 0; i < m; ++i) {
        for (let j = 0; j < n; ++j) {
          for (let q = 0; q < k; q += 2) {
            const pair = u8[at.ua + i * k + q] * i8[at.b + j * ldb + q] + u8[at.ua + i * k + q + 1] * i8[at.b + j * ldb + q + 1];
            if (pair > 32767 || pair < -32768) ++saturated;
          }
        }
      }
    }
    assert.ok(saturated > 10000, `only ${saturated} saturating pairs`);
  });
});

describe('the SIMD module with the relaxed kernel', { timeout: 600000 }, () => {
  const model = join(work, 'ssru-int8.safetensors');
  const imported = spawnSync(CLI, ['import', join(FIXTURE, 'model.ende.intgemm.alphas.bin'), join(FIXTURE, 'vocab.ende.spm'),
    join(FIXTURE, 'lex.50.50.ende.s2t.bin'), '-o', model], { encoding: 'utf8' });
  const lines = spawnSync('zcat', [join(MULTI30K, 'test_2016_flickr.en.gz')], { encoding: 'utf8' }).stdout.split('\n').slice(0, 200);

  it('takes it, and translates Marian\'s int8 fixture line for line as without it', async () => {
    assert.equal(imported.status, 0, imported.stderr);
    assert.equal(lines.filter((line) => line.length > 0).length, 200);
    const relaxed = await Translator.load(model, { simd: true });
    const own = await Translator.load(model, { simd: true, relaxedSimd: false });
    assert.equal(relaxed.info().relaxedSimd, true);
    assert.equal(own.info().relaxedSimd, false);
    for (const beam of [1, 4]) {
      const a = (await relaxed.translate(lines, { beam })).map((r) => r.text);
      const b = (await own.translate(lines, { beam })).map((r) => r.text);
      assert.deepEqual(a, b, `beam ${beam}`);
    }
    relaxed.dispose();
    own.dispose();
  });

  it('refuses a relaxedSimd other than auto or false', async () => {
    await assert.rejects(Translator.load(model, { relaxedSimd: 'yes' }),
      (error) => error instanceof AttendError && error.code === 'invalid_argument' && /relaxedSimd must be 'auto' or false/.test(error.message));
  });

  it('is not taken where the engine has no relaxed SIMD (no flag), which still translates', () => {
    const script = `import { Translator } from ${JSON.stringify(new URL('../../wasm/attend.mjs', import.meta.url).href)};
      const t = await Translator.load(${JSON.stringify(model)}, { simd: true });
      console.log(JSON.stringify({ relaxed: t.info().relaxedSimd, text: (await t.translate(['A dog runs.']))[0].text }));`;
    const run = spawnSync('node', ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const { relaxed, text } = JSON.parse(run.stdout);
    assert.equal(relaxed, false);
    assert.ok(text.length > 0);
  });
});
