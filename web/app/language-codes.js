// Language codes as a person types them, made into the ones importMarian takes (its `languages`,
// "en-de": each side ISO 639's two or three letters, as attend.languages holds them). A code is read
// as a BCP 47 tag by the browser (Intl.getCanonicalLocales: "DE", "deu" and "ger" are all "de"); a
// tag that names more than a language ("pt-BR", "zh-Hant") is refused, as a model file's languages
// name none of that. No table of languages: the browser's Intl knows the codes.

// The canonical code of `typed` ("deu" → "de"); throws a RangeError saying in words what is wrong.
export function languageCode(typed) {
  const text = String(typed ?? '').trim();
  if (!text) throw new RangeError('is empty: type its code, as en or de');
  let tag;
  try {
    [tag] = Intl.getCanonicalLocales(text);
  } catch {
    throw new RangeError(`“${text}” is not a language code: type ISO 639's two or three letters, as en, de or fra`);
  }
  const { language } = new Intl.Locale(tag);
  if (!/^[a-z]{2,3}$/.test(language ?? '') || language === 'und') {
    throw new RangeError(`“${text}” is not a language code: type ISO 639's two or three letters, as en, de or fra`);
  }
  if (tag !== language) throw new RangeError(`“${text}” names more than a language: type the language alone, ${language}`);
  return language;
}

// "en-de" of a source and a target code as typed; throws a RangeError whose `side` is the one at
// fault ('source' or 'target') and whose message names it.
export function languagePair(source, target) {
  const code = (typed, side) => {
    try {
      return languageCode(typed);
    } catch (error) {
      throw Object.assign(new RangeError(`The ${side} language ${error.message}.`), { side });
    }
  };
  const from = code(source, 'source');
  const into = code(target, 'target');
  if (from === into) throw Object.assign(new RangeError(`The source and target languages are both ${from}: a model translates from one language into another.`), { side: 'target' });
  return `${from}-${into}`;
}

// The pair of an attribute's "en-de" (or "eng-deu", "EN-DE"), as languagePair makes it.
export function parseLanguagePair(text) {
  const sides = String(text).trim().split('-');
  if (sides.length !== 2) throw new RangeError(`“${text}” is not a pair of language codes: write the source's and the target's, as en-de`);
  return languagePair(...sides);
}

// The English name of a code ("de" → "German"), or '' where the browser names none.
export function languageCodeName(code) {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(code) ?? '';
  } catch {
    return '';
  }
}
