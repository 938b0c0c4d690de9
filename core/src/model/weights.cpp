#include "model/weights.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "attend/error.h"
#include "model/marian_float.h"
#include "model/marian_int8.h"
#include "model/positions.h"

namespace attend {
namespace {

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

[[noreturn]] void fail(const std::string& message) {
  throw Error(ErrorCode::invalid_model, "invalid model file: " + message);
}

// Index of the first NaN or ±Inf (all exponent bits set), or -1. The OR-reduction over
// blocks vectorises; only a block that has one is searched element by element.
int64_t first_non_finite(const float* data, int64_t n) {
  constexpr uint32_t kExponent = 0x7f800000u;
  constexpr int64_t kBlock = 1024;
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t end = std::min(n, start + kBlock);
    uint32_t any = 0;
    for (int64_t i = start; i < end; ++i) {
      uint32_t bits;
      std::memcpy(&bits, data + i, sizeof bits);
      any |= static_cast<uint32_t>((bits & kExponent) == kExponent);
    }
    if (!any) continue;
    for (int64_t i = start; i < end; ++i) {
      if (!std::isfinite(data[i])) return i;
    }
  }
  return -1;
}

class Binder {
 public:
  Binder(const SafetensorsFile& file, OwnedTensors& owned) : file_(file), owned_(owned) {}

  const TensorView& find(const std::string& name, DType dtype, const std::vector<int64_t>& shape) {
    auto it = file_.tensors.find(name);
    if (it == file_.tensors.end()) fail("tensor '" + name + "' is missing");
    const TensorView& t = it->second;
    if (t.dtype != dtype) {
      fail("tensor '" + name + "' has dtype " + dtype_name(t.dtype) + ", expected " + dtype_name(dtype));
    }
    if (t.shape != shape) {
      fail("tensor '" + name + "' has shape " + shape_text(t.shape) + ", expected " + shape_text(shape));
    }
    used_.insert(name);
    return t;
  }

  // An F32 tensor, copied when its address would slow the kernels (`alignment` bytes).
  const float* f32(const std::string& name, const std::vector<int64_t>& shape, size_t alignment = alignof(float)) {
    const TensorView& t = find(name, DType::f32, shape);
    const float* data = reinterpret_cast<const float*>(realigned(t, alignment));
    const int64_t at = first_non_finite(data, t.elements());
    if (at >= 0) fail("tensor '" + name + "' holds a non-finite value at index " + std::to_string(at));
    return data;
  }

  const uint8_t* realigned(const TensorView& t, size_t alignment) {
    if (reinterpret_cast<uintptr_t>(t.data) % alignment == 0) return t.data;
    if (t.dtype == DType::i8) {
      auto copy = std::make_unique<AlignedVector<int8_t>>(t.bytes);
      std::memcpy(copy->data(), t.data, t.bytes);
      const auto* p = reinterpret_cast<const uint8_t*>(copy->data());
      owned_.i8.push_back(std::move(copy));
      return p;
    }
    auto copy = std::make_unique<AlignedVector<float>>(static_cast<size_t>(t.elements()));
    std::memcpy(copy->data(), t.data, t.bytes);
    const auto* p = reinterpret_cast<const uint8_t*>(copy->data());
    owned_.f32.push_back(std::move(copy));
    return p;
  }

  bool is_int8(const std::string& name) const {
    auto it = file_.tensors.find(name);
    return it != file_.tensors.end() && it->second.dtype == DType::i8;
  }

  // A 2-D weight [rows, cols], f32 or int8 + `<name>_scale` [rows].
  void matrix(const std::string& name, int rows, int cols, const float*& f, const int8_t*& q, const float*& scale) {
    if (is_int8(name)) {
      q = reinterpret_cast<const int8_t*>(realigned(find(name, DType::i8, {rows, cols}), kWeightAlignment));
      scale = f32(name + "_scale", {rows});
      any_int8_ = true;
    } else {
      f = f32(name, {rows, cols}, kWeightAlignment);
    }
  }

  bool has(const std::string& name) const { return file_.tensors.count(name) > 0; }

