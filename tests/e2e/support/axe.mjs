// axe-core (npm) run in a page: the serious and critical accessibility violations of what it shows.
import { createRequire } from 'node:module';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

// [{id, impact, help, targets}] of the serious or critical violations, axe's WCAG 2.x A and AA
// rules and its best practices, over the whole document (shadow roots included). It waits for a
// beam's replay to end and for running animations first: a live piece fading in is measured at
// its passing opacity otherwise.
export async function seriousViolations(page) {
  await page.waitForFunction(() => !document.querySelector('#live-decoding[data-state="replaying"]'));
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime))
    .map((animation) => animation.finished.catch(() => {}))));  // a cancelled one has ended too
  if (!(await page.evaluate(() => Boolean(globalThis.axe)))) await page.addScriptTag({ path: AXE_SCRIPT });
  const { violations } = await page.evaluate(() => globalThis.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    resultTypes: ['violations'],
  }));
  return violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map(({ target }) => target.join(' ')) }));
}
