// What a person tripped over on the page (issue 67), each as they would meet it: Stop keeps the
// sentences translated so far; text not in the model's source language is said so, with the model
// that reads it; the translation can be copied; controls say what they changed, and the model list
// loads a model only once the choice is confirmed; the reason a sentence is underlined is reachable
// by tap, keyboard and screen reader; a model of one's own is described as the shipped ones are; the
// first visit shows the shipped models at once, and the translation on a phone's first screen.
// And what came after: the Quality radio buttons load nothing while the arrow keys pass over them,
// and <attend-translator> shows the reason of an underline as the page does (a "why?" button).
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliTranslate } from './support/cli.mjs';
import { makeServedRoot, REPO_ROOT } from './support/environment.mjs';
import { openApp, translate } from './support/app-page.mjs';
import { seriousViolations } from './support/axe.mjs';
import { launchBrowser } from './support/browser.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

const CAPTIONS = [
  'A dog runs through the snow.', 'Two children are playing football on the beach.', 'A woman is reading a book.',
  'A man in a blue shirt is riding a bike.', 'Three girls are dancing on a stage.', 'An old man sits on a bench.',
  'A black cat sleeps on the sofa.', 'People are walking down a busy street.', 'A boy jumps into the lake.',
  'Two women are talking at a table.', 'A dog catches a ball in the park.', 'A girl in a red coat walks home.',
];

let server;
let context;

before(async () => {
  const root = makeServedRoot({ alsoModels: ['de-en'] });
  // English → German's better quality: its other files too (its reverse model is de-en's).
  for (const name of ['seed2.int8.safetensors', 'student.int8.safetensors']) {
    symlinkSync(join(REPO_ROOT, 'models/en-de', name), join(root, 'models/en-de', name));
  }
  ({ server, context } = await startServedBrowser(root));
});
after(() => stopServedBrowser({ server, context }));

describe('Stop', () => {
  test('shows sentences as they finish, in order, and keeps them when stopped, saying how many are left', async () => {
    const page = await openApp(context, server.origin);
    const sentences = Array.from({ length: 400 }, (_, i) => CAPTIONS[i % CAPTIONS.length]);
    await page.fill('#source-text', sentences.join(' '));
    // While it runs, finished sentences are shown (the first group of 32 at least), from the first on.
    await page.waitForFunction(() => document.body.dataset.translating === 'true'
      && document.querySelectorAll('#translation .sentence').length >= 32, null, { timeout: 120_000 });
    const running = await page.$$eval('#translation .sentence', (shown) => shown.map((s) => s.textContent));
    assert.ok(running.length < 400, 'stopped before the end');
    await page.click('#document-stop');
    await page.waitForTimeout(2000);  // were anything still to land, it would have
    const kept = await page.$$eval('#translation .sentence', (shown) => shown.map((s) => s.textContent));
    assert.ok(kept.length >= running.length && kept.length < 400, `${kept.length} sentences kept`);
    assert.deepEqual(kept.slice(0, running.length), running);  // what was shown stays, in order
    const references = new Map(CAPTIONS.map((caption) => [caption, cliTranslate(caption)]));
    kept.forEach((text, i) => assert.equal(text, references.get(sentences[i]), `sentence ${i + 1}`));
    const note = await page.textContent('#document-stopped');
    assert.equal(note, `Stopped: ${kept.length} of 400 sentences translated, ${400 - kept.length} left untranslated. Edit the text to translate it again.`);
    assert.equal(await page.isHidden('#document-progress'), true);
    assert.equal(await page.isHidden('#input-message'), true);
    // A kept sentence still shows its attention when chosen.
    await page.click('#translation .sentence[data-index="1"]');
    await page.waitForFunction(() => !document.getElementById('attention').hidden, null, { timeout: 60_000 });
    // Editing the text translates it again and the note goes.
    assert.equal(await translate(page, CAPTIONS[0]), references.get(CAPTIONS[0]));
    assert.equal(await page.isHidden('#document-stopped'), true);
    await page.close();
  });
});

