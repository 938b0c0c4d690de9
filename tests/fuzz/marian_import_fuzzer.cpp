// import_marian on any Marian .bin (core/src/import/marian_import.h). The input's first byte
// chooses the vocabularies (even: the tiny fixture's source model for both sides; odd: its
// source and target models), the rest is the .bin. Oracle: it returns a file or throws
// invalid_model, nothing else; a file it returns is one Attend's reader parses, and the engine
// loads it (or refuses it as invalid_model, for limits the importer does not know) and
// translates with it.
#include <string>
#include <string_view>

#include "attend/error.h"
#include "attend/model.h"
#include "attend/translator.h"
#include "fuzz_support.h"
#include "import/marian_import.h"
#include "model/safetensors.h"

namespace {

// The tiny fixture model's SentencePiece models: tokenizer.src, tokenizer.tgt.
const std::pair<std::string, std::string>& vocabularies() {
  static const std::pair<std::string, std::string> vocab = [] {
    const std::vector<uint8_t> model = attend::fuzz::read_fixture("ATTEND_FUZZ_MODEL");
    const attend::SafetensorsFile file = attend::parse_safetensors(model.data(), model.size());
    const auto bytes = [&](const char* name) {
      const attend::TensorView& t = file.tensors.at(name);
      return std::string(reinterpret_cast<const char*>(t.data), t.bytes);
    };
    return std::make_pair(bytes("tokenizer.src"), bytes("tokenizer.tgt"));
  }();
  return vocab;
}

void load_and_translate(const std::string& file) {
  try {
    attend::Translator translator(attend::Model::from_bytes(reinterpret_cast<const uint8_t*>(file.data()), file.size()));
    attend::TranslateOptions options;
    options.max_length = 4;
    translator.translate("A dog runs.", options);
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_model, attend::ErrorCode::out_of_memory},
                               "Model::from_bytes of an imported file, then translate");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& [source, target] = vocabularies();
  attend::MarianFiles files;
  files.model = {"fuzzed.bin", std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1)};
  files.source_vocab = {"src.spm", source};
  files.target_vocab = {"trg.spm", data[0] % 2 ? std::string_view(target) : std::string_view()};
  files.languages = "en-de";
  std::string file;
  try {
    file = attend::import_marian(files);
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_model}, "import_marian");
    return 0;
  }
  try {
    attend::parse_safetensors(reinterpret_cast<const uint8_t*>(file.data()), file.size());
  } catch (const attend::Error& e) {
    attend::fuzz::fail(std::string("import_marian wrote a file Attend's reader refuses: ") + e.what());
  }
  load_and_translate(file);
  return 0;
}
