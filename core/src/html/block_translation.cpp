#include "html/block_translation.h"

#include <algorithm>
#include <string_view>

#include "attend/error.h"
#include "html/html_text.h"

namespace attend {
namespace {

bool strictly_inside(size_t at, size_t begin, size_t end) { return begin < at && at < end; }

struct Segment {
  size_t begin = 0, end = 0;          // of the block's text
  size_t out_begin = 0, out_end = 0;  // of the translated block's text
  int sentence = -1;                  // in sentences; -1: text kept (or a sentence translated into itself)
};

// One element of the translated block: an element of the source block, or the part of one in
// one segment.
struct Piece {
  size_t element = 0;
  size_t begin = 0, end = 0;  // of the block's text
  int parent = -1;            // in pieces
  int segment = -1;           // the segment it is a part of; -1 if the element is whole
  bool placed = false;        // by its sentence's alignment (in `segment`)
};

class BlockTranslator {
 public:
  BlockTranslator(const HtmlBlock& block, const std::vector<TranslatedSentence>& sentences)
      : block_(block), sentences_(sentences) {}

  HtmlBlock translate() {
    cut_segments();
    for (size_t k = 0; k < block_.elements.size(); ++k) add_pieces(k);
    std::vector<ByteRange> ranges(pieces_.size());
    for (size_t p = 0; p < pieces_.size(); ++p) {
      if (!pieces_[p].placed) ranges[p] = ByteRange{out_position(pieces_[p].begin), out_position(pieces_[p].end)};
    }
    std::vector<std::vector<size_t>> placed_in(segments_.size());
    for (size_t p = 0; p < pieces_.size(); ++p) {
      if (pieces_[p].placed) placed_in[pieces_[p].segment].push_back(p);
    }
    std::vector<int> local(pieces_.size(), -1);
    for (size_t s = 0; s < segments_.size(); ++s) {
      if (!placed_in[s].empty()) place_in(s, placed_in[s], local, ranges);
    }
    return written(ranges);
  }

 private:
  void cut_segments() {
    const std::string text = block_text(block_);  // what the sentences were cut from
    size_t at = 0;
    auto add = [&](size_t begin, size_t end, int sentence) {
      Segment segment{begin, end, out_.text.size(), 0, sentence};
      if (sentence >= 0 && sentences_[sentence].text == std::string_view(text).substr(begin, end - begin)) segment.sentence = -1;
      out_.text += sentence >= 0 ? sentences_[sentence].text : block_.text.substr(begin, end - begin);
      segment.out_end = out_.text.size();
      segments_.push_back(segment);
    };
    for (size_t s = 0; s < sentences_.size(); ++s) {
      const TranslatedSentence& sentence = sentences_[s];
      if (sentence.begin < at || sentence.end < sentence.begin || sentence.end > block_.text.size()) {
        throw Error(ErrorCode::invalid_argument, "translated sentence " + std::to_string(s) + " [" + std::to_string(sentence.begin) +
                                                     ", " + std::to_string(sentence.end) + ") is out of order or outside the block's " +
                                                     std::to_string(block_.text.size()) + " bytes");
      }
      if (sentence.begin > at) add(at, sentence.begin, -1);
      add(sentence.begin, sentence.end, static_cast<int>(s));
      at = sentence.end;
    }
    if (at < block_.text.size() || segments_.empty()) add(at, block_.text.size(), -1);
  }

  // The segment holding text position `at`: the first one ending after it, or the last one.
  size_t segment_of(size_t at) const {
    const auto s = std::partition_point(segments_.begin(), segments_.end(), [at](const Segment& segment) { return segment.end <= at; });
    return s == segments_.end() ? segments_.size() - 1 : static_cast<size_t>(s - segments_.begin());
  }

  bool inside_sentence(size_t at) const {
    const Segment& s = segments_[segment_of(at)];
    return s.sentence >= 0 && strictly_inside(at, s.begin, s.end);
  }

  // The first piece of element `parent` holding [begin, end] (its pieces follow each other in text order).
  int parent_piece(int parent, size_t begin, size_t end) const {
    if (parent < 0) return -1;
    const auto first = pieces_.begin() + first_piece_[parent];
    const auto last = pieces_.begin() + (static_cast<size_t>(parent) + 1 < first_piece_.size() ? first_piece_[parent + 1] : pieces_.size());
    const auto p = std::partition_point(first, last, [end](const Piece& piece) { return piece.end < end; });
    return static_cast<int>((p != last && p->begin <= begin ? p : first) - pieces_.begin());
  }

  void add_pieces(size_t k) {
    const HtmlElement& e = block_.elements[k];
    const size_t first = segment_of(e.begin);
    const size_t last = e.end > e.begin ? segment_of(e.end - 1) : first;
    const bool parent_split = e.parent >= 0 && split_[e.parent];
    split_.push_back(last > first && (inside_sentence(e.begin) || inside_sentence(e.end) || parent_split));
    first_piece_.push_back(static_cast<int>(pieces_.size()));
    if (!split_.back()) {
      add_piece(Piece{k, e.begin, e.end, parent_piece(e.parent, e.begin, e.end), -1});
      return;
    }
    for (size_t s = first; s <= last; ++s) {
      const size_t begin = std::max(e.begin, segments_[s].begin), end = std::min(e.end, segments_[s].end);
      add_piece(Piece{k, begin, end, parent_piece(e.parent, begin, end), static_cast<int>(s)});
    }
  }

