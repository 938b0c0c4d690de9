#include "marian_test_file.h"

#include <zlib.h>

#include <cstring>
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

std::string raw_deflate(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

std::string npy(const std::string& descr, const std::vector<int32_t>& shape, const std::string& data, bool fortran) {
  std::string dims;
  for (size_t i = 0; i < shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) dims += ",";
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': (" + dims + "), }";
  dict.append(16 - (10 + dict.size()) % 16, ' ');
  dict.back() = '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  put<uint16_t>(out, static_cast<uint16_t>(dict.size()));
  return out + dict + data;
}

std::string zip(const std::vector<ZipEntry>& entries, bool deflated) {
  std::string out, directory;
  for (const ZipEntry& e : entries) {
    const std::string stored = deflated ? raw_deflate(e.data) : e.data;
    const uint32_t crc = static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(e.data.data()), static_cast<uInt>(e.data.size())));
    std::string extra;
    if (deflated) {
      put<uint16_t>(extra, 1);
      put<uint16_t>(extra, 16);
      put<uint64_t>(extra, e.data.size());
      put<uint64_t>(extra, stored.size());
    }
    std::string local;
    put<uint32_t>(local, 0x04034b50);
    put<uint16_t>(local, deflated ? 45 : 20);
    put<uint16_t>(local, 0);
    put<uint16_t>(local, deflated ? 8 : 0);
    put<uint32_t>(local, 0);
    put<uint32_t>(local, crc);
    put<uint32_t>(local, deflated ? 0xFFFFFFFF : static_cast<uint32_t>(stored.size()));
    put<uint32_t>(local, deflated ? 0xFFFFFFFF : static_cast<uint32_t>(e.data.size()));
    put<uint16_t>(local, static_cast<uint16_t>(e.name.size()));
    put<uint16_t>(local, static_cast<uint16_t>(extra.size()));
    std::string central;
    put<uint32_t>(central, 0x02014b50);
    put<uint16_t>(central, 20);
    central += local.substr(4, 26);
    const uint32_t compressed = static_cast<uint32_t>(stored.size()), size = static_cast<uint32_t>(e.data.size());
    std::memcpy(&central[20], &compressed, 4);
    std::memcpy(&central[24], &size, 4);
    const uint16_t no_extra = 0;
    std::memcpy(&central[30], &no_extra, 2);
    put<uint16_t>(central, 0);
    put<uint16_t>(central, 0);
    put<uint16_t>(central, 0);
    put<uint32_t>(central, 0);
    put<uint32_t>(central, static_cast<uint32_t>(out.size()));
    directory += central + e.name;
    out += local + e.name + extra + stored;
  }
  std::string end;
  put<uint32_t>(end, 0x06054b50);
  put<uint32_t>(end, 0);
  put<uint16_t>(end, static_cast<uint16_t>(entries.size()));
  put<uint16_t>(end, static_cast<uint16_t>(entries.size()));
  put<uint32_t>(end, static_cast<uint32_t>(directory.size()));
  put<uint32_t>(end, static_cast<uint32_t>(out.size()));
  put<uint16_t>(end, 0);
  return out + directory + end;
}

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
