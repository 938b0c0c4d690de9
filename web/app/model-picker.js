// Choosing a model: a shipped one from the list, a file from the file input, or a file
// dropped anywhere on the page. Calls onChoose({name, source, languages, choice}): source a URL
// or an ArrayBuffer, languages the {source, target} tags of a shipped model (a file's are
// unknown), choice the list's value for it (for setInUse). The shipped models this browser has
// kept for offline use (web/sw.js) are marked in the list.

const SHIPPED_MODELS = {
  'en-de': { name: 'English → German', url: new URL('../../models/en-de/model.int8.safetensors', import.meta.url).href, languages: { source: 'en', target: 'de' } },
  'en-fr': { name: 'English → French', url: new URL('../../models/en-fr/model.int8.safetensors', import.meta.url).href, languages: { source: 'en', target: 'fr' } },
  'de-en': { name: 'German → English', url: new URL('../../models/de-en/model.int8.safetensors', import.meta.url).href, languages: { source: 'de', target: 'en' } },
  'fr-en': { name: 'French → English', url: new URL('../../models/fr-en/model.int8.safetensors', import.meta.url).href, languages: { source: 'fr', target: 'en' } },
};

export class ModelPicker {
  #select;
  #fileInput;
  #fileLabel;
  #onChoose;
  #onUnreadable;
  #inUse;  // the select's value for the model chosen last: a shipped one's key, or 'file'
  #choices = 0;  // counts choices, so a file still being read does not override a later one

  // onUnreadable(message): a chosen file could not be read (the model in use stays).
  constructor({ select, fileInput, fileLabel, dropTarget, onChoose, onUnreadable }) {
    const ownFile = select.querySelector('option[value="file"]');
    for (const [value, { name }] of Object.entries(SHIPPED_MODELS)) {
      select.insertBefore(new Option(name, value), ownFile);
    }
    select.value = Object.keys(SHIPPED_MODELS)[0];
    this.#select = select;
    this.#markKeptOffline();
    navigator.serviceWorker?.addEventListener('message', ({ data }) => {
      if (data?.type === 'model-kept') this.#markKeptOffline();
    });
    this.#fileInput = fileInput;
    this.#fileLabel = fileLabel;
    this.#onChoose = onChoose;
    this.#onUnreadable = onUnreadable;
    select.addEventListener('change', () => this.#chooseSelected());
    fileInput.addEventListener('change', () => this.#chooseFile(fileInput.files[0]));
    fileInput.addEventListener('cancel', () => {
      if (fileLabel.contains(document.activeElement)) select.focus();  // the label is about to hide
      this.#showInUse();
    });
    const carriesFiles = (event) => event.dataTransfer?.types.includes('Files');
    dropTarget.addEventListener('dragover', (event) => {
      if (!carriesFiles(event)) return;  // text dragged into the text box is the browser's
      event.preventDefault();
      dropTarget.classList.add('dragging');
    });
    dropTarget.addEventListener('dragleave', () => dropTarget.classList.remove('dragging'));
    dropTarget.addEventListener('drop', (event) => {
      dropTarget.classList.remove('dragging');
      if (!carriesFiles(event)) return;
      event.preventDefault();
      this.#chooseFile(event.dataTransfer.files[0]);
    });
  }

  chooseInitial() {
    this.#chooseSelected();
  }

  // The list shows `choice` as the model in use: the one that loaded, or the one kept when a
  // newer choice failed to load.
  setInUse(choice) {
    this.#inUse = choice;
    this.#showInUse();
  }

  // A shipped model loads at once; "a file of my own" opens the file chooser, and the list
  // goes back to the model in use if it is closed without a file.
  #chooseSelected() {
    const shipped = SHIPPED_MODELS[this.#select.value];
    if (!shipped) {
      this.#fileLabel.hidden = false;
      this.#fileInput.focus();
      try {
        this.#fileInput.showPicker();
      } catch {
        // No user gesture (a script changed the list): the focused file button opens it.
      }
      return;
    }
    this.#choices += 1;
    this.#inUse = this.#select.value;
    this.#fileLabel.hidden = true;
    this.#onChoose({ name: shipped.name, source: shipped.url, languages: shipped.languages, choice: this.#inUse });
  }

  async #chooseFile(file) {
    if (!file) return this.#showInUse();
    const choice = ++this.#choices;
    this.#select.value = 'file';
    this.#fileLabel.hidden = false;
    let bytes;
    try {
      bytes = await file.arrayBuffer();
    } catch (error) {
      if (choice !== this.#choices) return;
      this.#onUnreadable(`Could not read "${file.name}" (${error.message}); the model in use stays.`);
      return this.#showInUse();
    } finally {
      this.#fileInput.value = '';  // choosing the same file again is a change
    }
    if (choice !== this.#choices) return;  // another model was chosen while this file was read
    this.#inUse = 'file';
    this.#showInUse();  // the list may have been turned back meanwhile (a chooser closed without a file)
    this.#onChoose({ name: file.name, source: bytes, choice: 'file' });
  }

  #showInUse() {
    this.#select.value = this.#inUse;
    this.#fileLabel.hidden = this.#inUse !== 'file';
  }

  // Names the shipped models that work offline: those in the service worker's caches.
  async #markKeptOffline() {
    if (!globalThis.caches) return;
    for (const [value, { name, url }] of Object.entries(SHIPPED_MODELS)) {
      const kept = Boolean(await caches.match(url).catch(() => undefined));
      const option = this.#select.querySelector(`option[value="${value}"]`);
      option.textContent = kept ? `${name} (works offline)` : name;
      option.dataset.offline = kept;
    }
  }
}
