// Faces: the emoticons and emoji people end a sentence with, often instead of a full stop
// ("We went to the park :) Their dog Max…", "The boy is happy 😀"). ICU sees no sentence end
// there, so the two sentences were translated as one and words were lost; and a face closing the
// source went before the model's final "." ("glücklich :)."). Hearts and other emoji are left
// out: they stand for words too ("I <3 New York", "I love 🍕").
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace attend {

// Whether `word` (no spaces; a , . ! or ? after it ignored) is a face: an ASCII emoticon but a
// heart (text/emoticons.h), or a run of face emoji (the blocks of faces and the gestures among them,
// 🙏 🤞: U+1F600–U+1F64F, U+1F910–U+1F92F, U+1F970–U+1F97A, U+1FAE0–U+1FAE8, ☹ ☺), each maybe with
// a variation selector, a skin tone or a joined ♀ ♂ ("🤦‍♂️").
bool is_face(std::string_view word);

// Whether every word of `text` (between spaces, text/words.h) is a face, and it has one.
bool only_faces(std::string_view text);

// Candidate sentence starts in `text` (valid UTF-8; byte offsets): each word that begins with an
// uppercase letter (A–Z, À–Þ) and follows a face and spaces ("park :) Their" breaks before
// "Their").
std::vector<size_t> breaks_after_faces(std::string_view text);

}  // namespace attend
