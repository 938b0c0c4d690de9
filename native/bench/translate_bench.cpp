// End-to-end decoding benches on a real model: greedy and beam at batch 1, with attention
// capture off, on, and a per-step callback, so the cost of each opt-in shows as a ratio.
//   attend_translate_bench [--benchmark_filter=...]        model: $ATTEND_BENCH_MODEL or
//   models/en-de/model.int8.safetensors of the source tree.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>

#include "attend/attend.h"

namespace {

const char* const kSentences[] = {
    "A man in a blue shirt is riding a bike down the street.",
    "Two dogs are playing in the snow.",
    "A little girl climbs into a wooden playhouse.",
    "A group of people are standing in front of an igloo.",
};

std::shared_ptr<const attend::Model> bench_model() {
  static const auto model = [] {
    const char* path = std::getenv("ATTEND_BENCH_MODEL");
    return attend::Model::from_file(path ? path : ATTEND_SOURCE_DIR "/models/en-de/model.int8.safetensors");
  }();
  return model;
}

enum class Capture { off, attention, callback };

void translate(benchmark::State& state, int beam, Capture capture) {
  attend::Translator translator(bench_model());
  attend::TranslateOptions options;
  options.beam_size = beam;
  options.capture_attention = capture == Capture::attention;
  if (capture == Capture::callback) options.on_step = [](const attend::StepEvent&) { return true; };
  int64_t tokens = 0;
  for (auto _ : state) {
    for (const char* s : kSentences) {
      auto t = translator.translate(s, options);
      tokens += t.hypotheses[0].tokens;  // generated, eos included
      benchmark::DoNotOptimize(t);
    }
  }
  state.counters["sentences/s"] = benchmark::Counter(static_cast<double>(state.iterations() * std::size(kSentences)),
                                                     benchmark::Counter::kIsRate);
  state.counters["tokens/s"] = benchmark::Counter(static_cast<double>(tokens), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(translate, greedy_capture_off, 1, Capture::off)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(translate, greedy_capture_on, 1, Capture::attention)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(translate, greedy_step_callback, 1, Capture::callback)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(translate, beam5_capture_off, 5, Capture::off)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(translate, beam5_capture_on, 5, Capture::attention)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  try {
    bench_model();
  } catch (const attend::Error& e) {
    std::cerr << "attend_translate_bench: " << e.what() << " (set ATTEND_BENCH_MODEL)\n";
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
