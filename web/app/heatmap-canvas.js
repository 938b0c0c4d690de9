// Draws an attention matrix on a canvas: one cell per (query, key), darker = more weight
// (0 white → 1 deep blue on a square-root scale, so that the many small weights of a
// diffuse head stay visible), optionally with the pieces written on both axes.
// Returns the geometry so callers can map pointer positions back to cells.

const LABEL_FONT = '12px system-ui, sans-serif';
const LABEL_GAP = 6;

// Light to dark blue, linear in √weight.
function weightColor(weight) {
  const w = Math.sqrt(Math.min(1, Math.max(0, weight)));
  const channel = (from, to) => Math.round(from + (to - from) * w);
  return `rgb(${channel(247, 8)}, ${channel(251, 48)}, ${channel(255, 107)})`;
}

function longestLabelWidth(context, labels) {
  return labels.reduce((widest, label) => Math.max(widest, context.measureText(label).width), 0);
}

// cell: the largest square cell in [minCell, maxCell] for which the matrix fits maxWidth
// (labelled cells leave room for a line of text between two slanted column labels; wider
// matrices scroll).
function heatmapGeometry(context, matrix, { maxWidth, withLabels, minCell = withLabels ? 20 : 1, maxCell = 36 }) {
  context.font = LABEL_FONT;
  const left = withLabels ? Math.ceil(longestLabelWidth(context, matrix.rowLabels)) + LABEL_GAP : 0;
  const top = withLabels ? Math.ceil(longestLabelWidth(context, matrix.colLabels) * Math.SQRT1_2) + 16 : 0;
  const right = withLabels ? top : 2;  // the last column's slanted label runs right
  const fitting = Math.floor((maxWidth - left - right) / Math.max(1, matrix.cols));
  const cell = Math.max(minCell, Math.min(maxCell, fitting));
  return { left, top, cell, width: left + cell * matrix.cols + right, height: top + cell * matrix.rows + 2 };
}

// Sizes the canvas for `ratio` pixels per CSS pixel (the device's by default; exports ask for
// more) and draws; returns the geometry.
export function paintHeatmap(canvas, matrix, { maxWidth, withLabels = true, minCell, maxCell, ratio = globalThis.devicePixelRatio || 1 }) {
  const context = canvas.getContext('2d');
  const geometry = heatmapGeometry(context, matrix, { maxWidth, withLabels, minCell, maxCell });
  canvas.width = Math.ceil(geometry.width * ratio);
  canvas.height = Math.ceil(geometry.height * ratio);
  canvas.style.width = `${geometry.width}px`;
  canvas.style.height = `${geometry.height}px`;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.fillStyle = '#fff';
  context.fillRect(0, 0, geometry.width, geometry.height);
  drawCells(context, matrix, geometry);
  if (withLabels) drawLabels(context, matrix, geometry);
  return geometry;
}

function drawCells(context, { rows, cols, values }, { left, top, cell }) {
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      context.fillStyle = weightColor(values[row * cols + col]);
      context.fillRect(left + col * cell, top + row * cell, cell, cell);
    }
  }
}

function drawLabels(context, { rowLabels, colLabels }, { left, top, cell }) {
  context.font = LABEL_FONT;
  context.fillStyle = '#222';
  context.textAlign = 'right';
  context.textBaseline = 'middle';
  rowLabels.forEach((label, row) => context.fillText(label, left - LABEL_GAP, top + (row + 0.5) * cell));
  context.textAlign = 'left';
  colLabels.forEach((label, col) => {
    context.save();
    context.translate(left + (col + 0.5) * cell, top - LABEL_GAP);
    context.rotate(-Math.PI / 4);
    context.fillText(label, 0, 0);
    context.restore();
  });
}

// The colour scale's legend at (x, y), as the page's .legend shows it: "weight 0 [bar] 1
// (square-root scale)". Returns its height.
export function drawWeightLegend(context, x, y) {
  const barWidth = 90;
  const height = 14;
  context.font = LABEL_FONT;
  context.fillStyle = '#5b6475';
  context.textAlign = 'left';
  context.textBaseline = 'middle';
  const middle = y + height / 2;
  context.fillText('weight 0', x, middle);
  const barLeft = x + context.measureText('weight 0').width + 6;
  for (let i = 0; i < barWidth; i++) {
    context.fillStyle = weightColor((i / (barWidth - 1)) ** 2);  // even steps of √weight
    context.fillRect(barLeft + i, y + 2, 1, height - 4);
  }
  context.fillStyle = '#5b6475';
  context.fillText('1 (square-root scale)', barLeft + barWidth + 6, middle);
  return height;
}

// The cell under a point in CSS pixels relative to the canvas, or null.
export function cellAt({ left, top, cell }, { rows, cols }, x, y) {
  const col = Math.floor((x - left) / cell);
  const row = Math.floor((y - top) / cell);
  return row >= 0 && row < rows && col >= 0 && col < cols ? { row, col } : null;
}
