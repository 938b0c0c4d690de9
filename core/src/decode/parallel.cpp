#include <algorithm>
#include <exception>
#include <system_error>
#include <thread>

#include "attend/error.h"
#include "attend/translator.h"

namespace attend {

namespace {

// Splits `sources` (texts or source ids) over `threads` Translators sharing one model, each
// translating its contiguous share with translate_share(translator, share); keeps input order.
template <class Source, class TranslateShare>
std::vector<Translation> translate_shares(const std::shared_ptr<const Model>& model, const std::vector<Source>& sources,
                                          const TranslateOptions& options, int threads,
                                          const TranslateShare& translate_share) {
  if (threads < 1) throw Error(ErrorCode::invalid_argument, "threads must be at least 1, got " + std::to_string(threads));
  if (threads > 1 && options.on_step) {
    throw Error(ErrorCode::invalid_argument, "on_step needs one thread: it would be called from " + std::to_string(threads) + " at once");
  }
  if (threads == 1 || sources.size() < 2) {
    Translator translator(model);
    return translate_share(translator, sources);
  }
  // Contiguous shares, one Translator (its own caches) per thread; the model is shared.
  const size_t n = sources.size(), workers = std::min<size_t>(threads, n);
  std::vector<std::vector<Translation>> parts(workers);
  std::vector<std::exception_ptr> errors(workers);
  std::vector<std::thread> pool;
  try {
    for (size_t w = 0; w < workers; ++w) {
      pool.emplace_back([&, w] {
        try {
          const std::vector<Source> share(sources.begin() + n * w / workers, sources.begin() + n * (w + 1) / workers);
          Translator translator(model);
          parts[w] = translate_share(translator, share);
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
  std::vector<Translation> out;
  out.reserve(n);
  for (auto& part : parts) {
    for (auto& t : part) out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

std::vector<Translation> translate_parallel(std::shared_ptr<const Model> model, const std::vector<std::string>& texts,
                                            const TranslateOptions& options, int batch_size, int threads) {
  return translate_shares(model, texts, options, threads, [&](Translator& translator, const std::vector<std::string>& share) {
    return translator.translate_batch(share, options, batch_size);
  });
}

std::vector<Translation> translate_ids_parallel(std::shared_ptr<const Model> model,
                                                const std::vector<std::vector<int>>& source_ids,
                                                const TranslateOptions& options, int batch_size, int threads) {
  return translate_shares(model, source_ids, options, threads,
                          [&](Translator& translator, const std::vector<std::vector<int>>& share) {
                            return translator.translate_ids(share, options, batch_size);
                          });
}

}  // namespace attend
