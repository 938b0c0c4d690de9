// Runs the browser tests (node --test, one file at a time: they share two cores with
// chromium): all of tests/e2e/*.test.mjs, or the files named as arguments. Exits 77, which
// ctest reports as skipped, when chromium or playwright-core (npm install) is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM, missingInputs, REPO_ROOT } from './support/environment.mjs';

const SKIPPED = 77;

if (!existsSync(CHROMIUM) || !existsSync(join(REPO_ROOT, 'node_modules/playwright-core'))) {
  console.log(`skipped: needs ${CHROMIUM} and node_modules/playwright-core (npm install)`);
  process.exit(SKIPPED);
}
const missing = missingInputs();
if (missing.length > 0) {
  console.error(`The browser tests need:\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
const here = new URL('.', import.meta.url).pathname;
const named = process.argv.slice(2);
const files = (named.length > 0 ? named : readdirSync(here).filter((name) => name.endsWith('.test.mjs')))
  .map((name) => join(here, name));
const { status } = spawnSync(process.execPath, ['--test', '--test-concurrency=1', ...files], { stdio: 'inherit' });
process.exit(status ?? 1);
