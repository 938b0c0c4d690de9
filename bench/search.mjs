// Greedy and beam search over the ONNX export of bench/export_onnx.py (encoder.onnx, decoder.onnx),
// for any ONNX Runtime JS binding (onnxruntime-node, onnxruntime-web: they share the API). The rules
// are training/attend_ref/search.py's, so the chosen tokens are the engine's:
// - the length limit is min(max_length, max_positions, max(1, ceil(ratio · source length with eos)));
// - greedy takes the first argmax; a sentence leaves the batch at eos or at its limit (its rows of
//   the caches are dropped, as in the engine: no padding work);
// - beam adds log p to the hypothesis score in float32 and walks the 2·beam best (beam, token)
//   candidates (ties: lower beam·V + token first); an eos among the first `beam` finishes a
//   hypothesis, the others continue until `beam` are kept; it stops when `beam` have finished;
//   finished ones are ranked by score / ((5 + length) / 6)^alpha, length counting eos.

export function decodeLimit(meta, sourceLength, options) {
  let limit = Math.min(options.max_length, meta.max_positions);
  if (options.max_length_ratio > 0) {
    limit = Math.min(limit, Math.max(1, Math.ceil(Math.fround(options.max_length_ratio) * sourceLength)));
  }
  return limit;
}

// Rows `keep` of a tensor whose first axis is the batch.
function gatherRows(ort, tensor, keep) {
  const [rows, ...rest] = tensor.dims;
  const width = tensor.data.length / rows;
  const out = new tensor.data.constructor(keep.length * width);
  keep.forEach((row, i) => out.set(tensor.data.subarray(row * width, (row + 1) * width), i * width));
  return new ort.Tensor(tensor.type, out, [keep.length, ...rest]);
}

export class OnnxTranslator {
  // sessions: {encoder, decoder} InferenceSessions; meta: bench/export_onnx.py's meta.json.
  constructor(ort, sessions, meta) {
    this.ort = ort;
    this.encoder = sessions.encoder;
    this.decoder = sessions.decoder;
    this.meta = meta;
  }

  // Pads the sources, runs the encoder. Returns {crossK, crossV, srcPad} tensors, one row per sentence.
  async encode(sources) {
    const { ort, meta } = this;
    const width = Math.max(...sources.map((s) => s.length));
    const ids = new BigInt64Array(sources.length * width).fill(BigInt(meta.pad_id));
    const pad = new Uint8Array(sources.length * width).fill(1);
    sources.forEach((s, i) => s.forEach((id, j) => {
      ids[i * width + j] = BigInt(id);
      pad[i * width + j] = 0;
    }));
    const out = await this.encoder.run({ src: new ort.Tensor('int64', ids, [sources.length, width]) });
    const state = { cross: {}, srcPad: new ort.Tensor('bool', pad, [sources.length, width]), past: {} };
    for (let l = 0; l < meta.layers; ++l) {
      for (const kind of ['k', 'v']) {
        state.cross[`cross_${kind}_${l}`] = out[`cross_${kind}_${l}`];
        state.past[`past_${kind}_${l}`] = new ort.Tensor('float32', new Float32Array(0),
          [sources.length, meta.heads, 0, meta.head_dim]);
      }
    }
    return state;
  }

  // One decoder step for every row: returns log p [rows, V] (Float32Array) and updates state.past.
  async step(state, tokens, position) {
    const { ort, meta } = this;
    const feeds = {
      tokens: new ort.Tensor('int64', BigInt64Array.from(tokens, BigInt), [tokens.length]),
      step: new ort.Tensor('int64', BigInt64Array.of(BigInt(position)), [1]),
      src_pad: state.srcPad, ...state.cross, ...state.past,
    };
    const out = await this.decoder.run(feeds);
    for (let l = 0; l < meta.layers; ++l) {
      for (const kind of ['k', 'v']) state.past[`past_${kind}_${l}`] = out[`present_${kind}_${l}`];
    }
    return out.log_probs.data;
  }

  keepRows(state, keep) {
    const { ort } = this;
    for (const name of Object.keys(state.cross)) state.cross[name] = gatherRows(ort, state.cross[name], keep);
    for (const name of Object.keys(state.past)) state.past[name] = gatherRows(ort, state.past[name], keep);
    state.srcPad = gatherRows(ort, state.srcPad, keep);
  }

