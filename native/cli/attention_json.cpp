// The attention JSON Lines writer. Strings go through nlohmann::json (escaping, invalid
// UTF-8 replaced by U+FFFD); the probability tensors are streamed as nested arrays with 6
// significant digits, which keeps files small and needs no DOM of the tensors.
#include "attention_json.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

namespace attend::cli {

namespace {

std::string json_string(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void write_number(std::ostream& out, float value) {
  if (!std::isfinite(value)) {
    out << "null";
    return;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  out << buffer;
}

// values is row-major with the given dims; writes [[...]] nested len(dims) deep.
void write_nested(std::ostream& out, const float* values, const std::vector<int>& dims,
                  size_t depth) {
  out << '[';
  size_t stride = 1;
  for (size_t d = depth + 1; d < dims.size(); ++d) stride *= static_cast<size_t>(dims[d]);
  for (int i = 0; i < dims[depth]; ++i) {
    if (i > 0) out << ',';
    if (depth + 1 == dims.size()) {
      write_number(out, values[i]);
    } else {
      write_nested(out, values + i * stride, dims, depth + 1);
    }
  }
  out << ']';
}

void write_tensor(std::ostream& out, const char* name, const std::vector<float>& values,
                  const std::vector<int>& dims) {
  size_t expected = 1;
  for (int d : dims) expected *= static_cast<size_t>(d);
  if (values.size() != expected) {
    throw std::logic_error(std::string("attention maps: ") + name + " holds " +
                           std::to_string(values.size()) + " values, its dimensions need " +
                           std::to_string(expected));
  }
  out << '"' << name << "\":";
  write_nested(out, values.data(), dims, 0);
}

// "encoder_layers":…,"decoder_layers":…,"heads":…,"attention":{"encoder":…,"decoder":…,"cross":…}
void write_maps(std::ostream& out, const AttentionMaps& maps) {
  const int enc = maps.encoder_layers, dec = maps.decoder_layers, heads = maps.heads;
  const int src = maps.src_len, tgt = maps.tgt_len;
  out << "\"encoder_layers\":" << enc << ",\"decoder_layers\":" << dec << ",\"heads\":" << heads
      << ",\"attention\":{";
  write_tensor(out, "encoder", maps.encoder, {enc, heads, src, src});
  out << ',';
  write_tensor(out, "decoder", maps.decoder, {dec, heads, tgt, tgt});
  out << ',';
  write_tensor(out, "cross", maps.cross, {dec, heads, tgt, src});
  out << '}';
}

}  // namespace

void write_attention_json(std::ostream& out, const AttentionRecord& record) {
  static const AttentionMaps kNothing;
  const AttentionMaps& maps = record.maps != nullptr ? *record.maps : kNothing;
  out << "{\"format\":\"attend-attention\",\"version\":" << kAttentionJsonVersion
      << ",\"line\":" << record.line << ",\"source_text\":" << json_string(record.source_text)
      << ",\"target_text\":" << json_string(record.target_text)
      << ",\"source_tokens\":" << json_string(maps.source_pieces)
      << ",\"target_tokens\":" << json_string(maps.target_pieces)
      << ",\"target_input_tokens\":" << json_string(maps.target_input_pieces) << ',';
  write_maps(out, maps);
  if (record.members != nullptr && !record.members->empty()) {
    out << ",\"attention_member\":" << record.attention_member + 1 << ",\"members\":[";
    for (size_t m = 0; m < record.members->size(); ++m) {
      out << (m > 0 ? ",{" : "{");
      write_maps(out, (*record.members)[m]);
      out << '}';
    }
    out << ']';
  }
  out << "}\n";
}

}  // namespace attend::cli
