// The large heatmap of one layer and head: drawn from the translation's attention, with the
// weight under the pointer in a tooltip and the strongest cell named in a caption. The
// canvas carries what it drew as data-* attributes (kind, layer, head, strongest cell) so
// tests can compare the picture with the exported JSON.
import { headMatrix, strongestCell, KIND_NAMES } from './attention-data.js';
import { cellAt, paintHeatmap } from './heatmap-canvas.js';

export class HeatmapView {
  #canvas;
  #tooltip;
  #caption;
  #matrix = null;
  #geometry = null;

  constructor({ canvas, tooltip, caption }) {
    this.#canvas = canvas;
    this.#tooltip = tooltip;
    this.#caption = caption;
    canvas.addEventListener('pointermove', (event) => this.#showTooltip(event));
    canvas.addEventListener('pointerleave', () => { tooltip.hidden = true; });
  }

  get canvas() {
    return this.#canvas;
  }

  show(attention, { kind, layer, head }) {
    this.#matrix = headMatrix(attention, kind, layer, head);
    const maxWidth = this.#canvas.parentElement.clientWidth;
    this.#geometry = paintHeatmap(this.#canvas, this.#matrix, { maxWidth });
    const strongest = strongestCell(this.#matrix);
    const { left, top, cell } = this.#geometry;
    Object.assign(this.#canvas.dataset, {
      kind, layer, head,
      rows: this.#matrix.rows, cols: this.#matrix.cols, gridLeft: left, gridTop: top, cellSize: cell,
      strongestRow: strongest.row, strongestCol: strongest.col, strongestValue: strongest.value,
    });
    this.#canvas.setAttribute('aria-label', `${KIND_NAMES[kind]}, layer ${layer + 1}, head ${head + 1}`);
    this.#caption.textContent = `${KIND_NAMES[kind]}, layer ${layer + 1}, head ${head + 1}. Strongest: `
      + `${this.#matrix.rowLabels[strongest.row]} → ${this.#matrix.colLabels[strongest.col]} (${strongest.value.toFixed(3)}).`;
  }

  #showTooltip(event) {
    const cell = this.#matrix && cellAt(this.#geometry, this.#matrix, event.offsetX, event.offsetY);
    this.#tooltip.hidden = !cell;
    if (!cell) return;
    const { rowLabels, colLabels, values, cols } = this.#matrix;
    this.#tooltip.textContent = `${rowLabels[cell.row]} → ${colLabels[cell.col]}: ${values[cell.row * cols + cell.col].toFixed(3)}`;
    Object.assign(this.#tooltip.dataset, { row: cell.row, col: cell.col });
    this.#tooltip.style.left = `${this.#canvas.offsetLeft + event.offsetX + 14}px`;
    this.#tooltip.style.top = `${this.#canvas.offsetTop + event.offsetY + 14}px`;
  }
}
