#include "import/marian_tensors.h"

#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "attend/error.h"

namespace attend {
namespace {

// How an item becomes its tensor.
enum class Layout {
  vector,      // [1, d] -> [d]
  matrix,      // [R, C] as it is
  transposed,  // [R, C] -> [C, R]: a weight W [in, out] -> [out, in]
};

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// Marian stores float32 items, and intgemm8 items named like an embedding, row-major [R, C];
// other intgemm8 items as their transpose [C, R], then the float qB (docs/marian.md §8.1).
bool stored_transposed(const MarianItem& item) {
  return item.type == MarianType::intgemm8 && item.name.find("Wemb") == std::string::npos;
}

size_t element_count(const MarianItem& item) {
  size_t n = 1;
  for (int64_t d : item.shape) n *= static_cast<size_t>(d);
  return n;
}

// The float qB after an intgemm8 item's int8 values.
float intgemm_multiplier(const MarianItem& item) {
  float multiplier = 0;
  std::memcpy(&multiplier, item.bytes.data() + element_count(item), sizeof multiplier);
  return multiplier;
}

// The F32 scalar [1] tensor `name` holding `value`.
TensorSource scalar(const std::string& name, float value) {
  return {name, DType::f32, {1}, [value](uint8_t* out) { std::memcpy(out, &value, sizeof value); }};
}

// Writes the item's R·C floats (R: all dims but the last, C: the last), transposed or not, as
// floats at `out`; intgemm8 dequantized as Marian does: (float)q · fl(1.0f / qB).
void write_floats(const MarianItem& item, bool transpose, uint8_t* out, const std::string& file_name) {
  const size_t cols = static_cast<size_t>(item.shape.back());
  size_t rows = 1;
  for (size_t k = 0; k + 1 < item.shape.size(); ++k) rows *= static_cast<size_t>(item.shape[k]);
  const float inverse = item.type == MarianType::intgemm8 ? 1.0f / intgemm_multiplier(item) : 0.0f;
  auto stored = [&](size_t i) {
    if (item.type == MarianType::intgemm8) return static_cast<float>(static_cast<int8_t>(item.bytes[i])) * inverse;
    float v;
    std::memcpy(&v, item.bytes.data() + i * sizeof v, sizeof v);
    return v;
  };
  const bool swap = transpose != stored_transposed(item);  // else the stored order is the order wanted
  const size_t stored_rows = stored_transposed(item) ? cols : rows, stored_cols = rows * cols / stored_rows;
  for (size_t i = 0; i < rows * cols; ++i) {
    const float v = stored(i);
    if (!std::isfinite(v)) {
      const size_t r = i / stored_cols, c = i % stored_cols;  // in stored order
      const size_t row = stored_transposed(item) ? c : r, col = stored_transposed(item) ? r : c;
      throw Error(ErrorCode::invalid_model, file_name + ": '" + item.name + "' holds a non-finite value at [" +
                                                std::to_string(row) + ", " + std::to_string(col) + "]");
    }
    const size_t at = swap ? (i % stored_cols) * stored_rows + i / stored_cols : i;
    std::memcpy(out + at * sizeof v, &v, sizeof v);
  }
}

class Builder {
 public:
  Builder(const std::vector<MarianItem>& items, std::string_view file_name) : file_name_(file_name) {
    for (const MarianItem& item : items) items_.emplace(item.name, &item);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCode::invalid_model, file_name_ + ": " + what);
  }

  bool has(const std::string& name) const { return items_.count(name) > 0; }

  // Whether the file holds activation scales (Firefox's *.intgemm.alphas.bin): then every intgemm8
  // weight has its own, as Bergamot requires.
  bool has_activation_scales() const {
    const std::string suffix = kQuantMultA;
    for (const auto& [name, item] : items_) {
      if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) return true;
    }
    return false;
  }

