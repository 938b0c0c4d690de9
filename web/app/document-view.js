// The translation of a document in the page (document-render.js: its sentences, each one a
// button that shows its attention when chosen, and the text kept around them), the summary of
// the sentences marked not to trust, and its progress while it runs: the sentences shown as they
// finish, kept when the person stops the rest.
import { doubtSummary, renderTranslatedDocument } from './document-render.js';
import { DoubtReasons } from './doubt-reason.js';

export class DocumentView {
  #output;
  #summary;
  #progress;
  #onChoose;
  #sentences = [];  // {source, translation}
  #reasons;  // the reason a sentence is underlined, shown when its button is pressed
  #plan = null;  // the document being translated: [{source, translate}]
  #partial = [];  // its translations so far, by sentence
  #shownSentences = 0;  // how many of its first sentences are shown

  // onChoose(index, {source, translation}) when a sentence is chosen (click, Enter or Space).
  // summary: where the marked sentences are summed up in words.
  // reason: where the reason a sentence is underlined is shown when its button is pressed.
  constructor({ output, summary, progress, onChoose, reason }) {
    this.#reasons = new DoubtReasons(output, reason);
    this.#output = output;
    this.#summary = summary;
    this.#progress = progress;
    this.#onChoose = onChoose;
    output.addEventListener('click', (event) => this.#chooseFrom(event.target));  // a "why?" button is none
    output.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      if (this.#chooseFrom(event.target)) event.preventDefault();
    });
  }

  // A document being translated: its plan ([{source, translate}]); the sentences shown as their
  // groups finish (addTranslations), in order: only those with every sentence before them done, so
  // the translation grows at its end and nothing above it moves.
  begin(plan) {
    this.#plan = plan;
    this.#partial = [];
    this.#shownSentences = 0;
  }

  // A group's translations, the first of them sentence `first` of the plan.
  addTranslations(first, translations) {
    if (!this.#plan) return;
    translations.forEach((translation, i) => { this.#partial[first + i] = translation; });
    let done = this.#shownSentences;
    while (this.#partial[done]) done += 1;
    if (done === this.#shownSentences) return;
    this.#shownSentences = done;
    this.#renderPartial({ interactive: false });
  }

  // Stops showing progress and keeps the sentences shown (choosable when there are several).
  // Returns {done, sentences}: how many of the document's sentences are shown, of how many.
  stop() {
    const sentences = this.#plan?.filter((segment) => segment.translate).length ?? 0;
    const done = this.#shownSentences;
    if (this.#plan && done > 0) this.#renderPartial({ interactive: done > 1 });
    else this.clear();
    this.#plan = null;
    this.hideProgress();
    return { done, sentences };
  }

  // The text of the sentences shown so far (and what is kept between them).
  get partialText() {
    return this.#output.textContent;
  }

  #renderPartial({ interactive }) {
    const segments = [];
    let sentence = 0;
    for (const segment of this.#plan) {
      if (segment.translate) {
        if (sentence >= this.#shownSentences) break;
        segments.push({ source: segment.source, translation: this.#partial[sentence++] });
      } else if (sentence < this.#shownSentences) {
        segments.push({ source: segment.source });
      }
    }
    this.#sentences = segments.filter((segment) => segment.translation);
    renderTranslatedDocument(this.#output, segments, { interactive, reasonButtons: true });
    this.#output.dataset.partial = String(this.#shownSentences);
    this.#summary.textContent = doubtSummary(segments);
    this.#summary.hidden = this.#summary.textContent === '';
  }

  // {text, segments} from translateDocument; interactive: whether sentences can be chosen.
  show({ segments }, { interactive }) {
    this.#reasons.hide();
    this.#plan = null;
    delete this.#output.dataset.partial;
    this.#sentences = segments.filter((segment) => segment.translation);
    renderTranslatedDocument(this.#output, segments, { interactive, reasonButtons: true });
    this.#summary.textContent = doubtSummary(segments);
    this.#summary.hidden = this.#summary.textContent === '';
    this.hideProgress();
  }

  clear() {
    this.#reasons.hide();
    this.#sentences = [];
    this.#plan = null;
    delete this.#output.dataset.partial;
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
