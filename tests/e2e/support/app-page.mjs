// Driving web/index.html: open it, type, wait for the translation, read the test hooks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS } from './environment.mjs';

const TRANSLATION_TIMEOUT_MS = 60_000;

export async function openApp(context, origin) {
  const page = await context.newPage();
  await page.goto(`${origin}/web/`);
  await page.waitForSelector('body[data-model="ready"]', { timeout: TRANSLATION_TIMEOUT_MS });
  return page;
}

// Types text, waits until a new translation of it is shown (data-source: the text
// translated; data-shown: how many translations were shown).
export async function translate(page, text) {
  const shownBefore = Number(await page.$eval('#translation', (output) => output.dataset.shown ?? 0));
  await page.fill('#source-text', text);
  await page.waitForFunction(
    ({ expected, shownBefore }) => {
      const output = document.getElementById('translation');
      return Number(output.dataset.shown) > shownBefore && output.dataset.source === expected
        && document.body.dataset.translating === 'false';
    },
    { expected: text.trim(), shownBefore }, { timeout: TRANSLATION_TIMEOUT_MS });
  return page.$eval('#translation', (output) => output.dataset.text);
}

export async function saveScreenshot(page, name) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

// Clicks a download button and returns the downloaded file's bytes (kept as an artifact).
export async function download(page, selector) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const path = join(ARTIFACTS, file.suggestedFilename());
  await file.saveAs(path);
  return readFileSync(path);
}

export const dataset = (page, selector) => page.$eval(selector, (element) => ({ ...element.dataset }));