  // sources: arrays of ids (eos included). Returns the generated ids (without eos) of each.
  async greedy(sources, options) {
    const { meta } = this;
    const vocab = meta.vocab;
    const limits = sources.map((s) => decodeLimit(meta, s.length, options));
    const state = await this.encode(sources);
    const outputs = sources.map(() => []);
    let live = sources.map((_, i) => i);  // sentence of each row
    let tokens = live.map(() => meta.bos_id);
    for (let step = 0; live.length > 0; ++step) {
      const logp = await this.step(state, tokens, step);
      const keep = [], next = [];
      live.forEach((sentence, row) => {
        let best = 0;
        for (let v = 1; v < vocab; ++v) if (logp[row * vocab + v] > logp[row * vocab + best]) best = v;
        if (best === meta.eos_id) return;
        outputs[sentence].push(best);
        if (step + 1 < limits[sentence]) {
          keep.push(row);
          next.push(best);
        }
      });
      if (keep.length > 0 && keep.length < live.length) this.keepRows(state, keep);
      live = keep.map((row) => live[row]);
      tokens = next;
    }
    return outputs;
  }

  // One sentence. Returns the best hypothesis' ids (without eos).
  async beam(source, beamSize, options) {
    const { meta } = this;
    const vocab = meta.vocab, alpha = options.length_penalty;
    const limit = decodeLimit(meta, source.length, options);
    const state = await this.encode([source]);
    let hyps = [[]], scores = [0], last = [meta.bos_id];
    const finished = [];  // {ids, score, length}
    const want = 2 * beamSize;
    for (let step = 0; step < limit; ++step) {
      const logp = await this.step(state, last, step);
      // The `want` best candidates, best first (ties: lower flat index first).
      const top = [];  // {flat, score}
      for (let beam = 0; beam < hyps.length; ++beam) {
        const base = scores[beam];
        for (let token = 0; token < vocab; ++token) {
          const score = Math.fround(base + logp[beam * vocab + token]);
          if (top.length === want && score <= top[want - 1].score) continue;
          let at = top.length;
          while (at > 0 && top[at - 1].score < score) --at;
          top.splice(at, 0, { flat: beam * vocab + token, score });
          if (top.length > want) top.pop();
        }
      }
      const keepBeams = [], keepTokens = [], keepScores = [];
      for (let rank = 0; rank < top.length; ++rank) {
        const beam = Math.floor(top[rank].flat / vocab), token = top[rank].flat % vocab;
        if (token === meta.eos_id) {
          if (rank < beamSize) finished.push({ ids: hyps[beam], score: top[rank].score, length: hyps[beam].length + 1 });
          continue;
        }
        keepBeams.push(beam);
        keepTokens.push(token);
        keepScores.push(top[rank].score);
        if (keepBeams.length === beamSize) break;
      }
      hyps = keepBeams.map((b, i) => [...hyps[b], keepTokens[i]]);
      if (step + 1 === limit) {
        hyps.forEach((ids, i) => finished.push({ ids, score: keepScores[i], length: ids.length }));
        break;
      }
      if (finished.length >= beamSize || hyps.length === 0) break;
      scores = keepScores;
      last = keepTokens;
      this.keepRows(state, keepBeams);
    }
    const penalty = (length) => Math.pow((5 + length) / 6, alpha);
    let best = finished[0];
    for (const f of finished) if (f.score / penalty(f.length) > best.score / penalty(best.length)) best = f;
    return best.ids;
  }
}

export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const position = q * (sorted.length - 1);
  const below = Math.floor(position), above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

// Translates `sources` with one setting and returns {run, ids} in attend bench's fields.
// now(): milliseconds; cpu(): CPU seconds of the process (or null where unknown).
export async function runSetting(translator, sources, setting, options, now, cpu) {
  const { beam, batch, threads } = setting;
  const ids = [], latencies = [];
  const start = now(), cpuStart = cpu();
  for (let first = 0; first < sources.length; first += batch) {
    const chunk = sources.slice(first, first + batch);
    const t0 = now();
    if (beam === 1) {
      ids.push(...await translator.greedy(chunk, options));
    } else {
      for (const source of chunk) ids.push(await translator.beam(source, beam, options));
    }
    latencies.push(now() - t0);
  }
  const seconds = (now() - start) / 1e3, cpuEnd = cpu();
  const tokens = ids.reduce((sum, o) => sum + o.length, 0);
  const run = {
    name: `beam${beam}_batch${batch}_threads${threads}`, beam, batch, threads, seconds,
    cpu_seconds: cpuEnd === null ? null : cpuEnd - cpuStart, sentences: sources.length,
    target_tokens: tokens, sentences_per_second: sources.length / seconds,
    target_tokens_per_second: tokens / seconds,
  };
  if (batch === 1) {
    run.latency_ms = { p50: quantile(latencies, 0.5), p90: quantile(latencies, 0.9), mean: seconds * 1e3 / sources.length };
  }
  return { run, ids };
}
