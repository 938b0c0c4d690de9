// A multilingual model's target language: an OPUS-MT model whose source vocabulary holds ">>xxx<<"
// tokens (info().targetTokens, read from the model file's vocabulary by the module) writes the
// language whose token opens its source. The page lists them by name in a labelled <select>, sends
// the chosen one as translate()'s targetToken, and keeps the choice per model in localStorage for the
// next visit; for a model without such tokens the field is hidden and nothing is sent.
const STORAGE_PREFIX = 'attend.target-token:';

// The BCP 47 tag of a token's code (">>srp_Cyrl<<" → "sr-Cyrl", ">>deu<<" → "de"), or null when
// the code is not a language tag.
export function targetTokenTag(token) {
  return canonicalTag(token.slice(2, -2).replace(/_/g, '-'));
}

function canonicalTag(code) {
  try {
    return Intl.getCanonicalLocales(code)[0] ?? null;
  } catch {
    return null;
  }
}

// The English name of a token's language ("German"), or null where the browser names none.
export function targetTokenName(token) {
  const tag = targetTokenTag(token);
  if (!tag || typeof Intl.DisplayNames !== 'function') return null;
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(tag) ?? null;
  } catch {
    return null;
  }
}

// [{token, label, tag}] sorted by label: the language's name, with the token's code where two
// tokens have one name (">>zho_Hans<<" and ">>cmn_Hans<<"), or the token itself where it has none.
export function targetLanguageChoices(tokens) {
  const named = tokens.map((token) => ({ token, name: targetTokenName(token), tag: targetTokenTag(token) }));
  const counts = new Map();
  for (const { name } of named) if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  return named.map(({ token, name, tag }) => ({
    token, tag, label: !name ? token : counts.get(name) > 1 ? `${name} (${token.slice(2, -2)})` : name,
  })).sort((a, b) => a.label.localeCompare(b.label, 'en'));
}

function stored(key) {
  try {
    return localStorage.getItem(STORAGE_PREFIX + key);
  } catch {
    return null;  // storage refused (a private window's settings, say)
  }
}

function store(key, token) {
  try {
    localStorage.setItem(STORAGE_PREFIX + key, token);
  } catch {
    // not kept; the choice still holds for this visit
  }
}

export class TargetLanguageField {
  #container;
  #select;
  #key = null;
  #choices = [];

  // Called when the person chooses another language.
  onChange = null;

  // container: the field (label and select), hidden for models without target tokens.
  constructor({ container, select, onChange = null }) {
    this.#container = container;
    this.#select = select;
    this.onChange = onChange;
    select.addEventListener('change', () => {
      if (this.#key) store(this.#key, select.value);
      this.onChange?.();
    });
  }

  // The model in use: its info().targetTokens (absent or empty: no field), `key` naming the model for
  // the stored choice (null: not kept), `targetLanguage` its attend.languages target, chosen first when
  // no choice is stored and a token is of that language; else the first in the list.
  show({ tokens = [], key = null, targetLanguage = '' }) {
    this.#key = tokens.length > 0 ? key : null;
    this.#choices = targetLanguageChoices(tokens);
    this.#select.replaceChildren(...this.#choices.map(({ token, label }) => new Option(label, token)));
    this.#container.hidden = this.#choices.length === 0;
    if (this.#choices.length === 0) return;
    const kept = key ? stored(key) : null;
    const wanted = targetLanguage ? canonicalTag(targetLanguage) : null;
    const choice = this.#choices.find(({ token }) => token === kept)
      ?? this.#choices.find(({ tag }) => wanted && tag === wanted) ?? this.#choices[0];
    this.#select.value = choice.token;
  }

  // The token to send as targetToken, or undefined for a model without target tokens.
  get token() {
    return this.#container.hidden ? undefined : this.#select.value;
  }

  // The chosen language's tag ("de"), or undefined (no field, or a token that is no language tag).
  get languageTag() {
    return this.#choices.find(({ token }) => token === this.token)?.tag ?? undefined;
  }
}
