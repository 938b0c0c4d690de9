// A test file's fixture: scripts/serve.mjs serving a root, and a fresh chromium profile.
import { openApp } from './app-page.mjs';
import { launchBrowser } from './browser.mjs';
import { startServer } from './server.mjs';

export async function startServedBrowser(root, browserOptions = {}) {
  const server = await startServer(root);
  try {
    return { server, context: await launchBrowser(browserOptions) };
  } catch (error) {
    await server.stop();  // the caller gets nothing to stop
    throw error;
  }
}

// The same with web/index.html open in it and its default model ready.
export async function startServedApp(root) {
  const fixture = await startServedBrowser(root);
  try {
    return { ...fixture, page: await openApp(fixture.context, fixture.server.origin) };
  } catch (error) {
    await stopServedBrowser(fixture);
    throw error;
  }
}

export async function stopServedBrowser({ server, context }) {
  await context?.close();
  await server?.stop();
}
