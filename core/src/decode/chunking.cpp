#include "decode/chunking.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "attend/error.h"
#include "decode/search.h"
#include "model/kv_cache.h"

namespace attend {

uint64_t largest_buffer(const ModelConfig& c, const TranslateOptions& options, uint64_t sentences, uint64_t tokens,
                        uint64_t longest, uint64_t steps) {
  const uint64_t d = c.d_model, d_ff = c.d_ff, vocab = c.tgt_vocab_size, layers = c.decoder_layers;
  const uint64_t heads = c.num_heads, positions = steps + 1, widest_key = std::max(positions, longest);
  const uint64_t cache_positions = (positions + KvCache::kGrowth - 1) / KvCache::kGrowth * KvCache::kGrowth;
  const uint64_t rows = sentences * options.beam_size;  // decoder rows: every hypothesis of every sentence
  const uint64_t workspace = std::max({
      tokens * std::max(3 * d, d_ff),          // encoder activations [tokens, 3D] / [tokens, F]
      longest * longest,                       // encoder attention scores [S, S]
      rows * std::max({3 * d, d_ff, vocab}),   // decoder activations and logits [rows, V]
      layers * cache_positions * 2 * d,        // one slot's self-attention keys and values
      layers * tokens * 2 * d});               // cross-attention keys and values
  if (!options.capture_attention) return workspace;
  return std::max({workspace,
                   rows * layers * heads * widest_key,                        // live capture [R][L][H][max(T, S)]
                   uint64_t(c.encoder_layers) * heads * longest * longest,    // encoder maps [L][H][S][S]
                   layers * heads * positions * widest_key});                 // decoder and cross maps [L][H][T][T or S]
}

std::vector<std::vector<size_t>> chunks_by_length(const ModelConfig& c, const TranslateOptions& options,
                                                  const std::vector<size_t>& source_lengths, size_t batch_size,
                                                  bool shortlisted) {
  // Bergamot's batches (bergamot-translator src/translator/batching_pool.cpp): its sentences wait
  // in buckets by token count (request.cpp numTokens: the segment's pieces and the eos that
  // text_processor.cpp appends), each bucket ordered by request, then index in it; a batch is taken
  // from the shortest bucket up while (its size + 1) × length ≤ mini-batch-words. Sorted by length,
  // input order within a length, that is: cut where the next sentence no longer fits.
  const bool words = shortlisted && options.batch_words > 0 && batch_size > 1;
  const uint64_t budget = static_cast<uint64_t>(options.batch_words);
  std::vector<size_t> order(source_lengths.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return source_lengths[a] < source_lengths[b]; });
  std::vector<std::vector<size_t>> chunks;
  size_t first = 0;
  while (first < order.size()) {
    size_t last = first;
    uint64_t tokens = 0, longest = 0, steps = 0;
    while (last < order.size() && (words || last - first < batch_size)) {
      const uint64_t length = source_lengths[order[last]];
      if (words && last > first && (last - first + 1) * length > budget) break;
      const uint64_t more_tokens = tokens + length, more_longest = std::max(longest, length);
      const uint64_t more_steps =
          std::max(steps, static_cast<uint64_t>(decode_limit(c, static_cast<int>(length), options)));
      if (largest_buffer(c, options, last - first + 1, more_tokens, more_longest, more_steps) > kMaxBufferElements) break;
      tokens = more_tokens;
      longest = more_longest;
      steps = more_steps;
      ++last;
    }
    if (last == first) {
      const size_t sentence = order[first];
      const std::string which = source_lengths.size() > 1 ? "sentence " + std::to_string(sentence + 1) + " of " +
                                                                std::to_string(source_lengths.size()) + " ("
                                                          : "the sentence (";
      throw Error(ErrorCode::invalid_input,
                  which + std::to_string(source_lengths[sentence]) +
                      " tokens) needs more than 2^31 floats of workspace with this model and beam " +
                      std::to_string(options.beam_size) + "; use a smaller beam or a shorter sentence");
    }
    chunks.emplace_back(order.begin() + first, order.begin() + last);
    first = last;
  }
  return chunks;
}

TranslateOptions renumbered(const TranslateOptions& options, const std::vector<size_t>& positions) {
  TranslateOptions renumbered = options;
  if (options.on_step) {
    renumbered.on_step = [&options, &positions](const StepEvent& event) {
      StepEvent in_caller = event;
      in_caller.sentence = static_cast<int>(positions[static_cast<size_t>(event.sentence)]);
      return options.on_step(in_caller);
    };
  }
  return renumbered;
}

}  // namespace attend
