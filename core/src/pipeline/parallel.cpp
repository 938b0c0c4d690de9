#include <algorithm>
#include <exception>
#include <system_error>
#include <thread>
#include <type_traits>

#include "attend/error.h"
#include "attend/translator.h"

namespace attend {

namespace {

void check_on_step(const TranslateOptions& options, int threads) {
  if (threads > 1 && options.on_step) {
    throw Error(ErrorCode::invalid_argument, "on_step needs one thread: it would be called from " + std::to_string(threads) + " at once");
  }
}

// Splits `sources` (texts, prepared sentences, source ids or indices of pairs) over `threads` Translators sharing one
// model, each working through its contiguous share with work(translator, share), which returns
// one result per item of its share; keeps input order.
template <class Source, class Work>
auto run_shares(const std::shared_ptr<const Model>& model, const std::vector<Source>& sources, int threads,
                const Work& work) {
  using Results = std::invoke_result_t<Work, Translator&, const std::vector<Source>&>;
  if (threads < 1) throw Error(ErrorCode::invalid_argument, "threads must be at least 1, got " + std::to_string(threads));
  if (threads == 1 || sources.size() < 2) {
    Translator translator(model);
    return work(translator, sources);
  }
  // Contiguous shares, one Translator (its own caches) per thread; the model is shared.
  const size_t n = sources.size(), workers = std::min<size_t>(threads, n);
  std::vector<Results> parts(workers);
  std::vector<std::exception_ptr> errors(workers);
  std::vector<std::thread> pool;
  try {
    for (size_t w = 0; w < workers; ++w) {
      pool.emplace_back([&, w] {
        try {
          const std::vector<Source> share(sources.begin() + n * w / workers, sources.begin() + n * (w + 1) / workers);
          Translator translator(model);
          parts[w] = work(translator, share);
        } catch (...) {
          errors[w] = std::current_exception();
        }
      });
    }
  } catch (const std::system_error& error) {  // the system refused a thread: the started ones still use parts
    for (auto& t : pool) t.join();
    throw Error(ErrorCode::out_of_memory, "could not start translation thread " + std::to_string(pool.size() + 1) +
                                              " of " + std::to_string(workers) + ": " + error.what());
  }
  for (auto& t : pool) t.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  Results out;
  out.reserve(n);
  for (auto& part : parts) {
    for (auto& result : part) out.push_back(std::move(result));
  }
  return out;
}

}  // namespace

std::vector<Translation> translate_parallel(std::shared_ptr<const Model> model, const std::vector<std::string>& texts,
                                            const TranslateOptions& options, int batch_size, int threads) {
  check_on_step(options, threads);
  return run_shares(model, texts, threads, [&](Translator& translator, const std::vector<std::string>& share) {
    return translator.translate_batch(share, options, batch_size);
  });
}

std::vector<Translation> translate_prepared_parallel(std::shared_ptr<const Model> model,
                                                     const std::vector<PreparedSource>& sources,
                                                     const TranslateOptions& options, int batch_size, int threads) {
  check_on_step(options, threads);
  return run_shares(model, sources, threads, [&](Translator& translator, const std::vector<PreparedSource>& share) {
    return translator.translate_prepared(share, options, batch_size);
  });
}

std::vector<Translation> translate_ids_parallel(std::shared_ptr<const Model> model,
                                                const std::vector<std::vector<int>>& source_ids,
                                                const TranslateOptions& options, int batch_size, int threads) {
  check_on_step(options, threads);
  return run_shares(model, source_ids, threads, [&](Translator& translator, const std::vector<std::vector<int>>& share) {
    return translator.translate_ids(share, options, batch_size);
  });
}

std::vector<TargetScore> score_parallel(std::shared_ptr<const Model> model, const std::vector<std::string>& sources,
                                        const std::vector<std::string>& targets, int threads, int batch_size) {
  if (sources.size() != targets.size()) {
    throw Error(ErrorCode::invalid_argument, std::to_string(sources.size()) + " sources but " +
                                                 std::to_string(targets.size()) + " targets to score");
  }
  const size_t n = sources.size();
  std::vector<std::vector<int>> source_ids(n), target_ids(n);
  const Translator tokenizer(model);
  for (size_t i = 0; i < n; ++i) {
    try {
      source_ids[i] = tokenizer.source_ids(sources[i]);
      target_ids[i] = tokenizer.target_ids(targets[i]);
    } catch (const Error& error) {  // which pair, for the caller to point at
      throw Error(error.code(), "pair " + std::to_string(i + 1) + " of " + std::to_string(n) + ": " + error.what());
    }
  }
  std::vector<size_t> pairs(n);  // indices into source_ids and target_ids
  for (size_t i = 0; i < n; ++i) pairs[i] = i;
  return run_shares(model, pairs, threads, [&](Translator& translator, const std::vector<size_t>& share) {
    std::vector<std::vector<int>> share_sources, share_targets;
    for (size_t i : share) {
      share_sources.push_back(std::move(source_ids[i]));
      share_targets.push_back(std::move(target_ids[i]));
    }
    return translator.score_ids(share_sources, share_targets, batch_size);
  });
}

}  // namespace attend
