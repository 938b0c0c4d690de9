#include "marian_test_model.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

namespace attend::test {
namespace {

std::string yml_text(const ModelSpec& spec) {
  const auto flag = [](bool b) { return b ? "true" : "false"; };
  return std::string("bert-class-symbol: \"[CLS]\"\n") +
         "bert-train-type-embeddings: true\n"
         "dec-cell: " + (spec.ssru ? "ssru" : "gru") + "\n"
         "dec-cell-base-depth: 2\n"
         "dec-cell-high-depth: 1\n"
         "dec-depth: 1\n"
         "dim-emb: " + std::to_string(kDim) + "\n"
         "dim-rnn: 1024\n"
         "dim-vocabs:\n"
         "  - " + std::to_string(spec.src_vocab) + "\n"
         "  - " + std::to_string(spec.tgt_vocab) + "\n"
         "enc-cell: gru\n"
         "enc-depth: 1\n"
         "enc-type: bidirectional\n"
         "input-types:\n"
         "  []\n"
         "layer-normalization: false\n"
         "lemma-dependency: \"\"\n"
         "lemma-dim-emb: 0\n"
         "output-omit-bias: false\n"
         "right-left: false\n"
         "skip: false\n"
         "tied-embeddings: " + flag(!spec.shared_embedding && spec.tied_output) + "\n"
         "tied-embeddings-all: " + flag(spec.shared_embedding && spec.tied_output) + "\n"
         "tied-embeddings-src: " + flag(spec.shared_embedding && !spec.tied_output) + "\n"
         "transformer-aan-activation: swish\n"
         "transformer-decoder-autoreg: " + (spec.ssru ? "rnn" : "self-attention") + "\n"
         "transformer-decoder-dim-ffn: 0\n"
         "transformer-decoder-ffn-depth: 0\n"
         "transformer-dim-ffn: " + std::to_string(kFfn) + "\n"
         "transformer-ffn-activation: relu\n"
         "transformer-ffn-depth: 2\n"
         "transformer-guided-alignment-layer: last\n"
         "transformer-heads: " + std::to_string(kHeads) + "\n"
         "transformer-no-projection: false\n"
         "transformer-pool: false\n"
         "transformer-postprocess: dan\n"
         "transformer-postprocess-emb: d\n"
         "transformer-postprocess-top: \"\"\n"
         "transformer-preprocess: \"\"\n"
         "transformer-rnn-projection: false\n"
         "transformer-tied-layers:\n"
         "  []\n"
         "transformer-train-position-embeddings: false\n"
         "type: transformer\n"
         "ulr: false\n"
         "version: v1.10.25; 4f8dda4 2021-11-02 14:51:08 +0000\n";
}

// The name map of docs/marian.md: Marian's layers count from 1, Attend's from 0; weights
// [in, out] become [out, in].
std::vector<Mapped> mapping(const ModelSpec& spec) {
  const int d = kDim, f = kFfn, vs = spec.src_vocab, vt = spec.tgt_vocab;
  std::vector<Mapped> m;
  if (spec.shared_embedding) {
    m.push_back({"Wemb", "encoder.embed_tokens.weight", {vs, d}});
  } else {
    m.push_back({"encoder_Wemb", "encoder.embed_tokens.weight", {vs, d}});
    m.push_back({"decoder_Wemb", "decoder.embed_tokens.weight", {vt, d}});
  }
  const auto attention = [&](const std::string& marian, const std::string& attend) {
    for (const auto& [mp, ap] : std::vector<std::pair<std::string, std::string>>{{"q", "q"}, {"k", "k"}, {"v", "v"}, {"o", "out"}}) {
      m.push_back({marian + "_W" + mp, attend + "." + ap + "_proj.weight", {d, d}, true});
      m.push_back({marian + "_b" + mp, attend + "." + ap + "_proj.bias", {1, d}});
    }
    m.push_back({marian + "_Wo_ln_scale", attend + "_norm.weight", {1, d}});
    m.push_back({marian + "_Wo_ln_bias", attend + "_norm.bias", {1, d}});
  };
  const auto ffn = [&](const std::string& marian, const std::string& attend) {
    m.push_back({marian + "_ffn_W1", attend + ".ffn.fc1.weight", {d, f}, true});
    m.push_back({marian + "_ffn_b1", attend + ".ffn.fc1.bias", {1, f}});
    m.push_back({marian + "_ffn_W2", attend + ".ffn.fc2.weight", {f, d}, true});
    m.push_back({marian + "_ffn_b2", attend + ".ffn.fc2.bias", {1, d}});
    m.push_back({marian + "_ffn_ffn_ln_scale", attend + ".ffn_norm.weight", {1, d}});
    m.push_back({marian + "_ffn_ffn_ln_bias", attend + ".ffn_norm.bias", {1, d}});
  };
  attention("encoder_l1_self", "encoder.layers.0.self_attn");
  ffn("encoder_l1", "encoder.layers.0");
  if (spec.ssru) {
    m.push_back({"decoder_l1_rnn_W", "decoder.layers.0.ssru.input.weight", {d, d}, true});
    m.push_back({"decoder_l1_rnn_Wf", "decoder.layers.0.ssru.forget.weight", {d, d}, true});
    m.push_back({"decoder_l1_rnn_bf", "decoder.layers.0.ssru.forget.bias", {1, d}});
    m.push_back({"decoder_l1_rnn_ffn_ln_scale", "decoder.layers.0.ssru_norm.weight", {1, d}});
    m.push_back({"decoder_l1_rnn_ffn_ln_bias", "decoder.layers.0.ssru_norm.bias", {1, d}});
  } else {
    attention("decoder_l1_self", "decoder.layers.0.self_attn");
  }
  attention("decoder_l1_context", "decoder.layers.0.cross_attn");
  ffn("decoder_l1", "decoder.layers.0");
  if (!spec.tied_output && spec.legacy_output) {
    m.push_back({"decoder_ff_logit_out_W", "decoder.output_projection.weight", {d, vt}, true});
  } else if (!spec.tied_output) {
    m.push_back({"decoder_ff_logit_out_Wt", "decoder.output_projection.weight", {vt, d}});
  }
  m.push_back({"decoder_ff_logit_out_b", "decoder.final_logits_bias", {1, vt}});
  return m;
}

// Marian's packAndSave rule (§8.1): these become intgemm8.
bool quantized(const std::string& name) {
  const size_t w = name.find("_W");
  return w == name.size() - 3 || w == name.size() - 2 || name.find("Wemb") != std::string::npos;
}

// `values` [R, C] as Marian's intgemm8: round(w · qB) row-major, transposed unless an
// embedding, then qB; `values` become what Marian computes with, q · (1/qB).
std::string intgemm8(const std::string& name, int rows, int cols, std::vector<float>& values) {
  float max = 0;
  for (float v : values) max = std::max(max, std::fabs(v));
  const float multiplier = 127.0f / max;
  const bool transposed = name.find("Wemb") == std::string::npos;
  std::string data(values.size(), '\0');
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      float& v = values[static_cast<size_t>(r * cols + c)];
      const auto q = static_cast<int8_t>(std::clamp(std::nearbyint(v * multiplier), -127.0f, 127.0f));
      data[static_cast<size_t>(transposed ? c * rows + r : r * cols + c)] = static_cast<char>(q);
      v = static_cast<float>(q) * (1.0f / multiplier);
    }
  }
  return data + floats({multiplier});
}

}  // namespace

