// Writes captured attention as JSON Lines: one object per input line, schema in
// docs/attention-json.md (format "attend-attention", version 1).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "attend/translator.h"

namespace attend::cli {

constexpr int kAttentionJsonVersion = 1;

struct AttentionRecord {
  size_t line = 0;  // 1-based input line number
  std::string source_text;
  std::string target_text;
  const AttentionMaps* maps = nullptr;  // null: nothing was translated (empty or failed line)
  // An ensemble's maps of every member (maps is members[attention_member]); null for one model.
  const std::vector<AttentionMaps>* members = nullptr;
  int attention_member = 0;  // from 0
};

// Writes the record as one line of JSON. Throws std::logic_error when the maps' sizes do
// not match their dimensions.
void write_attention_json(std::ostream& out, const AttentionRecord& record);

}  // namespace attend::cli
