#include "sluice/sources/long_offset.h"

#include <charconv>

#include <arrow/status.h>

namespace sluice::sources {

std::string LongOffsetJson(int64_t offset) { return std::to_string(offset); }

arrow::Result<int64_t> ParseLongOffset(std::string_view json,
                                       std::string_view source_description) {
  std::string_view text = json;
  while (!text.empty() && (text.front() == ' ' || text.front() == '\n')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.remove_suffix(1);
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return arrow::Status::Invalid("The offset '", json, "' of ", source_description,
                                  " is not a number: the checkpoint's offsets log does not "
                                  "belong to this source.");
  }
  return value;
}

arrow::Result<LongOffsetRange> ParseLongOffsetRange(const std::optional<std::string>& start,
                                                    std::string_view end,
                                                    std::string_view source_description,
                                                    int64_t first_start) {
  LongOffsetRange range{first_start, 0};
  if (start) {
    ARROW_ASSIGN_OR_RAISE(range.start, ParseLongOffset(*start, source_description));
  }
  ARROW_ASSIGN_OR_RAISE(range.end, ParseLongOffset(end, source_description));
  return range;
}

}  // namespace sluice::sources