  // Marks a piece placed if its sentence's alignment decides where it goes.
  void add_piece(Piece piece) {
    const size_t s = piece.segment >= 0 ? piece.segment : segment_of(piece.begin);
    const Segment& segment = segments_[s];
    const bool within = segment.begin <= piece.begin && piece.end <= segment.end;
    if (piece.parent >= 0 && pieces_[piece.parent].placed) {
      piece.placed = true;
      piece.segment = pieces_[piece.parent].segment;
    } else if (segment.sentence >= 0 && within &&
               (strictly_inside(piece.begin, segment.begin, segment.end) || strictly_inside(piece.end, segment.begin, segment.end))) {
      piece.placed = true;
      piece.segment = static_cast<int>(s);
    }
    pieces_.push_back(piece);
  }

  // Where text position `at` (not strictly inside a translated sentence) is in the translated block.
  size_t out_position(size_t at) const {
    const Segment& s = segments_[segment_of(at)];
    if (s.sentence < 0) return s.out_begin + (at - s.begin);
    return at == s.begin ? s.out_begin : s.out_end;
  }

  // The placed pieces `members` of sentence segment s, by its alignment. local[p]: the index of
  // piece p among its segment's members.
  void place_in(size_t s, const std::vector<size_t>& members, std::vector<int>& local, std::vector<ByteRange>& ranges) const {
    const Segment& segment = segments_[s];
    std::vector<ElementToPlace> elements;
    for (const size_t p : members) {
      const size_t begin = std::clamp(pieces_[p].begin, segment.begin, segment.end);
      const size_t end = std::clamp(pieces_[p].end, begin, segment.end);
      const int parent = pieces_[p].parent >= 0 ? local[pieces_[p].parent] : -1;  // -1: not placed, around the sentence
      local[p] = static_cast<int>(elements.size());
      elements.push_back(ElementToPlace{begin - segment.begin, end - segment.begin, parent});
    }
    const TranslatedSentence& sentence = sentences_[segment.sentence];
    const std::vector<ByteRange> placed =
        place_elements(sentence.alignment, std::string_view(block_.text).substr(segment.begin, segment.end - segment.begin),
                       sentence.text, elements);
    for (size_t m = 0; m < members.size(); ++m) {
      ranges[members[m]] = ByteRange{segment.out_begin + placed[m].begin, segment.out_begin + placed[m].end};
    }
  }

  // Parts of cut elements in text kept between sentences holding only whitespace and no other
  // element are left out: "<b>A.</b> <b>B.</b>", not "<b>A.</b><b> </b><b>B.</b>".
  std::vector<bool> left_out() const {
    std::vector<bool> out(pieces_.size(), false), has_children(pieces_.size(), false);
    for (size_t p = pieces_.size(); p-- > 0;) {  // children come after their parents
      const Piece& piece = pieces_[p];
      out[p] = split_[piece.element] && !piece.placed && segments_[piece.segment].sentence < 0 && !has_children[p] &&
               is_html_whitespace(std::string_view(block_.text).substr(piece.begin, piece.end - piece.begin));
      if (!out[p] && piece.parent >= 0) has_children[piece.parent] = true;
    }
    return out;
  }

  HtmlBlock written(const std::vector<ByteRange>& ranges) {
    const std::vector<bool> dropped = left_out();
    std::vector<int> index(pieces_.size(), -1);
    for (size_t p = 0; p < pieces_.size(); ++p) {
      if (dropped[p]) continue;
      HtmlElement element = block_.elements[pieces_[p].element];
      element.begin = ranges[p].begin;
      element.end = ranges[p].end;
      element.parent = pieces_[p].parent >= 0 ? index[pieces_[p].parent] : -1;
      index[p] = static_cast<int>(out_.elements.size());
      out_.elements.push_back(std::move(element));
    }
    return std::move(out_);
  }

  const HtmlBlock& block_;
  const std::vector<TranslatedSentence>& sentences_;
  HtmlBlock out_;
  std::vector<Segment> segments_;
  std::vector<Piece> pieces_;
  std::vector<bool> split_;        // [element]: cut into one piece per segment
  std::vector<int> first_piece_;   // [element]
};

}  // namespace

std::vector<size_t> element_edges(const HtmlBlock& block) {
  std::vector<size_t> edges;
  for (const HtmlElement& e : block.elements) {
    edges.push_back(e.begin);
    edges.push_back(e.end);
  }
  std::sort(edges.begin(), edges.end());
  return edges;
}

bool holds_markup(const std::vector<size_t>& edges, size_t begin, size_t end) {
  const auto after_begin = std::upper_bound(edges.begin(), edges.end(), begin);
  return after_begin != edges.end() && *after_begin < end;
}

HtmlBlock translate_block(const HtmlBlock& block, const std::vector<TranslatedSentence>& sentences) {
  return BlockTranslator(block, sentences).translate();
}

}  // namespace attend
