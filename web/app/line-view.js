// Links from each query piece (bottom row) to each key piece (top row) of one layer and
// head, opacity and width by weight. Hovering or focusing a piece lights its links only;
// each piece's accessible name says its strongest link, which screen readers read on focus.
// Styles are SVG attributes, not CSS, so the SVG exports to PNG as it looks.
import { headMatrix, strongestCell } from './attention-data.js';
import { withReadableLabels } from './piece-names.js';
import { ScrollCue } from './scroll-cue.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const SLOT_WIDTH = 64;  // at least this many pixels per piece
const HEIGHT = 180;
const TOP_Y = 24;
const BOTTOM_Y = HEIGHT - 16;
const HIDDEN_BELOW = 0.02;  // links this faint are not drawn
const SIDE_MARGIN = 40;  // room for the first and last pieces' labels, centred on their slots

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

const slotCenters = (count, width) => Array.from({ length: count },
  (_, i) => SIDE_MARGIN + ((i + 0.5) * (width - 2 * SIDE_MARGIN)) / count);

// The look of a link of `weight`, as SVG attributes (also the PNG export's legend).
export const linkStyle = (weight) => ({
  stroke: '#08306b', 'stroke-opacity': weight.toFixed(3), 'stroke-width': (0.5 + 3 * weight).toFixed(2),
});

// The strongest link of one row (axis 'row') or column (axis 'col') of matrix: {index, weight}
// of the piece at its other end (the first one on ties).
function strongestLink(matrix, axis, index) {
  const count = axis === 'row' ? matrix.cols : matrix.rows;
  const weightAt = (other) => matrix.values[axis === 'row' ? index * matrix.cols + other : other * matrix.cols + index];
  let best = 0;
  for (let other = 1; other < count; other++) if (weightAt(other) > weightAt(best)) best = other;
  return { index: best, weight: weightAt(best) };
}

function pieceDescription(matrix, axis, index) {
  const link = strongestLink(matrix, axis, index);
  const [label, direction, other] = axis === 'row'
    ? [matrix.rowLabels[index], 'to', matrix.colLabels[link.index]]
    : [matrix.colLabels[index], 'from', matrix.rowLabels[link.index]];
  return `${label}: strongest link ${direction} ${other}, ${link.weight.toFixed(3)}`;
}

export class LineView {
  #svg;
  #scrollCue;

  // svg sits in a frame that scrolls sideways; scrollHint says so when it overflows.
  constructor({ svg, scrollHint }) {
    this.#svg = svg;
    this.#scrollCue = new ScrollCue({ frame: svg.parentElement, hint: scrollHint });
  }

  get svg() {
    return this.#svg;
  }

  show(attention, { kind, layer, head }) {
    const matrix = withReadableLabels(headMatrix(attention, kind, layer, head));
    const width = Math.max(this.#svg.parentElement.clientWidth, SLOT_WIDTH * Math.max(matrix.rows, matrix.cols) + 2 * SIDE_MARGIN);
    this.#svg.setAttribute('width', width);
    this.#svg.setAttribute('height', HEIGHT);
    this.#svg.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
    const keyX = slotCenters(matrix.cols, width);
    const queryX = slotCenters(matrix.rows, width);

    const links = [];
    for (let row = 0; row < matrix.rows; row++) {
      for (let col = 0; col < matrix.cols; col++) {
        const weight = matrix.values[row * matrix.cols + col];
        if (weight < HIDDEN_BELOW) continue;
        links.push(svgElement('line', {
          x1: queryX[row], y1: BOTTOM_Y - 14, x2: keyX[col], y2: TOP_Y + 6, ...linkStyle(weight),
          'data-row': row, 'data-col': col, 'data-weight': weight,
        }));
      }
    }
    const keys = matrix.colLabels.map((label, col) => this.#piece(matrix, label, keyX[col], TOP_Y, 'col', col));
    const queries = matrix.rowLabels.map((label, row) => this.#piece(matrix, label, queryX[row], BOTTOM_Y, 'row', row));
    this.#svg.replaceChildren(svgElement('rect', { width, height: HEIGHT, fill: '#fff' }), ...links, ...keys, ...queries);

    const strongest = strongestCell(matrix);
    Object.assign(this.#svg.dataset, { kind, layer, head, strongestRow: strongest.row, strongestCol: strongest.col, strongestValue: strongest.value });
    this.#scrollCue.update();
  }

  #piece(matrix, label, x, y, axis, index) {
    const text = svgElement('text', {
      x, y, 'text-anchor': 'middle', 'font-family': 'system-ui, sans-serif', 'font-size': 13, fill: '#222',
      tabindex: 0, class: 'piece', [`data-${axis}`]: index, 'aria-label': pieceDescription(matrix, axis, index),
    });
    text.textContent = label;
    const highlight = () => this.#highlight(axis, index);
    const clear = () => this.#highlight(null);
    text.addEventListener('pointerenter', highlight);
    text.addEventListener('focus', highlight);
    text.addEventListener('pointerleave', clear);
    text.addEventListener('blur', clear);
    return text;
  }

  // Lights the links of one piece (axis 'row' or 'col'), or all links when axis is null.
  #highlight(axis, index) {
    this.#svg.classList.toggle('focused', axis !== null);
    for (const line of this.#svg.querySelectorAll('line')) {
      line.classList.toggle('lit', axis !== null && Number(line.dataset[axis]) === index);
    }
  }
}
