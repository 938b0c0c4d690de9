// Why the page and <attend-translator> mark a translated sentence as one not to trust, or null:
// a script the model cannot read (the sentence is kept as it is), a translation the length
// limit cut off, or a low confidence (the core's flag: docs/confidence.md).
export function sentenceDoubt(translation) {
  if (translation.status === 'unreadable_script') {
    return 'Not translated: the model cannot read this script, so the text is kept as it is.';
  }
  const [best] = translation.hypotheses;
  if (best && !best.endedWithEos) return 'Cut off: the translation reached the length limit.';
  if (best?.lowConfidence) {
    return 'The model is unsure of this translation: it learned from image captions only, and this '
      + 'sentence looks unlike them.';
  }
  return null;
}
