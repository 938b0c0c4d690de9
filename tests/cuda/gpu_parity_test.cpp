// The CUDA backend against the CPU engine, on the shipped en-de model and the Multi30k test set:
// logits, greedy and beam-5 ids, attention capture, head masking, scores of given translations.
// Without a usable GPU every test reports "skipped: no CUDA device (<the cause>)" and ctest counts
// it as skipped. Built with tests/cuda/emulation instead of the CUDA runtime, the same tests run
// the whole backend on the CPU (gpu_parity_emulated.*, on ATTEND_TEST_LINES lines).
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attend/error.h"
#include "attend/translator.h"
#include "test_paths.h"

namespace attend {
namespace {

// |gpu − cpu| ≤ tolerance · max(1, |cpu|), per element: the bars of docs/cuda.md.
constexpr float kLogitsF32 = 1e-3f, kLogitsHalf = 2e-2f, kCapture = 1e-4f;

// The Multi30k test sources, or their first ATTEND_TEST_LINES (the emulated run's few).
std::vector<std::string> test_sentences() {
  static const std::vector<std::string> lines = [] {
    std::vector<std::string> out;
    const std::string path = test_path("ATTEND_TEST_SOURCES", ATTEND_TEST_SOURCES);
    const size_t limit = std::stoul(test_path("ATTEND_TEST_LINES", "1000000"));
    gzFile file = gzopen(path.c_str(), "rb");
    if (!file) throw Error(ErrorCode::io, "cannot read " + path);
    char buffer[4096];
    while (out.size() < limit && gzgets(file, buffer, sizeof buffer)) {
      std::string line(buffer);
      while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
      out.push_back(line);
    }
    gzclose(file);
    return out;
  }();
  return lines;
}

std::shared_ptr<const Model> load(const ModelOptions& options) {
  return Model::from_file(test_path("ATTEND_TEST_MODEL", ATTEND_TEST_MODEL), options);
}

const std::shared_ptr<const Model>& cpu_model() {
  static const std::shared_ptr<const Model> model = load({});
  return model;
}

// The model on the GPU in `type`, or null with the reason the device is unavailable.
std::shared_ptr<const Model> gpu_model(ComputeType type, std::string* reason) {
  ModelOptions o;
  o.device = Device::cuda;
  o.compute = type;
  try {
    return load(o);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::device_unavailable) throw;
    *reason = e.what();
    return nullptr;
  }
}

#define GPU_MODEL_OR_SKIP(name, type)              \
  std::string reason;                              \
  const auto name = gpu_model(type, &reason);      \
  if (!name) GTEST_SKIP() << "skipped: no CUDA device (" << reason << ")"

// The largest |gpu − cpu| / max(1, |cpu|) over two arrays of one shape.
float worst_relative(const std::vector<float>& gpu, const std::vector<float>& cpu) {
  EXPECT_EQ(gpu.size(), cpu.size());
  float worst = 0.f;
  for (size_t i = 0; i < std::min(gpu.size(), cpu.size()); ++i) {
    worst = std::max(worst, std::abs(gpu[i] - cpu[i]) / std::max(1.f, std::abs(cpu[i])));
  }
  return worst;
}

// Teacher-forced logits of the CPU's greedy translations of the first `count` test sentences.
void expect_logits_close(const Model& gpu, float tolerance, const std::vector<HeadRef>& masked, int count) {
  Translator cpu_translator(cpu_model()), gpu_translator(std::shared_ptr<const Model>(&gpu, [](const Model*) {}));
  const std::vector<std::string> all = test_sentences();
  for (int i = 0; i < std::min<int>(count, all.size()); ++i) {
    const std::vector<int> source = cpu_translator.source_ids(all[i]);
    const std::vector<int> target = cpu_translator.translate_ids({source})[0].hypotheses[0].ids;
    const float worst = worst_relative(gpu_translator.logits(source, target, masked),
                                       cpu_translator.logits(source, target, masked));
    EXPECT_LE(worst, tolerance) << "sentence " << i << ": " << all[i];
  }
}

// The best hypothesis' ids of every test sentence, CPU against GPU, counted where they differ.
void expect_same_ids(const std::shared_ptr<const Model>& gpu, int beam) {
  TranslateOptions o;
  o.beam_size = beam;
  const std::vector<std::string> all = test_sentences();
  const auto cpu_out = Translator(cpu_model()).translate_batch(all, o, 32);
  const auto gpu_out = Translator(gpu).translate_batch(all, o, 32);
  int differing = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    if (gpu_out[i].hypotheses[0].ids != cpu_out[i].hypotheses[0].ids) {
      if (++differing <= 5) ADD_FAILURE() << "line " << i + 1 << " differs: " << all[i];
    }
  }
  EXPECT_EQ(differing, 0) << "of " << all.size() << " lines";
}

TEST(GpuParity, LogitsF32) {
  GPU_MODEL_OR_SKIP(gpu, ComputeType::f32);
  expect_logits_close(*gpu, kLogitsF32, {}, 25);
}

TEST(GpuParity, LogitsF16) {
  GPU_MODEL_OR_SKIP(gpu, ComputeType::f16);
  expect_logits_close(*gpu, kLogitsHalf, {}, 25);
}

