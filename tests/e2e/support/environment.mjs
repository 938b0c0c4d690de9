// What the browser tests run against, from the environment (tests/e2e/CMakeLists.txt sets
// it; `npm run test:e2e` falls back to the repository's defaults):
//   ATTEND_CLI        the native `attend` binary, the reference the page is compared with
//   ATTEND_E2E_MODEL  the model file the page loads as English → German (default: the
//                     shipped models/en-de/model.int8.safetensors, or while that is absent
//                     ATTEND_E2E_FALLBACK_MODEL, the tiny random model of tests/fixtures)
//   ATTEND_WASM_DIR   the directory holding attend.mjs and dist/ (default wasm/)
//   ATTEND_E2E_ARTIFACTS  where screenshots and downloads go (default test-results/e2e)
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CHROMIUM = process.env.ATTEND_CHROMIUM ?? '/usr/bin/chromium';

export const CLI = process.env.ATTEND_CLI ?? join(REPO_ROOT, 'build/release/native/cli/attend');
const SHIPPED_MODEL = join(REPO_ROOT, 'models/en-de/model.int8.safetensors');
export const MODEL = resolve(process.env.ATTEND_E2E_MODEL
  ?? (existsSync(SHIPPED_MODEL) ? SHIPPED_MODEL : process.env.ATTEND_E2E_FALLBACK_MODEL ?? SHIPPED_MODEL));
// The random models of tests/fixtures (tiny.int8.safetensors, tiny-wide.int8.safetensors, ...).
export const TINY_MODELS_DIR = process.env.ATTEND_E2E_FALLBACK_MODEL
  ? dirname(resolve(process.env.ATTEND_E2E_FALLBACK_MODEL)) : join(REPO_ROOT, 'build/release/tests/fixtures/tiny');
export const WASM_DIR = resolve(process.env.ATTEND_WASM_DIR ?? join(REPO_ROOT, 'wasm'));
export const ARTIFACTS = resolve(process.env.ATTEND_E2E_ARTIFACTS ?? join(REPO_ROOT, 'test-results/e2e'));
mkdirSync(ARTIFACTS, { recursive: true });

export function missingInputs() {
  const needed = {
    'the attend CLI (ATTEND_CLI)': CLI,
    'the model (ATTEND_E2E_MODEL)': MODEL,
    'the wasm build (scripts/build_wasm.sh)': join(WASM_DIR, 'dist/attend-simd.wasm'),
  };
  return Object.entries(needed).filter(([, path]) => !existsSync(path)).map(([what, path]) => `${what}: ${path}`);
}

// A directory laid out like the repository as the page expects it (/web, /wasm,
// /models/en-de/model.int8.safetensors), linking to the inputs above. /models/en-fr is
// left out on purpose: choosing it shows the download-failure message. With
// ownServiceWorker, web/sw.js is a copy the test may change (the rest of web/ links);
// withoutTranslator leaves /wasm out, withoutBuild only its build (/wasm/dist); alsoModels names
// shipped pairs served beside it ("de-en": /models/de-en/model.int8.safetensors).
export function makeServedRoot({ ownServiceWorker = false, withoutTranslator = false, withoutBuild = false, alsoModels = [] } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'attend-e2e-root-'));
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));  // links only
  const web = join(REPO_ROOT, 'web');
  if (ownServiceWorker) {
    mkdirSync(join(root, 'web'));
    for (const name of readdirSync(web)) {
      if (name === 'sw.js') copyFileSync(join(web, name), join(root, 'web', name));
      else symlinkSync(join(web, name), join(root, 'web', name));
    }
  } else {
    symlinkSync(web, join(root, 'web'));
  }
  if (withoutBuild) {
    mkdirSync(join(root, 'wasm'));
    symlinkSync(join(WASM_DIR, 'attend.mjs'), join(root, 'wasm/attend.mjs'));
  } else if (!withoutTranslator) {
    symlinkSync(WASM_DIR, join(root, 'wasm'));
  }
  mkdirSync(join(root, 'models/en-de'), { recursive: true });
  symlinkSync(MODEL, join(root, 'models/en-de/model.int8.safetensors'));
  for (const pair of alsoModels) {
    mkdirSync(join(root, 'models', pair));
    symlinkSync(join(REPO_ROOT, 'models', pair, 'model.int8.safetensors'), join(root, 'models', pair, 'model.int8.safetensors'));
  }
  return root;
}