describe('text not in the model\'s source language', () => {
  test('is said plainly, with the model that reads it, which translates it once chosen', async () => {
    const page = await openApp(context, server.origin);
    await translate(page, 'A man is riding a bicycle down the street.');
    assert.equal(await page.isHidden('#language-note'), true);
    const german = 'Ein Mann fährt mit dem Fahrrad die Straße hinunter.';
    await translate(page, german);
    assert.equal(await page.isVisible('#language-note'), true);
    assert.match(await page.textContent('#language-note-text'),
      /^This text is in German \(\d+% of its letters, as the language detector CLD2 reads them\), not English, the language the English → German model reads: its translation will be nonsense\.$/);
    assert.equal(await page.textContent('#language-switch'), 'Translate it with German → English');
    await page.click('#language-switch');
    await page.waitForFunction(() => document.getElementById('model-status').textContent === 'German → English is ready.',
      null, { timeout: 60_000 });
    await page.waitForFunction((text) => document.getElementById('translation').dataset.source === text
      && document.body.dataset.translating === 'false', german, { timeout: 60_000 });
    assert.equal(await page.$eval('#translation', (output) => output.dataset.text),
      cliTranslate(german, { model: join(REPO_ROOT, 'models/de-en/model.int8.safetensors') }));
    assert.equal(await page.isHidden('#language-note'), true);
    assert.equal(await page.$eval('#model-select', (select) => select.value), 'de-en');
    // A language no model here reads is named, with nothing to switch to.
    await translate(page, 'Un hombre anda en bicicleta por la calle con su perro y sus dos hijos pequeños.');
    assert.match(await page.textContent('#language-note-text'), /in Spanish .* not German, .* None of the models here reads Spanish\.$/);
    assert.equal(await page.isHidden('#language-switch'), true);
    await page.close();
  });
});

describe('copying the translation', () => {
  test('copies the plain text, and for HTML the markup too, and says so', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    const page = await openApp(context, server.origin);
    const sentence = 'Two dogs are playing in the snow.';
    const translated = await translate(page, sentence);
    await page.click('#copy-translation');
    await page.waitForFunction(() => document.getElementById('copy-status').textContent !== '');
    assert.equal(await page.textContent('#copy-status'), 'Copied the translation.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), translated);
    assert.equal(await page.isHidden('#copy-html'), true);

    const html = '<p>A dog runs in the <b>snow</b>.</p>';
    const markup = await translate(page, html);
    assert.equal(markup, cliTranslate(html, { html: true }));
    await page.click('#copy-translation');
    await page.waitForFunction(() => /^Copied the translation \(as text, and as HTML/.test(document.getElementById('copy-status').textContent));
    const copied = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      return { types: item.types, html: await (await item.getType('text/html')).text(), text: await (await item.getType('text/plain')).text() };
    });
    assert.ok(copied.html.includes(markup), copied.html);  // Chromium may wrap it in a <meta charset>
    assert.equal(copied.text, markup.replace(/<[^>]+>/g, ''));
    await page.click('#copy-html');
    await page.waitForFunction(() => document.getElementById('copy-status').textContent === 'Copied the translated HTML code.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), markup);
    await page.close();
  });
});

