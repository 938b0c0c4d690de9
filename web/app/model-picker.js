// Choosing a model: a shipped one from the list, a file from the file input, or a file
// dropped anywhere on the page. Calls onChoose({name, source}) with a URL or an ArrayBuffer.

const SHIPPED_MODELS = {
  'en-de': { name: 'English → German', url: new URL('../../models/en-de/model.int8.safetensors', import.meta.url).href },
  'en-fr': { name: 'English → French', url: new URL('../../models/en-fr/model.int8.safetensors', import.meta.url).href },
  'de-en': { name: 'German → English', url: new URL('../../models/de-en/model.int8.safetensors', import.meta.url).href },
};

export class ModelPicker {
  #select;
  #fileInput;
  #fileLabel;
  #onChoose;

  constructor({ select, fileInput, fileLabel, dropTarget, onChoose }) {
    const ownFile = select.querySelector('option[value="file"]');
    for (const [value, { name }] of Object.entries(SHIPPED_MODELS)) {
      select.insertBefore(new Option(name, value), ownFile);
    }
    select.value = Object.keys(SHIPPED_MODELS)[0];
    this.#select = select;
    this.#fileInput = fileInput;
    this.#fileLabel = fileLabel;
    this.#onChoose = onChoose;
    select.addEventListener('change', () => this.#chooseSelected());
    fileInput.addEventListener('change', () => this.#chooseFile(fileInput.files[0]));
    dropTarget.addEventListener('dragover', (event) => {
      event.preventDefault();
      dropTarget.classList.add('dragging');
    });
    dropTarget.addEventListener('dragleave', () => dropTarget.classList.remove('dragging'));
    dropTarget.addEventListener('drop', (event) => {
      event.preventDefault();
      dropTarget.classList.remove('dragging');
      this.#chooseFile(event.dataTransfer.files[0]);
    });
  }

  chooseInitial() {
    this.#chooseSelected();
  }

  #chooseSelected() {
    const shipped = SHIPPED_MODELS[this.#select.value];
    this.#fileLabel.hidden = Boolean(shipped);
    if (shipped) this.#onChoose({ name: shipped.name, source: shipped.url });
    else this.#fileInput.focus();
  }

  async #chooseFile(file) {
    if (!file) return;
    this.#select.value = 'file';
    this.#fileLabel.hidden = false;
    this.#onChoose({ name: file.name, source: await file.arrayBuffer() });
  }
}
