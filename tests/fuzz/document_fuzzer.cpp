// plan_document on any bytes: ICU's sentence breaks of the text, or, when the first byte is odd,
// candidate breaks made of the input's own bytes (as a browser's could be: any offsets, even
// inside a character or past the end); a sentence check that calls sentences over 40 bytes too
// long; the abbreviations of no language, English, German or French, with the caption layer's
// greetings and signatures or without (other bits of the first byte). Oracle: invalid UTF-8 is refused by sentence_breaks' caller only (plan_document is
// given valid text); the segments cover the text in order, none empty; a translated segment
// holds a letter and no line break, fits the check (or cannot be cut: one character), and does
// not start or end with a space; the text with every sentence "translated" to itself comes back whole.
#include <string>
#include <vector>

#include "attend/document.h"
#include "caption/set_phrases.h"
#include "fuzz_support.h"
#include "text/letters.h"
#include "tokenizer/utf8.h"

namespace {

using attend::fuzz::require;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

size_t code_points(std::string_view text) {
  size_t count = 0;
  for (char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (attend::find_invalid_utf8(text)) return 0;
  std::vector<size_t> breaks;
  if (data[0] % 2 == 0) {
    breaks = attend::sentence_breaks(text);
  } else {
    for (size_t i = 1; i + 1 < size; i += 2) breaks.push_back(data[i] | (data[i + 1] << 8));
  }
  attend::PlanOptions options;
  options.check = [](std::string_view s) { return s.size() <= 40 ? attend::SentenceFit::whole : attend::SentenceFit::too_long; };
  constexpr const char* kLanguages[] = {"", "en", "de", "fr"};  // each language's abbreviations and ordinals
  options.language = kLanguages[(data[0] >> 1) % 4];
  if (data[0] & 8) options.phrases = attend::letter_phrases();  // the caption layer's greetings and signatures
  const std::vector<attend::DocumentSegment> segments = attend::plan_document(text, breaks, options);
  size_t at = 0;
  std::vector<std::string> same;
  for (const attend::DocumentSegment& s : segments) {
    require(s.begin == at && s.begin < s.end && s.end <= text.size(), "segments do not cover the text in order");
    at = s.end;
    if (!s.translate) continue;
    const std::string_view sentence(text.data() + s.begin, s.end - s.begin);
    require(attend::contains_letter(sentence), "a sentence without a letter");
    require(sentence.find('\n') == std::string_view::npos, "a sentence across lines");
    require(!is_space(sentence.front()) && !is_space(sentence.back()), "a sentence with its spaces");
    require(sentence.size() <= 40 || code_points(sentence) == 1, "a sentence too long that could have been cut");
    same.emplace_back(sentence);
  }
  require(at == text.size(), "segments do not reach the end of the text");
  require(attend::assemble_document(text, segments, same) == text, "the document does not come back whole");
  return 0;
}
