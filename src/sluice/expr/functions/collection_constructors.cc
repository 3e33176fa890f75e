// Spark's collection constructors: array(...), struct(...), named_struct(...), map(...) /
// create_map(...) and map_from_arrays. Values are interleaved with one vectorized take per call.
#include <arrow/array/concatenate.h>
#include <arrow/compute/api.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/collection_function_groups.h"
#include "sluice/expr/type_coercion.h"
#include "sluice/types/spark_types.h"

namespace sluice::expr {

namespace cp = arrow::compute;

namespace {

arrow::Status DiffTypes(const CallSite& call, const std::vector<BoundExprPtr>& args) {
  std::string listed;
  for (size_t i = 0; i < args.size(); ++i) {
    listed += (i ? ", " : "") + std::string("\"") + SqlTypeName(*args[i]->type()) + "\"";
  }
  return DataTypeMismatch(call, "DATA_DIFF_TYPES",
                          "Input to `" + call.name + "` should all be the same type, but it's [" +
                              listed + "].");
}

// The common type of `args`, with every argument cast to it; null type when there are none.
arrow::Result<std::shared_ptr<arrow::DataType>> CommonArgumentType(
    const CallSite& call, std::vector<BoundExprPtr>* args) {
  if (args->empty()) return arrow::null();
  std::vector<std::shared_ptr<arrow::DataType>> types;
  for (const auto& arg : *args) types.push_back(arg->type());
  auto type = CommonType(types);
  if (type == nullptr) return DiffTypes(call, *args);
  for (auto& arg : *args) {
    ARROW_ASSIGN_OR_RAISE(arg, MakeCast(arg, type, CastKind::kImplicit, *call.config));
  }
  return type;
}

// Row-major interleaving of `columns` (each num_rows long): row 0's values, then row 1's, ...
arrow::Result<std::shared_ptr<arrow::Array>> Interleave(
    const std::vector<arrow::Datum>& columns, const std::shared_ptr<arrow::DataType>& type,
    int64_t num_rows, arrow::MemoryPool* pool) {
  const int64_t width = static_cast<int64_t>(columns.size());
  if (width == 0) return arrow::MakeEmptyArray(type, pool);
  arrow::ArrayVector arrays;
  for (const auto& column : columns) {
    ARROW_ASSIGN_OR_RAISE(auto array, CollectionArgumentArray(column, num_rows, pool));
    arrays.push_back(std::move(array));
  }
  if (width == 1) return arrays[0];
  ARROW_ASSIGN_OR_RAISE(auto all, arrow::Concatenate(arrays, pool));
  arrow::Int64Builder indices(pool);
  ARROW_RETURN_NOT_OK(indices.Reserve(width * num_rows));
  for (int64_t row = 0; row < num_rows; ++row) {
    for (int64_t j = 0; j < width; ++j) indices.UnsafeAppend(j * num_rows + row);
  }
  ARROW_ASSIGN_OR_RAISE(auto index_array, indices.Finish());
  ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(all, index_array));
  return taken.make_array();
}

arrow::Result<std::shared_ptr<arrow::Buffer>> FixedOffsets(int64_t num_rows, int32_t width,
                                                           arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto offsets,
                        arrow::AllocateBuffer((num_rows + 1) * sizeof(int32_t), pool));
  auto* data = reinterpret_cast<int32_t*>(offsets->mutable_data());
  for (int64_t i = 0; i <= num_rows; ++i) data[i] = static_cast<int32_t>(i * width);
  return std::shared_ptr<arrow::Buffer>(std::move(offsets));
}

arrow::Result<ResolvedCall> ResolveArray(CallSite call) {
  ResolvedCall resolved;
  resolved.args = call.args;
  ARROW_ASSIGN_OR_RAISE(auto element, CommonArgumentType(call, &resolved.args));
  const bool contains_null = resolved.args.empty() ? false : AnyNullable(resolved.args);
  auto type = types::MakeArrayType(element, contains_null || element->id() == arrow::Type::NA);
  resolved.return_type = type;
  resolved.nullable = false;
  resolved.kernel = [type, element](const std::vector<arrow::Datum>& args,
                                    const EvalContext& context,
                                    int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto values, Interleave(args, element, num_rows, context.pool));
    ARROW_ASSIGN_OR_RAISE(auto offsets, FixedOffsets(num_rows, static_cast<int32_t>(args.size()),
                                                     context.pool));
    return arrow::Datum(std::make_shared<arrow::ListArray>(type, num_rows, offsets, values));
  };
  return resolved;
}

