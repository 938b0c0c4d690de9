// The translation of a document in the page (document-render.js: its sentences, each one a
// button that shows its attention when chosen, and the text kept around them), the summary of
// the sentences marked not to trust, and its progress while it runs.
import { doubtSummary, renderTranslatedDocument } from './document-render.js';

export class DocumentView {
  #output;
  #summary;
  #progress;
  #onChoose;
  #sentences = [];  // {source, translation}

  // onChoose(index, {source, translation}) when a sentence is chosen (click, Enter or Space).
  // summary: where the marked sentences are summed up in words.
  constructor({ output, summary, progress, onChoose }) {
    this.#output = output;
    this.#summary = summary;
    this.#progress = progress;
    this.#onChoose = onChoose;
    output.addEventListener('click', (event) => this.#chooseFrom(event.target));
    output.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      if (this.#chooseFrom(event.target)) event.preventDefault();
    });
  }

  // {text, segments} from translateDocument; interactive: whether sentences can be chosen.
  show({ segments }, { interactive }) {
    this.#sentences = segments.filter((segment) => segment.translation);
    renderTranslatedDocument(this.#output, segments, { interactive });
    this.#summary.textContent = doubtSummary(segments);
    this.#summary.hidden = this.#summary.textContent === '';
    this.hideProgress();
  }

  clear() {
    this.#sentences = [];
    this.#output.replaceChildren();
    this.#summary.hidden = true;
    this.hideProgress();
  }

  // Marks sentence `index` as the one whose attention is shown.
  markChosen(index) {
    for (const element of this.#output.querySelectorAll('.sentence')) {
      element.setAttribute('aria-current', String(Number(element.dataset.index) === index));
    }
  }

  showProgress({ sentencesDone, sentences }) {
    const { container, bar, text } = this.#progress;
    container.hidden = false;
    bar.value = sentences > 0 ? sentencesDone / sentences : 0;
    text.textContent = `Translated ${sentencesDone.toLocaleString('en')} of ${sentences.toLocaleString('en')} sentences`;
    Object.assign(container.dataset, { sentencesDone, sentences });
  }

  // Indeterminate until the first group of sentences is done.
  showWorking() {
    const { container, bar, text } = this.#progress;
    container.hidden = false;
    bar.removeAttribute('value');
    text.textContent = 'Translating…';
    Object.assign(container.dataset, { sentencesDone: 0, sentences: '' });
  }

  hideProgress() {
    this.#progress.container.hidden = true;
  }

  #chooseFrom(target) {
    const element = target.closest?.('.sentence[role="button"]');
    if (!element) return false;
    const index = Number(element.dataset.index);
    this.markChosen(index);
    this.#onChoose(index, this.#sentences[index]);
    return true;
  }
}
