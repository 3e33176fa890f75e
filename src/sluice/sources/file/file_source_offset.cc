#include "sluice/sources/file/file_source_offset.h"


#include <simdjson.h>

namespace sluice::sources {

std::string FileSourceOffsetJson(int64_t log_offset) {
  return "{\"logOffset\":" + std::to_string(log_offset) + "}";
}

arrow::Result<int64_t> ParseFileSourceOffset(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  int64_t value = 0;
  if (parser.parse(json.data(), json.size()).get(root) == simdjson::SUCCESS) {
    if (root.is_object() && root["logOffset"].get(value) == simdjson::SUCCESS) return value;
    if (root.get(value) == simdjson::SUCCESS) return value;
  }
  return arrow::Status::Invalid("Invalid conversion from offset of ", json,
                                " to FileStreamSourceOffset");
}

}  // namespace sluice::sources
