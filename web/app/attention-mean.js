// The cross-attention the compact views show: the last decoder layer's, averaged over its heads.
import { attentionShape } from './attention-data.js';

// One decoding step's cross-attention {data, shape: [layers, heads, S]} (a StepEvent's): [S].
export function lastLayerMeanOfStep({ data, shape: [layers, heads, srcLen] }) {
  const mean = new Float32Array(srcLen);
  for (let head = 0; head < heads; head++) {
    const offset = ((layers - 1) * heads + head) * srcLen;
    for (let col = 0; col < srcLen; col++) mean[col] += data[offset + col] / heads;
  }
  return mean;
}

// A translation's cross-attention (Translator.translate(…, {attention: true}).attention) as a
// labelled [T × S] matrix (attention-data.js's shape, pieces as the model has them).
export function lastLayerMeanCross(attention) {
  const { layers, heads, rows, cols } = attentionShape(attention, 'cross');
  const size = rows * cols;
  const values = new Float32Array(size);
  for (let head = 0; head < heads; head++) {
    const start = ((layers - 1) * heads + head) * size;
    for (let i = 0; i < size; i++) values[i] += attention.cross.data[start + i] / heads;
  }
  return { rows, cols, values, rowLabels: attention.targetPieces, colLabels: attention.sourcePieces };
}
