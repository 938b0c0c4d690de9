// write_safetensors: export.py's layout (header JSON with __metadata__ first and no spaces, the
// data on a 64-byte boundary, F32 before I8 before U8, each by name), read back by Attend's own
// reader.
#include "import/safetensors_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "model/safetensors.h"

namespace attend {
namespace {

TensorSource floats(const std::string& name, std::vector<int64_t> shape, float first) {
  return {name, DType::f32, std::move(shape), [first](uint8_t* out) {
            for (int i = 0; i < 6; ++i) {
              const float v = first + static_cast<float>(i);
              std::memcpy(out + 4 * i, &v, 4);
            }
          }};
}

TensorSource bytes(const std::string& name, const std::string& text) {
  return {name, DType::u8, {static_cast<int64_t>(text.size())}, [text](uint8_t* out) { std::memcpy(out, text.data(), text.size()); }};
}

TEST(SafetensorsWriter, ExportPysLayoutReadBackByAttendsReader) {
  const std::string file = write_safetensors({bytes("tokenizer.src", "spm"), floats("b.weight", {2, 3}, 10), floats("a.bias", {6}, 0)},
                                             {{"attend.format", "1"}, {"note", "é\xff"}});
  uint64_t length = 0;
  std::memcpy(&length, file.data(), 8);
  EXPECT_EQ((8 + length) % 64, 0u);
  const std::string header = file.substr(8, length);
  EXPECT_EQ(header.rfind("{\"__metadata__\":{\"attend.format\":\"1\",\"note\":\"\\u00e9\\ufffd\"},"
                         "\"a.bias\":{\"dtype\":\"F32\",\"shape\":[6],\"data_offsets\":[0,24]},"
                         "\"b.weight\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[24,48]},"
                         "\"tokenizer.src\":{\"dtype\":\"U8\",\"shape\":[3],\"data_offsets\":[48,51]}}",
                         0),
            0u)
      << header;
  EXPECT_EQ(header.find_first_not_of(' ', header.find("}}") + 2), std::string::npos) << "padded with spaces";
  const SafetensorsFile read = parse_safetensors(reinterpret_cast<const uint8_t*>(file.data()), file.size());
  EXPECT_EQ(read.metadata.at("attend.format"), "1");
  const TensorView& weight = read.tensors.at("b.weight");
  EXPECT_EQ(weight.shape, (std::vector<int64_t>{2, 3}));
  float last = 0;
  std::memcpy(&last, weight.data + 20, 4);
  EXPECT_EQ(last, 15.0f);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(read.tensors.at("tokenizer.src").data), 3), "spm");
  EXPECT_EQ(file.size(), 8 + length + 51);
}

TEST(SafetensorsWriter, TwoTensorsOfOneNameAreALogicError) {
  EXPECT_THROW(write_safetensors({bytes("x", "a"), bytes("x", "b")}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace attend
