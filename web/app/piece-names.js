// Pieces as people read them. The models' SentencePiece vocabularies mark a piece that starts
// a word with "▁" (a space); the views show word starts plain and put a subtle "·" before a
// piece that continues a word ("Fahr", "·rad"), as dictionaries mark syllables. The special
// pieces are named in plain words (index.html's #piece-notation explains the marks). Exports
// (JSON) keep the pieces as the model has them.

const WORD_START = '▁';
const CONTINUES = '·';
const SPECIAL_PIECES = {
  '<s>': '(start)',
  '</s>': '(end)',
  '<unk>': '(unknown)',
  '<pad>': '(padding)',
};

// "▁Mann" → "Mann", "rad" → "·rad", "." → "." (punctuation needs no mark), "</s>" → "(end)".
export function readablePiece(piece) {
  if (Object.hasOwn(SPECIAL_PIECES, piece)) return SPECIAL_PIECES[piece];
  if (piece === WORD_START) return '(space)';
  if (piece.startsWith(WORD_START)) return piece.slice(WORD_START.length);
  return /^[\p{L}\p{N}]/u.test(piece) ? `${CONTINUES}${piece}` : piece;
}

export const readablePieces = (pieces) => pieces.map(readablePiece);

// A labelled matrix (attention-data.js) with its row and column labels made readable.
export function withReadableLabels(matrix) {
  return { ...matrix, rowLabels: readablePieces(matrix.rowLabels), colLabels: readablePieces(matrix.colLabels) };
}
