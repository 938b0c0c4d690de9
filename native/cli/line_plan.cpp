#include "line_plan.h"

#include "tokenizer/utf8.h"

namespace attend::cli {

bool is_blank(const std::string& line) {
  return line.find_first_not_of(" \t\r\f\v") == std::string::npos;
}

std::vector<DocumentSegment> plan_line(const Translator& translator, const std::string& line, CaptionRules rules,
                                       bool whole, PlanContext* context) {
  if (whole || find_invalid_utf8(line)) return {DocumentSegment{0, line.size(), true}};
  const PlanOptions plan = plan_options(translator, rules);
  return plan_document(line, sentence_breaks(line, plan.language), plan, context);
}

}  // namespace attend::cli
