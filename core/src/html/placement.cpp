#include "html/placement.h"

#include <algorithm>

#include "html/html_text.h"
#include "text/words.h"

namespace attend {
namespace {

// `word` without the ASCII punctuation around it.
std::string_view bare(std::string_view word) { return slice(word, without_punctuation(word, ByteRange{0, word.size()})); }

bool intersects(const ByteRange& word, size_t begin, size_t end) { return word.begin < end && begin < word.end; }
bool strictly_inside(size_t at, const ByteRange& range) { return range.begin < at && at < range.end; }

class Placer {
 public:
  Placer(const SentenceAlignment& alignment, std::string_view sentence, std::string_view translation,
         const std::vector<ElementToPlace>& elements)
      : a_(alignment), sentence_(sentence), translation_(translation), elements_(elements), placed_(elements.size()), empty_(elements.size(), false),
        with_words_(elements.size() + 1) {}

  std::vector<ByteRange> place() {
    for (size_t k = 0; k < elements_.size(); ++k) {
      const std::vector<int> targets = targets_of(elements_[k]);
      if (targets.empty()) {
        empty_[k] = true;
      } else {
        place_over(k, with_closing_punctuation(elements_[k], ByteRange{a_.target[targets.front()].begin, a_.target[targets.back()].end}));
      }
    }
    for (size_t k = 0; k < elements_.size(); ++k) {  // after every element with words: they decide where the empty ones fit
      if (empty_[k]) place_empty(k);
    }
    return placed_;
  }

 private:
  // The target words aligned with the source words `e` covers, ascending.
  std::vector<int> targets_of(const ElementToPlace& e) const {
    std::vector<int> targets;
    for (size_t w = 0; w < a_.source.size(); ++w) {
      if (intersects(a_.source[w], e.begin, e.end)) targets.insert(targets.end(), a_.aligned[w].begin(), a_.aligned[w].end());
    }
    std::sort(targets.begin(), targets.end());
    return targets;
  }

  // `range` up to the translation's end if only punctuation and spaces follow it there and the
  // element ends with the sentence's closing punctuation ("<b>rides a bike.</b>").
  ByteRange with_closing_punctuation(const ElementToPlace& e, ByteRange range) const {
    if (e.end != sentence_.size() || e.end == e.begin || !is_ascii_punctuation(sentence_[e.end - 1])) return range;
    const std::string_view rest = translation_.substr(range.end);
    if (std::all_of(rest.begin(), rest.end(), [](char c) { return is_ascii_punctuation(c) || is_html_space(c); })) {
      range.end = translation_.find_last_not_of(" \t\n\r\f") + 1;
    }
    return range;
  }

  ByteRange parent_range(size_t k) const {
    return elements_[k].parent < 0 ? ByteRange{0, translation_.size()} : placed_[elements_[k].parent];
  }

  void place_over(size_t k, ByteRange range) {
    const ByteRange parent = parent_range(k);
    range.begin = std::max(range.begin, parent.begin);
    range.end = std::min(range.end, parent.end);
    if (range.begin >= range.end) range = parent;
    std::vector<size_t>& siblings = with_words_[elements_[k].parent + 1];
    for (const size_t s : siblings) {
      const ByteRange& sibling = placed_[s];
      if (!intersects(sibling, range.begin, range.end)) continue;
      if (range.end > sibling.end) {
        range = whole_words(ByteRange{sibling.end, range.end});
      } else if (range.begin < sibling.begin) {
        range = whole_words(ByteRange{range.begin, sibling.begin});
      } else {
        range = ByteRange{sibling.end, sibling.end};
      }
      if (range.begin >= range.end) range = ByteRange{sibling.end, sibling.end};
    }
    placed_[k] = range;
    siblings.push_back(k);
  }

  // The target words inside `range`, from the first one's start to the last one's end (empty if none).
  ByteRange whole_words(const ByteRange& range) const {
    bool any = false;
    ByteRange words{range.end, range.end};
    for (const ByteRange& word : a_.target) {  // in text order
      if (word.begin < range.begin || word.end > range.end) continue;
      if (!any) words.begin = word.begin;
      words.end = word.end;
      any = true;
    }
    return words;
  }

