#include "import/marian_architecture.h"

#include <algorithm>

namespace attend {
namespace {

// Marian's pre/post-processing ops without `d`: dropout, nothing at inference (§3.1).
std::string without_dropout(std::string ops) {
  ops.erase(std::remove(ops.begin(), ops.end(), 'd'), ops.end());
  return ops;
}

int positive(const MarianYml& yml, const std::string& key) {
  if (!yml.has(key)) yml.refuse(key, "is missing");
  const int value = yml.integer(key, 0);
  if (value < 1) yml.refuse(key, "is " + std::to_string(value) + ", not a positive size");
  return value;
}

void refuse_if(const MarianYml& yml, const std::string& key, bool fallback, const std::string& why) {
  if (yml.flag(key, fallback)) yml.refuse(key, "is true: " + why);
}

void read_decoder_autoreg(const MarianYml& yml, MarianArchitecture& a) {
  const std::string autoreg = yml.text("transformer-decoder-autoreg", "self-attention");
  if (autoreg == "average-attention") {
    yml.refuse("transformer-decoder-autoreg", "is average-attention: Attend runs no average attention network");
  }
  if (autoreg != "self-attention" && autoreg != "rnn") {
    yml.refuse("transformer-decoder-autoreg", "is '" + autoreg + "': Attend runs self-attention, or rnn with dec-cell ssru");
  }
  a.ssru = autoreg == "rnn";
  if (!a.ssru) return;
  const std::string cell = yml.text("dec-cell", "gru");
  if (cell != "ssru") yml.refuse("dec-cell", "is '" + cell + "': the only recurrent decoder layer Attend runs is ssru");
  refuse_if(yml, "layer-normalization", false, "Attend's SSRU has no layer normalization inside the cell");
  refuse_if(yml, "transformer-rnn-projection", false, "Attend's SSRU has no projection after the cell");
}

void read_processing(const MarianYml& yml) {
  const std::string pre = yml.text("transformer-preprocess", "");
  if (!without_dropout(pre).empty()) yml.refuse("transformer-preprocess", "is '" + pre + "': Attend imports post-norm models only");
  const std::string post = yml.text("transformer-postprocess", "dan");
  if (without_dropout(post) != "an") yml.refuse("transformer-postprocess", "is '" + post + "': Attend imports 'dan' (add, then norm) only");
  const std::string top = yml.text("transformer-postprocess-top", "");
  if (!without_dropout(top).empty()) yml.refuse("transformer-postprocess-top", "is '" + top + "': Attend has no norm after the last layer of a post-norm model");
  const std::string emb = yml.text("transformer-postprocess-emb", "d");
  if (emb.find('n') != std::string::npos) yml.refuse("transformer-postprocess-emb", "is '" + emb + "': Attend has no norm on the embeddings");
}

void refuse_other_features(const MarianYml& yml) {
  refuse_if(yml, "transformer-train-position-embeddings", false, "Attend imports sinusoidal positions only");
  refuse_if(yml, "transformer-no-projection", false, "Attend's attention always has its output projection");
  refuse_if(yml, "transformer-pool", false, "Attend's encoder has no pooling");
  refuse_if(yml, "right-left", false, "Attend decodes left to right");
  refuse_if(yml, "ulr", false, "Attend has no universal lexical representation");
  if (!yml.integers("transformer-tied-layers").empty()) yml.refuse("transformer-tied-layers", "is not empty: Attend's layers each have their own weights");
  if (yml.integer("factors-dim-emb", 0) != 0) yml.refuse("factors-dim-emb", "is not 0: Attend reads no factored vocabularies");
  if (yml.integer("lemma-dim-emb", 0) != 0) yml.refuse("lemma-dim-emb", "is not 0: Attend reads no factored vocabularies");
  if (!yml.text("lemma-dependency", "").empty()) yml.refuse("lemma-dependency", "is set: Attend reads no factored vocabularies");
}

void read_ffn(const MarianYml& yml, MarianArchitecture& a) {
  a.d_ff = positive(yml, "transformer-dim-ffn");
  const int decoder_ffn = yml.integer("transformer-decoder-dim-ffn", 0);
  if (decoder_ffn != 0 && decoder_ffn != a.d_ff) {
    yml.refuse("transformer-decoder-dim-ffn", "is " + std::to_string(decoder_ffn) + ", transformer-dim-ffn " +
                                                  std::to_string(a.d_ff) + ": Attend's encoder and decoder have one FFN width");
  }
  const int depth = yml.integer("transformer-ffn-depth", 2);
  if (depth != 2) yml.refuse("transformer-ffn-depth", "is " + std::to_string(depth) + ": Attend's FFN has two layers");
  const int decoder_depth = yml.integer("transformer-decoder-ffn-depth", 0);
  if (decoder_depth != 0 && decoder_depth != 2) {
    yml.refuse("transformer-decoder-ffn-depth", "is " + std::to_string(decoder_depth) + ": Attend's FFN has two layers");
  }
  a.activation = yml.text("transformer-ffn-activation", "swish");
  if (a.activation == "gelu") {
    yml.refuse("transformer-ffn-activation", "is gelu: Marian's is x·sigmoid(1.702x), not the erf gelu Attend computes");
  }
  if (a.activation != "relu" && a.activation != "swish") {
    yml.refuse("transformer-ffn-activation", "is '" + a.activation + "': Attend imports relu and swish");
  }
}

}  // namespace

MarianArchitecture read_marian_architecture(const MarianYml& yml) {
  if (!yml.has("type")) yml.refuse("type", "is missing");
  const std::string type = yml.text("type", "");
  if (type != "transformer") yml.refuse("type", "is '" + type + "': Attend imports transformer models only");
  MarianArchitecture a;
  a.d_model = positive(yml, "dim-emb");
  a.num_heads = positive(yml, "transformer-heads");
  a.encoder_layers = positive(yml, "enc-depth");
  a.decoder_layers = positive(yml, "dec-depth");
  if (a.d_model % 2 != 0) yml.refuse("dim-emb", "is " + std::to_string(a.d_model) + ": sinusoidal positions need an even width");
  if (a.d_model % a.num_heads != 0) {
    yml.refuse("transformer-heads", "is " + std::to_string(a.num_heads) + ", which does not divide dim-emb " + std::to_string(a.d_model));
  }
  read_ffn(yml, a);
  read_decoder_autoreg(yml, a);
  read_processing(yml);
  refuse_other_features(yml);
  const bool all = yml.flag("tied-embeddings-all", false);
  a.shared_embedding = all || yml.flag("tied-embeddings-src", false);
  a.tied_output = all || yml.flag("tied-embeddings", false);
  a.output_bias = !yml.flag("output-omit-bias", false);
  a.dim_vocabs = yml.integers("dim-vocabs");
  if (a.dim_vocabs.size() != 0 && a.dim_vocabs.size() != 2) {
    yml.refuse("dim-vocabs", "has " + std::to_string(a.dim_vocabs.size()) + " sizes: Attend imports one source and one target vocabulary");
  }
  for (int size : a.dim_vocabs) {
    if (size < 0) yml.refuse("dim-vocabs", "holds " + std::to_string(size));
  }
  return a;
}

}  // namespace attend
