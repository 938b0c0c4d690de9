// Translates a stream of lines in chunks (at most 16 × batch × threads lines at a time, fewer
// when the next line has not arrived yet), so input of any size streams, a line written by a program
// that then waits is answered, and output keeps input order. Each line is cut into sentences
// (attend/document.h; not with --no-split), all the chunk's sentences are translated together,
// and each line is put back together from its own. Empty or blank lines, and text without letters,
// are not sent to the model; a line the model rejects (invalid UTF-8, ...) is reported and the rest go on.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attend/model.h"
#include "attend/translator.h"
#include "line_plan.h"
#include "search_settings.h"

namespace attend::cli {

struct LineOutcome {
  size_t line = 0;  // 1-based
  const std::string* source = nullptr;
  std::string text;                             // the line's translation; "" for a blank or failed line
  std::vector<const Translation*> sentences;   // the line's sentences' translations, in order
  std::string error;                            // why the line failed, empty otherwise
};

struct LineSource {
  std::function<bool(std::string* line)> next;  // the next input line, or false at the end
  std::function<bool()> ready;                  // whether next() would return without waiting for input
};

// Gives the strings of `lines` (which must outlive the source) one by one.
LineSource vector_source(const std::vector<std::string>& lines);

// The translation of a line translated whole (--no-split, or one sentence), else null.
const Translation* whole_line(const LineOutcome& outcome);

// Calls on_line for every input line, in order. Returns how many lines failed.
size_t translate_lines(const LineSource& source, std::shared_ptr<const Model> model,
                       const SearchSettings& settings,
                       const std::function<void(const LineOutcome&)>& on_line);

}  // namespace attend::cli