  // Whether a tensor is an activation scale, `*.input_quant` (an imported Marian int8 model).
  bool any_input_quant() const {
    const std::string suffix = ".input_quant";
    for (const auto& [name, tensor] : file_.tensors) {
      if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) return true;
    }
    return false;
  }

  Linear linear(const std::string& prefix, int out, int in, bool bias = true) {
    Linear l;
    l.out = out;
    l.in = in;
    matrix(prefix + ".weight", out, in, l.weight, l.weight_i8, l.scale);
    if (bias) l.bias = f32(prefix + ".bias", {out});
    if (has(prefix + ".input_quant")) {
      if (!l.weight_i8) fail("tensor '" + prefix + ".input_quant' scales the input of an int8 weight, but '" + prefix + ".weight' is F32");
      compute_as_marian(l, positive(prefix + ".input_quant"), positive(prefix + ".weight_quant"));
    }
    return l;
  }

  // Makes `l` (int8) compute as Marian does, with the activation scale qa and its weight's qb.
  void compute_as_marian(Linear& l, float qa, float qb) {
    auto prepared = std::make_unique<AlignedVector<float>>(static_cast<size_t>(l.out));
    const float unquant = prepare_marian_rows(l.weight_i8, l.out, l.in, l.bias, qa, qb, prepared->data());
    l.marian[0] = Linear::MarianPart{0, l.out, qa, unquant};
    l.marian_parts = 1;
    l.marian_bias = keep(std::move(prepared));
  }

  // The tied output layer of an imported Marian int8 model: the f32 embedding quantized as
  // Marian quantizes a float weight at run time, with the file's activation scale.
  Linear marian_output(const Embedding& e, const float* bias) {
    Linear l = e.as_linear(bias);
    if (!l.weight) fail("tensor 'decoder.output_projection.input_quant' needs an F32 embedding to quantize");
    auto q = std::make_unique<AlignedVector<int8_t>>(static_cast<size_t>(l.out) * l.in);
    const float qb = quantize_like_marian(l.weight, q->size(), q->data());
    auto scale = std::make_unique<AlignedVector<float>>(static_cast<size_t>(l.out), 1.0f / qb);
    l.weight = nullptr;
    l.weight_i8 = q->data();
    owned_.i8.push_back(std::move(q));
    l.scale = keep(std::move(scale));
    compute_as_marian(l, positive("decoder.output_projection.input_quant"), qb);
    any_int8_ = true;
    return l;
  }

  // A positive F32 scalar [1].
  float positive(const std::string& name) {
    const float v = *f32(name, {1});
    if (!(v > 0)) fail("tensor '" + name + "' is " + std::to_string(v) + ", not a positive scale");
    return v;
  }

  Embedding embedding(const std::string& name, int rows, int dim) {
    Embedding e;
    e.rows = rows;
    e.dim = dim;
    matrix(name, rows, dim, e.weight, e.weight_i8, e.scale);
    return e;
  }

  LayerNorm norm(const std::string& prefix, int d) {
    return LayerNorm{f32(prefix + ".weight", {d}), f32(prefix + ".bias", {d})};
  }

