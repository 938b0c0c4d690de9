// Reading the attention JSON (docs/attention-json.md) the way the page's views should.

// The largest weight of one layer and head (first on ties, rows in order).
export function argmax(record, kind, layer, head) {
  const matrix = record.attention[kind][layer][head];
  let best = { row: 0, col: 0, value: -Infinity };
  matrix.forEach((row, r) => row.forEach((value, c) => {
    if (value > best.value) best = { row: r, col: c, value };
  }));
  return best;
}

// Largest absolute difference between two nested arrays of the same shape.
export function maxDifference(a, b) {
  if (!Array.isArray(a)) return Math.abs(a - b);
  if (a.length !== b.length) return Infinity;
  return a.reduce((worst, item, i) => Math.max(worst, maxDifference(item, b[i])), 0);
}
