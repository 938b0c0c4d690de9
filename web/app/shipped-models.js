// The models shipped in models/: one entry per folder, with the model files in it. The first
// file is the fast default; where a folder holds several, all of them decode together as an
// ensemble, the "better" choice (their log-probabilities averaged at each step). The page's
// tests check this list against the folders, names and sizes.
export const SHIPPED_MODELS = {
  'en-de': {
    name: 'English → German',
    languages: { source: 'en', target: 'de' },
    files: [{ name: 'model.int8.safetensors', megabytes: 3.4 }, { name: 'seed2.int8.safetensors', megabytes: 3.4 }],
  },
  'en-fr': {
    name: 'English → French',
    languages: { source: 'en', target: 'fr' },
    files: [{ name: 'model.int8.safetensors', megabytes: 3.4 }, { name: '49f5dd7.int8.safetensors', megabytes: 3.4 }],
  },
  'de-en': { name: 'German → English', languages: { source: 'de', target: 'en' }, files: [{ name: 'model.int8.safetensors', megabytes: 3.4 }] },
  'fr-en': { name: 'French → English', languages: { source: 'fr', target: 'en' }, files: [{ name: 'model.int8.safetensors', megabytes: 3.4 }] },
};

// The URL of each of a shipped model's files, in the list's order.
export function fileUrls(key) {
  return SHIPPED_MODELS[key].files.map(({ name }) => new URL(`../../models/${key}/${name}`, import.meta.url).href);
}
