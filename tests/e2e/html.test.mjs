// HTML in Chromium: Translator.translateHTML (WebAssembly, the browser's sentence breaks) keeps
// inline markup around the right words and copies attributes, scripts and comments untouched;
// <attend-translator> translates its own markup, shows it without running anything, and takes
// malformed markup as the browser parsed it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeServedRoot } from './support/environment.mjs';
import { startServedBrowser, stopServedBrowser } from './support/served-browser.mjs';

let server;
let context;
let page;

before(async () => {
  ({ server, context } = await startServedBrowser(makeServedRoot()));
  page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);
});
after(() => stopServedBrowser({ server, context }));

// translateHTML of each fragment in the page, by the WebAssembly build.
const translateHtml = (fragments, options = {}) => page.evaluate(async ([inputs, searchOptions]) => {
  const { Translator } = await import('/wasm/attend.mjs');
  const translator = await Translator.load('/models/en-de/model.int8.safetensors');
  const results = [];
  for (const html of inputs) results.push((await translator.translateHTML(html, searchOptions)).html);
  translator.dispose();
  return results;
}, [fragments, options]);

test('inline markup goes around the words the translation gives for it', async () => {
  const [linked, list] = await translateHtml([
    '<p>A <b>red</b> car drives past <a href="/x?a=1&amp;b=2" title="a &quot;house&quot;">a <i>small</i> house</a>.</p>',
    '<ul><li>Two <em>dogs</em> play in the snow.</li><li>A <strong>black</strong> cat sleeps.</li></ul>',
  ], { beam: 4 });
  assert.match(linked, /<b>rote[ns]?<\/b>/);
  assert.match(linked, /<a href="\/x\?a=1&amp;b=2" title="a &quot;house&quot;">[^<]*<i>kleinen?<\/i> Haus<\/a>/);
  assert.match(list, /^<ul><li>Zwei <em>Hunde<\/em> [^<]+<\/li><li>[^<]*<strong>schwarze<\/strong> Katze [^<]+<\/li><\/ul>$/);
});

test('scripts, styles, templates, comments and attributes are copied, never run or translated', async () => {
  const source = '<p>A dog runs.<!-- a dog --></p><script>window.ran = "A dog runs.";</script>'
    + '<style>p::after { content: "A dog"; }</style><template><p>A dog runs.</p></template>'
    + '<p><img src="/missing.png" onerror="window.ran = true" alt="A dog"> A cat sleeps.</p>';
  const [html] = await translateHtml([source]);
  for (const kept of ['<!-- a dog -->', '<script>window.ran = "A dog runs.";</script>',
    '<style>p::after { content: "A dog"; }</style>', '<template><p>A dog runs.</p></template>',
    '<img src="/missing.png" onerror="window.ran = true" alt="A dog">']) {
    assert.ok(html.includes(kept), `${kept} in ${html}`);
  }
  assert.equal(await page.evaluate(() => window.ran), undefined, 'nothing ran');
});

test('<attend-translator> translates its own markup and runs nothing of it', async () => {
  const detail = await page.evaluate(() => new Promise((resolve, reject) => {
    window.ran = undefined;  // the element's own <img> (in the page, shown through its slot) sets it once
    const element = document.createElement('attend-translator');
    element.setAttribute('model', '/models/en-de/model.int8.safetensors');
    // Malformed on purpose: the browser's parser repairs it before the element reads it.
    element.innerHTML = 'A <b>red car <i>drives</b> past</i> a <a href="/house">house</a>.'
      + '<img src="/missing.png" onerror="window.ran = (window.ran ?? 0) + 1">';
    element.addEventListener('attend-translation', (event) => setTimeout(() => resolve({
      shown: element.shadowRoot.querySelector('.translation').innerHTML,
      text: event.detail.text,
      ran: window.ran,
    }), 500), { once: true });
    element.addEventListener('attend-error', (event) => reject(new Error(event.detail.message)), { once: true });
    document.body.append(element);
  }));
  assert.equal(detail.ran, 1, 'the translation shown runs no handler: only the page\'s own image did');
  assert.match(detail.shown, /<a href="\/house">Haus<\/a>/);
  assert.match(detail.shown, /<b>[^<]*rote[ns]? Auto/);
  assert.doesNotMatch(detail.shown, /onerror/);
  assert.match(detail.text, /Auto/);
});
