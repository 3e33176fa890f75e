#include "sluice/delta/merge_file_skipping.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <variant>

#include <arrow/array.h>
#include <arrow/chunked_array.h>
#include <arrow/scalar.h>
#include <arrow/type.h>
#include <simdjson.h>

#include "sluice/common/ascii.h"

namespace sluice::delta {

namespace {

/// The sorted distinct non-null values of one key, as integers or as strings.
using KeyValues = std::variant<std::vector<int64_t>, std::vector<std::string>>;

std::optional<KeyValues> SortedValues(const arrow::ChunkedArray& values) {
  const auto type = values.type()->id();
  if (arrow::is_integer(type)) {
    std::vector<int64_t> sorted;
    for (const auto& chunk : values.chunks()) {
      for (int64_t i = 0; i < chunk->length(); ++i) {
        if (chunk->IsNull(i)) continue;
        auto scalar = chunk->GetScalar(i);
        if (!scalar.ok()) return std::nullopt;
        auto as_int = (*scalar)->CastTo(arrow::int64());
        if (!as_int.ok()) return std::nullopt;
        sorted.push_back(static_cast<const arrow::Int64Scalar&>(**as_int).value);
      }
    }
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    return sorted;
  }
  if (type == arrow::Type::STRING) {
    std::vector<std::string> sorted;
    for (const auto& chunk : values.chunks()) {
      const auto& strings = static_cast<const arrow::StringArray&>(*chunk);
      for (int64_t i = 0; i < strings.length(); ++i) {
        if (!strings.IsNull(i)) sorted.emplace_back(strings.GetView(i));
      }
    }
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    return sorted;
  }
  return std::nullopt;
}

/// A file's bounds of one column; a missing bound is unbounded.
template <typename T>
struct Bounds {
  std::optional<T> min;
  std::optional<T> max;
};

template <typename T>
bool AnyWithin(const std::vector<T>& sorted, const Bounds<T>& bounds) {
  auto it = bounds.min ? std::lower_bound(sorted.begin(), sorted.end(), *bounds.min)
                       : sorted.begin();
  return it != sorted.end() && (!bounds.max || *it <= *bounds.max);
}

std::optional<int64_t> ParseInteger(std::string_view text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

/// The statistics of one file, parsed once.
class FileStatistics {
 public:
  explicit FileStatistics(const AddFile& file) {
    if (!file.stats) return;
    if (parser_.parse(*file.stats).get(root_) == simdjson::SUCCESS) parsed_ = true;
  }

  /// The value of `column` in the stats object `which` (minValues / maxValues).
  std::optional<simdjson::dom::element> Bound(const char* which, const std::string& column) {
    if (!parsed_) return std::nullopt;
    simdjson::dom::object values;
    if (root_[which].get(values) != simdjson::SUCCESS) return std::nullopt;
    for (auto field : values) {
      if (AsciiEqualsIgnoreCase(std::string(field.key), column)) return field.value;
    }
    return std::nullopt;
  }

 private:
  simdjson::dom::parser parser_;
  simdjson::dom::element root_;
  bool parsed_ = false;
};

std::optional<int64_t> IntegerOf(const std::optional<simdjson::dom::element>& element) {
  if (!element) return std::nullopt;
  int64_t value = 0;
  if (element->get(value) == simdjson::SUCCESS) return value;
  return std::nullopt;
}

std::optional<std::string> StringOf(const std::optional<simdjson::dom::element>& element) {
  if (!element) return std::nullopt;
  std::string_view value;
  if (element->get(value) == simdjson::SUCCESS) return std::string(value);
  return std::nullopt;
}

}  // namespace

std::vector<bool> FilesThatMayMatch(const std::vector<AddFile>& files,
                                    const std::vector<std::string>& partition_columns,
                                    const std::vector<MergeKey>& keys) {
  std::vector<bool> keep(files.size(), true);
  std::vector<std::pair<const MergeKey*, KeyValues>> usable;
  for (const auto& key : keys) {
    if (auto values = SortedValues(*key.source_values)) usable.emplace_back(&key, *values);
  }
  if (usable.empty()) return keep;
  for (size_t f = 0; f < files.size(); ++f) {
    const AddFile& file = files[f];
    FileStatistics statistics(file);
    for (const auto& [key, values] : usable) {
      // A partition column's value is the file's only value of it.
      const std::pair<std::string, std::optional<std::string>>* partition = nullptr;
      for (const auto& name : partition_columns) {
        if (!AsciiEqualsIgnoreCase(name, key->target_column)) continue;
        for (const auto& value : file.partition_values) {
          if (AsciiEqualsIgnoreCase(value.first, name)) partition = &value;
        }
      }
      bool may_match = true;
      if (const auto* integers = std::get_if<std::vector<int64_t>>(&values)) {
        Bounds<int64_t> bounds;
        if (partition != nullptr) {
          if (!partition->second || partition->second->empty()) {
            may_match = false;  // a null never equals a value
          } else {
            bounds.min = bounds.max = ParseInteger(*partition->second);
          }
        } else {
          bounds.min = IntegerOf(statistics.Bound("minValues", key->target_column));
          bounds.max = IntegerOf(statistics.Bound("maxValues", key->target_column));
        }
        may_match = may_match && AnyWithin(*integers, bounds);
      } else {
        const auto& strings = std::get<std::vector<std::string>>(values);
        Bounds<std::string> bounds;
        if (partition != nullptr) {
          if (!partition->second || partition->second->empty()) {
            may_match = false;  // Delta keeps an empty string partition value as null
          } else {
            bounds.min = bounds.max = *partition->second;
          }
        } else {
          // A string minimum is a prefix of the true one (never greater); a maximum is only
          // written when exact.
          bounds.min = StringOf(statistics.Bound("minValues", key->target_column));
          bounds.max = StringOf(statistics.Bound("maxValues", key->target_column));
        }
        may_match = may_match && AnyWithin(strings, bounds);
      }
      if (!may_match) {
        keep[f] = false;
        break;
      }
    }
  }
  return keep;
}

}  // namespace sluice::delta
