// Marian's .npz model file (OPUS-MT's `*.npz.best-perplexity.npz`): a zip archive of NumPy .npy
// arrays, one per parameter, named as in the .bin (`encoder_l1_self_Wq.npy`), and the
// architecture as `special:model.yml.npy`, a 1-D int8 array of the YAML text and its NUL
// (browsermt/marian-dev src/common/io.cpp, src/3rd_party/cnpy; docs/marian.md §7). Marian's cnpy
// writes its entries stored; numpy's savez writes them stored and savez_compressed deflated,
// both with zip64 extras: all are read. Read from bytes in memory, never trusted.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "import/marian_binary.h"

namespace attend {

struct MarianNpz {
  std::vector<MarianItem> items;  // in archive order; as read_marian_binary gives a .bin's
  std::vector<std::unique_ptr<std::string>> inflated;  // deflated entries' bytes, which their items view
};

// The arrays of a whole .npz file, as Marian loads them: float32 arrays ('<f4', C order) as
// float32 items, 1-D ones with shape [1, n] as Marian gives them; `special:` arrays of bytes
// ('|i1', '|u1', '|S1') as int8 items. Stored entries' items view `bytes`, which the caller
// keeps alive. Throws Error(invalid_model) with one line naming `file_name`, the entry and what
// is wrong: not a zip archive, one cut short, a compression other than stored or deflate, an
// encrypted entry, a CRC that does not match, an entry that is not a .npy or comes twice, a
// .npy header that is damaged, of another dtype, Fortran order or big-endian, data not the
// length its shape needs.
MarianNpz read_marian_npz(std::string_view bytes, std::string_view file_name);

// Whether `bytes` begin as a zip archive does (a local file header), as an .npz's do.
bool looks_like_zip(std::string_view bytes);

}  // namespace attend
