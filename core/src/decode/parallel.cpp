#include <exception>
#include <system_error>
#include <thread>

#include "attend/error.h"
#include "attend/translator.h"

namespace attend {

std::vector<Translation> translate_parallel(std::shared_ptr<const Model> model, const std::vector<std::string>& texts,
                                            const TranslateOptions& options, int batch_size, int threads) {
  if (threads < 1) throw Error(ErrorCode::invalid_argument, "threads must be at least 1, got " + std::to_string(threads));
  if (threads > 1 && options.on_step) {
    throw Error(ErrorCode::invalid_argument, "on_step needs one thread: it would be called from " + std::to_string(threads) + " at once");
  }
  if (threads == 1 || texts.size() < 2) return Translator(model).translate_batch(texts, options, batch_size);
  // Contiguous shares, one Translator (its own caches) per thread; the model is shared.
  const size_t n = texts.size(), workers = std::min<size_t>(threads, n);
  std::vector<std::vector<Translation>> parts(workers);
  std::vector<std::exception_ptr> errors(workers);
  std::vector<std::thread> pool;
  try {
    for (size_t w = 0; w < workers; ++w) {
      pool.emplace_back([&, w] {
        try {
          const std::vector<std::string> share(texts.begin() + n * w / workers, texts.begin() + n * (w + 1) / workers);
          parts[w] = Translator(model).translate_batch(share, options, batch_size);
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

}  // namespace attend
