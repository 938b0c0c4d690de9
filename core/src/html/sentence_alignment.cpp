#include "html/sentence_alignment.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/alignment.h"
#include "html/html_text.h"

namespace attend {
namespace {

// [begin, end) of `text` without the whitespace at its ends.
ByteRange trimmed(std::string_view text, size_t begin, size_t end) {
  while (begin < end && is_html_space(text[begin])) ++begin;
  while (end > begin && is_html_space(text[end - 1])) --end;
  return ByteRange{begin, end};
}

// Where `word`'s trailing pieces of ASCII punctuation start ("▁Hemd" "." -> at "."): an element
// around the word leaves them out.
int punctuation_from(const std::vector<std::string>& pieces, const WordSpan& word) {
  int end = word.end;
  while (end - 1 > word.begin && std::all_of(pieces[end - 1].begin(), pieces[end - 1].end(), is_ascii_punctuation)) --end;
  return end;
}

// The words of `text` cut at whitespace, without the ASCII punctuation that ends them ("Smith,"
// is "Smith": an element around the name leaves the comma out on both sides).
std::vector<ByteRange> spaced_words(std::string_view text) {
  std::vector<ByteRange> words;
  for (size_t at = 0; at < text.size();) {
    if (is_html_space(text[at])) {
      ++at;
      continue;
    }
    const size_t begin = at;
    while (at < text.size() && !is_html_space(text[at])) ++at;
    size_t end = at;
    while (end - 1 > begin && is_ascii_punctuation(text[end - 1])) --end;
    words.push_back(ByteRange{begin, end});
  }
  return words;
}

// Where each byte of `cut` (text without the `removed` spans and whitespace next to them, as
// cut_spans makes it, its first letter perhaps capitalised) lies in `text`; nullopt if cut is not
// such a text.
std::optional<std::vector<size_t>> offsets_in(std::string_view cut, std::string_view text, const std::vector<ByteRange>& removed) {
  std::vector<size_t> offsets;
  size_t at = 0, next_removed = 0;
  for (const char c : cut) {
    for (;;) {
      if (next_removed < removed.size() && at == removed[next_removed].begin) {
        at = removed[next_removed++].end;
      } else if (at < text.size() && text[at] != c && is_html_space(text[at])) {
        ++at;
      } else {
        break;
      }
    }
    if (at == text.size()) return std::nullopt;
    const bool capitalised = offsets.empty() && text[at] >= 'a' && text[at] <= 'z' && c == text[at] - 'a' + 'A';
    if (text[at] != c && !capitalised) return std::nullopt;
    offsets.push_back(at++);
  }
  return offsets;
}

class Aligner {
 public:
  Aligner(std::string_view sentence, const PreparedSource& source, const Translation& translation,
          const Tokenizer& source_tokenizer, const Tokenizer& target_tokenizer, LanguagePair languages)
      : sentence_(sentence), source_(source), translation_(translation), hypothesis_(translation.hypotheses.at(0)),
        source_tokenizer_(source_tokenizer), target_tokenizer_(target_tokenizer), languages_(languages) {}

