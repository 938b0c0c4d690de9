// Choosing a model: a shipped one from the list, a file from the file input, or a file
// dropped anywhere on the page; for a shipped model with several files or a reverse model,
// fast (its first file) or better (all its files as an ensemble, reranked by the reverse
// model where it has one), each with what it costs. Calls onChoose({name, source, weights, languages, choice, reverse}):
// source a URL, the URLs of an ensemble's files, or an ArrayBuffer; weights, with an ensemble,
// its members' weights from shipped-models.js (null: equal); languages the {source,
// target} tags of a shipped model (a file's are unknown); choice {model, quality}, the list's
// value and the quality (for setInUse); reverse, with better, shipped-models.js's reverseModel().
// The shipped models this browser has kept for offline use (web/sw.js) are marked in the list.
import { fileUrls, reverseModel, SHIPPED_MODELS } from './shipped-models.js';

// Reranking's time in models' time: the reverse model teacher-forced over a beam, the hypotheses
// after the search's best only until they are ruled out, costs about 0.9 times the search of one
// model (the SIMD build in Node, 150 sentences one at a time at beam 4, CPU time, 2 rounds,
// 2026-11-29: en-de alone 0.97-0.99 s, reranked by de-en 1.78-1.88 s, with its second member
// 1.71-1.79 s, both reranked 2.58-2.59 s; natively models/en-de/README.md, beam 5: 1.95 s alone,
// 3.87 s reranked). It was 1.3 before issue 37 scored every hypothesis whole.
const RERANK_COST = 0.9;

const megabytes = (sizes) => sizes.reduce((sum, size) => sum + size, 0).toFixed(1);

// What better is for a shipped model: its files and its reverse model (or null); none without either.
function betterOf(key) {
  const shipped = SHIPPED_MODELS[key];
  const reverse = shipped ? reverseModel(key) : null;
  return shipped && (shipped.files.length > 1 || reverse) ? { files: shipped.files, reverse } : null;
}

export class ModelPicker {
  #select;
  #fileInput;
  #fileLabel;
  #onChoose;
  #onUnreadable;
  #quality;  // the fieldset of the fast and better radio buttons
  #inUse;  // {model, quality} chosen last: model a shipped one's key, or 'file'
  #choices = 0;  // counts choices, so a file still being read does not override a later one

  // onUnreadable(message): a chosen file could not be read (the model in use stays).
  // quality: a fieldset holding radio buttons of value "fast" and "better", each with a
  // .cost element the picker fills in.
  constructor({ select, quality, fileInput, fileLabel, dropTarget, onChoose, onUnreadable }) {
    const ownFile = select.querySelector('option[value="file"]');
    for (const [value, { name }] of Object.entries(SHIPPED_MODELS)) {
      select.insertBefore(new Option(name, value), ownFile);
    }
    select.value = Object.keys(SHIPPED_MODELS)[0];
    this.#select = select;
    this.#quality = quality;
    this.#markKeptOffline();
    navigator.serviceWorker?.addEventListener('message', ({ data }) => {
      if (data?.type === 'model-kept') this.#markKeptOffline();
    });
    this.#fileInput = fileInput;
    this.#fileLabel = fileLabel;
    this.#onChoose = onChoose;
    this.#onUnreadable = onUnreadable;
    select.addEventListener('change', () => this.#chooseSelected());
    quality.addEventListener('change', () => this.#chooseSelected());
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

  // A shipped model loads at once, in the quality chosen; "a file of my own" opens the file
  // chooser, and the list goes back to the model in use if it is closed without a file.
  #chooseSelected() {
    const model = this.#select.value;
    const shipped = SHIPPED_MODELS[model];
    this.#showQualities(model);
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
    const better = this.#selectedQuality() === 'better' ? betterOf(model) : null;
    this.#inUse = { model, quality: better ? 'better' : 'fast' };
    this.#fileLabel.hidden = true;
    const urls = fileUrls(model);
    const how = better && [urls.length > 1 && `ensemble of ${urls.length}`, better.reverse && `reranked by ${better.reverse.name}`].filter(Boolean);
    this.#onChoose({
      name: better ? `${shipped.name} (${how.join(', ')})` : shipped.name,
      source: better && urls.length > 1 ? urls : urls[0],
      weights: better && urls.length > 1 ? shipped.weights ?? null : null,
      languages: shipped.languages,
      choice: this.#inUse,
      reverse: better?.reverse ?? null,
    });
  }

  #selectedQuality() {
    return this.#quality.querySelector('input:checked')?.value ?? 'fast';
  }

  // Fast and better, with their costs, for a shipped model with several files or a reverse
  // model; hidden otherwise.
  #showQualities(key) {
    const better = betterOf(key);
    this.#quality.hidden = !better;
    if (!better) return;
    const { files, reverse } = better;
    const cost = (value, text) => { this.#quality.querySelector(`input[value="${value}"] ~ .cost`).textContent = text; };
    cost('fast', `one model, ${megabytes([files[0].megabytes])} MB to download`);
    const models = files.length > 1 ? `${files.length} models together` : 'one model';
    const choosing = reverse ? ` + the ${reverse.name} model choosing among ${files.length > 1 ? 'their' : 'its'} candidates` : '';
    const sizes = [...files.map((file) => file.megabytes), ...(reverse ? [reverse.megabytes] : [])];
    const time = Number((files.length + (reverse ? RERANK_COST : 0)).toFixed(1));
    cost('better', `${models}${choosing}, ${megabytes(sizes)} MB to download, each sentence takes about ${time}× as long`);
  }

  async #chooseFile(file) {
    if (!file) return this.#showInUse();
    const choice = ++this.#choices;
    this.#select.value = 'file';
    this.#quality.hidden = true;
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
    this.#inUse = { model: 'file', quality: 'fast' };
    this.#showInUse();  // the list may have been turned back meanwhile (a chooser closed without a file)
    this.#onChoose({ name: file.name, source: bytes, choice: this.#inUse });
  }

  #showInUse() {
    if (!this.#inUse) return;  // nothing chosen yet
    this.#select.value = this.#inUse.model;
    this.#quality.querySelector(`input[value="${this.#inUse.quality}"]`).checked = true;
    this.#showQualities(this.#inUse.model);
    this.#fileLabel.hidden = this.#inUse.model !== 'file';
  }

  // Names the shipped models that work offline: those in the service worker's caches.
  async #markKeptOffline() {
    if (!globalThis.caches) return;
    for (const [value, { name }] of Object.entries(SHIPPED_MODELS)) {
      const kept = Boolean(await caches.match(fileUrls(value)[0]).catch(() => undefined));
      const option = this.#select.querySelector(`option[value="${value}"]`);
      option.textContent = kept ? `${name} (works offline)` : name;
      option.dataset.offline = kept;
    }
  }
}
