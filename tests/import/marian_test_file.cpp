#include "marian_test_file.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "model/safetensors.h"

namespace attend::test {
namespace {

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

std::string shipped_vocabulary(const std::string& pair) {
  const std::string path = std::string(ATTEND_SOURCE_DIR) + "/models/" + pair + "/model.int8.safetensors";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const SafetensorsFile file = parse_safetensors(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  const TensorView& spm = file.tensors.at("tokenizer.src");
  return std::string(reinterpret_cast<const char*>(spm.data), spm.bytes);
}

}  // namespace

std::string marian_file(const std::vector<Item>& items, uint64_t version) {
  std::string out;
  put<uint64_t>(out, version);
  put<uint64_t>(out, items.size());
  for (const Item& item : items) {
    put<uint64_t>(out, item.name.size() + 1);
    put<uint64_t>(out, item.type);
    put<uint64_t>(out, item.shape.size());
    put<uint64_t>(out, item.data.size());
  }
  for (const Item& item : items) out.append(item.name.c_str(), item.name.size() + 1);
  for (const Item& item : items) {
    for (int32_t dim : item.shape) put<int32_t>(out, dim);
  }
  const uint64_t next = ((out.size() + 8) / 256 + 1) * 256;
  const uint64_t padding = next - out.size() - 8;
  put<uint64_t>(out, padding);
  out.append(padding, '\0');
  for (const Item& item : items) out += item.data;
  return out;
}

std::string floats(const std::vector<float>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
}

Item model_yml_item(const std::string& yml) {
  return {"special:model.yml", kInt8, {static_cast<int32_t>(yml.size() + 1)}, yml + '\0'};
}

const std::string& en_de_vocabulary() {
  static const std::string bytes = shipped_vocabulary("en-de");
  return bytes;
}

const std::string& de_en_vocabulary() {
  static const std::string bytes = shipped_vocabulary("de-en");
  return bytes;
}

}  // namespace attend::test
