// How translate_ids groups sentences into chunks that are decoded together: sentences of
// similar length, at most batch_size of them, and no more than keep every buffer of the encoder
// and decoder workspaces under 2^31 floats (the kernels count and index elements with int; a
// larger buffer would be addressed wrongly, not refused). With a lexical shortlist in use, whose
// union over a chunk makes a sentence's translation depend on its company, the chunks are
// Bergamot's batches instead (TranslateOptions::batch_words), under the same 2^31 guard.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attend/model.h"
#include "attend/translator.h"

namespace attend {

inline constexpr uint64_t kMaxBufferElements = (uint64_t{1} << 31) - 1;

// The largest workspace buffer, in floats, of decoding `sentences` sentences of `tokens`
// source tokens in all (the longest `longest`), each at most `steps` target positions.
// 64-bit even where size_t is 32 (WebAssembly), so the products cannot wrap.
uint64_t largest_buffer(const ModelConfig& c, const TranslateOptions& options, uint64_t sentences, uint64_t tokens,
                        uint64_t longest, uint64_t steps);

// The chunks, as indices into source_lengths (eos counted): every index once, shortest sources
// first (ties in input order). A chunk of similar lengths runs fewer decoder steps for a few long
// sentences while the others wait, finished. Each chunk holds at most batch_size sentences; but
// with `shortlisted` (the model's lexical shortlist in use: TranslateOptions::shortlist, one model
// on the CPU), options.batch_words > 0 and batch_size > 1, it holds what Bergamot's
// BatchingPool::generateBatch puts in one batch of the same sentences (each one segment of one
// request, in input order): the next sentence joins while (the chunk's sentences + 1) × its
// length ≤ batch_words, at least one always. Throws Error(invalid_input) naming the sentence (its
// position in source_lengths, from 1, when there are several) if one alone is over the limit.
std::vector<std::vector<size_t>> chunks_by_length(const ModelConfig& c, const TranslateOptions& options,
                                                  const std::vector<size_t>& source_lengths, size_t batch_size,
                                                  bool shortlisted = false);

// `options` for a call given some of the sentences, the k-th being positions[k] of the caller's:
// on_step hears the caller's index. Both are borrowed: they outlive the call.
TranslateOptions renumbered(const TranslateOptions& options, const std::vector<size_t>& positions);

}  // namespace attend