  void place_empty(size_t k) {
    const ElementToPlace& e = elements_[k];
    size_t at = 0;
    int before = -1;  // the last source word starting before the element with a target word
    for (size_t w = 0; w < a_.source.size(); ++w) {
      if (a_.source[w].begin < e.begin && !a_.aligned[w].empty()) before = static_cast<int>(w);
    }
    if (before >= 0) {
      at = a_.target[a_.aligned[before].back()].end;
      const bool after_space = e.begin > 0 && is_html_space(sentence_[e.begin - 1]);
      if (after_space && at < translation_.size() && is_html_space(translation_[at])) ++at;
    } else {
      for (size_t w = 0; w < a_.source.size(); ++w) {
        if (!a_.aligned[w].empty()) {
          at = a_.target[a_.aligned[w].front()].begin;
          break;
        }
      }
    }
    const ByteRange parent = parent_range(k);
    at = std::clamp(at, parent.begin, parent.end);
    for (const size_t s : with_words_[e.parent + 1]) {
      if (strictly_inside(at, placed_[s])) at = placed_[s].end;
    }
    placed_[k] = ByteRange{at, at};
  }

  const SentenceAlignment& a_;
  std::string_view sentence_, translation_;
  const std::vector<ElementToPlace>& elements_;
  std::vector<ByteRange> placed_;
  std::vector<bool> empty_;  // an element over no aligned word: placed after the others
  std::vector<std::vector<size_t>> with_words_;  // [parent + 1]: its children placed over words so far
};

}  // namespace

std::vector<ByteRange> place_elements(const SentenceAlignment& alignment, std::string_view sentence, std::string_view translation,
                                      const std::vector<ElementToPlace>& elements) {
  return Placer(alignment, sentence, translation, elements).place();
}

std::vector<std::vector<int>> proportional_alignment(size_t source_words, size_t target_words) {
  std::vector<std::vector<int>> aligned(source_words);
  if (target_words == 0) return aligned;
  for (size_t w = 0; w < source_words; ++w) aligned[w].push_back(static_cast<int>(w * target_words / source_words));
  return aligned;
}

std::vector<std::vector<int>> alignment_by_words(const std::vector<std::string_view>& source,
                                                 const std::vector<std::string_view>& target) {
  const size_t n = source.size(), m = target.size();
  const auto alike = [&](size_t i, size_t j) { return !bare(source[i]).empty() && bare(source[i]) == bare(target[j]); };
  // common[i][j]: the longest common subsequence of source[i..] and target[j..]
  std::vector<std::vector<int>> common(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      common[i][j] = alike(i, j) ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  std::vector<std::vector<int>> aligned(n);
  // The words of source [from_s, to_s) and target [from_t, to_t) between two pairs alike.
  const auto align_gap = [&](size_t from_s, size_t to_s, size_t from_t, size_t to_t, bool before_pair) {
    if (before_pair && from_s < to_s && from_t < to_t) aligned[--to_s].push_back(static_cast<int>(--to_t));
    const std::vector<std::vector<int>> spread = proportional_alignment(to_s - from_s, to_t - from_t);
    for (size_t k = 0; k < spread.size(); ++k) {
      for (const int t : spread[k]) aligned[from_s + k].push_back(static_cast<int>(from_t) + t);
    }
  };
  size_t from_s = 0, from_t = 0;
  for (size_t i = 0, j = 0; i < n && j < m;) {
    if (alike(i, j) && common[i][j] == common[i + 1][j + 1] + 1) {
      align_gap(from_s, i, from_t, j, true);
      aligned[i].push_back(static_cast<int>(j));
      from_s = ++i;
      from_t = ++j;
    } else if (common[i + 1][j] >= common[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  align_gap(from_s, n, from_t, m, false);
  return aligned;
}

}  // namespace attend
