// web/worker.js keeps only the newest request: each older one is answered `dropped`
// (never started, or cancelled at its next token through the shared newest-request id),
// and only the newest is translated.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser } from './support/browser.mjs';
import { makeServedRoot } from './support/environment.mjs';
import { startServer } from './support/server.mjs';

let server;
let context;

before(async () => {
  server = await startServer(makeServedRoot());
  context = await launchBrowser({ serviceWorkers: 'block' });
});

after(async () => {
  await context?.close();
  await server?.stop();
});

test('superseded requests are dropped, only the newest is translated', async () => {
  const page = await context.newPage();
  await page.goto(`${server.origin}/web/examples/embed.html`);  // any page of the origin
  const answers = await page.evaluate(async () => {
    const worker = new Worker('/web/worker.js', { type: 'module' });
    const newestRequest = new Int32Array(new SharedArrayBuffer(4));
    const messages = [];
    const answered = new Promise((resolve) => {
      worker.onmessage = ({ data }) => {
        if (data.type === 'ready') {
          // Four requests at once, the page having already sent the fourth.
          Atomics.store(newestRequest, 0, 4);
          ['A dog.', 'A dog runs.', 'A dog runs on the beach.', 'A dog runs on the beach with a ball.']
            .forEach((text, index) => worker.postMessage({ type: 'translate', id: index + 1, text, options: { beam: 4 } }));
        } else if (data.type !== 'progress') {
          messages.push({ type: data.type, id: data.id, text: data.result?.text, message: data.message });
          if (messages.filter((message) => message.type !== 'token').length === 4) resolve();
        }
      };
    });
    worker.postMessage({ type: 'init', newestRequest });
    worker.postMessage({ type: 'load', source: new URL('/models/en-de/model.int8.safetensors', location.href).href });
    await answered;
    worker.terminate();
    return { crossOriginIsolated, messages };
  });
  assert.equal(answers.crossOriginIsolated, true, 'scripts/serve.mjs serves pages cross-origin isolated');
  const byId = Object.fromEntries(answers.messages.map((message) => [message.id, message]));
  assert.deepEqual([1, 2, 3].map((id) => byId[id].type), ['dropped', 'dropped', 'dropped'], JSON.stringify(answers.messages));
  assert.equal(byId[4].type, 'result', JSON.stringify(byId[4]));
  assert.ok(byId[4].text.length > 0);
});