Kernel StructKernel(std::shared_ptr<arrow::DataType> type, std::vector<size_t> value_indices) {
  return [type, value_indices](const std::vector<arrow::Datum>& args, const EvalContext& context,
                               int64_t num_rows) -> arrow::Result<arrow::Datum> {
    arrow::ArrayVector children;
    for (size_t index : value_indices) {
      ARROW_ASSIGN_OR_RAISE(auto array,
                            CollectionArgumentArray(args[index], num_rows, context.pool));
      children.push_back(std::move(array));
    }
    return arrow::Datum(
        std::make_shared<arrow::StructArray>(type, num_rows, std::move(children)));
  };
}

// struct(a, b.c, 1): fields named after columns and struct fields, otherwise col1, col2, ...
arrow::Result<ResolvedCall> ResolveStruct(CallSite call) {
  if (call.args.empty()) {
    return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                      "The `struct` requires > 0 parameters but the actual number is 0.");
  }
  arrow::FieldVector fields;
  std::vector<size_t> indices;
  for (size_t i = 0; i < call.args.size(); ++i) {
    const auto& arg = call.args[i];
    std::string name = "col" + std::to_string(i + 1);
    if (arg->kind() == BoundKind::kColumn) {
      name = arg->sql();
    } else if (auto field = StructFieldName(*arg)) {
      name = *field;
    }
    fields.push_back(arrow::field(name, arg->type(), arg->nullable()));
    indices.push_back(i);
  }
  ResolvedCall resolved;
  resolved.args = call.args;
  resolved.return_type = arrow::struct_(fields);
  resolved.nullable = false;
  resolved.kernel = StructKernel(resolved.return_type, indices);
  return resolved;
}

arrow::Result<ResolvedCall> ResolveNamedStruct(CallSite call) {
  if (call.args.empty() || call.args.size() % 2 != 0) {
    return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                      "The `named_struct` requires 2n (n > 0) parameters but the actual number "
                      "is " + std::to_string(call.args.size()) + ".");
  }
  arrow::FieldVector fields;
  std::vector<size_t> indices;
  for (size_t i = 0; i < call.args.size(); i += 2) {
    const arrow::Scalar* name = ConstantArgument(call, i);
    if (name == nullptr || name->type->id() != arrow::Type::STRING || !name->is_valid) {
      return DataTypeMismatch(call, "CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING",
                              "Only foldable `STRING` expressions are allowed to appear at odd "
                              "position, but they are [\"" + call.args[i]->sql() + "\"].");
    }
    const auto& value = call.args[i + 1];
    fields.push_back(arrow::field(
        std::string(static_cast<const arrow::StringScalar&>(*name).view()), value->type(),
        value->nullable()));
    indices.push_back(i + 1);
  }
  ResolvedCall resolved;
  resolved.args = call.args;
  resolved.return_type = arrow::struct_(fields);
  resolved.nullable = false;
  resolved.kernel = StructKernel(resolved.return_type, indices);
  return resolved;
}

arrow::Status NullMapKey() {
  return SparkError("NULL_MAP_KEY", "Cannot use null as map key.");
}

arrow::Status DuplicateMapKey(const arrow::Array& keys, int64_t index) {
  auto scalar = keys.GetScalar(index);
  const std::string shown = scalar.ok() ? (*scalar)->ToString() : "?";
  return SparkError("DUPLICATED_MAP_KEY",
                    "Duplicate map key " + shown +
                        " was found, please check the input data. If you want to remove the "
                        "duplicated keys, you can set \"spark.sql.mapKeyDedupPolicy\" to "
                        "\"LAST_WIN\" so that the key inserted at last takes precedence.");
}

// Fails with DUPLICATED_MAP_KEY when two keys of one map (per `offsets`) are equal.
arrow::Status CheckDistinctKeys(const arrow::Array& keys, const int32_t* offsets,
                                int64_t num_rows) {
  if (keys.type_id() == arrow::Type::NA) return arrow::Status::OK();
  int64_t widest = 0;
  for (int64_t row = 0; row < num_rows; ++row) {
    widest = std::max<int64_t>(widest, offsets[row + 1] - offsets[row]);
  }
  if (widest < 2) return arrow::Status::OK();
  // Sort each map's keys and compare neighbours: sort by (row, key).
  std::vector<int64_t> rows;
  rows.reserve(keys.length());
  for (int64_t row = 0; row < num_rows; ++row) {
    for (int32_t j = offsets[row]; j < offsets[row + 1]; ++j) rows.push_back(row);
  }
  auto values = keys.Slice(offsets[0], offsets[num_rows] - offsets[0]);
  auto row_array = std::make_shared<arrow::Int64Array>(
      static_cast<int64_t>(rows.size()), arrow::Buffer::Wrap(rows));
  auto batch = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("row", arrow::int64()), arrow::field("key", values->type())}),
      values->length(), {row_array, values});
  ARROW_ASSIGN_OR_RAISE(auto order,
                        cp::SortIndices(arrow::Datum(batch),
                                        cp::SortOptions({cp::SortKey("row"), cp::SortKey("key")})));
  ARROW_ASSIGN_OR_RAISE(auto sorted, cp::Take(values, order));
  auto sorted_array = sorted.make_array();
  const auto& indices = static_cast<const arrow::UInt64Array&>(*order);
  for (int64_t i = 1; i < sorted_array->length(); ++i) {
    if (rows[indices.Value(i)] != rows[indices.Value(i - 1)]) continue;
    ARROW_ASSIGN_OR_RAISE(auto a, sorted_array->GetScalar(i));
    ARROW_ASSIGN_OR_RAISE(auto b, sorted_array->GetScalar(i - 1));
    if (a->Equals(*b)) return DuplicateMapKey(*sorted_array, i);
  }
  return arrow::Status::OK();
}