  // Stacks the rows of several Linears into one (Q, K, V -> QKV). Mixed dtypes are widened to f32;
  // a part without a bias gets zeros (x·Wᵀ + 0 is x·Wᵀ).
  Linear fuse(const std::vector<Linear>& parts) {
    Linear fused;
    fused.in = parts[0].in;
    for (const Linear& p : parts) fused.out += p.out;
    for (const Linear& p : parts) {
      if ((p.marian_parts > 0) != (parts[0].marian_parts > 0)) fail("Marian's int8 arithmetic for some of Q, K, V only");
    }
    if (parts[0].marian_parts) fuse_marian(parts, fused);
    bool all_int8 = true;
    for (const Linear& p : parts) all_int8 = all_int8 && p.weight_i8;
    const size_t in = static_cast<size_t>(fused.in);
    auto bias = std::make_unique<AlignedVector<float>>();
    auto scale = std::make_unique<AlignedVector<float>>();
    auto weight = std::make_unique<AlignedVector<float>>();
    auto weight_i8 = std::make_unique<AlignedVector<int8_t>>();
    for (const Linear& p : parts) {
      if (p.bias) {
        bias->insert(bias->end(), p.bias, p.bias + p.out);
      } else {
        bias->insert(bias->end(), p.out, 0.f);
      }
      if (all_int8) {
        weight_i8->insert(weight_i8->end(), p.weight_i8, p.weight_i8 + p.out * in);
        scale->insert(scale->end(), p.scale, p.scale + p.out);
      } else {
        for (size_t r = 0; r < static_cast<size_t>(p.out); ++r) {
          for (size_t c = 0; c < in; ++c) {
            weight->push_back(p.weight ? p.weight[r * in + c] : p.weight_i8[r * in + c] * p.scale[r]);
          }
        }
      }
    }
    fused.bias = keep(std::move(bias));
    if (all_int8) {
      fused.weight_i8 = weight_i8->data();
      owned_.i8.push_back(std::move(weight_i8));
      fused.scale = keep(std::move(scale));
    } else {
      fused.weight = keep(std::move(weight));
    }
    return fused;
  }

  // The fused Linear's parts and shift-corrected bias: each part's, in order.
  void fuse_marian(const std::vector<Linear>& parts, Linear& fused) {
    if (parts.size() > static_cast<size_t>(Linear::kMaxMarianParts)) fail("more Marian int8 parts than a Linear holds");
    auto bias = std::make_unique<AlignedVector<float>>();
    int first_row = 0;
    for (const Linear& p : parts) {
      Linear::MarianPart part = p.marian[0];
      part.first_row = first_row;
      fused.marian[fused.marian_parts++] = part;
      bias->insert(bias->end(), p.marian_bias, p.marian_bias + p.out);
      first_row += p.out;
    }
    fused.marian_bias = keep(std::move(bias));
  }

  const float* keep(std::unique_ptr<AlignedVector<float>> v) {
    const float* p = v->data();
    owned_.f32.push_back(std::move(v));
    return p;
  }

  void reject_unexpected() const {
    for (const auto& [name, view] : file_.tensors) {
      // tokenizer.*: the SentencePiece models; shortlist.marian: a lexical shortlist (model.cpp
      // reads both); marian.*: what an imported Marian file keeps beside (docs/marian.md)
      const bool kept = name.rfind("tokenizer.", 0) == 0 || name.rfind("marian.", 0) == 0 || name == "shortlist.marian";
      if (!used_.count(name) && !kept) fail("unexpected tensor '" + name + "'");
    }
  }

  bool any_int8() const { return any_int8_; }

 private:
  const SafetensorsFile& file_;
  OwnedTensors& owned_;
  std::set<std::string> used_;
  bool any_int8_ = false;
};

Linear self_attention_qkv(Binder& b, const std::string& prefix, int d) {
  return b.fuse({b.linear(prefix + ".q_proj", d, d), b.linear(prefix + ".k_proj", d, d),
                 b.linear(prefix + ".v_proj", d, d)});
}

// marian: the table of an imported Marian int8 model, computed in float as Marian computes it.
const float* positions(Binder& b, const ModelConfig& c, const std::string& side, bool marian) {
  if (c.positions == PositionKind::learned) {
    return b.f32(side + ".embed_positions.weight", {c.max_positions, c.d_model});
  }
  const std::vector<float> table = marian && c.positions == PositionKind::sinusoidal_half
                                       ? marian::sinusoid_table(c.max_positions, c.d_model)
                                       : sinusoid_table(c.max_positions, c.d_model, c.positions == PositionKind::sinusoidal_half);
  return b.keep(std::make_unique<AlignedVector<float>>(table.begin(), table.end()));
}

}  // namespace

