// Choosing a model: a shipped one from the list, a file from the file input, or a file
// dropped anywhere on the page; for a shipped model with several files or a reverse model,
// fast (its first file) or better (all its files as an ensemble, reranked by the reverse
// model where it has one), each with what it costs. Calls onChoose({name, source, weights, languages, choice, reverse}):
// source a URL, the URLs of an ensemble's files, or an ArrayBuffer; weights, with an ensemble,
// its members' weights from shipped-models.js (null: equal); languages the {source,
// target} tags of a shipped model (a file's are unknown); choice {model, quality}, the list's
// value and the quality (for setInUse); reverse, with better, shipped-models.js's reverseModel().
// The shipped models this browser has kept for offline use (web/sw.js) are marked in the list.
// A Marian model (a Firefox Translations folder, or its files: chosen with the folder or files
// button, or dropped) goes to onImport(files, name), files [{path, folder, data: File}] as
// importMarian takes them; the models imported before (imported-models.js) are listed after the
// shipped ones, and choosing one calls onChoose with its bytes and `imported`, its description.
import { importedModelBytes, importedModels, languagePairName, languageTags } from './imported-models.js';
import { fileUrls, reverseModel, SHIPPED_MODELS } from './shipped-models.js';

const IMPORTED_PREFIX = 'imported:';

// What a dropped or chosen single file is: a file of a Marian folder by its name (gzipped or not),
// else taken as an Attend model file.
const MARIAN_NAME = /\.(bin|npz|spm|model|yml|gz)$/i;

// The files of dropped items: a folder's own files (not its subfolders': importMarian would pass
// them over) with their folder, or a file by itself. `entries` are webkitGetAsEntry()'s, taken
// during the drop event (the items are emptied after it); `files` the drop's File objects, for
// items without an entry.
async function droppedFiles(entries, files) {
  const out = [];
  for (const [i, entry] of entries.entries()) {
    if (entry?.isDirectory) {
      const folder = entry.fullPath.replace(/^\/+/, '');
      const reader = entry.createReader();
      for (let batch; (batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject))).length > 0;) {
        for (const child of batch) {
          if (!child.isFile) continue;
          const file = await new Promise((resolve, reject) => child.file(resolve, reject));
          out.push({ path: `${folder}/${file.name}`, folder, data: file });
        }
      }
    } else if (files[i]) {
      out.push({ path: files[i].name, folder: '', data: files[i] });
    }
  }
  return out;
}

// The files of a folder chosen with <input webkitdirectory>: paths from the folder's parent.
function folderFiles(fileList) {
  return [...fileList].map((file) => {
    const path = file.webkitRelativePath || file.name;
    const slash = path.indexOf('/');
    return { path, folder: slash > 0 ? path.slice(0, slash) : '', data: file };
  });
}

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

// Keys that move a closed list's choice.
const STEPPING_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'PageUp', 'PageDown', 'Home', 'End']);
const QUALITY_NAMES = { fast: 'Fast', better: 'Better' };
// Keys that move the checked radio button of a group (and fire change at each step).
const ARROW_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);

export class ModelPicker {
  #select;
  #fileInput;
  #fileLabel;
  #onChoose;
  #onUnreadable;
  #quality;  // the fieldset of the fast and better radio buttons
  #inUse;  // {model, quality} chosen last: model a shipped one's key, or 'file'
  #choices = 0;  // counts choices, so a file still being read does not override a later one
  #marian;  // the element holding the Marian folder and files buttons
  #pending = null;  // 'model' or 'quality': the list or the radio buttons show a choice moved to with the keys, not yet confirmed
  #pendingNote;  // says how to confirm a model
  #qualityNote;  // says how to confirm a quality
  #downloads = {};  // quality → the MB it downloads, of the model whose qualities are shown
  #onImport;
  #imported = new Map();  // id → description of the models imported before