arrow::Result<std::shared_ptr<arrow::Array>> BuildMap(
    const std::shared_ptr<arrow::DataType>& type, int64_t num_rows,
    std::shared_ptr<arrow::Buffer> offsets, std::shared_ptr<arrow::Array> keys,
    std::shared_ptr<arrow::Array> values, std::shared_ptr<arrow::Buffer> validity,
    int64_t null_count) {
  if (keys->null_count() > 0 && keys->type_id() != arrow::Type::NA) return NullMapKey();
  ARROW_RETURN_NOT_OK(CheckDistinctKeys(*keys, reinterpret_cast<const int32_t*>(offsets->data()),
                                        num_rows));
  const auto& map_type = static_cast<const arrow::MapType&>(*type);
  auto entries = std::make_shared<arrow::StructArray>(
      map_type.value_type(), keys->length(), arrow::ArrayVector{keys, values});
  return std::make_shared<arrow::MapArray>(type, num_rows, std::move(offsets), entries,
                                           std::move(validity), null_count);
}

arrow::Result<ResolvedCall> ResolveMap(CallSite call) {
  if (call.args.size() % 2 != 0) {
    return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                      "The `" + call.name + "` requires 2n (n > 0) parameters but the actual "
                      "number is " + std::to_string(call.args.size()) + ".");
  }
  std::vector<BoundExprPtr> keys, values;
  for (size_t i = 0; i < call.args.size(); i += 2) {
    keys.push_back(call.args[i]);
    values.push_back(call.args[i + 1]);
  }
  ARROW_ASSIGN_OR_RAISE(auto key_type, CommonArgumentType(call, &keys));
  ARROW_ASSIGN_OR_RAISE(auto value_type, CommonArgumentType(call, &values));
  if (key_type->id() == arrow::Type::MAP) {
    return DataTypeMismatch(call, "INVALID_MAP_KEY_TYPE",
                            "The input of map key cannot be \"" + SqlTypeName(*key_type) + "\".");
  }
  ResolvedCall resolved;
  for (size_t i = 0; i < keys.size(); ++i) {
    resolved.args.push_back(keys[i]);
    resolved.args.push_back(values[i]);
  }
  const bool value_nulls = values.empty() ? false : AnyNullable(values);
  auto type = types::MakeMapType(key_type, value_type,
                                 value_nulls || value_type->id() == arrow::Type::NA);
  resolved.return_type = type;
  resolved.nullable = false;
  resolved.can_fail = !keys.empty();
  resolved.kernel = [type, key_type, value_type](const std::vector<arrow::Datum>& args,
                                                 const EvalContext& context,
                                                 int64_t num_rows) -> arrow::Result<arrow::Datum> {
    std::vector<arrow::Datum> key_columns, value_columns;
    for (size_t i = 0; i < args.size(); i += 2) {
      key_columns.push_back(args[i]);
      value_columns.push_back(args[i + 1]);
    }
    ARROW_ASSIGN_OR_RAISE(auto keys, Interleave(key_columns, key_type, num_rows, context.pool));
    ARROW_ASSIGN_OR_RAISE(auto values,
                          Interleave(value_columns, value_type, num_rows, context.pool));
    ARROW_ASSIGN_OR_RAISE(auto offsets,
                          FixedOffsets(num_rows, static_cast<int32_t>(key_columns.size()),
                                       context.pool));
    ARROW_ASSIGN_OR_RAISE(auto map, BuildMap(type, num_rows, offsets, keys, values, nullptr, 0));
    return arrow::Datum(map);
  };
  return resolved;
}

