// web/app/shipped-models.js as a test routes it to the page: the real module with some folders'
// entries replaced (e.g. en-de's files by the random models of tests/fixtures).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHIPPED_MODELS } from '../../../web/app/shipped-models.js';
import { REPO_ROOT } from './environment.mjs';
import { startServedBrowser, stopServedBrowser } from './served-browser.mjs';

const READY_TIMEOUT_MS = 120_000;

export function shippedModelsWith(entries) {
  const real = readFileSync(join(REPO_ROOT, 'web/app/shipped-models.js'), 'utf8');
  const list = /^export const SHIPPED_MODELS = \{\n[\s\S]*?\n\};$/m;
  if (!list.test(real)) throw new Error('web/app/shipped-models.js: no SHIPPED_MODELS = {...}; to replace');
  return real.replace(list, `export const SHIPPED_MODELS = ${JSON.stringify({ ...SHIPPED_MODELS, ...entries }, null, 2)};`);
}

// {server, context, page}: the page served from `root` in a fresh browser with the shipped list
// holding `entries`, its default model ready. Service workers are blocked, so the routes see every
// request; `requested` collects the paths of the model files the page asks for.
export async function openPageWithShippedModels(root, entries, requested) {
  const fixture = await startServedBrowser(root, { serviceWorkers: 'block' });
  try {
    const { server, context } = fixture;
    await context.route('**/web/app/shipped-models.js', (route) => route.fulfill({ contentType: 'text/javascript', body: shippedModelsWith(entries) }));
    const page = await context.newPage();
    page.on('request', (request) => { if (request.url().endsWith('.safetensors')) requested.push(new URL(request.url()).pathname); });
    await page.goto(`${server.origin}/web/`);
    await page.waitForSelector('body[data-model="ready"]', { timeout: READY_TIMEOUT_MS });
    return { ...fixture, page };
  } catch (error) {
    await stopServedBrowser(fixture);
    throw error;
  }
}
