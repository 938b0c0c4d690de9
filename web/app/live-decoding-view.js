// Live decoding, under the translation. Greedy search writes one translation: each piece
// appears as it is generated, with its cross-attention (the last decoder layer's, averaged over
// its heads) as a new heatmap row. Beam search weighs several hypotheses at once, and a step
// only tells the newest piece of the best one so far, which the next step may drop: strung
// together those pieces would read as nonsense. So while beam search runs the view counts its
// steps, and once it is done it replays the translation it chose, step by step, with that
// translation's own cross-attention. The note above the pieces says which of the two is shown.
import { lastLayerMeanCross, lastLayerMeanOfStep } from './attention-mean.js';
import { paintHeatmap } from './heatmap-canvas.js';
import { readablePiece, readablePieces } from './piece-names.js';

const REPLAY_STEP_MS = 90;
const MEAN_NOTE = 'its cross-attention (the last layer\'s, averaged over its heads)';

const reducedMotion = () => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

export class LiveDecodingView {
  #container;
  #canvas;
  #pieces;
  #note;
  #mode = 'greedy';  // greedy | beam
  #beam = 1;
  #sourcePieces = [];
  #rows = [];  // Float32Array [S] per step shown
  #rowLabels = [];
  #replayTimer = 0;

  constructor({ container, canvas, pieces, note }) {
    this.#container = container;
    this.#canvas = canvas;
    this.#pieces = pieces;
    this.#note = note;
  }

  // The steps shown drawn again on a new canvas at 2 pixels per CSS pixel, for a PNG.
  exportCanvas() {
    const canvas = document.createElement('canvas');
    if (this.#rows.length > 0) this.#paint(canvas, 2);
    return canvas;
  }

  // A translation starts decoding with `beam` hypotheses. sourcePieces label the columns when
  // known (the last translation of the same text). The view shows from the first step on, so the
  // first decode after a load is seen too.
  start(sourcePieces, { beam }) {
    this.#stopReplay();
    this.#container.hidden = false;
    this.#mode = beam > 1 ? 'beam' : 'greedy';
    this.#beam = beam;
    this.#sourcePieces = sourcePieces ?? [];
    this.#clearSteps();
    this.#setState('decoding');
    this.#note.textContent = this.#mode === 'greedy'
      ? `Each piece as it is generated, with ${MEAN_NOTE}.`
      : `Beam search is weighing ${beam} hypotheses at each step…`;
  }

  hide() {
    this.#stopReplay();
    this.#container.hidden = true;
  }

  addStep({ step, piece, crossAttention }) {
    if (this.#mode === 'beam') {
      this.#note.textContent = `Beam search is weighing ${this.#beam} hypotheses at each step… step ${step + 1}.`;
      return;
    }
    this.#appendStep(piece, crossAttention ? lastLayerMeanOfStep(crossAttention) : null);
  }

  // The translation is done; attention: its maps (translate(…, {attention: true}).attention).
  // Greedy: the columns get their pieces. Beam: the chosen translation is replayed.
  finish(attention) {
    if (this.#container.hidden) return;  // a sentence of a longer text, which decodes without live steps
    this.#sourcePieces = attention.sourcePieces;
    if (this.#mode === 'greedy') {
      if (this.#rows.length > 0) this.#paint();
      this.#setState('done');
      return;
    }
    this.#note.textContent = `The translation beam search chose (of ${this.#beam} hypotheses weighed at each step), `
      + `replayed piece by piece with ${MEAN_NOTE}.`;
    this.#replay(lastLayerMeanCross(attention));
  }

  #replay({ rows, cols, values, rowLabels }) {
    this.#clearSteps();
    this.#setState('replaying');
    const showStep = (row) => this.#appendStep(rowLabels[row], values.subarray(row * cols, (row + 1) * cols));
    if (reducedMotion()) {
      for (let row = 0; row < rows; row++) showStep(row);
      this.#setState('done');
      return;
    }
    let row = 0;
    const next = () => {
      showStep(row++);
      if (row < rows) this.#replayTimer = setTimeout(next, REPLAY_STEP_MS);
      else this.#setState('done');
    };
    next();
  }

  #stopReplay() {
    clearTimeout(this.#replayTimer);
  }

  #clearSteps() {
    this.#rows = [];
    this.#rowLabels = [];
    this.#pieces.replaceChildren();
    this.#canvas.dataset.steps = 0;
  }

  // data-state (decoding | replaying | done) and data-mode are for tests.
  #setState(state) {
    Object.assign(this.#container.dataset, { mode: this.#mode, state });
  }

  // One step: its piece as a chip, and its attention over the source (if captured) as a row.
  #appendStep(piece, row) {
    const token = document.createElement('span');
    token.className = 'live-piece';
    token.textContent = readablePiece(piece);
    token.dataset.piece = piece;
    this.#pieces.append(token);
    this.#rowLabels.push(piece);
    this.#canvas.dataset.steps = this.#rowLabels.length;
    if (!row) return;
    this.#rows.push(row);
    this.#paint();
  }

  #paint(canvas = this.#canvas, ratio = undefined) {
    const srcLen = this.#rows[0].length;
    const values = new Float32Array(this.#rows.length * srcLen);
    this.#rows.forEach((row, index) => values.set(row, index * srcLen));
    const colLabels = this.#sourcePieces.length === srcLen
      ? readablePieces(this.#sourcePieces)
      : Array.from({ length: srcLen }, (_, col) => `#${col + 1}`);
    const matrix = { rows: this.#rows.length, cols: srcLen, values, rowLabels: readablePieces(this.#rowLabels), colLabels };
    const { cell } = paintHeatmap(canvas, matrix, { maxWidth: this.#canvas.parentElement.clientWidth, maxCell: 20, ratio });
    canvas.dataset.cellSize = cell;  // for tests
  }
}
