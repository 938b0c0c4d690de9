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

// languages: {source, target} tags of a shipped model, or undefined (a file of the user's own:
// its languages are unknown, so the tags are removed).
export function showModelLanguages({ sourceText, translation }, languages) {
  setLang(sourceText, languages?.source);
  setLang(translation, languages?.target);
  const source = LANGUAGES[languages?.source];
  sourceText.placeholder = source ? `Type ${source.name} here…` : 'Type here…';
  if (source && SAMPLES.has(sourceText.value.trim())) sourceText.value = source.sample;
}

function setLang(element, tag) {
  if (tag) element.lang = tag;
  else element.removeAttribute('lang');
}