Weights bind_weights(const ModelConfig& c, const SafetensorsFile& file, OwnedTensors& owned,
                     std::string& weight_dtype) {
  Binder b(file, owned);
  const int d = c.d_model, f = c.d_ff;
  Weights w;
  w.src_embed = b.embedding("encoder.embed_tokens.weight", c.src_vocab_size, d);
  w.tgt_embed = c.share_embeddings ? w.src_embed : b.embedding("decoder.embed_tokens.weight", c.tgt_vocab_size, d);
  // An imported Marian int8 model (its Linears compute as Marian's, model/marian_int8.h, from
  // their activation scales, `*.input_quant`) computes its float parts as Marian's too
  // (model/marian_float.h): positions, LayerNorms, attention, SSRU cells.
  w.marian_float = b.any_input_quant();
  w.src_positions = positions(b, c, "encoder", w.marian_float);
  w.tgt_positions = positions(b, c, "decoder", w.marian_float);

  for (int i = 0; i < c.encoder_layers; ++i) {
    const std::string p = "encoder.layers." + std::to_string(i);
    EncoderLayerWeights l;
    l.qkv = self_attention_qkv(b, p + ".self_attn", d);
    l.out = b.linear(p + ".self_attn.out_proj", d, d);
    l.attn_norm = b.norm(p + ".self_attn_norm", d);
    l.fc1 = b.linear(p + ".ffn.fc1", f, d);
    l.fc2 = b.linear(p + ".ffn.fc2", d, f);
    l.ffn_norm = b.norm(p + ".ffn_norm", d);
    w.encoder.push_back(l);
  }
  for (int i = 0; i < c.decoder_layers; ++i) {
    const std::string p = "decoder.layers." + std::to_string(i);
    DecoderLayerWeights l;
    if (c.decoder_autoreg == DecoderAutoreg::ssru) {
      l.ssru_gates = b.fuse({b.linear(p + ".ssru.input", d, d, /*bias=*/false), b.linear(p + ".ssru.forget", d, d)});
      l.ssru_norm = b.norm(p + ".ssru_norm", d);
    } else {
      l.self_qkv = self_attention_qkv(b, p + ".self_attn", d);
      l.self_out = b.linear(p + ".self_attn.out_proj", d, d);
      l.self_norm = b.norm(p + ".self_attn_norm", d);
    }
    l.cross_q = b.linear(p + ".cross_attn.q_proj", d, d);
    l.cross_kv = b.fuse({b.linear(p + ".cross_attn.k_proj", d, d), b.linear(p + ".cross_attn.v_proj", d, d)});
    l.cross_out = b.linear(p + ".cross_attn.out_proj", d, d);
    l.cross_norm = b.norm(p + ".cross_attn_norm", d);
    l.fc1 = b.linear(p + ".ffn.fc1", f, d);
    l.fc2 = b.linear(p + ".ffn.fc2", d, f);
    l.ffn_norm = b.norm(p + ".ffn_norm", d);
    w.decoder.push_back(l);
  }
  if (c.norm == NormPlacement::pre) {
    w.encoder_final_norm = b.norm("encoder.final_norm", d);
    w.decoder_final_norm = b.norm("decoder.final_norm", d);
  }
  const float* logits_bias = c.final_logits_bias ? b.f32("decoder.final_logits_bias", {c.tgt_vocab_size}) : nullptr;
  if (c.tie_output) {
    w.output = b.has("decoder.output_projection.input_quant") ? b.marian_output(w.tgt_embed, logits_bias)
                                                                : w.tgt_embed.as_linear(logits_bias);
  } else {
    w.output = b.linear("decoder.output_projection", c.tgt_vocab_size, d, /*bias=*/false);
    w.output.bias = logits_bias;
  }
  b.reject_unexpected();
  weight_dtype = b.any_int8() ? "int8" : "f32";
  if (w.marian_float) {
    for (auto& l : w.encoder) l.attn_norm.marian = l.ffn_norm.marian = true;
    for (auto& l : w.decoder) l.self_norm.marian = l.ssru_norm.marian = l.cross_norm.marian = l.ffn_norm.marian = true;
    w.encoder_final_norm.marian = w.decoder_final_norm.marian = true;
  }
  return w;
}

