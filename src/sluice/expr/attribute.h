#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

namespace sluice::expr {

/// One output column of a plan: its name, type and nullability, the qualifiers it can be reached
/// by (a table or DataFrame alias), and an id that stays the same through projections that keep
/// the column, so `df["a"]` still finds it after a join of `df` with itself.
struct Attribute {
  std::string name;
  std::shared_ptr<arrow::DataType> type;
  bool nullable = true;
  int64_t id = 0;
  std::vector<std::string> qualifier;
  /// Spark's spark.watermarkDelayMs metadata: set on the event-time column by withWatermark
  /// (and on a time window over it), kept by every operator that passes the column through.
  /// Stateful operators find the keys they can evict by it.
  std::optional<int64_t> event_time_delay_ms = std::nullopt;
};

using AttributeList = std::vector<Attribute>;

/// The Arrow schema of a list of attributes (names, types, nullability).
std::shared_ptr<arrow::Schema> ToSchema(const AttributeList& attributes);

}  // namespace sluice::expr
