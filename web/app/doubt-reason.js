// Why a sentence is underlined, reachable by tap, keyboard and screen reader: the page's and
// <attend-translator>'s. document-render.js follows each underlined sentence with the button that
// reasonButton() makes ("why?", its text drawn by CSS so the translation's text stays the
// translation's; named "Why is sentence 2 underlined?"), and DoubtReasons shows the reason of the
// one pressed (a tap, a click, Enter or Space) in a status region under the translation, which
// screen readers read out. Pressed again, it hides it.

// The button after sentence `index` (from 0), whose reason is `reason`. Its class is doubt-reason
// (the page's styles.css and the element's shadow style draw it) and its part `why`.
export function reasonButton(index, reason) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'doubt-reason';
  button.part = 'why';
  button.dataset.index = index;
  button.dataset.reason = reason;
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-label', `Why is sentence ${index + 1} underlined?`);
  return button;
}

export class DoubtReasons {
  #container;
  #reason;

  // container: where the translation's sentences and their buttons are; reason: the status
  // region (hidden until a button is pressed) where the reason is shown.
  constructor(container, reason) {
    this.#container = container;
    this.#reason = reason;
    container.addEventListener('click', (event) => {
      const button = event.target.closest?.('.doubt-reason');
      if (button) this.#toggle(button);
    });
  }

  // The reason shown no more: the translation it was of is replaced or cleared.
  hide() {
    this.#reason.hidden = true;
    this.#reason.textContent = '';
  }

  // The reason sentence `button.dataset.index` is underlined, shown and marked on the button;
  // pressed again, hidden.
  #toggle(button) {
    const open = button.getAttribute('aria-expanded') !== 'true';
    for (const other of this.#container.querySelectorAll('.doubt-reason')) other.setAttribute('aria-expanded', 'false');
    button.setAttribute('aria-expanded', String(open));
    if (!open) return this.hide();
    this.#reason.hidden = false;
    this.#reason.textContent = `Sentence ${Number(button.dataset.index) + 1}: ${button.dataset.reason}`;
  }
}
