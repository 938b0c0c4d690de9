// Marian .bin files written in the tests as Marian's saveItems writes them (src/common/binary.cpp,
// docs/marian.md §7), and the SentencePiece vocabularies the import tests read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attend::test {

struct Item {
  std::string name;
  uint64_t type;  // Marian's type code: 0x0404 float32, 0x4101 intgemm8, 0x0101 int8
  std::vector<int32_t> shape;
  std::string data;
};

constexpr uint64_t kFloat32 = 0x0404, kIntgemm8 = 0x4101, kInt8 = 0x0101;

// The bytes Marian writes for `items`: headers, names, shapes, the padding that puts the data on
// a 256-byte boundary, then the payloads.
std::string marian_file(const std::vector<Item>& items, uint64_t version = 1);
std::string floats(const std::vector<float>& values);
// The "special:model.yml" item: the text and its NUL.
Item model_yml_item(const std::string& yml);

// A NumPy .npy v1 array as Marian's cnpy writes it (descr '<f4', '<i1', ...).
std::string npy(const std::string& descr, const std::vector<int32_t>& shape, const std::string& data, bool fortran = false);

struct ZipEntry {
  std::string name, data;
};

// A zip of the entries: as cnpy writes an .npz (stored, no extra fields), or as numpy's
// savez_compressed (deflate; zip64 extras in the local headers, their sizes 0xFFFFFFFF).
std::string zip(const std::vector<ZipEntry>& entries, bool deflated = false);

// The SentencePiece models inside the shipped en-de and de-en files (8000 pieces each, eos 3,
// unk 1; different bytes).
const std::string& en_de_vocabulary();
const std::string& de_en_vocabulary();

}  // namespace attend::test
