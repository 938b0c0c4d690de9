// Registers web/sw.js, which keeps the app, the translator and the models for offline use.
// Resolves once the page is controlled, so that the translation worker and the model
// download started next go through the service worker (and get cached); resolves as well,
// without control, when offline use is unavailable.
export async function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  let registration;
  try {
    registration = await navigator.serviceWorker.register(new URL('../sw.js', import.meta.url));
  } catch (error) {
    console.warn('Offline use is unavailable: the service worker did not register.', error);
    return;
  }
  // A browser that blocks service workers (an automation setting) may resolve with nothing.
  if (!registration || navigator.serviceWorker.controller) return;
  await new Promise((resolve) => {
    navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true });
    const installing = registration.installing ?? registration.waiting;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'redundant') resolve();  // install failed: run without it
    });
    if (!installing) resolve();  // already active, e.g. after a hard reload: run uncontrolled
  });
}
