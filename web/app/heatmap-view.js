// The large heatmap of one layer and head: drawn from the translation's attention (pieces as
// people read them, piece-names.js), with the weight under the pointer, the finger or the
// arrow-key cursor in a tooltip and the strongest cell named in a caption; the arrow-key
// cursor's weight is also read out (a live region). The canvas carries what it drew as data-*
// attributes (kind, layer, head, strongest cell) so tests can compare the picture with the
// exported JSON.
import { headMatrix, strongestCell, KIND_NAMES } from './attention-data.js';
import { cellAt, paintHeatmap } from './heatmap-canvas.js';
import { withReadableLabels } from './piece-names.js';
import { ScrollCue } from './scroll-cue.js';

export class HeatmapView {
  #canvas;
  #tooltip;
  #caption;
  #reading;
  #scrollCue;
  #matrix = null;
  #geometry = null;
  #cursor = { row: 0, col: 0 };  // the cell the arrow keys move

  // scrollHint: shown while the heatmap is wider than its frame.
  constructor({ canvas, tooltip, caption, reading, scrollHint }) {
    this.#canvas = canvas;
    this.#tooltip = tooltip;
    this.#caption = caption;
    this.#reading = reading;
    this.#scrollCue = new ScrollCue({ frame: canvas.parentElement, hint: scrollHint });
    canvas.tabIndex = 0;
    // A mouse reads the cell it hovers; a finger the cell it touches or drags over (up or down
    // the page does not scroll under it: touch-action in styles.css), and the value stays once it
    // lifts.
    const point = (event) => this.#showTooltip(this.#matrix && cellAt(this.#geometry, this.#matrix, event.offsetX, event.offsetY),
      event.offsetX, event.offsetY, event.pointerType === 'touch');
    canvas.addEventListener('pointerdown', point);
    canvas.addEventListener('pointermove', point);
    canvas.addEventListener('pointerleave', (event) => { if (event.pointerType !== 'touch') tooltip.hidden = true; });
    canvas.addEventListener('keydown', (event) => this.#moveCursor(event));
    canvas.addEventListener('blur', () => { tooltip.hidden = true; });
  }

  // The heatmap drawn again on a new canvas at 2 pixels per CSS pixel, for a PNG.
  exportCanvas() {
    const canvas = document.createElement('canvas');
    paintHeatmap(canvas, this.#matrix, { maxWidth: this.#canvas.parentElement.clientWidth, ratio: 2 });
    return canvas;
  }

  show(attention, { kind, layer, head }) {
    this.#matrix = withReadableLabels(headMatrix(attention, kind, layer, head));
    this.#cursor = { row: 0, col: 0 };
    this.#tooltip.hidden = true;  // it named a cell of the picture being replaced
    this.#reading.textContent = '';
    const maxWidth = this.#canvas.parentElement.clientWidth;
    this.#geometry = paintHeatmap(this.#canvas, this.#matrix, { maxWidth });
    this.#scrollCue.update();
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

  // Shows the weight of cell (or hides the tooltip for null) next to the point x, y: below
  // right of a mouse pointer, above a finger, which would cover it.
  #showTooltip(cell, x, y, touch = false) {
    this.#tooltip.hidden = !cell;
    if (!cell) return;
    const { rowLabels, colLabels, values, cols } = this.#matrix;
    this.#tooltip.textContent = `${rowLabels[cell.row]} → ${colLabels[cell.col]}: ${values[cell.row * cols + cell.col].toFixed(3)}`;
    Object.assign(this.#tooltip.dataset, { row: cell.row, col: cell.col });
    // Kept inside the frame, which would otherwise scroll (or clip) to show it.
    const frame = this.#canvas.parentElement;
    const clamp = (value, max) => Math.max(0, Math.min(value, max));
    const size = this.#tooltip.getBoundingClientRect();  // not rounded, as offsetWidth is
    const left = clamp(this.#canvas.offsetLeft + x + 14, frame.scrollLeft + frame.clientWidth - size.width);
    const top = clamp(this.#canvas.offsetTop + y + (touch ? -48 : 14), frame.clientHeight - size.height);
    Object.assign(this.#tooltip.style, { left: `${left}px`, top: `${top}px` });
  }

  #moveCursor(event) {
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
    if (!steps || !this.#matrix) return;
    event.preventDefault();
    const clamp = (value, count) => Math.min(count - 1, Math.max(0, value));
    const row = clamp(this.#cursor.row + steps[0], this.#matrix.rows);
    const col = clamp(this.#cursor.col + steps[1], this.#matrix.cols);
    this.#cursor = { row, col };
    const { left, top, cell } = this.#geometry;
    this.#showTooltip(this.#cursor, left + (col + 0.5) * cell, top + (row + 0.5) * cell);
    this.#reading.textContent = this.#tooltip.textContent;  // screen readers announce it
  }
}
