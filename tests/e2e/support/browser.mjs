// Debian's chromium driven by playwright-core, each test with a fresh profile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM } from './environment.mjs';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Returns a persistent context (a fresh profile directory, deleted when the test process
// exits) whose pages log errors to the test output.
export async function launchBrowser(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'attend-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    viewport: { width: 1200, height: 900 },
    acceptDownloads: true,
    ...options,
  });
  context.on('page', (page) => page.on('pageerror', (error) => console.error(`page error: ${error.message}`)));
  process.on('exit', () => rmSync(profile, { recursive: true, force: true }));  // chromium has quit by then
  return context;
}

// Serves the page's requests without the cross-origin isolation headers scripts/serve.mjs
// sends, as most sites that embed us are served: no SharedArrayBuffer, crossOriginIsolated false.
export async function withoutCrossOriginIsolation(page) {
  await page.route('**/*', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    for (const name of ['cross-origin-opener-policy', 'cross-origin-embedder-policy', 'cross-origin-resource-policy']) {
      delete headers[name];
    }
    await route.fulfill({ response, headers });
  });
}
