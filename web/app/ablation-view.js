// Head ablation result: the translation without masks next to the one with the masked
// heads zeroed, and a word diff between them.
import { diffWords } from './word-diff.js';

export class AblationView {
  #container;

  constructor({ container }) {
    this.#container = container;
  }

  clear() {
    this.#container.hidden = true;
    this.#container.replaceChildren();
  }

  show(baselineText, maskedText, maskedCount) {
    const diff = document.createElement('p');
    diff.className = 'diff';
    for (const { kind, text } of diffWords(baselineText, maskedText)) {
      const word = document.createElement(kind === 'removed' ? 'del' : kind === 'added' ? 'ins' : 'span');
      word.textContent = text;
      diff.append(word, ' ');
    }
    const summary = document.createElement('p');
    summary.textContent = baselineText === maskedText
      ? `Masking ${maskedCount} head${maskedCount === 1 ? '' : 's'} did not change the translation.`
      : `Masking ${maskedCount} head${maskedCount === 1 ? '' : 's'} changed the translation (removed words struck out, new words underlined):`;
    this.#container.replaceChildren(summary, diff);
    Object.assign(this.#container.dataset, { baseline: baselineText, masked: maskedText });
    this.#container.hidden = false;
  }
}
