// The SentencePiece model bytes a model file carries (a serialized ModelProto, normalization
// rules included) as the input. Loading either succeeds or throws invalid_model; a tokenizer
// that loads encodes valid UTF-8 without throwing, and every id it returns decodes.
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "tokenizer/tokenizer.h"

namespace {

constexpr std::string_view kTexts[] = {
    "A man in a blue shirt is riding a bike down the street.",
    "Zwei Hunde spielen im Schnee. Ça va? ﬁne ①②",
    "  tabs\tand\r\nnewlines  ",
    "😀 emoji, 中文, العربية, \xCC\x81 a lone combining accent",
    "",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view proto(reinterpret_cast<const char*>(data), size);
  try {
    const attend::Tokenizer tokenizer = attend::Tokenizer::from_bytes(proto);
    attend::fuzz::require(tokenizer.vocab_size() > 0, "a tokenizer loaded with no pieces");
    for (std::string_view text : kTexts) {
      const std::vector<int> ids = tokenizer.encode(text);
      for (int id : ids) attend::fuzz::require(id >= 0 && id < tokenizer.vocab_size(), "encode returned an id out of range");
      tokenizer.decode(ids);
      tokenizer.pieces(ids);
    }
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_model}, "Tokenizer::from_bytes, then encode/decode");
  }
  return 0;
}