TEST(GpuParity, LogitsBf16) {
  GPU_MODEL_OR_SKIP(gpu, ComputeType::bf16);
  expect_logits_close(*gpu, kLogitsHalf, {}, 25);
}

TEST(GpuParity, HeadMaskingAsOnTheCpu) {
  GPU_MODEL_OR_SKIP(gpu, ComputeType::f32);
  const std::vector<HeadRef> masked{{AttentionKind::encoder, 0, 1}, {AttentionKind::decoder, 1, 0},
                                    {AttentionKind::cross, 2, 3}};
  expect_logits_close(*gpu, kLogitsF32, masked, 10);
  // and the mask is in effect: the masked logits are not the unmasked ones
  Translator t(gpu);
  const std::vector<int> source = t.source_ids(test_sentences()[0]);
  EXPECT_GT(worst_relative(t.logits(source, {}, masked), t.logits(source, {}, {})), kLogitsF32);
}

TEST(GpuParity, GreedyIdsIdenticalOnMulti30kTest) {
  GPU_MODEL_OR_SKIP(gpu, ComputeType::f32);
  expect_same_ids(gpu, 1);
}

TEST(GpuParity, Beam5IdsIdenticalOnMulti30kTest) {
  GPU_MODEL_OR_SKIP(gpu, ComputeType::f32);
  expect_same_ids(gpu, 5);
}

TEST(GpuParity, AttentionCaptureWithin1e4) {
  GPU_MODEL_OR_SKIP(gpu, ComputeType::f32);
  TranslateOptions o;
  o.capture_attention = true;
  const std::vector<std::string> all = test_sentences();
  const std::vector<std::string> some(all.begin(), all.begin() + std::min<size_t>(20, all.size()));
  const auto cpu_out = Translator(cpu_model()).translate_batch(some, o, 8);
  const auto gpu_out = Translator(gpu).translate_batch(some, o, 8);
  for (size_t i = 0; i < some.size(); ++i) {
    const AttentionMaps& c = *cpu_out[i].attention;
    const AttentionMaps& g = *gpu_out[i].attention;
    ASSERT_EQ(g.tgt_len, c.tgt_len) << some[i];
    for (auto [gpu_map, cpu_map] : {std::pair{&g.encoder, &c.encoder}, {&g.decoder, &c.decoder}, {&g.cross, &c.cross}}) {
      ASSERT_EQ(gpu_map->size(), cpu_map->size());
      float worst = 0.f;
      for (size_t j = 0; j < cpu_map->size(); ++j) worst = std::max(worst, std::abs((*gpu_map)[j] - (*cpu_map)[j]));
      EXPECT_LE(worst, kCapture) << some[i];
    }
  }
}

TEST(GpuParity, StepEventsCarryTheCrossAttention) {
  GPU_MODEL_OR_SKIP(gpu, ComputeType::f32);
  TranslateOptions o;
  o.capture_attention = true;
  std::vector<float> cpu_rows, gpu_rows;
  const ModelConfig& c = cpu_model()->config();
  const size_t maps = static_cast<size_t>(c.decoder_layers) * c.num_heads;
  auto recorder = [maps](std::vector<float>& into) {
    return [&into, maps](const StepEvent& e) {  // [L·H][S] of each step
      into.insert(into.end(), e.cross_attention, e.cross_attention + maps * e.src_len);
      return true;
    };
  };
  const std::string sentence = test_sentences().back();
  o.on_step = recorder(cpu_rows);
  Translator(cpu_model()).translate(sentence, o);
  o.on_step = recorder(gpu_rows);
  Translator(gpu).translate(sentence, o);
  ASSERT_EQ(gpu_rows.size(), cpu_rows.size());
  for (size_t j = 0; j < cpu_rows.size(); ++j) ASSERT_NEAR(gpu_rows[j], cpu_rows[j], kCapture) << j;
}

// Teacher-forced scores (attend score) of the CPU's translations and of the sources' own words as
// targets, in ragged batches, as the CPU computes them.
TEST(GpuParity, ScoresOfGivenTranslations) {
  GPU_MODEL_OR_SKIP(gpu, ComputeType::f32);
  Translator cpu_translator(cpu_model()), gpu_translator(gpu);
  const std::vector<std::string> all = test_sentences();
  std::vector<std::vector<int>> sources, targets;
  for (size_t i = 0; i < std::min<size_t>(25, all.size()); ++i) {
    sources.push_back(cpu_translator.source_ids(all[i]));
    targets.push_back(i % 2 ? cpu_translator.translate_ids({sources.back()})[0].hypotheses[0].ids
                            : cpu_translator.target_ids(all[i]));
  }
  const auto cpu_scores = cpu_translator.score_ids(sources, targets, 8);
  const auto gpu_scores = gpu_translator.score_ids(sources, targets, 8);
  ASSERT_EQ(gpu_scores.size(), cpu_scores.size());
  for (size_t i = 0; i < cpu_scores.size(); ++i) {
    EXPECT_EQ(gpu_scores[i].tokens, cpu_scores[i].tokens);
    const float tolerance = kLogitsF32 * std::max(1.f, std::abs(cpu_scores[i].log_prob));
    EXPECT_NEAR(gpu_scores[i].log_prob, cpu_scores[i].log_prob, tolerance) << all[i];
  }
}

}  // namespace
}  // namespace attend
