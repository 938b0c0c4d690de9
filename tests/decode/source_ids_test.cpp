// Translator::source_ids: the ids translate() decodes, and the errors translate() raises for
// text it cannot take, on the shipped en-de model (its SentencePiece model inside the file).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>

#include "attend/error.h"
#include "attend/translator.h"

namespace attend {
namespace {

const std::shared_ptr<const Model>& shipped_model() {
  static const std::shared_ptr<const Model> model = Model::from_file(ATTEND_SHIPPED_MODEL);
  return model;
}

// The code of the Error `call` throws, or nothing.
template <class Call>
std::optional<ErrorCode> error_of(const Call& call) {
  try {
    call();
  } catch (const Error& error) {
    return error.code();
  }
  return std::nullopt;
}

TEST(SourceIds, AreTheIdsTranslateDecodes) {
  Translator translator(shipped_model());
  for (const std::string& text : {std::string("A dog runs."), std::string("Two children are playing in the snow near a red house.")}) {
    const std::vector<int> ids = translator.source_ids(text);
    EXPECT_EQ(ids.back(), shipped_model()->config().eos_id);
    EXPECT_EQ(ids, translator.translate(text).source_ids) << text;
  }
}

TEST(SourceIds, RejectWhatTranslateRejects) {
  Translator translator(shipped_model());
  std::string too_long;
  for (int i = 0; i < shipped_model()->config().max_positions; ++i) too_long += "dog ";
  const std::pair<std::string, ErrorCode> cases[] = {
      {"broken \xff line", ErrorCode::invalid_input},
      {"\xe2\x80\x8b", ErrorCode::empty_input},  // a zero-width space only
      {too_long, ErrorCode::invalid_input},
  };
  for (const auto& [text, code] : cases) {
    EXPECT_EQ(error_of([&] { translator.source_ids(text); }), code) << text.substr(0, 20);
    EXPECT_EQ(error_of([&] { translator.translate(text); }), code) << text.substr(0, 20);
  }
}

}  // namespace
}  // namespace attend
