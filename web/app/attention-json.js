// The translation's attention as the CLI writes it with `attend translate --attention FILE`
// (native/cli/attention_json.cpp; docs/attention-json.md): format "attend-attention",
// version 1; the page's export is the one record of its one input (line 1).
//   {format, version, line, source_text, target_text,
//    source_tokens [S], target_tokens [T], target_input_tokens [T],
//    encoder_layers, decoder_layers, heads,
//    attention: {encoder [E][H][S][S], decoder [D][H][T][T], cross [D][H][T][S]}}
// and for an ensemble attention_member (from 1) and members [{encoder_layers, decoder_layers,
// heads, attention}], every member's maps for the same translation.
// Row t of decoder and cross attention is the step that produced target_tokens[t].
import { ATTENTION_KINDS, attentionShape } from './attention-data.js';

// [layers][heads][rows][cols] nested arrays from flat row-major data.
function nest(data, [layers, heads, rows, cols]) {
  const block = (start, size, count, inner) => Array.from({ length: count }, (_, i) => inner(start + i * size));
  return block(0, heads * rows * cols, layers, (layerStart) =>
    block(layerStart, rows * cols, heads, (headStart) =>
      block(headStart, cols, rows, (rowStart) => Array.from(data.subarray(rowStart, rowStart + cols)))));
}

// {encoder_layers, decoder_layers, heads, attention} of one model's maps.
function mapsJson(maps) {
  const tensors = {};
  for (const kind of ATTENTION_KINDS) tensors[kind] = nest(maps[kind].data, maps[kind].shape);
  return {
    encoder_layers: attentionShape(maps, 'encoder').layers,
    decoder_layers: attentionShape(maps, 'decoder').layers,
    heads: attentionShape(maps, 'cross').heads,
    attention: tensors,
  };
}

export function attentionJson(sourceText, result) {
  const { attention } = result;
  const members = attention.members
    ? { attention_member: attention.attentionMember + 1, members: attention.members.map(mapsJson) } : {};
  return {
    format: 'attend-attention',
    version: 1,
    line: 1,
    source_text: sourceText,
    target_text: result.text,
    source_tokens: attention.sourcePieces,
    target_tokens: attention.targetPieces,
    target_input_tokens: attention.targetInputPieces,
    ...mapsJson(attention),
    ...members,
  };
}
