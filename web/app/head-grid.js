// All layers × heads of one attention kind as thumbnails. Clicking a thumbnail opens that
// head in the large heatmap; each thumbnail's "mask" toggle adds the head to the heads the
// next translation zeroes (head ablation). Heads of a model that masks do not reach (an
// ensemble's other members) are shown without the toggles.
import { attentionShape, headMatrix } from './attention-data.js';
import { paintHeatmap } from './heatmap-canvas.js';

const THUMBNAIL_WIDTH = 96;

const headKey = ({ kind, layer, head }) => `${kind}:${layer}:${head}`;

export class HeadGrid {
  #container;
  #onOpen;
  #onMasksChanged;
  #masked = new Map();  // headKey → {kind, layer, head}

  constructor({ container, onOpen, onMasksChanged }) {
    this.#container = container;
    this.#onOpen = onOpen;
    this.#onMasksChanged = onMasksChanged;
  }

  get maskedHeads() {
    return [...this.#masked.values()];
  }

  clearMasks() {
    this.#masked.clear();
    this.#onMasksChanged(this.maskedHeads);
  }

  show(attention, { kind, layer: selectedLayer, head: selectedHead }, { maskable = true } = {}) {
    const { layers, heads } = attentionShape(attention, kind);
    this.#container.style.setProperty('--heads', heads);
    const cells = [document.createElement('span')];
    for (let head = 0; head < heads; head++) cells.push(this.#columnHeader(head));
    for (let layer = 0; layer < layers; layer++) {
      cells.push(this.#rowHeader(layer));
      for (let head = 0; head < heads; head++) {
        const selected = layer === selectedLayer && head === selectedHead;
        cells.push(this.#thumbnail(attention, { kind, layer, head }, selected, maskable));
      }
    }
    const focused = this.#focusedButton();
    this.#container.replaceChildren(...cells);
    if (focused) {
      this.#container.querySelector(`.head-cell[data-layer="${focused.layer}"][data-head="${focused.head}"] .${focused.role}`)?.focus();
    }
  }

  // The grid button that has the keyboard focus, as {layer, head, role}: the grid is redrawn
  // after each translation and each opened head, and focus must stay on the same button.
  #focusedButton() {
    const button = document.activeElement;
    const cell = this.#container.contains(button) ? button.closest('.head-cell') : null;
    if (!cell) return null;
    return { layer: cell.dataset.layer, head: cell.dataset.head, role: button.classList.contains('head-mask') ? 'head-mask' : 'head-open' };
  }

  #columnHeader(head) {
    const header = document.createElement('span');
    header.className = 'grid-header';
    header.textContent = `Head ${head + 1}`;
    return header;
  }

  #rowHeader(layer) {
    const header = document.createElement('span');
    header.className = 'grid-header';
    header.textContent = `Layer ${layer + 1}`;
    return header;
  }

  #thumbnail(attention, ref, selected, maskable) {
    const cell = document.createElement('div');
    cell.className = 'head-cell';
    const masked = this.#masked.has(headKey(ref));
    Object.assign(cell.dataset, { layer: ref.layer, head: ref.head, masked });
    cell.classList.toggle('selected', selected);

    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'head-open';
    open.setAttribute('aria-label', `Open layer ${ref.layer + 1}, head ${ref.head + 1}`);
    const canvas = document.createElement('canvas');
    paintHeatmap(canvas, headMatrix(attention, ref.kind, ref.layer, ref.head), {
      maxWidth: THUMBNAIL_WIDTH, withLabels: false, minCell: 1, maxCell: 12,
    });
    open.append(canvas);
    open.addEventListener('click', () => this.#onOpen(ref));
    if (!maskable) {
      cell.append(open);
      return cell;
    }

    const mask = document.createElement('button');
    mask.type = 'button';
    mask.className = 'head-mask';
    mask.setAttribute('aria-pressed', String(masked));
    const state = document.createElement('span');  // the accessible name holds what is shown
    state.textContent = masked ? 'masked' : 'mask';
    const which = document.createElement('span');
    which.className = 'visually-hidden';
    which.textContent = ` layer ${ref.layer + 1}, head ${ref.head + 1}`;
    mask.append(state, which);
    mask.addEventListener('click', () => this.#toggleMask(ref, cell, mask, state));

    cell.append(open, mask);
    return cell;
  }

  #toggleMask(ref, cell, mask, state) {
    const key = headKey(ref);
    const masked = !this.#masked.has(key);
    if (masked) this.#masked.set(key, ref);
    else this.#masked.delete(key);
    cell.dataset.masked = masked;
    mask.setAttribute('aria-pressed', String(masked));
    state.textContent = masked ? 'masked' : 'mask';
    this.#onMasksChanged(this.maskedHeads);
  }
}
