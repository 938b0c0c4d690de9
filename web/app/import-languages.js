// The question a Marian import asks when it cannot tell which languages the model translates:
// neither its file names nor a README state them, or a README states several a side (a
// multilingual model), which importMarian refuses asking for `languages` (its message ends in
// "(languages)", as the CLI's in "(--languages)", or "(languages, multilingual)"). A form in the page, under the model list:
// labelled source and target language fields (codes as language-codes.js reads them), a button
// importing it naming no languages (a multilingual model's >>xxx<< tokens then choose the target),
// and Cancel (or Escape). Focus moves to the first field; a code that is not one is said in an
// alert and its field marked invalid.
import { languageCode, languageCodeName, languagePair } from './language-codes.js';

// Whether importMarian refused `error` only for want of the languages ("… (languages)"), and whether
// importing it as a multilingual model, naming none, would take it ("… (languages, multilingual)").
const ASKS = /\s*\(languages(, multilingual)?\)$/;
export const asksForLanguages = (error) => error?.code === 'invalid_argument' && ASKS.test(String(error.message ?? ''));
export const offersMultilingual = (error) => ASKS.exec(String(error?.message ?? ''))?.[1] !== undefined;
// The refusal's words without what it asks for.
export const refusalText = (error) => String(error.message).replace(ASKS, '');

export class ImportLanguagesForm {
  #form;
  #fields;  // {source, target}: the inputs
  #names;  // {source, target}: where each code's name shows
  #why;
  #folder;
  #error;
  #without;
  #leaveFocusTo;
  #answer = null;  // resolves the question shown

  // form: the <form> (index.html's #import-languages); leaveFocusTo: what takes the focus when it hides.
  constructor(form, { leaveFocusTo }) {
    const part = (name) => form.querySelector(`[data-part="${name}"]`);
    this.#form = form;
    this.#fields = { source: part('source'), target: part('target') };
    this.#names = { source: part('source-name'), target: part('target-name') };
    this.#why = part('why');
    this.#folder = part('folder');
    this.#error = part('error');
    this.#without = part('without');
    this.#leaveFocusTo = leaveFocusTo;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#submit();
    });
    this.#without.addEventListener('click', () => this.#settle({ without: true }));
    part('cancel').addEventListener('click', () => this.#settle(null));
    form.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      this.#settle(null);
    });
    for (const [side, input] of Object.entries(this.#fields)) {
      input.addEventListener('input', () => {
        input.removeAttribute('aria-invalid');
        this.#names[side].textContent = this.#nameOf(input.value);
      });
    }
  }

  get open() {
    return !this.#form.hidden;
  }

  // Asks about `folder`: `why` says what the importer found; `without` labels the button importing it
  // naming no languages (null: not offered). Resolves with {languages: "en-de"}, {without: true}, or
  // null when cancelled or closed.
  ask({ folder, why, without }) {
    this.close();
    this.#folder.textContent = folder;
    this.#why.textContent = why;
    this.#without.hidden = !without;
    if (without) this.#without.textContent = without;  // hidden, it keeps a label all the same
    this.#showError(null);
    for (const side of ['source', 'target']) {
      this.#fields[side].removeAttribute('aria-invalid');
      this.#names[side].textContent = this.#nameOf(this.#fields[side].value);
    }
    this.#form.hidden = false;
    this.#fields.source.focus();
    return new Promise((resolve) => { this.#answer = resolve; });
  }

  // Hides the form; a question shown is answered null.
  close() {
    this.#settle(null);
  }

  #submit() {
    try {
      this.#settle({ languages: languagePair(this.#fields.source.value, this.#fields.target.value) });
    } catch (error) {
      const field = this.#fields[error.side] ?? this.#fields.source;
      field.setAttribute('aria-invalid', 'true');
      this.#showError(error.message);
      field.focus();
    }
  }

  #settle(answer) {
    const resolve = this.#answer;
    this.#answer = null;
    if (!this.#form.hidden && this.#form.contains(document.activeElement)) this.#leaveFocusTo.focus();  // it is about to hide
    this.#form.hidden = true;
    resolve?.(answer);
  }

  #showError(message) {
    this.#error.textContent = message ?? '';
    this.#error.hidden = !message;
  }

  // "German" for a code typed as "de", "deu" or "ger"; '' until it is one.
  #nameOf(typed) {
    try {
      return languageCodeName(languageCode(typed));
    } catch {
      return '';
    }
  }
}