describe('controls that change what was typed', () => {
  test('the beam size says what it changed and why', async () => {
    const page = await openApp(context, server.origin);
    await page.fill('#beam', '20');
    await page.press('#beam', 'Tab');
    assert.equal(await page.inputValue('#beam'), '8');
    assert.equal(await page.textContent('#beam-note'),
      'Beam size 20 is more than this page weighs (at most 8, to keep it quick in a browser): translating with 8.');
    await page.fill('#beam', '');
    await page.press('#beam', 'Tab');
    assert.equal(await page.inputValue('#beam'), '1');
    assert.equal(await page.textContent('#beam-note'), 'Beam size was empty: translating with 1, the quickest.');
    await page.fill('#beam', '3');
    await page.press('#beam', 'Tab');
    assert.equal(await page.isHidden('#beam-note'), true);
    await page.close();
  });

  test('the arrow keys on the closed model list load nothing until Enter', async () => {
    const page = await openApp(context, server.origin);
    const requested = [];
    page.on('request', (request) => { if (request.url().includes('/models/')) requested.push(new URL(request.url()).pathname); });
    await page.focus('#model-select');
    await page.keyboard.press('ArrowDown');  // English → French, which this server does not even have
    assert.equal(await page.$eval('#model-select', (select) => select.value), 'en-fr');
    await page.keyboard.press('ArrowDown');  // German → English
    assert.equal(await page.$eval('#model-select', (select) => select.value), 'de-en');
    await page.waitForTimeout(1000);
    assert.deepEqual(requested, []);
    assert.equal(await page.textContent('#model-status'), 'English → German is ready.');
    assert.match(await page.textContent('#model-pending'), /^Press Enter \(or leave the list\) to use German → English/);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('model-status').textContent === 'German → English is ready.',
      null, { timeout: 60_000 });
    assert.deepEqual(requested.filter((path) => path.includes('en-fr')), []);
    assert.equal(await page.isHidden('#model-pending'), true);
    await page.close();
  });

  test('the arrow keys on the Quality radio buttons load nothing until Enter (or leaving them); a click loads at once', async () => {
    const page = await openApp(context, server.origin);
    const requested = [];
    page.on('request', (request) => { if (request.url().includes('/models/')) requested.push(new URL(request.url()).pathname); });
    const fast = '#model-quality input[value="fast"]';
    const better = '#model-quality input[value="better"]';
    const status = () => page.textContent('#model-status');
    await page.focus(fast);
    for (const [key, checked] of [['ArrowDown', better], ['ArrowDown', fast], ['ArrowRight', better], ['ArrowUp', fast], ['ArrowDown', better]]) {
      await page.keyboard.press(key);  // moves the checked radio button, as the platform does
      assert.equal(await page.isChecked(checked), true, `${key} checks ${checked}`);
    }
    await page.waitForTimeout(1500);  // an idle delay would have run out
    assert.deepEqual(requested, [], 'passing over Better downloads nothing');
    assert.equal(await page.isHidden('#model-pending'), true);  // the model list's note: nothing pending there
    assert.equal(await status(), 'English → German is ready.');
    assert.equal(await page.textContent('#quality-pending'),
      'Press Enter (or leave the Quality choices) to use Better (13.3 MB to download); the model in use stays until then.');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('model-status').textContent
      === 'English → German (ensemble of 3, reranked by German → English) is ready.', null, { timeout: 120_000 });
    assert.deepEqual([...new Set(requested)].sort(), ['/models/de-en/model.int8.safetensors',
      '/models/en-de/model.int8.safetensors', '/models/en-de/seed2.int8.safetensors', '/models/en-de/student.int8.safetensors']);
    assert.equal(await page.isHidden('#quality-pending'), true);
    // Arrowing back to the quality in use leaves nothing pending; leaving the radio buttons on another confirms it.
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.isVisible('#quality-pending'), true);
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.isHidden('#quality-pending'), true);
    await page.keyboard.press('ArrowUp');
    assert.equal(await status(), 'English → German (ensemble of 3, reranked by German → English) is ready.');
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => document.getElementById('model-status').textContent === 'English → German is ready.',
      null, { timeout: 60_000 });
    // A click (or a tap) is a choice made: it loads at once, with nothing to confirm.
    requested.length = 0;
    await page.click(better);
    await page.waitForFunction(() => document.body.dataset.model === 'loading'
      || document.getElementById('model-status').textContent.startsWith('English → German (ensemble'), null, { timeout: 1000 });
    assert.equal(await page.isHidden('#quality-pending'), true);
    await page.waitForFunction(() => document.getElementById('model-status').textContent
      === 'English → German (ensemble of 3, reranked by German → English) is ready.', null, { timeout: 120_000 });
    await page.close();
  });
});

// Presses Tab from `from` until the focus (in a shadow root too) is on a "why?" button: whether it got there.
async function tabToReasonButton(page, from, limit = 20) {
  await page.focus(from);
  for (let i = 0; i < limit; ++i) {
    await page.keyboard.press('Tab');
    const there = await page.evaluate(() => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return Boolean(active?.classList.contains('doubt-reason'));
    });
    if (there) return true;
  }
  return false;
}

