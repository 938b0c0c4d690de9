// The page end to end: translations equal the native CLI's, each attention view draws the
// real attention (the exported JSON), head masking re-translates like the CLI's
// --mask-head, and people get clear messages for bad models and no WebAssembly (long input:
// document.test.mjs).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliAttention, cliTranslate } from './support/cli.mjs';
import { makeServedRoot, MODEL, REPO_ROOT } from './support/environment.mjs';
import { dataset, download, saveScreenshot, translate } from './support/app-page.mjs';
import { argmax, maxDifference } from './support/attention.mjs';
import { readablePiece } from '../../web/app/piece-names.js';
import { SHIPPED_MODELS } from '../../web/app/shipped-models.js';
import { startServedApp, stopServedBrowser } from './support/served-browser.mjs';

const SENTENCE = 'A man is riding a bicycle down the street.';
const WASM_VS_NATIVE_TOLERANCE = 1e-3;  // attention probabilities, different kernels

describe('the page', () => {
  let server;
  let context;
  let page;

  before(async () => ({ server, context, page } = await startServedApp(makeServedRoot())));

  after(() => stopServedBrowser({ server, context }));

  test('translates as the native CLI does (beam 4, alpha 1.0, int8 activations)', async () => {
    const text = await translate(page, SENTENCE);
    assert.equal(text, cliTranslate(SENTENCE, { beam: 4, alpha: 1.0 }));
    assert.match(await page.textContent('#model-details'), /int8 weights and activations/, 'the worker loads int8 files with int8 activations');
    const progress = await dataset(page, '#download');
    assert.deepEqual([Number(progress.loaded), Number(progress.total)], [statSync(MODEL).size, statSync(MODEL).size], 'download progress');
    assert.match(await page.textContent('#download-text'), /^\d+\.\d MB of \d+\.\d MB$/);
    const timing = await dataset(page, '#timing');
    assert.ok(Number(timing.milliseconds) > 0 && Number(timing.tokens) > 0, JSON.stringify(timing));
    await saveScreenshot(page, 'page-desktop');
  });

  test('HTML in the text box is translated with its markup, as the CLI\'s --html does', async () => {
    const fragment = '<p>Two dogs are playing in the <b>snow</b>.</p>';
    const html = await translate(page, fragment);
    assert.equal(html, cliTranslate(fragment, { html: true }));
    assert.equal(html, '<p>Zwei Hunde spielen im <b>Schnee</b>.</p>');
    assert.equal(await page.textContent('#translation'), html, 'shown as markup to copy, nothing rendered');
  });

  test('the caption-model rules are on as the model file asks, and the checkbox turns them off', async () => {
    assert.equal(await page.isChecked('#caption-rules'), true, 'the shipped files ask for them');
    const question = 'Where is the dog going?';
    const withRules = await translate(page, question);
    assert.equal(withRules, cliTranslate(question));
    const shownBefore = Number((await dataset(page, '#translation')).shown);
    await page.click('#caption-rules');
    await page.waitForFunction((before) => Number(document.getElementById('translation').dataset.shown) > before
      && document.body.dataset.translating === 'false', shownBefore);
    const without = (await dataset(page, '#translation')).text;
    assert.equal(without, cliTranslate(question, { captionRules: 'off' }));
    assert.notEqual(without, withRules, 'the rules end the question with its "?"');
    await page.click('#caption-rules');  // on again for the tests below
  });

  test('typing translates once, after a pause, the whole text', async () => {
    const shownBefore = Number((await dataset(page, '#translation')).shown);
    await page.fill('#source-text', '');
    await page.type('#source-text', 'A cat sleeps on a sofa.', { delay: 10 });
    await page.waitForFunction((text) => document.getElementById('translation').dataset.source === text, 'A cat sleeps on a sofa.');
    const shown = Number((await dataset(page, '#translation')).shown);
    assert.ok(shown - shownBefore <= 2, `${shown - shownBefore} translations shown while typing`);  // '' and the text
    assert.equal(await page.$eval('#translation', (output) => output.dataset.text), cliTranslate('A cat sleeps on a sofa.'));
  });

  test('greedy search and another length penalty match the CLI; live decoding shows every step', async () => {
    const setControl = (selector, value) => page.$eval(selector, (control, newValue) => {
      control.value = newValue;
      control.dispatchEvent(new Event('change'));
    }, value);
    await setControl('#beam', '1');
    const text = await translate(page, 'Two dogs play in the snow.');
    assert.equal(text, cliTranslate('Two dogs play in the snow.', { beam: 1 }));
    const steps = Number((await dataset(page, '#live-heatmap')).steps);
    const record = JSON.parse(await download(page, '#export-json'));
    assert.equal(steps, record.target_tokens.length, 'live decoding showed one row per generated piece');

    await setControl('#beam', '4');
    await setControl('#alpha', '1.5');
    assert.equal(await translate(page, 'Three people sit at a table.'), cliTranslate('Three people sit at a table.', { beam: 4, alpha: 1.5 }));
    await setControl('#alpha', '1.0');
    await translate(page, SENTENCE);
  });

  test('the exported JSON is the CLI\'s attention record', async () => {
    const record = JSON.parse(await download(page, '#export-json'));
    const reference = cliAttention(SENTENCE, { beam: 4, alpha: 1.0 });
    for (const key of ['format', 'version', 'source_text', 'target_text', 'source_tokens', 'target_tokens',
      'target_input_tokens', 'encoder_layers', 'decoder_layers', 'heads']) {
      assert.deepEqual(record[key], reference[key], key);
    }
    for (const kind of ['encoder', 'decoder', 'cross']) {
      const difference = maxDifference(record.attention[kind], reference.attention[kind]);
      assert.ok(difference < WASM_VS_NATIVE_TOLERANCE, `${kind} attention differs by ${difference}`);
    }
  });

  test('heatmap and links draw the exported attention of the chosen kind, layer and head', async () => {
    const record = JSON.parse(await download(page, '#export-json'));
    const lastHead = record.heads - 1;
    for (const kind of ['cross', 'encoder', 'decoder']) {
      const layers = kind === 'encoder' ? record.encoder_layers : record.decoder_layers;
      const lastLayer = layers - 1;
      await page.selectOption('#attention-kind', kind);
      // Open the last layer's last head from the grid of thumbnails.
      await page.click(`.head-cell[data-layer="${lastLayer}"][data-head="${lastHead}"] .head-open`);
      const expected = argmax(record, kind, lastLayer, lastHead);
      for (const view of ['#heatmap', '#lines']) {
        const drawn = await dataset(page, view);
        assert.deepEqual(
          { kind: drawn.kind, layer: Number(drawn.layer), head: Number(drawn.head) },
          { kind, layer: lastLayer, head: lastHead }, `${view} shows the chosen head`);
        assert.deepEqual(
          { row: Number(drawn.strongestRow), col: Number(drawn.strongestCol), value: Number(drawn.strongestValue) },
          expected, `${view}'s strongest ${kind} cell`);
      }
      const thumbnails = await page.$$eval('.head-cell', (cells) => cells.length);
      assert.equal(thumbnails, layers * record.heads, `${kind} grid has every layer and head`);
      await saveScreenshot(page, `attention-${kind}`);
    }
    await page.selectOption('#attention-kind', 'cross');
  });

  test('the heatmap names the weight of the cell under the pointer or the arrow-key cursor', async () => {
    const record = JSON.parse(await download(page, '#export-json'));
    const drawn = await dataset(page, '#heatmap');
    const [row, col] = [record.target_tokens.length - 1, record.source_tokens.length - 1];
    const canvas = await page.$('#heatmap');
    await canvas.hover({ position: {
      x: Number(drawn.gridLeft) + (col + 0.5) * Number(drawn.cellSize),
      y: Number(drawn.gridTop) + (row + 0.5) * Number(drawn.cellSize),
    } });
    const weight = record.attention.cross[Number(drawn.layer)][Number(drawn.head)][row][col];
    assert.equal(await page.textContent('#heatmap-tooltip'),
      `${readablePiece(record.target_tokens[row])} → ${readablePiece(record.source_tokens[col])}: ${weight.toFixed(3)}`);
    assert.equal(await page.isVisible('#heatmap-tooltip'), true);

    await page.focus('#heatmap');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const keyboardReading = `${readablePiece(record.target_tokens[1])} → ${readablePiece(record.source_tokens[1])}: `
      + record.attention.cross[Number(drawn.layer)][Number(drawn.head)][1][1].toFixed(3);
    assert.equal(await page.textContent('#heatmap-tooltip'), keyboardReading);
    // Read out to screen readers too: a status region (not hidden from them) holds the same text.
    assert.equal(await page.textContent('#heatmap-reading'), keyboardReading);
    assert.equal(await page.$eval('#heatmap-reading', (region) => region.getAttribute('role') === 'status'
      && !region.hidden && getComputedStyle(region).display !== 'none'), true);
  });

  test('links: opacity by weight, and hovering a piece lights only its links', async () => {
    const record = JSON.parse(await download(page, '#export-json'));
    const { layer, head } = await dataset(page, '#lines');
    const weights = record.attention.cross[Number(layer)][Number(head)];
    const row = record.target_tokens.length - 1;
    const lines = await page.$$eval('#lines line', (elements) => elements.map((line) => ({
      row: Number(line.dataset.row), col: Number(line.dataset.col), opacity: line.getAttribute('stroke-opacity'),
    })));
    assert.ok(lines.length > 0);
    for (const line of lines) assert.equal(line.opacity, weights[line.row][line.col].toFixed(3));

    await page.hover(`#lines text[data-row="${row}"]`);
    const lit = await page.$$eval('#lines line.lit', (elements) => elements.map((line) => Number(line.dataset.row)));
    assert.ok(lit.length > 0 && lit.every((litRow) => litRow === row), `lit rows: ${lit}`);
    assert.equal(await page.$eval('#lines', (svg) => svg.classList.contains('focused')), true);
    await page.mouse.move(0, 0);
    assert.equal(await page.$$eval('#lines line.lit', (elements) => elements.length), 0);

    // Screen readers hear a focused piece's strongest link (an SVG role="img" would hide its pieces).
    const strongestCol = weights[row].indexOf(Math.max(...weights[row]));
    assert.equal(await page.$eval(`#lines text[data-row="${row}"]`, (text) => text.getAttribute('aria-label')),
      `${readablePiece(record.target_tokens[row])}: strongest link to ${readablePiece(record.source_tokens[strongestCol])}, ${weights[row][strongestCol].toFixed(3)}`);
    const column = weights.map((weightsOfRow) => weightsOfRow[0]);
    const strongestRow = column.indexOf(Math.max(...column));
    assert.equal(await page.$eval('#lines text[data-col="0"]', (text) => text.getAttribute('aria-label')),
      `${readablePiece(record.source_tokens[0])}: strongest link from ${readablePiece(record.target_tokens[strongestRow])}, ${column[strongestRow].toFixed(3)}`);
    assert.equal(await page.$eval('#lines', (svg) => svg.getAttribute('role')), 'group');
  });

  test('masking a head re-translates as the CLI does with --mask-head, and shows the change', async () => {
    const unmasked = await page.$eval('#translation', (output) => output.dataset.text);
    await page.selectOption('#attention-kind', 'cross');
    const record = JSON.parse(await download(page, '#export-json'));
    const masked = [];
    for (let head = 0; head < record.heads; head++) {
      masked.push({ kind: 'cross', layer: record.decoder_layers - 1, head });
      await page.click(`.head-cell[data-layer="${record.decoder_layers - 1}"][data-head="${head}"] .head-mask`);
    }
    const expected = cliTranslate(SENTENCE, { beam: 4, alpha: 1.0, maskedHeads: masked });
    await page.waitForFunction((text) => document.getElementById('ablation').dataset.masked === text, expected, { timeout: 60_000 });
    assert.equal(await page.$eval('#translation', (output) => output.dataset.text), expected);
    assert.equal((await dataset(page, '#ablation')).baseline, unmasked);
    const maskedCells = await page.$$eval('.head-cell[data-masked="true"]', (cells) => cells.length);
    assert.equal(maskedCells, record.heads);
    await saveScreenshot(page, 'head-ablation');
    await page.click('#clear-masks');
    await page.waitForFunction((text) => document.getElementById('translation').dataset.text === text
      && document.getElementById('ablation').hidden, unmasked);
  });

  test('PNG exports of each view', async () => {
    for (const button of ['#heatmap-png', '#grid-png', '#lines-png', '#live-png']) {
      const png = await download(page, button);
      assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')], `${button} saved a PNG`);
    }
  });

  test('reads well at phone width', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(200);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
    await saveScreenshot(page, 'page-phone-375');
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  test('controls are reachable with the keyboard and labelled', async () => {
    const unlabelled = await page.$$eval('select, input, textarea, button', (controls) => controls
      .filter((control) => !control.labels?.length && !control.getAttribute('aria-label') && !control.textContent.trim())
      .map((control) => control.outerHTML.slice(0, 80)));
    assert.deepEqual(unlabelled, []);
    // From the text, Tab goes on to the translation's controls (Copy), then to the search settings.
    await page.focus('#source-text');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'copy-translation');
    const reached = [];
    for (let i = 0; i < 30 && reached.at(-1) !== 'beam'; ++i) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement.id));
    }
    assert.equal(reached.at(-1), 'beam', `Tab went through ${reached.join(', ')}`);
  });

  test('emptying the text drops the translation in flight: it never lands', async () => {
    await page.evaluate((text) => {
      const source = document.getElementById('source-text');
      const beam = document.getElementById('beam');
      source.value = text;
      beam.dispatchEvent(new Event('change'));  // translates at once
      source.value = '';
      beam.dispatchEvent(new Event('change'));  // nothing to translate, in the same task
    }, 'A man in a red jacket is climbing a steep rock wall while his friends watch from below.');
    await page.waitForTimeout(3000);  // ample for that translation to have landed, were it kept
    assert.equal(await page.textContent('#translation'), '');
    assert.equal(await page.evaluate(() => document.body.dataset.translating), 'false');
    assert.equal(await translate(page, SENTENCE), cliTranslate(SENTENCE, { beam: 4, alpha: 1.0 }));
  });

  test('a model file chosen with the file input or dropped on the page translates', async () => {
    await page.setInputFiles('#model-file', MODEL);
    await page.waitForFunction(() => document.body.dataset.model === 'ready'
      && /\.safetensors, [\d.]+ MB\) is ready\.$/.test(document.getElementById('model-status').textContent));
    assert.equal(await translate(page, 'A woman sings on a stage.'), cliTranslate('A woman sings on a stage.'));

    const dropped = await page.evaluateHandle((base64) => {
      const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'dropped.safetensors'));
      return transfer;
    }, readFileSync(MODEL).toString('base64'));
    await page.dispatchEvent('body', 'drop', { dataTransfer: dropped });
    await page.waitForFunction(() => document.body.dataset.model === 'ready'
      && /\(dropped\.safetensors, [\d.]+ MB\) is ready\.$/.test(document.getElementById('model-status').textContent));
    assert.equal(await translate(page, 'A dog catches a frisbee.'), cliTranslate('A dog catches a frisbee.'));
  });

  test('offers every model shipped in models/, a file of your own and a Marian model to import', async () => {
    const shipped = readdirSync(join(REPO_ROOT, 'models'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    const offered = await page.$$eval('#model-select option', (options) => options.map((option) => option.value));
    assert.deepEqual(offered.slice(0, -2).sort(), shipped.sort());
    assert.deepEqual(offered.slice(-2), ['file', 'marian']);
    for (const folder of shipped) {  // the page's list of each folder's files (an ensemble's members)
      const files = readdirSync(join(REPO_ROOT, 'models', folder)).filter((name) => name.endsWith('.safetensors'));
      const listed = SHIPPED_MODELS[folder].files;
      assert.equal(listed[0].name, 'model.int8.safetensors', `${folder}: the default first`);
      const others = listed.slice(1).map(({ name }) => name);
      assert.deepEqual(others, [...others].sort(), `${folder}: the others by name, the order of better.json's weights and the CLI floor test`);
      assert.deepEqual(listed.map(({ name }) => name).sort(), files.sort(), `${folder}: every .safetensors file, once`);
      for (const { name, megabytes } of listed) {
        assert.equal(megabytes, Number((statSync(join(REPO_ROOT, 'models', folder, name)).size / 1e6).toFixed(1)), `${folder}/${name}: size`);
      }
      // The better quality's reranking, as the folder's better.json gives it (models/README.md).
      const betterJson = join(REPO_ROOT, 'models', folder, 'better.json');
      const better = existsSync(betterJson) ? JSON.parse(readFileSync(betterJson, 'utf8')) : {};
      const { rerankWith, rerankWeight, weights } = SHIPPED_MODELS[folder];
      assert.deepEqual({ rerankWith, rerankWeight, weights }, { rerankWith: better.rerank_with, rerankWeight: better.rerank_weight, weights: better.weights },
        `${folder}: better.json`);
      if (weights) assert.equal(weights.length, listed.length, `${folder}: a weight per file`);
      if (rerankWith) {  // a file of another folder of this list
        const [reverseFolder, reverseFile] = rerankWith.split('/');
        assert.notEqual(reverseFolder, folder, `${folder}: reranked by the other direction`);
        assert.ok(SHIPPED_MODELS[reverseFolder]?.files.some(({ name }) => name === reverseFile), `${folder}: ${rerankWith} is listed`);
      }
    }
    const inUse = SHIPPED_MODELS[await page.$eval('#model-select', (select) => select.value)];  // a file of one's own has none
    assert.equal(await page.isVisible('#model-quality'), Boolean(inUse && (inUse.files.length > 1 || inUse.rerankWith)),
      'a choice of quality for a shipped model with several files or reranking only');
  });

  test('a damaged model file and a failed download get clear messages', async () => {
    await page.setInputFiles('#model-file', { name: 'broken.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from('not a model at all') });
    await page.waitForSelector('body[data-model="error"]');
    assert.match(await page.textContent('#model-status'), /"broken\.safetensors" cannot be used: it is not an Attend model file, or it is damaged/);

    assert.equal(await page.isVisible('#model-retry'), false, 'a damaged file is not tried again');
    let frenchRequests = 0;
    page.on('request', (request) => { if (request.url().endsWith('/models/en-fr/model.int8.safetensors')) frenchRequests += 1; });
    const failedAgain = () => page.waitForFunction(() => document.body.dataset.model === 'error'
      && document.getElementById('model-status').textContent.includes('English → French'));
    await page.selectOption('#model-select', 'en-fr');  // not served by this test's server
    await failedAgain();
    assert.match(await page.textContent('#model-status'), /Could not download the model "English → French"\. Check the connection and try again/);
    await saveScreenshot(page, 'model-download-failed');
    const requestsBefore = frenchRequests;
    await page.click('#model-retry');  // the list shows the model kept in use again
    await failedAgain();
    assert.equal(frenchRequests, requestsBefore + 1, 'Try again downloads the model again');
    assert.equal(await page.isVisible('#model-retry'), true);

    await page.selectOption('#model-select', 'en-de');
    await page.waitForSelector('body[data-model="ready"]');
    assert.equal(await page.isVisible('#model-retry'), false);
  });

  test('the text box and the translation carry the model\'s languages; the untouched sample follows the source language', async () => {
    const fresh = await context.newPage();
    await fresh.goto(`${server.origin}/web/`);
    await fresh.waitForSelector('body[data-model="ready"]', { timeout: 60_000 });
    // The models chosen next are not served: their languages are set while they load, and the
    // languages of the model kept in use come back when they fail.
    const firstSeen = await fresh.evaluate(() => {
      const [source, translation] = ['source-text', 'translation'].map((id) => document.getElementById(id));
      const languages = () => ({ source: source.lang, translation: translation.lang, placeholder: source.placeholder, text: source.value });
      window.languagesSeen = [];
      new MutationObserver(() => window.languagesSeen.push(languages())).observe(source, { attributeFilter: ['lang'] });
      return languages();
    });
    assert.deepEqual(firstSeen, { source: 'en', translation: 'de', placeholder: 'Type English here…', text: SENTENCE });
    const failed = () => fresh.waitForFunction(() => document.body.dataset.model === 'error'
      && document.getElementById('source-text').lang === 'en');
    await fresh.selectOption('#model-select', 'de-en');
    await failed();
    await fresh.fill('#source-text', 'Zwei Hunde spielen im Schnee.');  // the user's own text stays
    await fresh.selectOption('#model-select', 'fr-en');
    await failed();
    assert.deepEqual(await fresh.evaluate(() => window.languagesSeen), [
      { source: 'de', translation: 'en', placeholder: 'Type German here…', text: 'Ein Mann fährt mit dem Fahrrad die Straße entlang.' },
      { source: 'en', translation: 'de', placeholder: 'Type English here…', text: SENTENCE },
      { source: 'fr', translation: 'en', placeholder: 'Type French here…', text: 'Zwei Hunde spielen im Schnee.' },
      { source: 'en', translation: 'de', placeholder: 'Type English here…', text: 'Zwei Hunde spielen im Schnee.' },
    ]);
    await fresh.close();
  });
});
