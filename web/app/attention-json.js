// The translation's attention as the CLI writes it with `attend translate --attention FILE`
// (native/cli/attention_json.cpp; docs/attention-json.md): format "attend-attention",
// version 1; the page's export is the one record of its one input (line 1).
//   {format, version, line, source_text, target_text,
//    source_tokens [S], target_tokens [T], target_input_tokens [T],
//    encoder_layers, decoder_layers, heads,
//    attention: {encoder [E][H][S][S], decoder [D][H][T][T], cross [D][H][T][S]}}
// Row t of decoder and cross attention is the step that produced target_tokens[t].
import { ATTENTION_KINDS, attentionShape } from './attention-data.js';

// [layers][heads][rows][cols] nested arrays from flat row-major data.
function nest(data, [layers, heads, rows, cols]) {
  const block = (start, size, count, inner) => Array.from({ length: count }, (_, i) => inner(start + i * size));
  return block(0, heads * rows * cols, layers, (layerStart) =>
    block(layerStart, rows * cols, heads, (headStart) =>
      block(headStart, cols, rows, (rowStart) => Array.from(data.subarray(rowStart, rowStart + cols)))));
}

export function attentionJson(sourceText, result) {
  const { attention } = result;
  const tensors = {};
  for (const kind of ATTENTION_KINDS) tensors[kind] = nest(attention[kind].data, attention[kind].shape);
  return {
    format: 'attend-attention',
    version: 1,
    line: 1,
    source_text: sourceText,
    target_text: result.text,
    source_tokens: attention.sourcePieces,
    target_tokens: attention.targetPieces,
    target_input_tokens: attention.targetInputPieces,
    encoder_layers: attentionShape(attention, 'encoder').layers,
    decoder_layers: attentionShape(attention, 'decoder').layers,
    heads: attentionShape(attention, 'cross').heads,
    attention: tensors,
  };
}
