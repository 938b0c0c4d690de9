// The models shipped in models/: one entry per folder, with the model files in it. The first
// file is the fast default. The "better" choice decodes all of them together as an ensemble
// (their log-probabilities averaged at each step) and, where the folder's better.json says so,
// reranks each beam by a file of the other direction, rerankWith ('<folder>/<file>', a file
// this list holds), at rerankWeight; weights, where given, are the members' weights in the
// ensemble, in the order of files (else equal). The page's tests check this list against the
// folders, names, sizes and better.json.
export const SHIPPED_MODELS = {
  'en-de': {
    name: 'English → German',
    languages: { source: 'en', target: 'de' },
    rerankWith: 'de-en/model.int8.safetensors',
    rerankWeight: 0.2,
    weights: [1, 1, 2],
    files: [
      { name: 'model.int8.safetensors', megabytes: 3.4 },
      { name: 'seed2.int8.safetensors', megabytes: 3.4 },
      { name: 'student.int8.safetensors', megabytes: 3.1 },
    ],
  },
  'en-fr': {
    name: 'English → French',
    languages: { source: 'en', target: 'fr' },
    weights: [2, 1, 2],
    files: [
      { name: 'model.int8.safetensors', megabytes: 3.4 },
      { name: 'pivot9.int8.safetensors', megabytes: 3.1 },
      { name: 'seed2.int8.safetensors', megabytes: 3.4 },
    ],
  },
  'de-en': {
    name: 'German → English',
    languages: { source: 'de', target: 'en' },
    rerankWith: 'en-de/model.int8.safetensors',
    rerankWeight: 0.2,
    files: [{ name: 'model.int8.safetensors', megabytes: 3.4 }, { name: 'teacher.int8.safetensors', megabytes: 3.4 }],
  },
  'fr-en': {
    name: 'French → English',
    languages: { source: 'fr', target: 'en' },
    rerankWith: 'en-fr/model.int8.safetensors',
    rerankWeight: 0.3,
    weights: [2, 1],
    files: [{ name: 'model.int8.safetensors', megabytes: 3.4 }, { name: 'teacher.int8.safetensors', megabytes: 3.4 }],
  },
};

// The URL of each of a shipped model's files, in the list's order.
export function fileUrls(key) {
  return SHIPPED_MODELS[key].files.map(({ name }) => new URL(`../../models/${key}/${name}`, import.meta.url).href);
}

// What the better quality of a shipped model reranks by: {name, url, megabytes, weight} of its
// rerankWith file, or null.
export function reverseModel(key) {
  const { rerankWith, rerankWeight } = SHIPPED_MODELS[key];
  if (!rerankWith) return null;
  const [folder, fileName] = rerankWith.split('/');
  const reverse = SHIPPED_MODELS[folder];
  const index = reverse?.files.findIndex(({ name }) => name === fileName) ?? -1;
  if (index < 0) throw new Error(`${key} reranks by ${rerankWith}, which this list does not hold`);
  return { name: reverse.name, url: fileUrls(folder)[index], megabytes: reverse.files[index].megabytes, weight: rerankWeight };
}
