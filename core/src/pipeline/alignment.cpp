#include "pipeline/alignment.h"

#include <cstddef>

#include "attend/error.h"

namespace attend {

std::vector<float> alignment_attention(const AttentionMaps& maps) {
  const size_t cells = static_cast<size_t>(maps.tgt_len) * maps.src_len;
  if (maps.cross.size() != static_cast<size_t>(maps.decoder_layers) * maps.heads * cells || maps.decoder_layers < 1) {
    throw Error(ErrorCode::invalid_argument, "alignment needs the cross-attention maps of every decoder layer and head");
  }
  const int first_layer = maps.decoder_layers / 2;
  const size_t averaged = static_cast<size_t>(maps.decoder_layers - first_layer) * maps.heads;
  std::vector<float> mean(cells, 0.f);  // [tgt_len][src_len]
  for (size_t m = static_cast<size_t>(first_layer) * maps.heads; m < static_cast<size_t>(maps.decoder_layers) * maps.heads; ++m) {
    const float* map = maps.cross.data() + m * cells;  // [tgt_len][src_len] of one layer and head
    for (size_t i = 0; i < cells; ++i) mean[i] += map[i];
  }
  for (float& v : mean) v /= static_cast<float>(averaged);
  return mean;
}

std::vector<int> align_words(const std::vector<float>& attention, int src_len,
                             const std::vector<WordSpan>& source_words, const std::vector<WordSpan>& target_words) {
  for (const WordSpan& w : source_words) {
    if (w.begin < 0 || w.end > src_len) throw Error(ErrorCode::invalid_argument, "alignment: a source word lies outside the attention's columns");
  }
  for (const WordSpan& u : target_words) {
    if (u.begin < 0 || static_cast<size_t>(u.end) * src_len > attention.size()) {
      throw Error(ErrorCode::invalid_argument, "alignment: a target word lies outside the attention's rows");
    }
  }
  std::vector<int> aligned(source_words.size(), -1);
  for (size_t w = 0; w < source_words.size(); ++w) {
    const WordSpan& source = source_words[w];
    float best = -1.f;
    for (size_t u = 0; u < target_words.size(); ++u) {
      for (int t = target_words[u].begin; t < target_words[u].end; ++t) {
        const float* row = attention.data() + static_cast<size_t>(t) * src_len;  // [src_len]
        float mass = 0.f;
        for (int s = source.begin; s < source.end; ++s) mass += row[s];
        if (mass > best) {
          best = mass;
          aligned[w] = static_cast<int>(u);
        }
      }
    }
  }
  return aligned;
}

}  // namespace attend