TestModel test_model(const ModelSpec& spec) {
  TestModel model;
  model.yml = yml_text(spec);
  model.mapping = mapping(spec);
  std::mt19937 random(65);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (const Mapped& m : model.mapping) {
    std::vector<float> values(static_cast<size_t>(m.shape[0]) * static_cast<size_t>(m.shape[1]));
    for (float& v : values) v = uniform(random);
    if (spec.intgemm8 && quantized(m.marian)) {
      model.items.push_back({m.marian, kIntgemm8, m.shape, intgemm8(m.marian, m.shape[0], m.shape[1], values)});
    } else {
      model.items.push_back({m.marian, kFloat32, m.shape, floats(values)});
    }
    model.values[m.marian] = values;
  }
  if (spec.intgemm8 && spec.activation_scales) {  // every int8 weight's activation scale: float32, and intgemm8 where the name holds Wemb
    float next = 3.5f;
    for (const Mapped& m : model.mapping) {
      if (!quantized(m.marian)) continue;
      std::vector<float> scale = {m.marian.find("Wemb") != std::string::npos ? 2.0f : next};
      next += 0.25f;
      const std::string name = m.marian + "_QuantMultA";
      model.items.push_back(m.marian.find("Wemb") != std::string::npos
                                ? Item{name, kIntgemm8, {1, 1}, intgemm8(name, 1, 1, scale)}
                                : Item{name, kFloat32, {1, 1}, floats(scale)});
      model.values[name] = scale;
    }
  }
  std::sort(model.items.begin(), model.items.end(), [](const Item& a, const Item& b) { return a.name < b.name; });
  return model;
}

std::string TestModel::bin() const {
  std::vector<Item> all = items;
  all.push_back(model_yml_item(yml));
  return marian_file(all);
}

void TestModel::set(const std::string& key, const std::string& value) {
  const std::string line = key + ": " + value + "\n";
  const size_t at = yml.find("\n" + key + ":");
  if (at == std::string::npos) {
    yml += line;
    return;
  }
  size_t end = yml.find('\n', at + 1) + 1;
  while (yml.compare(end, 2, "  ") == 0) end = yml.find('\n', end) + 1;  // a block list's items
  yml.replace(at + 1, end - (at + 1), line);
}

void TestModel::erase(const std::string& item_name) {
  items.erase(std::remove_if(items.begin(), items.end(), [&](const Item& i) { return i.name == item_name; }), items.end());
}

Item& TestModel::item(const std::string& name) {
  return const_cast<Item&>(static_cast<const TestModel&>(*this).item(name));
}

const Item& TestModel::item(const std::string& name) const {
  for (const Item& i : items) {
    if (i.name == name) return i;
  }
  throw std::out_of_range("no test item " + name);
}

}  // namespace attend::test