  // The attention's alignment; nullopt where sentence_alignment falls back to positions (also
  // where the model read a stand-in, which is no word of the sentence).
  std::optional<SentenceAlignment> by_attention() {
    if (!translation_.attention || translation_.source_ids.empty()) return std::nullopt;
    const auto stands_in = [](const PassThrough& span) { return !span.stand_in.empty(); };
    if (std::any_of(source_.pass_through.begin(), source_.pass_through.end(), stands_in)) return std::nullopt;
    const std::vector<std::string> source_pieces(translation_.source_pieces.begin(), translation_.source_pieces.end() - 1);
    const std::vector<WordSpan> source_words = piece_words(source_pieces);
    const std::vector<WordSpan> target_words = piece_words(hypothesis_.pieces);
    const std::vector<int> word_alignment =
        align_words(alignment_attention(*translation_.attention), translation_.attention->src_len, source_words, target_words);

    const std::optional<std::vector<ByteRange>> spans = pass_through_ranges(sentence_, source_.pass_through);
    if (!spans) return std::nullopt;
    const std::optional<std::vector<ByteRange>> words = model_words(*spans, source_words);
    if (!words) return std::nullopt;
    const std::vector<Insertion> placed = insertions(source_pieces, word_alignment);
    // A span that takes the translation's full stop ("… a.m.") leaves a piece out of the text.
    const auto replaces = [](const Insertion& insertion) { return insertion.replaces_until > insertion.before_piece; };
    if (std::any_of(placed.begin(), placed.end(), replaces)) return std::nullopt;
    const std::optional<TargetUnits> units = target_units(placed);
    if (!units) return std::nullopt;

    // Source words: the model's and the pass-through spans, in text order.
    std::vector<std::pair<ByteRange, std::vector<int>>> sources;
    for (size_t w = 0; w < words->size(); ++w) {
      std::vector<int> targets;
      if (word_alignment[w] >= 0) targets = units->of_word[word_alignment[w]];
      sources.emplace_back((*words)[w], std::move(targets));
    }
    for (size_t k = 0; k < spans->size(); ++k) sources.emplace_back((*spans)[k], std::vector<int>{units->of_insertion[k]});
    std::stable_sort(sources.begin(), sources.end(), [](const auto& a, const auto& b) { return a.first.begin < b.first.begin; });
    SentenceAlignment alignment;
    alignment.target = units->ranges;
    for (auto& [range, targets] : sources) {
      alignment.source.push_back(range);
      alignment.aligned.push_back(std::move(targets));
    }
    return alignment;
  }

  SentenceAlignment by_position() const {
    SentenceAlignment alignment;
    alignment.source = spaced_words(sentence_);
    alignment.target = spaced_words(hypothesis_.text);
    const auto texts = [](std::string_view text, const std::vector<ByteRange>& words) {
      std::vector<std::string_view> out;
      for (const ByteRange& word : words) out.push_back(slice(text, word));
      return out;
    };
    alignment.aligned = alignment_by_words(texts(sentence_, alignment.source), texts(hypothesis_.text, alignment.target));
    alignment.by_position = true;
    return alignment;
  }

 private:
  struct TargetUnits {
    std::vector<ByteRange> ranges;             // bytes of the hypothesis' text, in order
    std::vector<std::vector<int>> of_word;     // [target word]: its units
    std::vector<int> of_insertion;             // [pass-through span]: its unit
  };

  // The bytes of the sentence each source word the model read covers: the sentence without its
  // pass-through spans tokenized again (it must give the ids the model read) and mapped back.
  std::optional<std::vector<ByteRange>> model_words(const std::vector<ByteRange>& spans,
                                                    const std::vector<WordSpan>& source_words) const {
    const CutText cut = cut_spans(sentence_, spans);
    const std::vector<TokenSpan> tokens = source_tokenizer_.encode_with_offsets(cut.text);
    if (tokens.size() + 1 != translation_.source_ids.size()) return std::nullopt;
    for (size_t t = 0; t < tokens.size(); ++t) {
      if (tokens[t].id != translation_.source_ids[t]) return std::nullopt;
    }
    const std::optional<std::vector<size_t>> offsets = offsets_in(cut.text, sentence_, spans);
    if (!offsets) return std::nullopt;
    std::vector<ByteRange> words;
    for (const WordSpan& word : source_words) {
      const ByteRange in_cut = trimmed(cut.text, tokens[word.begin].begin, tokens[word.end - 1].end);
      if (in_cut.begin == in_cut.end) {  // a piece of spaces alone: a word over nothing
        const size_t at = in_cut.begin < offsets->size() ? (*offsets)[in_cut.begin] : sentence_.size();
        words.push_back(ByteRange{at, at});
      } else {
        words.push_back(ByteRange{(*offsets)[in_cut.begin], (*offsets)[in_cut.end - 1] + 1});
      }
    }
    return words;
  }

