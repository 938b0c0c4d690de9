// Regenerates docs/screenshots/: the page's main states and the embed example, at 1366×800 and
// 390×844, as people meet them (served by scripts/serve.mjs, in Debian's chromium).
//   node tests/e2e/screenshots.mjs     (needs wasm/dist: scripts/build_wasm.sh; npm install)
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser } from './support/browser.mjs';
import { makeServedRoot, REPO_ROOT } from './support/environment.mjs';
import { startServer } from './support/server.mjs';
import { openApp, translate } from './support/app-page.mjs';

const OUT = join(REPO_ROOT, 'docs/screenshots');
const VIEWPORTS = { desktop: { width: 1366, height: 800 }, phone: { width: 390, height: 844 } };
const SENTENCE = 'A man is riding a bicycle down the street.';
const PARAGRAPH = 'Two dogs are playing in the snow. A woman in a red coat watches them from a bench. '
  + 'Later, the sun comes out and the children build a snowman.';

async function shoot(page, name, viewport, element) {
  const path = join(OUT, `${name}-${viewport}.png`);
  if (element) await page.locator(element).screenshot({ path });
  else await page.screenshot({ path });
  console.log(path);
}

async function pageStates(context, origin, viewport) {
  const page = await openApp(context, origin);
  await page.emulateMedia({ reducedMotion: 'reduce' });  // the live view's replay drawn at once
  await translate(page, SENTENCE);
  await page.waitForSelector('#live-decoding[data-state="done"]');
  await page.evaluate((phone) => {
    document.activeElement.blur();
    // A phone's first screen as a person meets it; a desktop's at the translation.
    if (phone) window.scrollTo(0, 0);
    else document.getElementById('translate-heading').scrollIntoView();
  }, viewport === 'phone');
  await shoot(page, 'translation', viewport);
  await shoot(page, 'attention', viewport, '#attention');
  await translate(page, PARAGRAPH);
  // The reason of the first underlined sentence, as a tap or Enter on its "why?" shows it.
  if (await page.locator('#translation .doubt-reason').count() > 0) await page.click('#translation .doubt-reason');
  await page.locator('#translation').scrollIntoViewIfNeeded();
  await shoot(page, 'document', viewport, 'section[aria-labelledby="translate-heading"]');
  // Text in another language than the model reads: said so, with the model that reads it.
  await translate(page, 'Ein Mann fährt mit dem Fahrrad die Straße hinunter.');
  await page.waitForSelector('#language-note:not([hidden])');
  await shoot(page, 'other-language', viewport, 'section[aria-labelledby="translate-heading"]');
  await page.setInputFiles('#model-file', { name: 'notes.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from('not a model') });
  await page.waitForFunction(() => document.getElementById('model-status').classList.contains('error'));
  await shoot(page, 'model-error', viewport, 'section[aria-labelledby="model-heading"]');
  await page.close();
}

// A Firefox Translations model folder (the test student of tests/marian/fixtures, laid out as
// Firefox lays out its models) imported with the folder button: the model section listing it with
// its licence, and its attention.
async function importedModel(context, origin, viewport, folder) {
  const page = await openApp(context, origin);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.selectOption('#model-select', 'marian');
  await page.setInputFiles('#marian-folder', folder);
  await page.waitForFunction(() => document.body.dataset.model === 'ready'
    && document.getElementById('model-status').textContent.includes('(imported: ende) is ready.'), null, { timeout: 120_000 });
  await translate(page, SENTENCE);
  await page.waitForSelector('#live-decoding[data-state="done"]');
  await page.click('#model-license-summary');
  await page.evaluate(() => document.activeElement.blur());
  await shoot(page, 'imported', viewport, 'section[aria-labelledby="model-heading"]');
  await shoot(page, 'imported-attention', viewport, '#attention');
  await page.close();
}

function firefoxFolder() {
  const parent = mkdtempSync(join(tmpdir(), 'attend-screenshots-'));
  const folder = join(parent, 'ende');
  mkdirSync(folder);
  const fixture = join(REPO_ROOT, 'tests/marian/fixtures/ssru-ende');
  for (const name of ['model.ende.intgemm.alphas.bin', 'vocab.ende.spm', 'lex.50.50.ende.s2t.bin']) {
    copyFileSync(join(fixture, name), join(folder, name));
  }
  writeFileSync(join(folder, 'LICENSE'), 'A small student trained on Multi30k for Attend\'s tests (tests/marian), laid out as Firefox\n'
    + 'Translations lays out its models. Firefox\'s own models carry the licence Mozilla gives them.\n');
  return { parent, folder };
}

async function embedExample(context, origin, viewport) {
  const page = await context.newPage();
  await page.goto(`${origin}/web/examples/embed.html`);
  await page.waitForFunction(() => document.querySelector('#greeting').shadowRoot.querySelector('.translation').textContent !== '',
    null, { timeout: 60_000 });
  await shoot(page, 'embed', viewport);
  await page.close();
}

mkdirSync(OUT, { recursive: true });
const server = await startServer(makeServedRoot());
const firefox = firefoxFolder();
try {
  for (const [viewport, size] of Object.entries(VIEWPORTS)) {
    const context = await launchBrowser({ viewport: size, hasTouch: viewport === 'phone' });
    try {
      await pageStates(context, server.origin, viewport);
      await importedModel(context, server.origin, viewport, firefox.folder);
      await embedExample(context, server.origin, viewport);
    } finally {
      await context.close();
    }
  }
} finally {
  await server.stop();
  rmSync(firefox.parent, { recursive: true, force: true });
}