  // The item `marian`, of Marian's `shape`, as the tensor `attend`; `why` says where the shape comes from.
  void add(const std::string& marian, const std::string& attend, std::vector<int64_t> shape, Layout layout,
           const std::string& why = "") {
    const auto it = items_.find(marian);
    if (it == items_.end()) fail("no item '" + marian + "' (for " + attend + ")");
    const MarianItem& item = *it->second;
    if (item.shape != shape) {
      fail("'" + marian + "' has shape " + shape_text(item.shape) + ", expected " + shape_text(shape) + why);
    }
    used_.insert(marian);
    std::vector<int64_t> out_shape = shape;
    if (layout == Layout::vector) out_shape = {shape[1]};
    if (layout == Layout::transposed) out_shape = {shape[1], shape[0]};
    if (layout == Layout::transposed && item.type == MarianType::intgemm8 && has_activation_scales()) {
      if (!has(marian + kQuantMultA)) fail("no item '" + marian + kQuantMultA + "' (the activation scale of " + marian + ")");
      push_int8(item, attend, out_shape);
    } else {
      push(item, attend, out_shape, layout == Layout::transposed);
    }
  }

  // The activation scale of the output layer, whose weight is the embedding (dequantized, and
  // quantized again by the engine as Marian does: docs/marian.md §8.2), when the file has one.
  void output_input_quant(const std::string& embedding) {
    if (!has(embedding + kQuantMultA)) return;
    used_.insert(embedding + kQuantMultA);
    tensors_.push_back(scalar("decoder.output_projection.input_quant", quant_mult_a(embedding)));
  }

  // `*_QuantMultA` items no weight took (extract_stats.py's `none_QuantMultA`, the output layer's
  // under a shortlist, is Wemb's again), as F32 `marian.<name>`, their shape kept.
  void keep_quant_mults() {
    const std::string suffix = kQuantMultA;
    for (const auto& [name, item] : items_) {
      if (used_.count(name) || name.size() < suffix.size() ||
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
        continue;
      }
      used_.insert(name);
      push(*item, "marian." + name, item->shape, false);
    }
  }

  // Items neither read nor Marian's own (`special:…`, which Marian does not load as parameters).
  void refuse_unused() const {
    for (const auto& [name, item] : items_) {
      if (!used_.count(name) && name.rfind("special:", 0) != 0) {
        fail("'" + name + "' has no place in the architecture its model.yml describes");
      }
    }
  }

  std::vector<TensorSource> take() { return std::move(tensors_); }

 private:
  void push(const MarianItem& item, const std::string& attend, std::vector<int64_t> shape, bool transpose) {
    if (item.type != MarianType::float32 && item.type != MarianType::intgemm8) {
      fail("'" + item.name + "' is " + std::string(marian_type_name(item.type)) + ": Attend imports float32 and intgemm8 items");
    }
    if (item.type == MarianType::intgemm8 && !(intgemm_multiplier(item) > 0)) {
      fail("'" + item.name + "' has the intgemm8 multiplier " + std::to_string(intgemm_multiplier(item)) + ", not a positive number");
    }
    const MarianItem* source = &item;
    tensors_.push_back({attend, DType::f32, std::move(shape), [source, transpose, file = file_name_](uint8_t* out) {
                          write_floats(*source, transpose, out, file);
                        }});
  }

  static constexpr const char* kQuantMultA = "_QuantMultA";

  // The activation scale `<marian>_QuantMultA`, one value, checked positive: float32, or intgemm8
  // where the name holds Wemb (marian-conv's rule), dequantized as Marian dequantizes it.
  float quant_mult_a(const std::string& marian) const {
    const MarianItem& alpha = *items_.at(marian + kQuantMultA);
    if ((alpha.type != MarianType::float32 && alpha.type != MarianType::intgemm8) || element_count(alpha) != 1) {
      fail("'" + alpha.name + "' is not one float32 or intgemm8 value");
    }
    float value = 0;
    if (alpha.type == MarianType::intgemm8) {
      value = static_cast<float>(static_cast<int8_t>(alpha.bytes[0])) * (1.0f / intgemm_multiplier(alpha));
    } else {
      std::memcpy(&value, alpha.bytes.data(), sizeof value);
    }
    if (!(value > 0) || !std::isfinite(value)) fail("'" + alpha.name + "' is " + std::to_string(value) + ", not a positive number");
    return value;
  }

