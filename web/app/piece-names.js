// Pieces as people read them. The models' SentencePiece vocabularies mark a piece that starts
// a word with "▁" (a space); the views show word starts plain and put a subtle "·" before a
// piece that continues a word ("Fahr", "·rad"), as dictionaries mark syllables. The special
// pieces are named in plain words. Exports (JSON) keep the pieces as the model has them.

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

// One sentence for the views' hints, so the marks are explained where they are seen.
export const PIECE_NOTATION = 'Pieces are the words and parts of words the model reads and writes: '
  + '"·" marks a piece that continues a word, (end) the end of the sentence, (start) the start of '
  + 'the translation and (unknown) a character the model does not know.';

// A labelled matrix (attention-data.js) with its row and column labels made readable.
export function withReadableLabels(matrix) {
  return { ...matrix, rowLabels: readablePieces(matrix.rowLabels), colLabels: readablePieces(matrix.colLabels) };
}
