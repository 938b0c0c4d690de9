// The page in the chosen model's languages: the text box and the translation carry their
// language tags (screen readers pick their voice by them, browsers their spell checker and
// fonts), the text box asks for the source language by name, and the untouched sample sentence
// becomes one in the new source language.
const LANGUAGES = {
  en: { name: 'English', sample: 'A man is riding a bicycle down the street.' },
  de: { name: 'German', sample: 'Ein Mann fährt mit dem Fahrrad die Straße entlang.' },
  fr: { name: 'French', sample: 'Un homme fait du vélo dans la rue.' },
};
const SAMPLES = new Set(Object.values(LANGUAGES).map(({ sample }) => sample));

// languages: {source, target} tags of a model (shipped, imported, or a file of one's own whose
// attend.languages names them), or undefined (a file that names none: the tags are removed).
export function showModelLanguages({ sourceText, translation }, languages) {
  setLang(sourceText, languages?.source);
  setLang(translation, languages?.target);
  const source = LANGUAGES[languages?.source];
  const sourceName = source?.name ?? displayName(languages?.source);
  sourceText.placeholder = sourceName ? `Type ${sourceName} here…` : 'Type here…';
  if (source && SAMPLES.has(sourceText.value.trim())) sourceText.value = source.sample;
}

function setLang(element, tag) {
  if (tag) element.lang = tag;
  else element.removeAttribute('lang');
}

// A language tag's English name ("es" → "Spanish"), or undefined.
function displayName(tag) {
  if (!tag) return undefined;
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag);
  } catch {
    return undefined;
  }
}