bool has_weight_of_minus_128(const Weights& w) {
  bool found = false;
  for_each_linear(w, [&](const Linear& l) {
    if (!l.weight_i8 || found) return;
    const int8_t* end = l.weight_i8 + static_cast<size_t>(l.out) * l.in;
    found = std::find(l.weight_i8, end, int8_t{-128}) != end;
  });
  return found;
}

namespace {

void pack_quads(Linear& l, OwnedTensors& owned) {
  if (!l.weight_i8 || l.marian_parts) return;  // Marian's arithmetic is the file's own
  auto quads = std::make_unique<AlignedVector<int8_t>>(kernels::quad_panels_size(l.out, l.in));
  auto sums = std::make_unique<AlignedVector<int32_t>>(kernels::column_sums_size(l.out));
  kernels::pack_quad_panels(l.weight_i8, l.in, l.out, l.in, quads->data());
  kernels::sum_columns(l.weight_i8, l.in, l.out, l.in, sums->data());
  l.quads = quads->data();
  l.column_sums = sums->data();
  owned.i8.push_back(std::move(quads));
  owned.i32.push_back(std::move(sums));
}

void pack_panels(Linear& l, const KernelTable& k, OwnedTensors& owned) {
  if (k.panel_columns == 0 || l.quads || l.marian_parts) return;  // read as quads, or in place by gemm_u8s8_shifted_nt
  const size_t size = kernels::panels_size(l.out, l.in, k.panel_columns);
  if (l.weight_i8) {
    auto panels = std::make_unique<AlignedVector<int8_t>>(size);
    kernels::pack_panels(l.weight_i8, l.in, l.out, l.in, k.panel_columns, panels->data());
    l.panels_i8 = panels->data();
    owned.i8.push_back(std::move(panels));
  } else {
    auto panels = std::make_unique<AlignedVector<float>>(size);
    kernels::pack_panels(l.weight, l.in, l.out, l.in, k.panel_columns, panels->data());
    l.panels = panels->data();
    owned.f32.push_back(std::move(panels));
  }
  l.panel_columns = k.panel_columns;
}

// rows[i] of from [?, width] as row i of a new [rows, width] kept in owned; null for null.
template <class T>
const T* gather_rows(const T* from, int width, const std::vector<int>& rows,
                     std::vector<std::unique_ptr<AlignedVector<T>>>& owned) {
  if (!from) return nullptr;
  auto out = std::make_unique<AlignedVector<T>>(rows.size() * static_cast<size_t>(width));
  for (size_t i = 0; i < rows.size(); ++i) {
    std::memcpy(out->data() + i * width, from + static_cast<size_t>(rows[i]) * width, width * sizeof(T));
  }
  owned.push_back(std::move(out));
  return owned.back()->data();
}

}  // namespace

void pack_weight_quads(Weights& w, OwnedTensors& owned) {
  for_each_linear(w, [&](Linear& l) { pack_quads(l, owned); });
}

void pack_weight_panels(Weights& w, const KernelTable& k, OwnedTensors& owned) {
  for_each_linear(w, [&](Linear& l) { pack_panels(l, k, owned); });
}

Linear select_rows(const Linear& l, const std::vector<int>& rows, const KernelTable& k, OwnedTensors& owned) {
  if (l.marian_parts > 1) throw Error(ErrorCode::invalid_argument, "internal: select_rows of a Linear in several Marian parts");
  Linear s;
  s.out = static_cast<int>(rows.size());
  s.in = l.in;
  s.weight = gather_rows(l.weight, l.in, rows, owned.f32);
  s.weight_i8 = gather_rows(l.weight_i8, l.in, rows, owned.i8);
  s.scale = gather_rows(l.scale, 1, rows, owned.f32);
  s.bias = gather_rows(l.bias, 1, rows, owned.f32);
  if (l.marian_parts) {
    s.marian[0] = Linear::MarianPart{0, s.out, l.marian[0].input_quant, l.marian[0].unquant};
    s.marian_parts = 1;
    s.marian_bias = gather_rows(l.marian_bias, 1, rows, owned.f32);
  }
  if (l.quads) pack_quads(s, owned);
  if (l.panels || l.panels_i8) pack_panels(s, k, owned);
  return s;
}

}  // namespace attend
