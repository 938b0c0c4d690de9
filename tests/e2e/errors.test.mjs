// When the browser or the server cannot provide the translator, the page says so plainly.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeServedRoot } from './support/environment.mjs';
import { saveScreenshot } from './support/app-page.mjs';
import { startServer } from './support/server.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

let server;
let context;

before(async () => ({ server, context } = await startServedBrowser(makeServedRoot({ withoutTranslator: true }))));

after(() => stopServedBrowser({ server, context }));

test('without WebAssembly the page says so and disables its controls', async () => {
  const page = await context.newPage();
  await page.addInitScript(() => { delete globalThis.WebAssembly; });
  await page.goto(`${server.origin}/web/`);
  await page.waitForSelector('#fatal:not([hidden])');
  assert.match(await page.textContent('#fatal'), /cannot run WebAssembly/);
  assert.equal(await page.isDisabled('#source-text'), true);
  await saveScreenshot(page, 'no-webassembly');
});

test('when the translator itself cannot be loaded the page says so', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/`);
  await page.waitForSelector('body[data-model="error"]', { timeout: 60_000 });
  assert.match(await page.textContent('#model-status'), /^The translator could not start in this browser\. Reload the page/);
  assert.match(await page.textContent('#model-error-technical'), /\/wasm\/attend\.mjs did not load/);
});

test('when the WebAssembly build is missing the page says so, not that the model failed to download', async () => {
  const unbuilt = await startServer(makeServedRoot({ withoutBuild: true }));
  try {
    const page = await context.newPage();
    await page.goto(`${unbuilt.origin}/web/`);
    await page.waitForSelector('body[data-model="error"]', { timeout: 60_000 });
    assert.match(await page.textContent('#model-status'), /^The translator could not start in this browser\. Reload the page/);
    assert.match(await page.textContent('#model-error-technical'),
      /^cannot load .*\/wasm\/dist\/attend-(no)?simd\.(mjs|wasm) .*build it with scripts\/build_wasm\.sh/);
  } finally {
    await unbuilt.stop();
  }
});
