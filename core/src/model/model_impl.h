// What a loaded Model holds: the file's bytes, the validated config, the bound weights and
// the tokenizers. Immutable after load.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "attend/model.h"
#include "model/byte_storage.h"
#include "model/marian_shortlist.h"
#include "model/safetensors.h"
#include "model/weights.h"
#include "tokenizer/tokenizer.h"

namespace attend {

class DeviceModel;  // model/device_model.h

constexpr const char* kFormatVersion = "1";

struct Model::Impl {
  std::unique_ptr<ByteStorage> storage;
  SafetensorsFile file;
  ModelConfig config;
  OwnedTensors owned;
  Weights weights;
  std::string weight_dtype;
  std::string source_language, target_language;  // `attend.languages`; empty: not named
  bool asks_for_caption_rules = false;            // `attend.text_rules` is "caption"
  bool asks_for_pass_through = true;              // `attend.pass_through` is not "none"
  SearchDefaults search;                          // `attend.search`
  std::optional<MarianShortlist> shortlist;       // `shortlist.marian`: a lexical shortlist (Marian's)
  bool int8_activations = false;  // the int8 Linears carry quads (ModelOptions)
  std::unique_ptr<Tokenizer> src_tokenizer;
  std::unique_ptr<Tokenizer> tgt_tokenizer_owned;  // null when the vocabulary is shared
  const Tokenizer* tgt_tokenizer = nullptr;
  // The positions a sentence's own ids (eos included) may fill: config.max_positions, one fewer
  // for a multilingual model, whose target-language token is read before them.
  int source_positions = 0;
  std::shared_ptr<const DeviceModel> device;  // null: the CPU kernels (ModelOptions::device)
};

}  // namespace attend
