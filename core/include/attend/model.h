// A loaded model: configuration, weights and tokenizers. Immutable once loaded, so one Model
// can be shared (std::shared_ptr<const Model>) by any number of Translators on any threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attend {

enum class Activation { relu, gelu, swish };
enum class NormPlacement { post, pre };  // post: LN(x + f(x)) as in the paper; pre: x + f(LN(x))
enum class PositionKind { sinusoidal, sinusoidal_half, learned };
enum class DecoderStart { bos, zeros };  // the first decoder input: bos's embedding, or a zero vector (Marian)
// What a decoder layer looks back with: self-attention, or Marian's SSRU (a recurrent cell:
// f = σ(x·Wfᵀ + bf), c = f ⊙ c' + (1 − f) ⊙ x·Wᵀ, out relu(c); docs/marian.md §4).
enum class DecoderAutoreg { self_attention, ssru };

// Mirrors training/attend_ref/config.py; travels in the file as `attend.config` JSON.
struct ModelConfig {
  int src_vocab_size = 0;
  int tgt_vocab_size = 0;
  int d_model = 0;
  int num_heads = 0;
  int d_ff = 0;
  int encoder_layers = 0;
  int decoder_layers = 0;
  Activation activation = Activation::relu;
  NormPlacement norm = NormPlacement::post;
  PositionKind positions = PositionKind::sinusoidal;
  bool embedding_scale = true;
  bool shared_vocab = false;
  bool share_embeddings = false;
  bool tie_output = true;
  bool final_logits_bias = false;
  int max_positions = 256;
  float layer_norm_eps = 1e-5f;
  DecoderStart decoder_start = DecoderStart::bos;
  DecoderAutoreg decoder_autoreg = DecoderAutoreg::self_attention;
  int pad_id = 0, unk_id = 1, bos_id = 2, eos_id = 3;  // pad_id -1: none (Marian's)

  int head_dim() const { return d_model / num_heads; }
};

// The search a model file asks for (`attend.search`), as TranslateOptions' defaults
// (attend/translator.h default_options): what it names, the rest TranslateOptions' own. The
// files `attend import` writes ask for Marian's search as Bergamot runs it (SearchRules::marian,
// output up to 2x the source's pieces, no repeat guard), or as an OPUS-MT folder's decoder.yml
// sets it (its beam-size among them).
inline constexpr int kMaxBeamSize = 256;  // TranslateOptions::beam_size is at most this

struct SearchDefaults {
  std::optional<bool> marian_rules;  // SearchRules::marian
  std::optional<int> beam_size;      // TranslateOptions::beam_size, in [1, kMaxBeamSize]
  std::optional<float> max_length_ratio, length_penalty, word_penalty;
  std::optional<int> max_repeats;
};

struct TensorInfo {
  std::string name;
  std::string dtype;  // "F32", "I8", "U8"
  std::vector<int64_t> shape;
  uint64_t bytes = 0;
};

// Whether an int8 model's linear layers quantize their input to int8 too, row by row, and
// multiply int8 by int8 (kernels.h gemm_i8i8_nt): on the shipped en-de model 1.1-2.4x the
// int8-weight path's speed natively (AVX2) and 1.5-2x in WebAssembly (docs/benchmarks.md); translations can differ
// slightly from the default's.
enum class Int8Activations {
  off,      // int8 weights times f32 activations (the default)
  on,       // an f32 file, or an int8 weight of -128 (outside [-127, 127]), is an invalid_argument error
  if_int8,  // on for int8 files with weights in [-127, 127] (all Attend exports), else off (for
            // callers that take any model file)
};

// Where a model's Translators compute. cuda: the weights go to the first CUDA device once at
// load and every step runs there (core/src/cuda/, docs/cuda.md); a machine without a usable
// device or driver, or a build without the backend (-DATTEND_CUDA=ON), is
// ErrorCode::device_unavailable at load, never a quiet return to the CPU.
enum class Device { cpu, cuda };
// The number type the device's GEMMs read, weights and inputs (cuda only; the CPU computes in f32).
// GEMMs accumulate in f32; the residual stream, Q, K, V, softmax, layernorm and log-softmax are
// f32 whatever this is; bf16 GEMM inputs carry a second bf16 plane of what rounding cut off
// (docs/cuda.md).
enum class ComputeType { f32, f16, bf16 };