  // An intgemm8 weight with its activation scale, kept as Marian computes with it: the int8 values
  // as I8 `attend` [out, in] (Marian stores them transposed, so in this order), `…weight_scale`
  // [out] fl(1/qB) (what they dequantize with), `…weight_quant` [1] qB and `…input_quant` [1] qA.
  void push_int8(const MarianItem& item, const std::string& attend, const std::vector<int64_t>& shape) {
    const float quant = intgemm_multiplier(item);
    if (!(quant > 0) || !std::isfinite(quant)) {
      fail("'" + item.name + "' has the intgemm8 multiplier " + std::to_string(quant) + ", not a positive number");
    }
    const std::string prefix = attend.substr(0, attend.size() - std::string(".weight").size());
    const MarianItem* source = &item;
    tensors_.push_back({attend, DType::i8, shape, [source](uint8_t* out) {
                          std::memcpy(out, source->bytes.data(), element_count(*source));
                        }});
    const float inverse = 1.0f / quant;
    tensors_.push_back({attend + "_scale", DType::f32, {shape[0]}, [inverse, rows = shape[0]](uint8_t* out) {
                          for (int64_t r = 0; r < rows; ++r) std::memcpy(out + r * sizeof inverse, &inverse, sizeof inverse);
                        }});
    tensors_.push_back(scalar(prefix + ".weight_quant", quant));
    tensors_.push_back(scalar(prefix + ".input_quant", quant_mult_a(item.name)));
    used_.insert(item.name + kQuantMultA);
  }

  std::string file_name_;
  std::map<std::string, const MarianItem*> items_;
  std::set<std::string> used_;
  std::vector<TensorSource> tensors_;
};

// `marian`_ln_scale / _ln_bias [1, d] -> `attend`.weight / .bias [d].
void norm(Builder& b, const std::string& marian, const std::string& attend, int64_t d) {
  b.add(marian + "_ln_scale", attend + ".weight", {1, d}, Layout::vector);
  b.add(marian + "_ln_bias", attend + ".bias", {1, d}, Layout::vector);
}

// Marian's attention `marian` (encoder_l1_self, decoder_l1_context) -> `attend` (….self_attn,
// ….cross_attn) and its norm `attend`_norm.
void attention(Builder& b, const std::string& marian, const std::string& attend, int64_t d) {
  static const std::pair<const char*, const char*> kProjections[] = {{"q", "q"}, {"k", "k"}, {"v", "v"}, {"o", "out"}};
  for (const auto& [m, a] : kProjections) {
    b.add(marian + "_W" + m, attend + "." + a + "_proj.weight", {d, d}, Layout::transposed);  // [out, in]
    b.add(marian + "_b" + m, attend + "." + a + "_proj.bias", {1, d}, Layout::vector);
  }
  norm(b, marian + "_Wo", attend + "_norm", d);
}

// encoder_l1_ffn_W1 [d, f], _b1 [1, f], _W2 [f, d], _b2 [1, d], _ffn_ln_* -> ….ffn.fc1/fc2, ….ffn_norm.
void ffn(Builder& b, const std::string& marian, const std::string& layer, int64_t d, int64_t f) {
  b.add(marian + "_W1", layer + ".ffn.fc1.weight", {d, f}, Layout::transposed);  // [f, d]
  b.add(marian + "_b1", layer + ".ffn.fc1.bias", {1, f}, Layout::vector);
  b.add(marian + "_W2", layer + ".ffn.fc2.weight", {f, d}, Layout::transposed);  // [d, f]
  b.add(marian + "_b2", layer + ".ffn.fc2.bias", {1, d}, Layout::vector);
  norm(b, marian + "_ffn", layer + ".ffn_norm", d);
}

