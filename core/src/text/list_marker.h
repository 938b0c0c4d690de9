// List markers at the start of a line, and enumerators at the start of a sentence inside one, kept
// as they are when the line is translated.
#pragma once

#include <cstddef>
#include <string_view>

namespace attend {

// Bytes of the list marker and the spaces after it at the start of `line` (its indentation
// already skipped), or 0: a bullet ("-", "*", "+", "•", "◦", "▪", "‣", "–", "—", "·"), a
// number or one lowercase letter followed by "." or ")" ("1.", "12)", "a)"), a number in
// parentheses ("(3)"), or a Markdown heading ("#" to "######", before a letter: "# 8 for
// Iowa" is a number sign). The marker must be followed by a space or tab.
size_t list_marker_length(std::string_view line);

// Bytes of an enumerator that opens a sentence inside a line and the spaces after it ("2) A girl
// jumps." of "1) Children play. 2) A girl jumps."): a number or one lowercase letter followed by
// ")", or a number in parentheses ("(3)"); 0 for anything else ("2." or a dash there is text: a
// count, a pause). The models read "2) A girl jumps." as "Zwei Mädchen springen."
size_t enumerator_length(std::string_view sentence);

}  // namespace attend
