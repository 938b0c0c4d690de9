// plan_document and assemble_document (attend/document.h).
#include <algorithm>
#include <string>

#include "attend/document.h"
#include "attend/error.h"
#include "text/faces.h"
#include "text/false_break.h"
#include "text/letters.h"
#include "text/list_marker.h"

namespace attend {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

bool is_utf8_start(std::string_view text, size_t at) {
  return at == text.size() || (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80;
}

class Planner {
 public:
  Planner(std::string_view text, const std::vector<size_t>& breaks, const PlanOptions& options, PlanContext* context)
      : text_(text), breaks_(breaks), options_(options), context_(context != nullptr ? context : &own_context_) {
    const std::vector<size_t> after_faces = breaks_after_faces(text_);
    breaks_.insert(breaks_.end(), after_faces.begin(), after_faces.end());
    std::sort(breaks_.begin(), breaks_.end());
    breaks_.erase(std::unique(breaks_.begin(), breaks_.end()), breaks_.end());
  }

  std::vector<DocumentSegment> plan() {
    for (size_t line = 0; line < text_.size();) {
      const size_t newline = text_.find('\n', line);
      const size_t next = newline == std::string_view::npos ? text_.size() : newline + 1;
      plan_line(line, next);
      line = next;
    }
    return std::move(segments_);
  }

 private:
  // Line [begin, next): indentation and list marker kept, sentences, trailing whitespace kept.
  void plan_line(size_t begin, size_t next) {
    size_t content = begin;
    while (content < next && is_blank(text_[content])) ++content;
    content += list_marker_length(text_.substr(content, next - content));
    size_t end = next;
    while (end > content && (is_blank(text_[end - 1]) || text_[end - 1] == '\n')) --end;
    keep(begin, content);
    size_t sentence = content;
    auto candidate = std::upper_bound(breaks_.begin(), breaks_.end(), content);
    for (; candidate != breaks_.end() && *candidate < end; ++candidate) {
      const size_t at = *candidate;
      if (!is_utf8_start(text_, at)) continue;
      if (is_false_break(text_.substr(sentence, at - sentence), text_.substr(at, end - at), options_.language)) continue;
      plan_sentence(sentence, at);
      sentence = at;
    }
    plan_sentence(sentence, end);
    keep(end, next);
  }

  // [begin, end): a sentence and the whitespace around it (before it only where a caller's
  // break fell before a space); a label or greeting it opens with a sentence of its own
  // ("Opening hours: Monday to Friday, …", "Hi Tom, thanks …"), one after another.
  void plan_sentence(size_t begin, size_t end) {
    for (size_t opening = opening_before(begin, end); opening != 0; opening = opening_before(begin, end)) {
      plan_whole_sentence(begin, opening);
      begin = opening;
    }
    plan_whole_sentence(begin, end);
  }

  // Where the words of the sentence in [begin, end) begin: after the blanks and an enumerator
  // ("2) " of "1) … 2) A girl jumps.") and the blanks after it ("\f" after its space).
  size_t words_begin(size_t begin, size_t end) const {
    while (begin < end && is_blank(text_[begin])) ++begin;
    begin += enumerator_length(text_.substr(begin, end - begin));
    while (begin < end && is_blank(text_[begin])) ++begin;
    return begin;
  }

  // Where the label or greeting the sentence in [begin, end) opens with ends (PlanPhrases), or 0.
  size_t opening_before(size_t begin, size_t end) const {
    if (!options_.phrases.opening_length) return 0;
    begin = words_begin(begin, end);
    const size_t length = options_.phrases.opening_length(text_.substr(begin, end - begin));
    return length == 0 ? 0 : begin + length;
  }

  // [begin, end) as plan_sentence's, its openings cut off already.
  void plan_whole_sentence(size_t begin, size_t end) {
    const size_t first = begin;
    begin = words_begin(begin, end);
    keep(first, begin);
    size_t last = end;
    while (last > begin && is_blank(text_[last - 1])) --last;
    const std::string_view sentence = text_.substr(begin, last - begin);
    if (!contains_letter(sentence)) {
      keep(begin, end);
      return;
    }
    const PlanPhrases& phrases = options_.phrases;
    const bool signature = context_->after_closing && phrases.is_signature && phrases.is_signature(sentence);
    context_->after_closing = phrases.closes_letter && phrases.closes_letter(sentence);
    if (signature) {
      keep(begin, end);
      return;
    }
    const SentenceFit fit = options_.check ? options_.check(sentence) : SentenceFit::whole;
    if (fit == SentenceFit::empty) {
      keep(begin, end);
      return;
    }
    if (fit == SentenceFit::too_long) {
      const size_t cut = cut_point(begin, last);
      if (cut > begin && cut < last) {
        plan_sentence(begin, cut);
        plan_sentence(cut, end);
        return;
      }
    }
    segments_.push_back(DocumentSegment{begin, last, true});
    keep(last, end);
  }

  // Where to cut [begin, end) in two: after the clause mark (", ; :") nearest the middle, else
  // after the space nearest it, else at the character boundary nearest it.
  size_t cut_point(size_t begin, size_t end) const {
    const size_t middle = begin + (end - begin) / 2;
    size_t best = 0, best_distance = std::string_view::npos;
    for (const bool clauses_only : {true, false}) {
      for (size_t i = begin + 1; i < end; ++i) {
        const bool after_space = is_blank(text_[i - 1]) && !is_blank(text_[i]);
        const bool after_clause = after_space && i >= begin + 2 && std::string_view(",;:").find(text_[i - 2]) != std::string_view::npos;
        if (!(clauses_only ? after_clause : after_space)) continue;
        const size_t distance = i > middle ? i - middle : middle - i;
        if (distance < best_distance) best = i, best_distance = distance;
      }
      if (best != 0) return best;
    }
    size_t at = middle;
    while (at > begin && !is_utf8_start(text_, at)) --at;
    return at;
  }

  void keep(size_t begin, size_t end) {
    if (begin == end) return;
    if (!segments_.empty() && !segments_.back().translate && segments_.back().end == begin) {
      segments_.back().end = end;
    } else {
      segments_.push_back(DocumentSegment{begin, end, false});
    }
  }

  std::string_view text_;
  std::vector<size_t> breaks_;
  const PlanOptions& options_;
  std::vector<DocumentSegment> segments_;
  PlanContext own_context_;
  PlanContext* context_;
};

}  // namespace

std::vector<DocumentSegment> plan_document(std::string_view text, const std::vector<size_t>& breaks,
                                           const PlanOptions& options, PlanContext* context) {
  return Planner(text, breaks, options, context).plan();
}

std::string assemble_document(std::string_view text, const std::vector<DocumentSegment>& segments,
                              const std::vector<std::string>& translations) {
  const auto sentences = std::count_if(segments.begin(), segments.end(), [](const DocumentSegment& s) { return s.translate; });
  if (static_cast<size_t>(sentences) != translations.size()) {
    throw Error(ErrorCode::invalid_argument, std::to_string(translations.size()) + " translations for a document of " +
                                                 std::to_string(sentences) + " sentences");
  }
  std::string out;
  size_t next = 0;
  for (const DocumentSegment& segment : segments) {
    if (segment.translate) {
      out += translations[next++];
    } else {
      out.append(text.substr(segment.begin, segment.end - segment.begin));
    }
  }
  return out;
}

}  // namespace attend
