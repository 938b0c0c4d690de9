// The native `attend` CLI as the reference for the browser's translations.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, MODEL } from './environment.mjs';

function searchArguments({ beam = 4, alpha = 1.0, maskedHeads = [], rerankWith, rerankWeight = 0.3, weights, captionRules, html }) {
  const masks = maskedHeads.flatMap(({ kind, layer, head }) => ['--mask-head', `${kind}:${layer}:${head}`]);
  const rerank = rerankWith ? ['--rerank-with', rerankWith, '--rerank-weight', String(rerankWeight)] : [];
  const ensemble = weights ? ['--weights', weights.join(',')] : [];
  const rules = captionRules ? ['--caption-rules', captionRules] : [];
  return ['--beam', String(beam), '--alpha', String(alpha), ...masks, ...rerank, ...ensemble, ...rules, ...(html ? ['--html'] : [])];
}

// The worker loads int8 files with int8 activations ('auto'), and every model here is int8, so
// the reference runs with --int8-activations too.
function runCli(args) {
  return execFileSync(CLI, [...args, '--int8-activations'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

// options: beam, alpha, maskedHeads, model (a file, or an ensemble's files; default the page's
// en-de model), weights (an ensemble's), rerankWith (a reverse model's file), rerankWeight
// (default 0.3), captionRules ('auto', 'on' or 'off') and html (the text is HTML: --html).
export function cliTranslate(text, options = {}) {
  const models = [options.model ?? MODEL].flat().flatMap((file) => ['--model', file]);
  return runCli(['translate', ...models, ...searchArguments(options), text]).trim();
}

// The CLI's attention JSON record of one sentence (docs/attention-json.md).
export function cliAttention(text, options = {}) {
  const directory = mkdtempSync(join(tmpdir(), 'attend-e2e-cli-'));
  const path = join(directory, 'attention.jsonl');
  try {
    runCli(['translate', '--model', MODEL, ...searchArguments(options), '--attention', path, text]);
    return JSON.parse(readFileSync(path, 'utf8').trim().split('\n')[0]);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
