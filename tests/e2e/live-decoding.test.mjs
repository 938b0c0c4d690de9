// Live decoding shows what is true: greedy search its pieces as they are generated; beam search
// its progress while it searches (no pieces of hypotheses it may drop), then the translation it
// chose replayed step by step, equal to what the engine reports. While a translation runs the
// page says so and dims the translation it is about to replace.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeServedRoot } from './support/environment.mjs';
import { download, translate } from './support/app-page.mjs';
import { startServedApp, stopServedBrowser } from './support/served-browser.mjs';
import { readablePiece } from '../../web/app/piece-names.js';

const SENTENCE = 'A man in a blue shirt is standing on a ladder and cleaning the windows of a tall building.';

let server;
let context;
let page;

before(async () => ({ server, context, page } = await startServedApp(makeServedRoot())));

after(() => stopServedBrowser({ server, context }));

async function setBeam(beam) {
  await page.$eval('#beam', (input, value) => { input.value = value; }, String(beam));
}

// Records, at every change of the live view, what it and the translation show.
function recordLiveView() {
  return page.evaluate(() => {
    window.liveRecord = [];
    const view = document.getElementById('live-decoding');
    const snapshot = () => window.liveRecord.push({
      mode: view.dataset.mode,
      state: view.dataset.state,
      pieces: [...document.querySelectorAll('#live-pieces .live-piece')].map((chip) => chip.dataset.piece),
      note: document.getElementById('live-note').textContent,
      progress: document.getElementById('document-progress').hidden ? null : document.getElementById('document-progress-text').textContent,
      translationOpacity: Number(getComputedStyle(document.getElementById('translation')).opacity),
      heatmapOpacity: Number(getComputedStyle(document.getElementById('live-heatmap')).opacity),
    });
    new MutationObserver(snapshot).observe(view, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

test('beam search: while it searches, its progress and no pieces; then the chosen translation replayed, as the engine reports it', async () => {
  await translate(page, 'Two dogs play in the snow.');  // a translation to be replaced
  await setBeam(6);
  await recordLiveView();
  await translate(page, SENTENCE);
  await page.waitForSelector('#live-decoding[data-state="done"]');
  const record = JSON.parse(await download(page, '#export-json'));
  const snapshots = await page.evaluate(() => window.liveRecord);

  const searching = snapshots.filter(({ state }) => state === 'decoding');
  assert.ok(searching.some(({ note }) => /weighing 6 hypotheses.*step \d+/.test(note)), 'the search\'s steps are counted');
  assert.deepEqual(searching.filter(({ pieces }) => pieces.length > 0), [], 'no pieces of hypotheses beam search may drop');
  assert.ok(searching.every(({ mode }) => mode === 'beam'));
  assert.ok(searching.every(({ heatmapOpacity }) => heatmapOpacity < 0.5), 'the heatmap of the translation before is dimmed');
  assert.equal(snapshots.at(-1).heatmapOpacity, 1);

  const final = snapshots.at(-1);
  assert.deepEqual(final.pieces, record.target_tokens, 'the replay shows the translation\'s own pieces');
  assert.match(final.note, /The translation beam search chose \(of 6 hypotheses/);
  const replaying = snapshots.filter(({ state }) => state === 'replaying');
  assert.ok(replaying.some(({ pieces }) => pieces.length > 0 && pieces.length < record.target_tokens.length), 'replayed step by step');
  assert.equal(Number(await page.$eval('#live-heatmap', (canvas) => canvas.dataset.steps)), record.target_tokens.length);
  const chips = await page.$$eval('#live-pieces .live-piece', (elements) => elements.map((chip) => chip.textContent));
  assert.deepEqual(chips, record.target_tokens.map(readablePiece), 'pieces as people read them');

  assert.ok(searching.some(({ progress }) => progress === 'Translating…'), 'a "Translating…" state while it runs');
  assert.ok(searching.some(({ translationOpacity }) => translationOpacity < 0.8), 'the translation being replaced is dimmed');
  assert.equal(await page.$eval('#translation', (output) => Number(getComputedStyle(output).opacity)), 1);
});

test('greedy search: each piece appears as it is generated, and they are the translation\'s', async () => {
  await setBeam(1);
  await recordLiveView();
  await translate(page, SENTENCE);
  const record = JSON.parse(await download(page, '#export-json'));
  const snapshots = await page.evaluate(() => window.liveRecord);
  const counts = snapshots.filter(({ state }) => state === 'decoding').map(({ pieces }) => pieces.length);
  assert.ok(new Set(counts).size > 3, `pieces appear while decoding (${counts})`);
  assert.deepEqual(snapshots.at(-1).pieces, record.target_tokens);
  assert.equal(snapshots.at(-1).mode, 'greedy');
  assert.match(snapshots.at(-1).note, /Each piece as it is generated/);
  await setBeam(4);
});
