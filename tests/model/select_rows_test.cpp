// select_rows (model/weights.h): a Linear of some of a layer's output rows, a lexical shortlist's
// output layer, gives each selected row the bits the whole layer gives it, in every storage the
// output layer can have (f32, int8 weights, int8 quads, Marian's int8 part), under the kernel
// table this process runs (ATTEND_ISA picks another).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "kernels/kernels.h"
#include "model/weights.h"

namespace attend {
namespace {

enum class Storage { f32, int8, int8_quads, marian_int8 };

struct Layer {
  std::vector<float> weight, scale, bias;
  std::vector<int8_t> weight_i8;
  OwnedTensors owned;
  Weights w;  // only w.output: what pack_weight_panels and pack_weight_quads walk
};

void make(Layer& layer, Storage storage, int out, int in, const KernelTable& k, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  std::uniform_int_distribution<int> byte(-127, 127);
  for (int i = 0; i < out * in; ++i) {
    layer.weight.push_back(uniform(rng));
    layer.weight_i8.push_back(static_cast<int8_t>(byte(rng)));
  }
  for (int i = 0; i < out; ++i) {
    layer.scale.push_back(0.01f + 0.001f * static_cast<float>(i));
    layer.bias.push_back(uniform(rng));
  }
  Linear& l = layer.w.output;
  l.out = out;
  l.in = in;
  l.bias = layer.bias.data();
  if (storage == Storage::f32) {
    l.weight = layer.weight.data();
  } else {
    l.weight_i8 = layer.weight_i8.data();
    l.scale = layer.scale.data();
  }
  if (storage == Storage::marian_int8) {  // the bias already shift-corrected: any row values do
    l.marian[0] = Linear::MarianPart{0, out, 3.5f, 0.0123f};
    l.marian_parts = 1;
    l.marian_bias = layer.bias.data();
  }
  if (storage == Storage::int8_quads) pack_weight_quads(layer.w, layer.owned);
  pack_weight_panels(layer.w, k, layer.owned);
}

TEST(SelectRows, EachRowHasTheWholeLayersBits) {
  const KernelTable& k = kernels::best_kernels();
  const int out = 53, in = 72;  // in: no multiple of 16 or of 64, so every kernel has a tail
  std::mt19937 rng(7);
  for (Storage storage : {Storage::f32, Storage::int8, Storage::int8_quads, Storage::marian_int8}) {
    Layer layer;
    make(layer, storage, out, in, k, rng);
    const Linear& whole = layer.w.output;
    for (const std::vector<int>& rows : std::vector<std::vector<int>>{
             {7}, {0, 1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 5, 8, 13, 21, 34, 52}, {0, 3, 9, 10, 11, 12, 30, 31, 32, 33, 40, 47, 51}}) {
      OwnedTensors owned;
      const Linear some = select_rows(whole, rows, k, owned);
      ASSERT_EQ(some.out, static_cast<int>(rows.size()));
      for (int m : {1, 2, 5, 17}) {
        std::vector<float> x(static_cast<size_t>(m) * in);  // [m, in]
        std::uniform_real_distribution<float> uniform(-2.f, 2.f);
        for (float& v : x) v = uniform(rng);
        std::vector<float> all(static_cast<size_t>(m) * out), selected(static_cast<size_t>(m) * rows.size());
        whole.apply(k, x.data(), in, all.data(), out, m);                                          // [m, out]
        some.apply(k, x.data(), in, selected.data(), static_cast<int>(rows.size()), m);           // [m, rows]
        for (int r = 0; r < m; ++r) {
          for (size_t i = 0; i < rows.size(); ++i) {
            const float a = all[static_cast<size_t>(r) * out + rows[i]], s = selected[r * rows.size() + i];
            EXPECT_EQ(std::memcmp(&a, &s, sizeof a), 0) << "storage " << static_cast<int>(storage) << " m " << m
                                                       << " row " << r << " output " << rows[i] << ": " << a << " vs " << s;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace attend
