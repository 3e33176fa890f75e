#pragma once

// Helpers of the relational operator tests: small tables built from C++ values, and results
// rendered one string per row ("v1|v2", nulls as "null", doubles in shortest form, arrays as
// "[1,2]") so expectations read like the rows Spark printed for the same query.

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <arrow/api.h>
#include <gtest/gtest.h>

#include "sluice/api/dataframe.h"
#include "sluice/api/session.h"

namespace sluice::testing {

inline std::shared_ptr<arrow::Array> Ints(const std::vector<std::optional<int32_t>>& values) {
  arrow::Int32Builder builder;
  for (const auto& v : values) {
    if (v) {
      EXPECT_TRUE(builder.Append(*v).ok());
    } else {
      EXPECT_TRUE(builder.AppendNull().ok());
    }
  }
  return builder.Finish().ValueOrDie();
}

inline std::shared_ptr<arrow::Array> Longs(const std::vector<std::optional<int64_t>>& values) {
  arrow::Int64Builder builder;
  for (const auto& v : values) {
    if (v) {
      EXPECT_TRUE(builder.Append(*v).ok());
    } else {
      EXPECT_TRUE(builder.AppendNull().ok());
    }
  }
  return builder.Finish().ValueOrDie();
}

inline std::shared_ptr<arrow::Array> Doubles(const std::vector<std::optional<double>>& values) {
  arrow::DoubleBuilder builder;
  for (const auto& v : values) {
    if (v) {
      EXPECT_TRUE(builder.Append(*v).ok());
    } else {
      EXPECT_TRUE(builder.AppendNull().ok());
    }
  }
  return builder.Finish().ValueOrDie();
}

inline std::shared_ptr<arrow::Array> Strings(
    const std::vector<std::optional<std::string>>& values) {
  arrow::StringBuilder builder;
  for (const auto& v : values) {
    if (v) {
      EXPECT_TRUE(builder.Append(*v).ok());
    } else {
      EXPECT_TRUE(builder.AppendNull().ok());
    }
  }
  return builder.Finish().ValueOrDie();
}

inline std::shared_ptr<arrow::Table> MakeTable(
    const std::vector<std::pair<std::string, std::shared_ptr<arrow::Array>>>& columns) {
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  for (const auto& [name, array] : columns) {
    fields.push_back(arrow::field(name, array->type()));
    arrays.push_back(array);
  }
  return arrow::Table::Make(arrow::schema(fields), arrays);
}

inline std::string RenderValue(const arrow::Array& array, int64_t i) {
  if (array.IsNull(i)) return "null";
  switch (array.type_id()) {
    case arrow::Type::DOUBLE:
    case arrow::Type::FLOAT: {
      const double v = array.type_id() == arrow::Type::DOUBLE
                           ? static_cast<const arrow::DoubleArray&>(array).Value(i)
                           : static_cast<const arrow::FloatArray&>(array).Value(i);
      if (std::isnan(v)) return "nan";
      char buffer[64];
      auto result = std::to_chars(buffer, buffer + sizeof(buffer), v);
      return std::string(buffer, result.ptr);
    }
    case arrow::Type::BOOL:
      return static_cast<const arrow::BooleanArray&>(array).Value(i) ? "true" : "false";
    case arrow::Type::STRING:
      return std::string(static_cast<const arrow::StringArray&>(array).GetView(i));
    case arrow::Type::LIST: {
      const auto& list = static_cast<const arrow::ListArray&>(array);
      std::string text = "[";
      for (int64_t k = list.value_offset(i); k < list.value_offset(i + 1); ++k) {
        if (k > list.value_offset(i)) text += ",";
        text += RenderValue(*list.values(), k);
      }
      return text + "]";
    }
    default:
      return array.GetScalar(i).ValueOrDie()->ToString();
  }
}

/// The rows of a collected DataFrame, rendered; sorted unless `keep_order`.
inline std::vector<std::string> Rows(const DataFrame& df, bool keep_order = false) {
  auto table = df.collect();
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  if (!table.ok()) return {};
  auto batch = (*table)->CombineChunksToBatch().ValueOrDie();
  std::vector<std::string> rows;
  for (int64_t i = 0; i < batch->num_rows(); ++i) {
    std::string row;
    for (int c = 0; c < batch->num_columns(); ++c) {
      if (c > 0) row += "|";
      row += RenderValue(*batch->column(c), i);
    }
    rows.push_back(std::move(row));
  }
  if (!keep_order) std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace sluice::testing