// map_from_arrays(keys, values): null when either array is null; arrays of different lengths
// fail.
arrow::Result<ResolvedCall> ResolveMapFromArrays(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  for (size_t i = 0; i < 2; ++i) {
    if (call.args[i]->type()->id() != arrow::Type::LIST) {
      return UnexpectedInputType(call, i, "\"ARRAY\"");
    }
  }
  const auto& key_list = static_cast<const arrow::ListType&>(*call.args[0]->type());
  const auto& value_list = static_cast<const arrow::ListType&>(*call.args[1]->type());
  auto type = types::MakeMapType(key_list.value_type(), value_list.value_type(),
                                 value_list.value_field()->nullable());
  ResolvedCall resolved;
  resolved.args = call.args;
  resolved.return_type = type;
  resolved.can_fail = true;
  resolved.kernel = [type](const std::vector<arrow::Datum>& args, const EvalContext& context,
                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto key_array, CollectionArgumentArray(args[0], num_rows, context.pool));
    ARROW_ASSIGN_OR_RAISE(auto value_array,
                          CollectionArgumentArray(args[1], num_rows, context.pool));
    const auto& keys = static_cast<const arrow::ListArray&>(*key_array);
    const auto& values = static_cast<const arrow::ListArray&>(*value_array);
    arrow::Int32Builder offsets(context.pool);
    arrow::Int64Builder key_take(context.pool), value_take(context.pool);
    ARROW_RETURN_NOT_OK(offsets.Append(0));
    arrow::TypedBufferBuilder<bool> validity(context.pool);
    int64_t null_count = 0;
    int32_t total = 0;
    for (int64_t row = 0; row < num_rows; ++row) {
      const bool valid = keys.IsValid(row) && values.IsValid(row);
      ARROW_RETURN_NOT_OK(validity.Append(valid));
      if (valid) {
        const int64_t length = keys.value_length(row);
        if (length != values.value_length(row)) {
          return SparkError("INVALID_PARAMETER_VALUE.MAP_FROM_ARRAYS_LENGTH_MISMATCH",
                            "The key array and value array of MapData must have the same "
                            "length.");
        }
        for (int64_t j = 0; j < length; ++j) {
          ARROW_RETURN_NOT_OK(key_take.Append(keys.value_offset(row) + j));
          ARROW_RETURN_NOT_OK(value_take.Append(values.value_offset(row) + j));
        }
        total += static_cast<int32_t>(length);
      } else {
        ++null_count;
      }
      ARROW_RETURN_NOT_OK(offsets.Append(total));
    }
    ARROW_ASSIGN_OR_RAISE(auto key_indices, key_take.Finish());
    ARROW_ASSIGN_OR_RAISE(auto value_indices, value_take.Finish());
    ARROW_ASSIGN_OR_RAISE(auto flat_keys, cp::Take(keys.values(), key_indices));
    ARROW_ASSIGN_OR_RAISE(auto flat_values, cp::Take(values.values(), value_indices));
    ARROW_ASSIGN_OR_RAISE(auto offset_array, offsets.Finish());
    ARROW_ASSIGN_OR_RAISE(auto validity_buffer, validity.Finish());
    ARROW_ASSIGN_OR_RAISE(
        auto map, BuildMap(type, num_rows, offset_array->data()->buffers[1], flat_keys.make_array(),
                           flat_values.make_array(), null_count ? validity_buffer : nullptr,
                           null_count));
    return arrow::Datum(map);
  };
  return resolved;
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> CollectionArgumentArray(const arrow::Datum& datum,
                                                                     int64_t num_rows,
                                                                     arrow::MemoryPool* pool) {
  if (datum.is_array()) return datum.make_array();
  return arrow::MakeArrayFromScalar(*datum.scalar(), num_rows, pool);
}

std::vector<int64_t> ParentRows(const arrow::Array& list_or_map) {
  const auto& list = static_cast<const arrow::ListArray&>(list_or_map);
  std::vector<int64_t> parents;
  const int64_t n = list.length();
  if (n == 0) return parents;
  parents.reserve(list.value_offset(n) - list.value_offset(0));
  for (int64_t row = 0; row < n; ++row) {
    for (int32_t j = list.value_offset(row); j < list.value_offset(row + 1); ++j) {
      parents.push_back(row);
    }
  }
  return parents;
}

void RegisterCollectionConstructors(FunctionRegistry& registry) {
  registry.RegisterScalar("array", ResolveArray);
  registry.RegisterScalar("struct", ResolveStruct);
  registry.RegisterScalar("named_struct", ResolveNamedStruct);
  registry.RegisterScalar("map", ResolveMap);
  registry.RegisterScalar("create_map", ResolveMap);
  registry.RegisterScalar("map_from_arrays", ResolveMapFromArrays);
}

}  // namespace sluice::expr