// decoder_l1_rnn_W [d, d] (no bias), _Wf [d, d], _bf [1, d], _ffn_ln_* -> ….ssru.input, ….ssru.forget, ….ssru_norm.
void ssru(Builder& b, const std::string& marian, const std::string& layer, int64_t d) {
  b.add(marian + "_W", layer + ".ssru.input.weight", {d, d}, Layout::transposed);  // [out, in]
  b.add(marian + "_Wf", layer + ".ssru.forget.weight", {d, d}, Layout::transposed);  // [out, in]
  b.add(marian + "_bf", layer + ".ssru.forget.bias", {1, d}, Layout::vector);
  norm(b, marian + "_ffn", layer + ".ssru_norm", d);
}

void embeddings(Builder& b, const MarianArchitecture& a, int64_t src_vocab, int64_t tgt_vocab) {
  const int64_t d = a.d_model;
  const std::string why = " ([pieces of the vocabulary, dim-emb])";
  if (a.shared_embedding) {
    b.add("Wemb", "encoder.embed_tokens.weight", {src_vocab, d}, Layout::matrix, why);  // [V, d]
    if (a.tied_output) b.output_input_quant("Wemb");
  } else {
    b.add("encoder_Wemb", "encoder.embed_tokens.weight", {src_vocab, d}, Layout::matrix, why);  // [V_src, d]
    b.add("decoder_Wemb", "decoder.embed_tokens.weight", {tgt_vocab, d}, Layout::matrix, why);  // [V_tgt, d]
    if (a.tied_output) b.output_input_quant("decoder_Wemb");
  }
  if (a.tied_output) return;
  if (b.has("decoder_ff_logit_out_Wt") || !b.has("decoder_ff_logit_out_W")) {
    b.add("decoder_ff_logit_out_Wt", "decoder.output_projection.weight", {tgt_vocab, d}, Layout::matrix, why);  // [V_tgt, d]
  } else {
    b.add("decoder_ff_logit_out_W", "decoder.output_projection.weight", {d, tgt_vocab}, Layout::transposed, why);
  }
}

}  // namespace

MarianTensors marian_tensors(const std::vector<MarianItem>& items, const MarianArchitecture& a, int src_vocab_size,
                             int tgt_vocab_size, std::string_view file_name) {
  Builder b(items, file_name);
  const int64_t d = a.d_model, f = a.d_ff;
  embeddings(b, a, src_vocab_size, tgt_vocab_size);
  for (int i = 1; i <= a.encoder_layers; ++i) {
    const std::string marian = "encoder_l" + std::to_string(i), layer = "encoder.layers." + std::to_string(i - 1);
    attention(b, marian + "_self", layer + ".self_attn", d);
    ffn(b, marian + "_ffn", layer, d, f);
  }
  for (int i = 1; i <= a.decoder_layers; ++i) {
    const std::string marian = "decoder_l" + std::to_string(i), layer = "decoder.layers." + std::to_string(i - 1);
    if (a.ssru) {
      ssru(b, marian + "_rnn", layer, d);
    } else {
      attention(b, marian + "_self", layer + ".self_attn", d);
    }
    attention(b, marian + "_context", layer + ".cross_attn", d);
    ffn(b, marian + "_ffn", layer, d, f);
  }
  MarianTensors out;
  out.final_logits_bias = a.output_bias && b.has("decoder_ff_logit_out_b");
  if (out.final_logits_bias) {
    b.add("decoder_ff_logit_out_b", "decoder.final_logits_bias", {1, tgt_vocab_size}, Layout::vector);  // [V_tgt]
  }
  b.keep_quant_mults();
  b.refuse_unused();
  out.tensors = b.take();
  return out;
}

}  // namespace attend
