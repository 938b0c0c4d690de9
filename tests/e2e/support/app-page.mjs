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

// Waits until the masked-heads comparison is shown, or (shown false) hidden with no translation
// running; a timeout's error says what the page showed instead.
export async function waitForAblation(page, shown = true) {
  try {
    await page.waitForFunction((wanted) => document.getElementById('ablation').hidden !== wanted
      && (wanted || document.body.dataset.translating === 'false'), shown, { timeout: TRANSLATION_TIMEOUT_MS });
  } catch (error) {
    const state = await page.evaluate(() => ({
      translating: document.body.dataset.translating,
      message: document.getElementById('input-message')?.textContent,
      masked: [...document.querySelectorAll('.head-cell[data-masked="true"]')].map((c) => `${c.dataset.layer}:${c.dataset.head}`),
      ablationHidden: document.getElementById('ablation').hidden,
      translated: document.getElementById('translation').dataset.source,
    }));
    error.message += `\npage state: ${JSON.stringify(state)}`;
    throw error;
  }
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
