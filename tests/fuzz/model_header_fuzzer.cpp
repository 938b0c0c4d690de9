// The model file's header (safetensors JSON: tensor table, metadata, the config inside it) as
// the input, in front of the data bytes of a valid tiny model ($ATTEND_FUZZ_MODEL). Loading
// either succeeds or throws invalid_model (out_of_memory for sizes it cannot allocate); a model
// that loads must translate a sentence, greedy and with beam search and attention, or refuse
// it with an attend::Error.
#include <cstring>

#include "attend/attend.h"
#include "fuzz_support.h"

namespace {

// The valid model's bytes after its header: what every fuzzed header describes.
const std::vector<uint8_t>& model_data() {
  static const std::vector<uint8_t> data = [] {
    const std::vector<uint8_t> file = attend::fuzz::read_fixture("ATTEND_FUZZ_MODEL");
    attend::fuzz::require(file.size() >= 8, "the fixture model has no header length");
    uint64_t header_bytes = 0;
    for (int i = 7; i >= 0; --i) header_bytes = (header_bytes << 8) | file[i];
    attend::fuzz::require(header_bytes <= file.size() - 8, "the fixture model is truncated");
    return std::vector<uint8_t>(file.begin() + 8 + static_cast<std::ptrdiff_t>(header_bytes), file.end());
  }();
  return data;
}

void translate_with(std::shared_ptr<const attend::Model> model) {
  attend::Translator translator(std::move(model));
  attend::TranslateOptions options;
  options.max_length = 12;
  try {
    translator.translate("A dog runs in the snow.", options);
    options.beam_size = 3;
    options.nbest = 2;
    options.capture_attention = true;
    const attend::Translation t = translator.translate("Two men.", options);
    attend::fuzz::require(!t.hypotheses.empty() && t.attention.has_value(), "beam search returned no attention");
  } catch (const attend::Error&) {
    // A model whose config limits it (few positions, say) may refuse a sentence; clearly.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* header, size_t size) {
  const std::vector<uint8_t>& data = model_data();
  std::vector<uint8_t> file(8 + size + data.size());
  for (int i = 0; i < 8; ++i) file[i] = static_cast<uint8_t>(static_cast<uint64_t>(size) >> (8 * i));
  if (size > 0) std::memcpy(file.data() + 8, header, size);
  std::memcpy(file.data() + 8 + size, data.data(), data.size());
  try {
    translate_with(attend::Model::from_bytes(std::move(file), {attend::Int8Activations::if_int8}));
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_model, attend::ErrorCode::out_of_memory},
                               "Model::from_bytes");
  }
  return 0;
}
