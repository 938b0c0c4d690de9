// Live decoding: while the worker decodes, each generated piece appears with its
// cross-attention (the last decoder layer's, averaged over its heads) as a new heatmap row.
import { paintHeatmap } from './heatmap-canvas.js';

// Mean over the last layer's heads of one step's cross-attention {data, shape: [L, H, S]}: [S].
function lastLayerMean({ data, shape: [layers, heads, srcLen] }) {
  const mean = new Float32Array(srcLen);
  for (let head = 0; head < heads; head++) {
    const offset = ((layers - 1) * heads + head) * srcLen;
    for (let col = 0; col < srcLen; col++) mean[col] += data[offset + col] / heads;
  }
  return mean;
}

export class LiveDecodingView {
  #container;
  #canvas;
  #pieces;
  #sourcePieces = [];
  #rows = [];
  #rowLabels = [];

  constructor({ container, canvas, pieces }) {
    this.#container = container;
    this.#canvas = canvas;
    this.#pieces = pieces;
  }

  get canvas() {
    return this.#canvas;
  }

  // sourcePieces label the columns when known (the last translation of the same text).
  // The view shows from the first step on, so the first decode after a load is seen too.
  start(sourcePieces) {
    this.#container.hidden = false;
    this.#sourcePieces = sourcePieces ?? [];
    this.#rows = [];
    this.#rowLabels = [];
    this.#pieces.replaceChildren();
    this.#canvas.dataset.steps = 0;
  }

  hide() {
    this.#container.hidden = true;
  }

  // Once the translation is done its source pieces are known: label the columns with them.
  finish(sourcePieces) {
    this.#sourcePieces = sourcePieces;
    if (this.#rows.length > 0) this.#paint(this.#rows[0].length);
  }

  addStep({ piece, crossAttention }) {
    const token = document.createElement('span');
    token.className = 'live-piece';
    token.textContent = piece;
    this.#pieces.append(token);
    this.#rowLabels.push(piece);
    this.#canvas.dataset.steps = this.#rowLabels.length;
    if (!crossAttention) return;
    this.#rows.push(lastLayerMean(crossAttention));
    this.#paint(this.#rows[0].length);
  }

  #paint(srcLen) {
    const values = new Float32Array(this.#rows.length * srcLen);
    this.#rows.forEach((row, index) => values.set(row, index * srcLen));
    const colLabels = this.#sourcePieces.length === srcLen
      ? this.#sourcePieces
      : Array.from({ length: srcLen }, (_, col) => `#${col + 1}`);
    const matrix = { rows: this.#rows.length, cols: srcLen, values, rowLabels: this.#rowLabels, colLabels };
    paintHeatmap(this.#canvas, matrix, { maxWidth: this.#canvas.parentElement.clientWidth, maxCell: 20 });
  }
}
