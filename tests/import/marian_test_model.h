// Small Marian transformer models written in the tests (dim-emb 8, 2 heads, FFN 16, one encoder
// and one decoder layer, random weights), with the Attend tensor each item should become: the
// name map of docs/marian.md stated once, here, independently of core/src/import.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "marian_test_file.h"

namespace attend::test {

constexpr int kDim = 8, kHeads = 2, kFfn = 16;

struct ModelSpec {
  bool ssru = true;              // decoder_l1_rnn_*; else decoder_l1_self_*
  bool shared_embedding = true;  // Wemb (tied-embeddings-all); else encoder_Wemb and decoder_Wemb
  bool tied_output = true;       // else decoder_ff_logit_out_Wt [V, d]
  bool legacy_output = false;    // decoder_ff_logit_out_W [d, V] in place of _Wt
  bool intgemm8 = false;         // the items Marian quantizes as intgemm8 (§8.1), and *_QuantMultA items
  bool activation_scales = true;  // with intgemm8: every int8 weight's `_QuantMultA` (Firefox's alphas)
  int src_vocab = 8000, tgt_vocab = 8000;
};

// A Marian item and the Attend tensor it should become.
struct Mapped {
  std::string marian, attend;
  std::vector<int32_t> shape;  // Marian's [R, C]
  bool transposed = false;     // the tensor is [C, R]; else the same values ([1, d] -> [d])
};

struct TestModel {
  std::vector<Item> items;  // without the model.yml item
  std::string yml;          // as Marian writes it (block lists, every architecture key)
  std::vector<Mapped> mapping;
  // Each item's values as Marian computes with them, [R, C] row-major: intgemm8 dequantized as
  // (float)q · (1.0f / qB).
  std::map<std::string, std::vector<float>> values;

  std::string bin() const;  // the .bin: the items, then model.yml
  // Sets `key: value` in the yml (the line and any block list items after it replaced, or added).
  void set(const std::string& key, const std::string& value);
  void erase(const std::string& item_name);
  Item& item(const std::string& name);
  const Item& item(const std::string& name) const;
};

TestModel test_model(const ModelSpec& spec = {});

}  // namespace attend::test
