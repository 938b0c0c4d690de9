// Reads the attention returned by Translator.translate(…, {attention: true}): one layer and
// head of one kind as a labelled matrix. Row t of cross and decoder attention is the
// decoding step that produced targetPieces[t]; its query input was targetInputPieces[t].

export const ATTENTION_KINDS = ['cross', 'encoder', 'decoder'];

export const KIND_NAMES = {
  cross: 'Cross-attention',
  encoder: 'Encoder self-attention',
  decoder: 'Decoder self-attention',
};

// {layers, heads, rows, cols} of one kind; data is [layers][heads][rows][cols] row-major.
export function attentionShape(attention, kind) {
  const [layers, heads, rows, cols] = attention[kind].shape;
  return { layers, heads, rows, cols };
}

function axisLabels(attention, kind) {
  const rowLabels = kind === 'encoder' ? attention.sourcePieces : attention.targetPieces;
  const colLabels = kind === 'decoder' ? attention.targetInputPieces : attention.sourcePieces;
  return { rowLabels, colLabels };
}

// values: a [rows × cols] view into the attention data (no copy).
export function headMatrix(attention, kind, layer, head) {
  const { layers, heads, rows, cols } = attentionShape(attention, kind);
  if (layer >= layers || head >= heads) throw new RangeError(`${kind} has ${layers} layers × ${heads} heads, asked for layer ${layer} head ${head}`);
  const start = (layer * heads + head) * rows * cols;
  const values = attention[kind].data.subarray(start, start + rows * cols);
  return { kind, layer, head, rows, cols, values, ...axisLabels(attention, kind) };
}

// The largest cell (first one on ties), scanning rows in order.
export function strongestCell({ values, cols }) {
  let index = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[index]) index = i;
  return { row: Math.floor(index / cols), col: index % cols, value: values[index] };
}
