// The WebAssembly module's C API (wasm/bindings.cpp, compiled natively here) as attend.mjs and
// the page drive it: the first line of the input is the options JSON (an embedding page's
// attributes end up there), the other lines the texts, translated with a step callback on a
// tiny model ($ATTEND_FUZZ_MODEL). The status must be success or invalid_argument,
// invalid_input or empty_input, never "internal" or another code; on success the JSON has
// one translation per text, and every translation that reports attention has its buffers.
// The texts joined are then cut as a document (attend_plan_document, the line ends as the
// caller's breaks: segments cover the text in order) and translated as HTML
// (attend_html_blocks, attend_translate_html without breaks), with the same allowed codes.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "bindings.h"
#include "fuzz_support.h"

namespace {

using attend::fuzz::require;

AttendSession* session(AttendStatus* status) {
  static AttendSession* loaded = [status] {
    const std::vector<uint8_t> file = attend::fuzz::read_fixture("ATTEND_FUZZ_MODEL");
    AttendBytes* bytes = attend_bytes_new(static_cast<uint32_t>(file.size()), status);
    std::copy(file.begin(), file.end(), attend_bytes_data(bytes));
    AttendSession* s = attend_session_load(bytes, 2, status);
    require(s != nullptr, "the fixture model did not load");
    return s;
  }();
  return loaded;
}

int texts_in_call = 0;  // what check_step's sentence indices must stay below

int check_step(int sentence, int, int, const char* piece, int piece_size, float, const float* cross, int src_len) {
  require(sentence >= 0 && sentence < texts_in_call, "a step event names no text of the call");
  require(piece != nullptr && piece_size >= 0, "a step event without its piece");
  require(cross == nullptr || src_len > 0, "cross-attention without a source length");
  return 1;
}

void check_result(const AttendResult* result, size_t texts) {
  const nlohmann::json all = nlohmann::json::parse(attend_result_json(result));
  require(all.is_array() && all.size() == texts, "not one translation per text");
  for (size_t i = 0; i < texts; ++i) {
    if (!all[i].contains("attention")) continue;
    for (int kind = 0; kind < 3; ++kind) {
      require(attend_result_attention(result, static_cast<int>(i), -1, kind) != nullptr, "attention reported, buffer missing");
      const size_t members = all[i]["attention"].value("members", nlohmann::json::array()).size();
      for (size_t m = 0; m < members; ++m) {
        require(attend_result_attention(result, static_cast<int>(i), static_cast<int>(m), kind) != nullptr,
                "a member's attention reported, buffer missing");
      }
    }
  }
}

bool allowed(const std::string& code) {
  return code.empty() || code == "invalid_argument" || code == "invalid_input" || code == "empty_input";
}

void check_plan(AttendSession* s, const std::string& text, const std::vector<uint32_t>& breaks, AttendStatus* status) {
  AttendResult* result = attend_plan_document(s, "{}", text.data(), static_cast<uint32_t>(text.size()), breaks.data(),
                                              static_cast<int>(breaks.size()), status);
  if (!allowed(attend_status_code(status))) attend::fuzz::fail(std::string("attend_plan_document: ") + attend_status_message(status));
  if (!result) return;
  size_t at = 0;
  for (const auto& segment : nlohmann::json::parse(attend_result_json(result))) {
    require(segment[0].get<size_t>() == at && segment[1].get<size_t>() > at, "plan segments do not cover the text in order");
    at = segment[1].get<size_t>();
  }
  require(at == text.size(), "plan segments stop before the end of the text");
  attend_result_free(result);
}

void check_html(AttendSession* s, const std::string& options, const std::string& html, AttendStatus* status) {
  AttendResult* blocks = attend_html_blocks(html.data(), static_cast<uint32_t>(html.size()), status);
  if (!allowed(attend_status_code(status))) attend::fuzz::fail(std::string("attend_html_blocks: ") + attend_status_message(status));
  if (!blocks) return;
  const size_t count = nlohmann::json::parse(attend_result_json(blocks)).size();
  attend_result_free(blocks);
  const std::vector<uint32_t> offsets(count + 1, 0);  // no breaks: a block's lines are its sentences
  texts_in_call = 1 << 30;
  AttendResult* result = attend_translate_html(s, options.c_str(), html.data(), static_cast<uint32_t>(html.size()),
                                               nullptr, offsets.data(), static_cast<int>(count), check_step, status);
  if (!allowed(attend_status_code(status))) attend::fuzz::fail(std::string("attend_translate_html: ") + attend_status_message(status));
  if (!result) return;
  const nlohmann::json translated = nlohmann::json::parse(attend_result_json(result));
  require(translated.contains("html") && translated["sentences"].is_array(), "an HTML result without html or sentences");
  attend_result_free(result);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<std::string> lines =
      attend::fuzz::split_lines(std::string_view(reinterpret_cast<const char*>(data), size));
  if (lines.empty()) return 0;
  std::string texts;
  std::vector<uint32_t> ends;
  for (size_t i = 1; i < lines.size(); ++i) {
    texts += lines[i];
    ends.push_back(static_cast<uint32_t>(texts.size()));
  }
  texts_in_call = static_cast<int>(ends.size());
  AttendStatus* status = attend_status_new();
  AttendResult* result = attend_translate(session(status), lines[0].c_str(), texts.data(), ends.data(),
                                          static_cast<int>(ends.size()), check_step, status);
  const std::string code = attend_status_code(status);
  if (result) {
    require(code.empty(), "a result with an error status");
    check_result(result, ends.size());
    attend_result_free(result);
  } else if (!allowed(code)) {
    attend::fuzz::fail("attend_translate: " + code + ": " + attend_status_message(status));
  }
  check_plan(session(status), texts, ends, status);
  check_html(session(status), lines[0], texts, status);
  attend_status_free(status);
  return 0;
}
