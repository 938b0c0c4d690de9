// The model download's progress bar with sizes in MB.
const MB = 1024 * 1024;

function formatMegabytes(bytes) {
  return `${(bytes / MB).toFixed(1)} MB`;
}

export class ProgressBar {
  #container;
  #bar;
  #text;

  constructor({ container, bar, text }) {
    this.#container = container;
    this.#bar = bar;
    this.#text = text;
  }

  // total is null (or 0) when the server did not say.
  update({ loaded, total }) {
    this.#container.hidden = false;
    if (total > 0) {
      this.#bar.value = loaded / total;
      this.#text.textContent = `${formatMegabytes(loaded)} of ${formatMegabytes(total)}`;
    } else {
      this.#bar.removeAttribute('value');  // size unknown: indeterminate
      this.#text.textContent = `${formatMegabytes(loaded)}`;
    }
    Object.assign(this.#container.dataset, { loaded, total: total ?? '' });
  }

  hide() {
    this.#container.hidden = true;
  }
}
