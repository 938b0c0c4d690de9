#include "detect/language_detection.h"

#include <cctype>
#include <climits>

#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>

namespace attend {

namespace {

// CLD2's summary of `text`: its best three languages and their shares of the letters, and whether
// it calls the result reliable; `hint` is the language to expect (UNKNOWN_LANGUAGE: none).
struct Summary {
  CLD2::Language language3[3] = {CLD2::UNKNOWN_LANGUAGE, CLD2::UNKNOWN_LANGUAGE, CLD2::UNKNOWN_LANGUAGE};
  int percent3[3] = {0, 0, 0};
  bool reliable = false;
  bool valid_utf8 = false;
};

Summary summarize(std::string_view text, CLD2::Language hint) {
  Summary summary;
  if (text.empty() || text.size() > static_cast<size_t>(INT_MAX)) return summary;
  const CLD2::CLDHints hints{nullptr, nullptr, CLD2::UNKNOWN_ENCODING, hint};
  double normalized_score3[3];
  int text_bytes = 0, valid_prefix_bytes = 0;
  CLD2::ExtDetectLanguageSummaryCheckUTF8(text.data(), static_cast<int>(text.size()), /*is_plain_text=*/true, &hints,
                                          /*flags=*/0, summary.language3, summary.percent3, normalized_score3,
                                          /*resultchunkvector=*/nullptr, &text_bytes, &summary.reliable,
                                          &valid_prefix_bytes);
  summary.valid_utf8 = valid_prefix_bytes >= static_cast<int>(text.size());
  return summary;
}

}  // namespace

std::vector<DetectedLanguage> detect_languages(std::string_view text) {
  const Summary summary = summarize(text, CLD2::UNKNOWN_LANGUAGE);
  std::vector<DetectedLanguage> found;
  for (int i = 0; i < 3; ++i) {
    if (summary.language3[i] == CLD2::UNKNOWN_LANGUAGE || summary.percent3[i] <= 0) continue;
    found.push_back({CLD2::LanguageCode(summary.language3[i]), static_cast<double>(summary.percent3[i])});
  }
  return found;
}

std::optional<DetectedLanguage> other_language(std::string_view text, const std::string& expected) {
  const CLD2::Language expected_language = CLD2::GetLanguageFromName(expected.c_str());
  const Summary summary = summarize(text, expected_language);
  if (!summary.reliable || !summary.valid_utf8) return std::nullopt;
  const CLD2::Language found = summary.language3[0];
  if (found == CLD2::UNKNOWN_LANGUAGE || found == CLD2::TG_UNKNOWN_LANGUAGE || found == expected_language) return std::nullopt;
  if (summary.percent3[0] < kOtherLanguagePercent) return std::nullopt;
  return DetectedLanguage{CLD2::LanguageCode(found), static_cast<double>(summary.percent3[0])};
}

std::string language_name(const std::string& code) {
  const CLD2::Language language = CLD2::GetLanguageFromName(code.c_str());
  if (language == CLD2::UNKNOWN_LANGUAGE) return code;
  std::string name = CLD2::LanguageName(language);  // "ENGLISH"
  for (size_t i = 1; i < name.size(); ++i) {
    if (std::isalpha(static_cast<unsigned char>(name[i - 1]))) name[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[i])));
  }
  return name;
}

}  // namespace attend
