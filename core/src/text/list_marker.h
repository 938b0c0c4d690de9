// List markers at the start of a line, kept as they are when the line is translated.
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

}  // namespace attend
