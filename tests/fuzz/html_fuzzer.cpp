// Any bytes as an HTML fragment. parse_html either throws invalid_input (invalid UTF-8) or gives
// a fragment that serialize_html writes out and parse_html reads back to the same fragment (a
// fixed point); block_texts keep their blocks' byte offsets; plan_document cuts them. Each block
// is then "translated" with its sentences' words in reverse order, aligned word for word, and
// every element placed (translate_block): the result must be a well-formed block. Inputs whose
// first byte is 'T' are also translated with the tiny model ($ATTEND_FUZZ_MODEL) through
// translate_html: errors only invalid_input, and its output parses.
#include <memory>
#include <string>
#include <vector>

#include "attend/attend.h"
#include "attend/document.h"
#include "attend/html.h"
#include "fuzz_support.h"
#include "html/block_translation.h"
#include "html/html_text.h"

namespace {

using attend::fuzz::require;

attend::Translator& tiny_translator() {
  static const std::vector<uint8_t> file = attend::fuzz::read_fixture("ATTEND_FUZZ_MODEL");
  static attend::Translator translator(attend::Model::from_bytes(file));
  return translator;
}

// `sentence`'s words in reverse order, each aligned with its place there.
attend::TranslatedSentence reversed(std::string_view text, size_t begin, size_t end) {
  attend::TranslatedSentence out{begin, end, "", {}};
  const std::string_view sentence = text.substr(begin, end - begin);
  for (size_t at = 0; at < sentence.size();) {
    if (attend::is_html_space(sentence[at])) {
      ++at;
      continue;
    }
    const size_t word = at;
    while (at < sentence.size() && !attend::is_html_space(sentence[at])) ++at;
    out.alignment.source.push_back(attend::ByteRange{word, at});
  }
  const size_t n = out.alignment.source.size();
  std::vector<attend::ByteRange> target(n);
  for (size_t i = n; i-- > 0;) {
    const attend::ByteRange& word = out.alignment.source[i];
    if (!out.text.empty()) out.text += ' ';
    target[n - 1 - i] = attend::ByteRange{out.text.size(), out.text.size() + word.end - word.begin};
    out.text += sentence.substr(word.begin, word.end - word.begin);
  }
  out.alignment.target = target;
  for (size_t i = 0; i < n; ++i) out.alignment.aligned.push_back({static_cast<int>(n - 1 - i)});
  return out;
}

void check_translated_blocks(const attend::HtmlFragment& fragment) {
  const std::vector<std::string> texts = attend::block_texts(fragment);
  require(texts.size() == fragment.blocks.size(), "not one text per block");
  for (size_t k = 0; k < texts.size(); ++k) {
    require(texts[k].size() == fragment.blocks[k].text.size(), "block_texts moved the text's offsets");
    std::vector<attend::TranslatedSentence> sentences;
    for (const attend::DocumentSegment& segment : attend::plan_document(texts[k], attend::sentence_breaks(texts[k]))) {
      if (segment.translate) sentences.push_back(reversed(texts[k], segment.begin, segment.end));
    }
    // serialize_block throws invalid_argument for a malformed block (an element outside its
    // parent, overlapping siblings): not caught, so libFuzzer reports it.
    attend::serialize_block(attend::translate_block(fragment.blocks[k], sentences));
  }
}

void check_translation(std::string_view html) {
  attend::TranslateOptions options;
  options.max_length = 12;
  try {
    const attend::HtmlTranslation translation = attend::translate_html(tiny_translator(), html, options, 4);
    attend::parse_html(translation.html);
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_input}, "translate_html");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view html(reinterpret_cast<const char*>(data), size);
  attend::HtmlFragment fragment;
  try {
    fragment = attend::parse_html(html);
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_input}, "parse_html");
    return 0;
  }
  const std::string written = attend::serialize_html(fragment);
  require(attend::parse_html(written) == fragment, "parse_html(serialize_html(f)) != f");
  check_translated_blocks(fragment);
  if (size > 0 && data[0] == 'T' && size < 512) check_translation(html.substr(1));
  return 0;
}