describe('why a sentence is underlined', () => {
  const UNSURE = 'Please send me the invoice by Friday.';  // no image caption: the model is rightly unsure
  const REASON = 'Sentence 1: The model is unsure of this translation: it learned from image captions only, and this sentence looks unlike them.';

  test('a tap on a phone shows it', async () => {
    const phone = await launchBrowser({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    try {
      const page = await openApp(phone, server.origin);
      await translate(page, UNSURE);
      assert.equal(await page.isHidden('#doubt-reason'), true);
      await page.tap('#translation .doubt-reason');
      assert.equal(await page.textContent('#doubt-reason'), REASON);
      assert.equal(await page.isVisible('#doubt-reason'), true);
      assert.equal(await page.getAttribute('#translation .doubt-reason', 'aria-expanded'), 'true');
      const box = await page.locator('#translation .doubt-reason').boundingBox();
      assert.ok(box.width >= 24 && box.height >= 24, `a target of ${box.width} × ${box.height} px`);
      await page.tap('#translation .doubt-reason');
      assert.equal(await page.isHidden('#doubt-reason'), true);
    } finally {
      await phone.close();
    }
  });

  test('the keyboard reaches it, and a screen reader hears its name and the reason', async () => {
    const page = await openApp(context, server.origin);
    await translate(page, `${CAPTIONS[0]} ${UNSURE}`);
    const button = page.getByRole('button', { name: 'Why is sentence 2 underlined?' });
    assert.equal(await button.count(), 1);
    assert.ok(await tabToReasonButton(page, '#source-text'), 'Tab reaches the button');
    await page.keyboard.press('Enter');
    assert.equal(await page.textContent('#doubt-reason'), REASON.replace('Sentence 1', 'Sentence 2'));
    assert.equal(await page.getAttribute('#doubt-reason', 'role'), 'status');  // read out when it changes
    // The translation's text is still the translation's.
    assert.equal(await page.$eval('#translation', (output) => output.textContent), await page.$eval('#translation', (o) => o.dataset.text));
    await page.close();
  });
});

describe('why a sentence of <attend-translator> is underlined', () => {
  const UNSURE = 'Please send me the invoice by Friday.';
  const REASON = 'Sentence 2: The model is unsure of this translation: it learned from image captions only, and this sentence looks unlike them.';
  const EMBED_PAGE = '/trip-ups-embed.html';
  // A host page that themes the element (a custom property, and ::part() of the button and the reason).
  const EMBED_HTML = `<!doctype html><html lang="en"><title>embed</title>
    <style>
      attend-translator { --attend-unsure: rgb(120, 40, 160); }
      attend-translator::part(reason) { letter-spacing: 1px; }
      attend-translator::part(why) { margin-left: 5px; }
    </style>
    <script type="module" src="/web/element/attend-translator.js"></script>
    <main><p>Before the translator: <a href="#top">a link</a>.</p>
    <attend-translator model="/models/en-de/model.int8.safetensors" target-lang="de">${CAPTIONS[0]} ${UNSURE}</attend-translator></main>`;

  async function openEmbed(browser) {
    const page = await browser.newPage();
    await page.route(`**${EMBED_PAGE}`, (route) => route.fulfill({ contentType: 'text/html', body: EMBED_HTML }));
    await page.goto(`${server.origin}${EMBED_PAGE}`);
    await page.waitForFunction(() => document.querySelector('attend-translator')?.shadowRoot.querySelector('.sentence.unsure'),
      null, { timeout: 60_000 });
    return page;
  }
  const inShadow = (page, code) => page.$eval('attend-translator', (element, source) => new Function('root', source)(element.shadowRoot), code);

  test('a tap on a phone shows it, under the translation, themed by the host page', async () => {
    const phone = await launchBrowser({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    try {
      const page = await openEmbed(phone);
      const button = page.locator('attend-translator .doubt-reason');  // Playwright's CSS pierces open shadow roots
      const reason = page.locator('attend-translator [part~="reason"]');
      assert.equal(await button.count(), 1);
      assert.equal(await reason.isHidden(), true);
      await button.tap();
      assert.equal(await reason.textContent(), REASON);
      assert.equal(await reason.isVisible(), true);
      assert.equal(await button.getAttribute('aria-expanded'), 'true');
      const box = await button.boundingBox();  // 24 px at least (the protocol's boxes may be a hair under: 23.99998)
      assert.ok(box.width >= 23.99 && box.height >= 23.99, `a target of ${box.width} × ${box.height} px`);
      const look = await inShadow(page, `const b = root.querySelector('.doubt-reason'); const r = root.querySelector('[part~="reason"]');
        return { border: getComputedStyle(b).borderTopColor, margin: getComputedStyle(b).marginLeft, spacing: getComputedStyle(r).letterSpacing,
          label: getComputedStyle(b, '::before').content };`);
      assert.deepEqual(look, { border: 'rgb(120, 40, 160)', margin: '5px', spacing: '1px', label: '"why?"' });
      await button.tap();
      assert.equal(await reason.isHidden(), true);
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
    } finally {
      await phone.close();
    }
  });

  test('the keyboard reaches it, a screen reader hears its name and the reason, and the translation\'s text stays its own', async () => {
    const page = await openEmbed(context);
    const detail = await page.evaluate(() => document.querySelector('attend-translator').translate());
    const button = page.getByRole('button', { name: 'Why is sentence 2 underlined?' });
    assert.equal(await button.count(), 1);
    assert.ok(await tabToReasonButton(page, 'a'), 'Tab reaches the button');
    await page.keyboard.press('Enter');
    const reason = page.locator('attend-translator [part~="reason"]');
    assert.equal(await reason.textContent(), REASON);
    assert.equal(await reason.getAttribute('role'), 'status');  // read out when it changes
    assert.equal(await inShadow(page, `return root.querySelector('.translation').textContent;`), detail.text);
    assert.deepEqual(await seriousViolations(page), [], 'axe-core with the reason shown');
    // A new translation takes the reason of the old one away.
    await page.evaluate((text) => { document.querySelector('attend-translator').textContent = text; }, CAPTIONS[1]);
    await page.waitForFunction(() => !document.querySelector('attend-translator').shadowRoot.querySelector('.doubt-reason'), null, { timeout: 60_000 });
    assert.equal(await reason.isHidden(), true);
    await page.close();
  });
});

describe('a model file of one\'s own', () => {
  test('is described by its languages, size and architecture, and the text box follows its language', async () => {
    const page = await openApp(context, server.origin);
    const file = join(REPO_ROOT, 'models/de-en/model.int8.safetensors');
    await page.setInputFiles('#model-file', { name: 'de-en-copy.safetensors', mimeType: 'application/octet-stream', buffer: readFileSync(file) });
    await page.waitForFunction(() => /de-en-copy/.test(document.getElementById('model-status').textContent)
      && document.body.dataset.model === 'ready', null, { timeout: 60_000 });
    assert.equal(await page.textContent('#model-status'), 'German → English (de-en-copy.safetensors, 3.4 MB) is ready.');
    assert.match(await page.textContent('#model-details'), /^\d+ \+ \d+ layers, \d+ heads, [\d.]+M parameters \(int8 weights and activations/);
    assert.equal(await page.getAttribute('#source-text', 'placeholder'), 'Type German here…');
    assert.equal(await page.getAttribute('#source-text', 'lang'), 'de');
    assert.equal(await page.getAttribute('#translation', 'lang'), 'en');
    const german = 'Ein Hund rennt am Strand.';
    assert.equal(await translate(page, german), cliTranslate(german, { model: file }));
    await page.close();
  });
});

describe('the first visit', () => {
  test('the model list shows the shipped models from the first paint', async () => {
    const fresh = await launchBrowser();
    try {
      const page = await fresh.newPage();
      // Hold the page's script back, as a slow connection does: what shows until it runs?
      await page.route('**/web/app/main.js', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      await page.goto(`${server.origin}/web/`, { waitUntil: 'domcontentloaded' });
      const first = await page.$$eval('#model-select option', (options) => options.map((option) => option.textContent));
      assert.deepEqual(first.slice(0, 4), ['English → German', 'English → French', 'German → English', 'French → English']);
      assert.equal(await page.$eval('#model-select', (select) => select.selectedOptions[0].textContent), 'English → German');
      await page.waitForSelector('body[data-model="ready"]', { timeout: 60_000 });
      const later = await page.$$eval('#model-select option', (options) => options.map((option) => option.value));
      assert.deepEqual(later, ['en-de', 'en-fr', 'de-en', 'fr-en', 'file', 'marian']);  // none twice
    } finally {
      await fresh.close();
    }
  });

  test('on a phone the translation and what the models can do are on the first screen', async () => {
    const phone = await launchBrowser({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    try {
      const page = await openApp(phone, server.origin);
      await page.waitForFunction(() => document.getElementById('translation').dataset.text !== ''
        && document.body.dataset.translating === 'false', null, { timeout: 60_000 });
      for (const selector of ['#model-select', '#model-scope', '#source-text', '#translation']) {
        const box = await page.locator(selector).boundingBox();
        assert.ok(box.y + box.height <= 844, `${selector} ends at ${box.y + box.height} px, below the first screen`);
      }
      assert.match(await page.textContent('#model-scope'), /small .*30,000 image captions.*short sentences that describe a scene/);
    } finally {
      await phone.close();
    }
  });

  test('"Better" says what a person gets and what it costs, without jargon', async () => {
    const page = await openApp(context, server.origin);
    const better = await page.textContent('#model-quality input[value="better"] ~ .cost');
    assert.equal(better, 'slightly more accurate (3 models vote on each word; German → English checks the wording); 13.3 MB to download, each sentence about 3.9× as long');
    assert.doesNotMatch(better, /candidates|ensemble|rerank/);
    assert.equal(await page.textContent('#model-quality input[value="fast"] ~ .cost'), '3.4 MB to download, quickest');
    await page.close();
  });
});
