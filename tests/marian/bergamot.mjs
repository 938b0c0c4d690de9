// Bergamot (Marian compiled to WebAssembly, npm @browsermt/bergamot-translator 0.4.9) run as an
// oracle on local model files, in this Node process (docs/marian.md §11). Each part mirrors a part of
// the package's worker/translator-worker.js, named in its comment.
//
//   import {loadBergamot, createModel} from './bergamot.mjs';
//   const bergamot = await loadBergamot();
//   const model = createModel(bergamot, {model, vocab, shortlist}, {beamSize: 4, gemmPrecision: 'float32'});
//   model.translate(['Hello.'], {perLine: true});  // -> ['...']
//   model.delete();
//
// CLI: node tests/marian/bergamot.mjs --model M.bin --vocab V.spm [--shortlist S.bin] [--beam N]
//        [--normalize A] [--word-penalty W] [--precision P] [--per-line|--one-call]
//        [--sentence-counts FILE] < in.txt > out.txt
// (--sentence-counts: the number of sentences Bergamot cut each line into, one per line of FILE)
//
// --precision float32 runs Marian's float GEMM (a float32 .bin computed in float32). The default,
// the worker's int8shiftAlphaAll, needs a model with precomputed *_QuantMultA alphas;
// int8shiftAll quantises a float32 .bin on the fly (its matrix sizes a multiple of 8).
// After Marian aborts (a refused model), the wasm instance is dead: load a new one.
import {readFileSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

import {createModel, instantiateBergamot} from './bergamot_core.mjs';

export {checkMarianBinary, createModel, instantiateBergamot, modelConfig} from './bergamot_core.mjs';

const workerDir = dirname(createRequire(import.meta.url)
  .resolve('@browsermt/bergamot-translator/worker/bergamot-translator-worker.js'));

/** The emscripten module with a BlockingService, from the package's files: `{Module, service, log,
 *  memory}` (instantiateBergamot in bergamot_core.mjs). With `verbose`, what Marian prints is also
 *  written to stderr. */
export async function loadBergamot({verbose = false} = {}) {
  const glue = readFileSync(join(workerDir, 'bergamot-translator-worker.js'), 'utf8');
  const wasm = new WebAssembly.Module(readFileSync(join(workerDir, 'bergamot-translator-worker.wasm')));
  return instantiateBergamot(glue, wasm, {print: verbose ? (line) => process.stderr.write(`bergamot: ${line}\n`) : undefined});
}

// The CLI.
function parseArgs(argv) {
  const args = {perLine: true};
  const valued = {'--model': 'model', '--vocab': 'vocab', '--shortlist': 'shortlist', '--beam': 'beam',
                  '--normalize': 'normalize', '--word-penalty': 'wordPenalty', '--precision': 'precision',
                  '--sentence-counts': 'sentenceCounts'};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--per-line') args.perLine = true;
    else if (arg === '--one-call') args.perLine = false;
    else if (arg === '--verbose') args.verbose = true;
    else if (valued[arg] && i + 1 < argv.length) args[valued[arg]] = argv[++i];
    else throw new Error(`unknown or incomplete argument: ${arg}`);
  }
  if (!args.model || !args.vocab) throw new Error('--model and --vocab are required');
  for (const [flag, key] of [['--beam', 'beam'], ['--normalize', 'normalize'], ['--word-penalty', 'wordPenalty']]) {
    if (args[key] !== undefined && !Number.isFinite(Number(args[key]))) {
      throw new Error(`${flag} wants a number, not "${args[key]}"`);
    }
  }
  return args;
}

function readInput(path, what) {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new Error(`cannot read the ${what} ${path}: ${err.message}`);
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const files = {model: readInput(args.model, 'model'), vocab: readInput(args.vocab, 'vocabulary')};
  if (args.shortlist) files.shortlist = readInput(args.shortlist, 'shortlist');
  const text = readFileSync(0, 'utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const bergamot = await loadBergamot({verbose: args.verbose});
  const model = createModel(bergamot, files, {
    beamSize: args.beam === undefined ? 1 : Number(args.beam),
    normalize: args.normalize ?? '1.0',
    wordPenalty: args.wordPenalty === undefined ? 0 : Number(args.wordPenalty),
    gemmPrecision: args.precision ?? 'int8shiftAlphaAll',
  });
  const counted = model.translateWithCounts(lines.map((line) => line.replace(/\r$/, '')), {perLine: args.perLine});
  const out = counted.map(({text}) => text);
  if (args.sentenceCounts) writeFileSync(args.sentenceCounts, counted.map(({sentences}) => `${sentences}\n`).join(''));
  const broken = out.findIndex((line) => line.includes('\n'));
  if (broken >= 0) throw new Error(`the translation of line ${broken + 1} holds a line break`);
  process.stdout.write(out.map((line) => `${line}\n`).join(''));
  model.delete();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    process.stderr.write(`bergamot.mjs: ${err.message}\n`);
    process.exit(1);
  });
}
