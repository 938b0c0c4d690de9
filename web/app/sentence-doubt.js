// Why the page and <attend-translator> mark a translated sentence as one not to trust, or null:
// a script the model cannot read (the sentence is kept as it is), a translation the length
// limit cut off, or a low confidence (the core's flag, chosen on Multi30k val: docs/confidence.md).
export function sentenceDoubt(translation) {
  if (translation.status === 'unreadable_script') {
    return { kind: 'script', reason: 'Not translated: the model cannot read this script, so the text is kept as it is.' };
  }
  const [best] = translation.hypotheses;
  if (best && !best.endedWithEos) return { kind: 'cut', reason: 'Cut off: the translation reached the length limit.' };
  if (best?.lowConfidence) {
    return {
      kind: 'unsure',
      reason: 'The model is unsure of this translation: it learned from image captions only, and this sentence looks unlike them.',
    };
  }
  return null;
}

// For a summary of the marks: how many of each kind, in words.
export const DOUBT_SUMMARIES = {
  script: (n) => `${n} in a script the model cannot read (kept as written)`,
  cut: (n) => `${n} cut off at the length limit`,
  unsure: (n) => `${n} the model is unsure of (it learned from image captions only)`,
};