  // Where each pass-through span goes and as what (place_pass_through, one span at a time).
  std::vector<Insertion> insertions(const std::vector<std::string>& source_pieces, const std::vector<int>& word_alignment) const {
    std::vector<Insertion> each;
    for (const PassThrough& span : source_.pass_through) {
      PreparedSource one = source_;
      one.pass_through = {span};
      each.push_back(place_pass_through(one, source_pieces, hypothesis_.pieces, word_alignment, languages_).at(0));
    }
    return each;
  }

  // The hypothesis' text cut into runs of pieces (a word without its trailing punctuation, cut
  // where an insertion goes inside it; the punctuation) and the insertions, in the order
  // insert_spans writes them, each found in the text. A word's units leave its punctuation out.
  std::optional<TargetUnits> target_units(const std::vector<Insertion>& placed) const {
    TargetUnits units;
    const std::vector<WordSpan> words = piece_words(hypothesis_.pieces);
    units.of_word.resize(words.size());
    units.of_insertion.resize(placed.size());
    std::vector<size_t> order(placed.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return placed[a].before_piece < placed[b].before_piece; });
    const std::string& text = hypothesis_.text;
    size_t at = 0;
    auto find = [&](const std::string& unit) -> bool {
      const ByteRange part = trimmed(unit, 0, unit.size());
      while (at < text.size() && is_html_space(text[at])) ++at;
      if (text.compare(at, part.end - part.begin, unit, part.begin, part.end - part.begin) != 0) return false;
      units.ranges.push_back(ByteRange{at, at + part.end - part.begin});
      at += part.end - part.begin;
      return true;
    };
    size_t next = 0;  // in order
    for (size_t w = 0; w < words.size(); ++w) {
      const int punctuation = punctuation_from(hypothesis_.pieces, words[w]);
      for (int p = words[w].begin; p < words[w].end;) {
        for (; next < order.size() && placed[order[next]].before_piece <= p; ++next) {
          if (!find(placed[order[next]].text)) return std::nullopt;
          units.of_insertion[order[next]] = static_cast<int>(units.ranges.size() - 1);
        }
        // A run ends at the word's end, its trailing punctuation or the next insertion inside it.
        int end = p < punctuation ? punctuation : words[w].end;
        if (next < order.size() && placed[order[next]].before_piece > p && placed[order[next]].before_piece < end) {
          end = placed[order[next]].before_piece;
        }
        if (!find(target_tokenizer_.decode(std::vector<int>(hypothesis_.ids.begin() + p, hypothesis_.ids.begin() + end)))) {
          return std::nullopt;
        }
        if (p < punctuation) units.of_word[w].push_back(static_cast<int>(units.ranges.size() - 1));
        p = end;
      }
    }
    for (; next < order.size(); ++next) {
      if (!find(placed[order[next]].text)) return std::nullopt;
      units.of_insertion[order[next]] = static_cast<int>(units.ranges.size() - 1);
    }
    if (!is_html_whitespace(std::string_view(text).substr(at))) return std::nullopt;
    return units;
  }

  std::string_view sentence_;
  const PreparedSource& source_;
  const Translation& translation_;
  const Hypothesis& hypothesis_;
  const Tokenizer& source_tokenizer_;
  const Tokenizer& target_tokenizer_;
  const LanguagePair languages_;
};

}  // namespace

SentenceAlignment sentence_alignment(std::string_view sentence, const PreparedSource& source,
                                     const Translation& translation, const Tokenizer& source_tokenizer,
                                     const Tokenizer& target_tokenizer, LanguagePair languages) {
  Aligner aligner(sentence, source, translation, source_tokenizer, target_tokenizer, languages);
  std::optional<SentenceAlignment> alignment = aligner.by_attention();
  return alignment ? std::move(*alignment) : aligner.by_position();
}

}  // namespace attend
