// read_marian_binary on any bytes (core/src/import/marian_binary.h). Oracle: it returns items or
// throws invalid_model, nothing else; every item it returns has a name, a rank of 1 to 8, dims of
// 1 or more, and its bytes inside the input.
#include <string_view>

#include "attend/error.h"
#include "fuzz_support.h"
#include "import/marian_binary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    for (const attend::MarianItem& item : attend::read_marian_binary(bytes, "fuzzed.bin")) {
      attend::fuzz::require(!item.shape.empty() && item.shape.size() <= 8, "an item of rank 0 or over 8");
      for (int64_t dim : item.shape) attend::fuzz::require(dim >= 1, "an item with a dim under 1");
      attend::fuzz::require(item.bytes.data() >= bytes.data() && item.bytes.data() + item.bytes.size() <= bytes.data() + bytes.size(),
                            "an item's bytes outside the input");
    }
    attend::marian_model_yml(attend::read_marian_binary(bytes, "fuzzed.bin"));
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_model}, "read_marian_binary");
  }
  return 0;
}
