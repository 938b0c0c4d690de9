// The translation's attention as JSON, the same document the CLI writes with --attention
// (docs/attention-json.md once the CLI commits it; until then this comment is the schema):
//   {
//     "format": "attend-attention", "version": 1,
//     "source": text, "translation": text,
//     "source_pieces": [S],             eos included
//     "target_pieces": [T],             row t was produced by decoding step t (eos included if generated)
//     "target_input_pieces": [T],       the query input of step t: bos, then the previous pieces
//     "encoder": [layers][heads][S][S], "decoder": [layers][heads][T][T], "cross": [layers][heads][T][S]
//   }
// Weights are attention probabilities (each query's row sums to 1) of the best hypothesis.
import { ATTENTION_KINDS } from './attention-data.js';

// [layers][heads][rows][cols] nested arrays from flat row-major data.
function nest(data, [layers, heads, rows, cols]) {
  const block = (start, size, count, inner) => Array.from({ length: count }, (_, i) => inner(start + i * size));
  return block(0, heads * rows * cols, layers, (layerStart) =>
    block(layerStart, rows * cols, heads, (headStart) =>
      block(headStart, cols, rows, (rowStart) => Array.from(data.subarray(rowStart, rowStart + cols)))));
}

export function attentionJson(sourceText, result) {
  const { attention } = result;
  const document = {
    format: 'attend-attention',
    version: 1,
    source: sourceText,
    translation: result.text,
    source_pieces: attention.sourcePieces,
    target_pieces: attention.targetPieces,
    target_input_pieces: attention.targetInputPieces,
  };
  for (const kind of ATTENTION_KINDS) document[kind] = nest(attention[kind].data, attention[kind].shape);
  return document;
}
