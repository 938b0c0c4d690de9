// read_marian_npz (core/src/import/marian_npz.h) on any bytes. The first byte chooses: even, the
// rest is the file as it is (the zip's own structure fuzzed); odd, the rest is entries (a name, a
// NUL, its bytes, up to the next "\n--\n") that the fuzzer zips with correct CRCs, stored or (bit 1)
// deflated as numpy does, so that the .npy headers behind the CRC check are reached. Oracle: it
// returns items or throws invalid_model, nothing else; every item has a name, a rank of 1 to 8,
// dims of 1 or more, the bytes its shape needs, inside the input or the inflated bytes it keeps.
#include <string_view>

#include "attend/error.h"
#include "fuzz_support.h"
#include "import/marian_npz.h"
#include "marian_test_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string zipped;
  if (mode & 1) {
    std::vector<attend::test::ZipEntry> entries;
    while (!rest.empty() && entries.size() < 64) {
      const size_t end = rest.find("\n--\n");
      const std::string_view entry = rest.substr(0, end);
      const size_t nul = entry.find('\0');
      entries.push_back({std::string(entry.substr(0, nul)), nul == std::string_view::npos ? "" : std::string(entry.substr(nul + 1))});
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 4);
    }
    if (entries.empty()) return 0;
    zipped = attend::test::zip(entries, (mode & 2) != 0);
    rest = zipped;
  }
  try {
    const attend::MarianNpz npz = attend::read_marian_npz(rest, "fuzzed.npz");
    for (const attend::MarianItem& item : npz.items) {
      attend::fuzz::require(!item.name.empty(), "an item without a name");
      attend::fuzz::require(!item.shape.empty() && item.shape.size() <= 8, "an item of rank 0 or over 8");
      size_t elements = 1;
      for (int64_t dim : item.shape) {
        attend::fuzz::require(dim >= 1, "an item with a dim under 1");
        elements *= static_cast<size_t>(dim);
      }
      const size_t element_bytes = item.type == attend::MarianType::float32 ? 4 : 1;
      attend::fuzz::require(item.bytes.size() == elements * element_bytes, "an item's bytes not what its shape needs");
      bool inside = item.bytes.data() >= rest.data() && item.bytes.data() + item.bytes.size() <= rest.data() + rest.size();
      for (const auto& inflated : npz.inflated) {
        inside = inside || (item.bytes.data() >= inflated->data() && item.bytes.data() + item.bytes.size() <= inflated->data() + inflated->size());
      }
      attend::fuzz::require(inside, "an item's bytes outside the input and the inflated entries");
    }
    attend::marian_model_yml(npz.items);
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_model}, "read_marian_npz");
  }
  return 0;
}
