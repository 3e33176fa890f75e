#include "sluice/physical/sort_indices.h"

#include <cmath>
#include <string>

#include <arrow/builder.h>
#include <arrow/compute/api.h>
#include <arrow/record_batch.h>

namespace sluice::physical {

namespace {

namespace cp = arrow::compute;

// For a floating point key: true where the value is NaN (null where it is null), so sorting by
// it first puts NaN above every number, as Spark orders them.
template <typename ArrayType>
arrow::Result<std::shared_ptr<arrow::Array>> NaNFlags(const arrow::Array& values,
                                                      arrow::MemoryPool* pool) {
  const auto& typed = static_cast<const ArrayType&>(values);
  arrow::BooleanBuilder builder(pool);
  ARROW_RETURN_NOT_OK(builder.Reserve(values.length()));
  for (int64_t i = 0; i < values.length(); ++i) {
    if (typed.IsNull(i)) {
      builder.UnsafeAppendNull();
    } else {
      builder.UnsafeAppend(std::isnan(typed.Value(i)));
    }
  }
  return builder.Finish();
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::UInt64Array>> SortIndices(const std::vector<SortColumn>& keys,
                                                               int64_t num_rows,
                                                               arrow::MemoryPool* pool) {
  arrow::FieldVector fields;
  arrow::ArrayVector columns;
  std::vector<cp::SortKey> sort_keys;
  auto add = [&](std::shared_ptr<arrow::Array> column, bool ascending, bool nulls_first) {
    const std::string name = "k" + std::to_string(columns.size());
    fields.push_back(arrow::field(name, column->type()));
    columns.push_back(std::move(column));
    sort_keys.emplace_back(arrow::FieldRef(name),
                           ascending ? cp::SortOrder::Ascending : cp::SortOrder::Descending,
                           nulls_first ? cp::NullPlacement::AtStart : cp::NullPlacement::AtEnd);
  };
  for (const auto& key : keys) {
    const auto id = key.values->type_id();
    if (id == arrow::Type::DOUBLE) {
      ARROW_ASSIGN_OR_RAISE(auto flags, NaNFlags<arrow::DoubleArray>(*key.values, pool));
      add(std::move(flags), key.ascending, key.nulls_first);
    } else if (id == arrow::Type::FLOAT) {
      ARROW_ASSIGN_OR_RAISE(auto flags, NaNFlags<arrow::FloatArray>(*key.values, pool));
      add(std::move(flags), key.ascending, key.nulls_first);
    }
    add(key.values, key.ascending, key.nulls_first);
  }
  auto key_batch = arrow::RecordBatch::Make(arrow::schema(fields), num_rows, std::move(columns));
  cp::ExecContext exec(pool);
  ARROW_ASSIGN_OR_RAISE(auto indices, cp::SortIndices(arrow::Datum(key_batch),
                                                      cp::SortOptions(sort_keys), &exec));
  return std::static_pointer_cast<arrow::UInt64Array>(indices);
}

}  // namespace sluice::physical
