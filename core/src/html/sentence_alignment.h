// A translated sentence's words and its translation's words (as bytes of the texts) aligned by
// the cross-attention, for placing its inline elements (html/placement.h).
#pragma once

#include <string_view>

#include "attend/translator.h"
#include "caption/function_words.h"
#include "html/placement.h"
#include "tokenizer/tokenizer.h"

namespace attend {

// The words of `sentence` (what Translator::prepare made `source` of) and of the best
// hypothesis' text, aligned by alignment_attention + align_words (pipeline/alignment.h) over the
// pieces the model read and wrote. Each pass-through span of the source is a word of its own on
// both sides, aligned with itself. Without translation.attention, where the model read a stand-in
// (PassThrough::stand_in: "someone", a quotation's "S") or a span took a piece's place (a final
// full stop), or if the texts do not hold the pieces where expected, source and target words are
// cut at spaces and aligned by the words written alike and their positions (alignment_by_words).
// `languages`: the model file's, as the spans were placed (pipeline/pass_through.h).
SentenceAlignment sentence_alignment(std::string_view sentence, const PreparedSource& source,
                                     const Translation& translation, const Tokenizer& source_tokenizer,
                                     const Tokenizer& target_tokenizer, LanguagePair languages = {});

}  // namespace attend