  // onUnreadable(message): a chosen file could not be read (the model in use stays).
  // quality: a fieldset holding radio buttons of value "fast" and "better", each with a
  // .cost element the picker fills in, and a .pending element (a status) where it says that a
  // quality moved to with the arrow keys waits for Enter.
  // marian: {container, folderInput, filesInput}, the Marian model's buttons; onImport(files, name).
  // pendingNote: where the picker says that a model moved to with the arrow keys waits for Enter.
  constructor({ select, quality, fileInput, fileLabel, marian, dropTarget, onChoose, onImport, onUnreadable, pendingNote }) {
    this.#pendingNote = pendingNote;
    this.#qualityNote = quality.querySelector('.pending');
    const ownFile = select.querySelector('option[value="file"]');
    for (const [value, { name }] of Object.entries(SHIPPED_MODELS)) {
      if (!select.querySelector(`option[value="${value}"]`)) select.insertBefore(new Option(name, value), ownFile);  // index.html lists them
    }
    this.#marian = marian.container;
    this.#onImport = onImport;
    const importChosen = (input, files) => {
      input.value = '';  // choosing the same folder again is a change
      if (files.length === 0) return this.#showInUse();
      const name = files[0].folder || files.find((f) => /^model/.test(f.path))?.path || files[0].path;
      this.#startImport(files, name);
    };
    marian.folderInput.addEventListener('change', () => importChosen(marian.folderInput, folderFiles(marian.folderInput.files)));
    marian.filesInput.addEventListener('change', () => importChosen(marian.filesInput,
      [...marian.filesInput.files].map((file) => ({ path: file.name, folder: '', data: file }))));
    for (const input of [marian.folderInput, marian.filesInput]) {
      input.addEventListener('cancel', () => {
        if (this.#marian.contains(document.activeElement)) select.focus();  // the buttons are about to hide
        this.#showInUse();
      });
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
    // Arrow keys (and typing) on the closed list move its choice at once, and Chromium fires change
    // for each step: those wait for Enter, or for the person to leave the list, so that passing over a
    // model does not load (and download) it. A choice made in the open list, by pointer or keyboard,
    // loads at once.
    this.#confirmSteps(select, 'model', {
      moves: (key) => STEPPING_KEYS.has(key) || key.length === 1,
      confirms: ['Enter'],
      differs: () => this.#select.value !== this.#inUse?.model,
    });
    select.addEventListener('blur', () => this.#confirmPending('model'));
    // The Quality radio buttons likewise: the arrow keys move the checked one (the platform's way,
    // firing change at each step), and better costs a download of several models, so a quality moved
    // to with them waits for Enter or Space, or for the person to leave the radio buttons, with its
    // cost said; a click or a tap on one loads it at once. (Not a delay after the last key: a person
    // reading the costs with the arrow keys pauses, and a pause would start a 13 MB download.)
    this.#confirmSteps(quality, 'quality', {
      moves: (key) => ARROW_KEYS.has(key),
      confirms: ['Enter', ' '],
      differs: () => this.#selectedQuality() !== this.#inUse?.quality,
    });
    quality.addEventListener('focusout', (event) => {
      if (!quality.contains(event.relatedTarget)) this.#confirmPending('quality');
    });
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
      const items = [...event.dataTransfer.items].filter((item) => item.kind === 'file');
      const entries = items.map((item) => item.webkitGetAsEntry?.() ?? null);
      const files = [...event.dataTransfer.files];
      this.#chooseDropped(entries, files);
    });
  }

  // Lists the models imported before, then chooses the shipped model first in the list.
  async chooseInitial() {
    await this.#listImported().catch(() => {});  // without Cache Storage, none
    this.#chooseSelected();
  }

  // A model just imported and kept: listed, and in use once onChoose's load succeeds.
  addImported(description) {
    this.#imported.set(description.id, description);
    this.#addImportedOption(description);
  }

  // The import of `files` failed or was superseded: the list shows the model in use again.
  showModelInUse() {
    this.#showInUse();
  }

  // An imported model forgotten: out of the list.
  // The model in use, if it was that one, stays loaded: the list then names it a file of the person's.
  removeImported(id) {
    this.#imported.delete(id);
    this.#select.querySelector(`option[value="${IMPORTED_PREFIX}${id}"]`)?.remove();
    if (this.#inUse?.model === `${IMPORTED_PREFIX}${id}`) this.setInUse({ model: 'file', quality: 'fast' });
  }

  async #listImported() {
    for (const description of await importedModels()) this.addImported(description);
  }

  #addImportedOption(description) {
    const value = `${IMPORTED_PREFIX}${description.id}`;
    if (this.#select.querySelector(`option[value="${value}"]`)) return;
    const option = new Option(`${languagePairName(description.languages)}, imported: ${description.name}`, value);
    option.dataset.imported = 'true';
    this.#select.insertBefore(option, this.#select.querySelector('option[value="file"]'));
  }

  async #chooseDropped(entries, files) {
    const dropped = await droppedFiles(entries, files).catch(() => null);
    if (!dropped) return this.#onUnreadable('Could not read what was dropped; the model in use stays.');
    if (dropped.length === 0) return this.#onUnreadable('The dropped folder holds no files; the model in use stays.');
    const [first] = dropped;
    if (dropped.length === 1 && !first.folder && !MARIAN_NAME.test(first.path)) return this.#chooseFile(first.data);
    this.#startImport(dropped, first.folder || dropped.find((f) => /^model/.test(f.path))?.path || first.path);
  }

  #startImport(files, name) {
    ++this.#choices;  // a file still being read does not override it
    this.#select.value = 'marian';
    this.#quality.hidden = true;
    this.#fileLabel.hidden = true;
    this.#marian.hidden = false;
    this.#onImport(files, name);
  }

  // A change that `element`'s keys made (`moves(key)`) waits, pending as `kind` while it `differs()`
  // from the choice in use, for one of the `confirms` keys (or for the person to leave `element`: the
  // caller's listener); any other change (a pointer, a tap, a choice in the open list) is chosen at
  // once. The browser fires change within the key's default action: after the keydown listeners,
  // before the next task.
  #confirmSteps(element, kind, { moves, confirms, differs }) {
    let stepping = false;  // a key that moves the choice is being handled
    element.addEventListener('keydown', (event) => {
      if (confirms.includes(event.key) && this.#pending === kind) {
        event.preventDefault();
        this.#confirmPending(kind);
      } else if (!event.altKey && moves(event.key)) {
        stepping = true;
        setTimeout(() => { stepping = false; }, 0);
      }
    });
    element.addEventListener('change', () => {
      if (stepping) return this.#setPending(kind, differs());
      this.#setPending(null, false);
      this.#chooseSelected();
    });
  }

  // `kind` ('model' or 'quality') shows a choice moved to with the keys (pending true), or the one in use.
  #setPending(kind, pending) {
    this.#pending = pending ? kind : null;
    this.#showPending();
  }

  #confirmPending(kind) {
    if (this.#pending !== kind) return;
    this.#setPending(null, false);
    this.#chooseSelected();
  }

  #showPending() {
    const option = this.#select.selectedOptions[0];
    this.#pendingNote.hidden = this.#pending !== 'model';
    this.#pendingNote.textContent = this.#pending === 'model'
      ? `Press Enter (or leave the list) to use ${option?.textContent ?? 'it'}; the model in use stays until then.` : '';
    const quality = this.#selectedQuality();
    this.#qualityNote.hidden = this.#pending !== 'quality';
    this.#qualityNote.textContent = this.#pending === 'quality'
      ? `Press Enter (or leave the Quality choices) to use ${QUALITY_NAMES[quality]} (${this.#downloads[quality]} MB to download); the model in use stays until then.` : '';
  }

  // The models listed that read `language` (an ISO 639-1 code), shipped first, then imported:
  // [{value, name, target}] (target: the language it translates into).
  modelsReading(language) {
    const shipped = Object.entries(SHIPPED_MODELS).filter(([, { languages }]) => languages.source === language)
      .map(([value, { name, languages }]) => ({ value, name, target: languages.target }));
    const imported = [...this.#imported.values()].filter(({ languages }) => languageTags(languages)?.source === language)
      .map((description) => ({
        value: `${IMPORTED_PREFIX}${description.id}`,
        name: `${languagePairName(description.languages)} (imported: ${description.name})`,
        target: languageTags(description.languages).target,
      }));
    return [...shipped, ...imported];
  }

  // Chooses the listed model `value` (modelsReading's), as choosing it in the list does.
  choose(value) {
    this.#setPending(null, false);
    this.#select.value = value;
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
    if (model.startsWith(IMPORTED_PREFIX)) return this.#chooseImported(model);
    if (!shipped) {
      const marian = model === 'marian';
      this.#fileLabel.hidden = marian;
      this.#marian.hidden = !marian;
      const input = marian ? this.#marian.querySelector('input') : this.#fileInput;
      input.focus();
      try {
        input.showPicker();
      } catch {
        // No user gesture (a script changed the list): the focused file button opens it.
      }
      return;
    }
    this.#marian.hidden = true;
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

  // A model imported before, read from where it is kept.
  async #chooseImported(value) {
    const choice = ++this.#choices;
    const description = this.#imported.get(value.slice(IMPORTED_PREFIX.length));
    this.#fileLabel.hidden = true;
    this.#marian.hidden = true;
    let bytes;
    try {
      bytes = await importedModelBytes(description.id);
    } catch (error) {
      if (choice !== this.#choices) return;
      this.#onUnreadable(`Could not read the imported model "${description.name}" kept in this browser (${error.message}); the model in use stays.`);
      return this.#showInUse();
    }
    if (choice !== this.#choices) return;
    this.#inUse = { model: value, quality: 'fast' };
    this.#onChoose({
      name: `${languagePairName(description.languages)} (imported: ${description.name})`,
      source: bytes,
      languages: languageTags(description.languages),
      choice: this.#inUse,
      imported: description,
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
    this.#downloads.fast = megabytes([files[0].megabytes]);
    cost('fast', `${this.#downloads.fast} MB to download, quickest`);
    // What a person gets and what it costs, in plain words (how: models/<pair>/README.md).
    const how = [files.length > 1 && `${files.length} models vote on each word`,
      reverse && `${reverse.name} checks the wording`].filter(Boolean).join('; ');
    const sizes = [...files.map((file) => file.megabytes), ...(reverse ? [reverse.megabytes] : [])];
    const time = Number((files.length + (reverse ? RERANK_COST : 0)).toFixed(1));
    this.#downloads.better = megabytes(sizes);
    cost('better', `slightly more accurate (${how}); ${this.#downloads.better} MB to download, each sentence about ${time}× as long`);
  }

  async #chooseFile(file) {
    if (!file) return this.#showInUse();
    const choice = ++this.#choices;
    this.#select.value = 'file';
    this.#quality.hidden = true;
    this.#fileLabel.hidden = false;
    this.#marian.hidden = true;
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
    this.#setPending(null, false);  // what the keys moved to is shown no more
    this.#select.value = this.#inUse.model;
    this.#quality.querySelector(`input[value="${this.#inUse.quality}"]`).checked = true;
    this.#showQualities(this.#inUse.model);
    this.#fileLabel.hidden = this.#inUse.model !== 'file';
    this.#marian.hidden = true;
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