// How a model is prepared for translating.
struct ModelOptions {
  // Every kernel table multiplies int8 by int8 (AVX-512 VNNI, AVX2, WebAssembly SIMD128, scalar)
  // into the same integer sums; the f32 kernels around them still round per instruction set.
  Int8Activations int8_activations = Int8Activations::off;
  Device device = Device::cpu;
  ComputeType compute = ComputeType::f32;  // with Device::cuda; int8 files keep their values and row scales
};

// Several models translating as one (Model::ensemble): at each step every member's log-probabilities
//   log p(t) = Σ_m w_m · log p_m(t),   Σ_m w_m = 1
// (not renormalised, as Marian does), then the search's rules over that as over one model's.
struct EnsembleOptions {
  std::vector<float> weights;  // one per member, each > 0, normalised to sum to 1; empty: equal weights
  // The member whose attention a Translation shows (AttentionMaps, StepEvent::cross_attention),
  // whose heads TranslateOptions::masked_heads mask and whose cross-attention places pass-through
  // text. Counted from 0.
  int attention_member = 0;
};

struct ModelInfo {
  std::string format_version;
  std::string weight_dtype;  // "f32" or "int8": how the 2-D weights are stored
  bool int8_activations = false;  // the linear layers quantize their input (ModelOptions)
  std::string device = "cpu";     // or the CUDA device, e.g. "cuda:0 NVIDIA H100 (sm_90, f16)"
  int64_t parameter_count = 0;  // weights and biases, tokenizers excluded
  uint64_t file_bytes = 0;
  int src_vocab_size = 0, tgt_vocab_size = 0;
  // The languages the file says it translates from and into (`attend.languages`), as ISO 639
  // codes ("en", "de"); both empty for a file that names none (those written before 2026-12-01).
  std::string source_language, target_language;
  // The file asks for the caption layer's rules (`attend.text_rules: caption`; TranslateOptions::
  // caption_rules): Attend's own Multi30k models do; a file without the key gets none.
  bool asks_for_caption_rules = false;
  // The file lets the text pipeline carry spans through (`attend.pass_through`: "spans", the
  // default; TranslateOptions::pass_through): "none" for the models `attend import` writes, whose
  // translations are the model's own words, as Marian's are.
  bool asks_for_pass_through = true;
  SearchDefaults search;
  bool has_shortlist = false;  // a lexical shortlist (`shortlist.marian`; TranslateOptions::shortlist)
  std::vector<TensorInfo> tensors;
  int members = 1;  // an ensemble's: file_bytes and parameter_count are their sums, the rest the first member's
};

class Model {
 public:
  // Reads a model file (memory-mapped where the platform allows). Throws attend::Error.
  static std::shared_ptr<const Model> from_file(const std::string& path, const ModelOptions& options = {});
  // Takes a copy of (or ownership of) the file's bytes: the browser has no paths.
  static std::shared_ptr<const Model> from_bytes(const uint8_t* data, size_t size, const ModelOptions& options = {});
  static std::shared_ptr<const Model> from_bytes(std::vector<uint8_t> bytes, const ModelOptions& options = {});
  // Loaded models decoding together (EnsembleOptions): they must read and write the same
  // vocabularies (every id the same piece, source and target) and special ids, name the same
  // languages where they name theirs (ModelInfo), take at least the first member's positions,
  // and run on the CPU; otherwise invalid_argument naming the first difference. The first member
  // tokenizes the text, and its config() and impl() are the ensemble's.
  static std::shared_ptr<const Model> ensemble(std::vector<std::shared_ptr<const Model>> members,
                                               const EnsembleOptions& options = {});

  const ModelConfig& config() const;
  ModelInfo info() const;

  struct Impl;  // weights and tokenizers, see core/src/model/model_impl.h
  const Impl& impl() const {
    if (impl_) return *impl_;
    return members_[0]->impl();  // an ensemble's first member
  }
  // An ensemble's members and their normalised weights; empty for a model loaded from a file.
  const std::vector<std::shared_ptr<const Model>>& members() const { return members_; }
  const std::vector<float>& member_weights() const { return weights_; }
  int attention_member() const { return attention_member_; }

  explicit Model(std::unique_ptr<Impl> impl);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

 private:
  Model(std::vector<std::shared_ptr<const Model>> members, std::vector<float> weights, int attention_member);

  std::unique_ptr<Impl> impl_;  // null for an ensemble
  std::vector<std::shared_ptr<const Model>> members_;
  std::vector<float> weights_;
  int attention_member_ = 0;
};

}  // namespace attend
