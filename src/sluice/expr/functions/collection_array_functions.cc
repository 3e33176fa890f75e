// Functions transforming arrays: array_distinct, array_sort, sort_array, array_join, array_max,
// array_min, slice and flatten. Each computes take indices (or sorts all rows at once by
// (row, value)) and gathers with one vectorized take.
#include <unordered_set>

#include <arrow/builder.h>
#include <arrow/compute/api.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/collection_function_groups.h"
#include "sluice/types/spark_types.h"

namespace sluice::expr {

namespace cp = arrow::compute;

namespace {

bool IsList(const arrow::DataType& type) { return type.id() == arrow::Type::LIST; }

std::shared_ptr<arrow::DataType> ElementType(const arrow::DataType& list) {
  return static_cast<const arrow::ListType&>(list).value_type();
}

// A list array of `type` with the given offsets (one per row plus one) over `values`, null where
// `input` is null.
arrow::Result<arrow::Datum> MakeList(const std::shared_ptr<arrow::DataType>& type,
                                     const arrow::ListArray& input,
                                     std::shared_ptr<arrow::Array> offsets,
                                     std::shared_ptr<arrow::Array> values,
                                     std::shared_ptr<arrow::Buffer> validity = nullptr,
                                     int64_t null_count = -1) {
  if (null_count < 0) {
    null_count = input.null_count();
    if (null_count > 0) {
      ARROW_ASSIGN_OR_RAISE(validity, arrow::AllocateBitmap(input.length()));
      arrow::internal::CopyBitmap(input.null_bitmap_data(), input.offset(), input.length(),
                                  validity->mutable_data(), 0);
    }
  }
  auto data = arrow::ArrayData::Make(type, input.length(),
                                     {null_count ? validity : nullptr, offsets->data()->buffers[1]},
                                     {values->data()}, null_count);
  return arrow::Datum(data);
}

// Sorts every row's elements at once: indices into list.values() ordered by (row, value).
arrow::Result<std::shared_ptr<arrow::UInt64Array>> SortWithinRows(
    const arrow::ListArray& list, cp::SortOrder order, cp::NullPlacement nulls,
    std::vector<int64_t>* parents_out) {
  const int64_t n = list.length();
  const int64_t base = n ? list.value_offset(0) : 0;
  const int64_t count = n ? list.value_offset(n) - base : 0;
  *parents_out = ParentRows(list);
  auto values = list.values()->Slice(base, count);
  auto parents = std::make_shared<arrow::Int64Array>(count, arrow::Buffer::Wrap(*parents_out));
  auto batch = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("row", arrow::int64()), arrow::field("value", values->type())}),
      count, {parents, values});
  ARROW_ASSIGN_OR_RAISE(
      auto indices,
      cp::SortIndices(arrow::Datum(batch),
                      cp::SortOptions({cp::SortKey("row", cp::SortOrder::Ascending, nulls),
                                       cp::SortKey("value", order, nulls)})));
  return std::static_pointer_cast<arrow::UInt64Array>(indices);
}

// sort_array(a[, ascending]): nulls first ascending, last descending; array_sort(a): ascending
// with nulls last.
ScalarResolver SortResolver(bool array_sort) {
  return [array_sort](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, array_sort ? 1 : 2, array_sort ? "1" : "[1, 2]"));
    if (!IsList(*call.args[0]->type())) return UnexpectedInputType(call, 0, "\"ARRAY\"");
    bool ascending = true;
    if (call.args.size() == 2) {
      const arrow::Scalar* flag = ConstantArgument(call, 1);
      if (flag == nullptr || flag->type->id() != arrow::Type::BOOL || !flag->is_valid) {
        return UnexpectedInputType(call, 1, "\"BOOLEAN\"");
      }
      ascending = static_cast<const arrow::BooleanScalar&>(*flag).value;
    }
    const auto order = ascending ? cp::SortOrder::Ascending : cp::SortOrder::Descending;
    const auto nulls = (ascending && !array_sort) ? cp::NullPlacement::AtStart
                                                  : cp::NullPlacement::AtEnd;
    ResolvedCall resolved;
    resolved.args = {call.args[0]};
    resolved.return_type = call.args[0]->type();
    resolved.nullable = call.args[0]->nullable();
    auto type = resolved.return_type;
    resolved.kernel = [type, order, nulls](const std::vector<arrow::Datum>& args,
                                           const EvalContext& context,
                                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
      ARROW_ASSIGN_OR_RAISE(auto input, CollectionArgumentArray(args[0], num_rows, context.pool));
      const auto& list = static_cast<const arrow::ListArray&>(*input);
      std::vector<int64_t> parents;
      ARROW_ASSIGN_OR_RAISE(auto order_indices, SortWithinRows(list, order, nulls, &parents));
      const int64_t base = num_rows ? list.value_offset(0) : 0;
      auto values = list.values()->Slice(base, num_rows ? list.value_offset(num_rows) - base : 0);
      ARROW_ASSIGN_OR_RAISE(auto sorted, cp::Take(values, order_indices));
      arrow::Int32Builder offsets(context.pool);
      for (int64_t i = 0; i <= num_rows; ++i) {
        ARROW_RETURN_NOT_OK(offsets.Append(list.value_offset(i) - static_cast<int32_t>(base)));
      }
      ARROW_ASSIGN_OR_RAISE(auto offset_array, offsets.Finish());
      return MakeList(type, list, offset_array, sorted.make_array());
    };
    return resolved;
  };
}

// array_max / array_min: the largest / smallest non-null element, null for empty arrays.
ScalarResolver ExtremeResolver(bool max) {
  return [max](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
    if (!IsList(*call.args[0]->type())) return UnexpectedInputType(call, 0, "\"ARRAY\"");
    ResolvedCall resolved;
    resolved.args = call.args;
    resolved.return_type = ElementType(*call.args[0]->type());
    resolved.kernel = [max](const std::vector<arrow::Datum>& args, const EvalContext& context,
                            int64_t num_rows) -> arrow::Result<arrow::Datum> {
      ARROW_ASSIGN_OR_RAISE(auto input, CollectionArgumentArray(args[0], num_rows, context.pool));
      const auto& list = static_cast<const arrow::ListArray&>(*input);
      std::vector<int64_t> parents;
      ARROW_ASSIGN_OR_RAISE(
          auto order,
          SortWithinRows(list, max ? cp::SortOrder::Descending : cp::SortOrder::Ascending,
                         cp::NullPlacement::AtEnd, &parents));
      const int64_t base = num_rows ? list.value_offset(0) : 0;
      auto values = list.values()->Slice(base, num_rows ? list.value_offset(num_rows) - base : 0);
      arrow::Int64Builder take(context.pool);
      ARROW_RETURN_NOT_OK(take.Reserve(num_rows));
      for (int64_t row = 0; row < num_rows; ++row) {
        const int64_t first = list.value_offset(row) - base;
        if (list.IsNull(row) || list.value_length(row) == 0) {
          take.UnsafeAppendNull();
          continue;
        }
        const auto index = static_cast<int64_t>(order->Value(first));
        if (values->IsNull(index)) {
          take.UnsafeAppendNull();
        } else {
          take.UnsafeAppend(index);
        }
      }
      ARROW_ASSIGN_OR_RAISE(auto indices, take.Finish());
      return cp::Take(values, indices);
    };
    return resolved;
  };
}

// array_distinct: the first occurrence of each value (and of null), in order.
arrow::Result<ResolvedCall> ResolveArrayDistinct(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  if (!IsList(*call.args[0]->type())) return UnexpectedInputType(call, 0, "\"ARRAY\"");
  ResolvedCall resolved;
  resolved.args = call.args;
  resolved.return_type = call.args[0]->type();
  resolved.nullable = call.args[0]->nullable();
  auto type = resolved.return_type;
  resolved.kernel = [type](const std::vector<arrow::Datum>& args, const EvalContext& context,
                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto input, CollectionArgumentArray(args[0], num_rows, context.pool));
    const auto& list = static_cast<const arrow::ListArray&>(*input);
    const int64_t base = num_rows ? list.value_offset(0) : 0;
    auto values = list.values()->Slice(base, num_rows ? list.value_offset(num_rows) - base : 0);
    // Equal values share a dictionary code; a row keeps the first element of each code.
    ARROW_ASSIGN_OR_RAISE(auto encoded, cp::DictionaryEncode(values));
    auto encoded_array = encoded.make_array();
    const auto& dictionary = static_cast<const arrow::DictionaryArray&>(*encoded_array);
    ARROW_ASSIGN_OR_RAISE(auto codes_any, cp::Cast(dictionary.indices(), arrow::int64()));
    auto codes = std::static_pointer_cast<arrow::Int64Array>(codes_any.make_array());
    std::vector<int64_t> last_row(dictionary.dictionary()->length(), -1);
    arrow::Int64Builder take(context.pool);
    arrow::Int32Builder offsets(context.pool);
    ARROW_RETURN_NOT_OK(offsets.Append(0));
    int32_t total = 0;
    for (int64_t row = 0; row < num_rows; ++row) {
      bool null_seen = false;
      for (int32_t j = list.value_offset(row); j < list.value_offset(row + 1); ++j) {
        const int64_t k = j - base;
        if (codes->IsNull(k)) {
          if (null_seen) continue;
          null_seen = true;
        } else {
          const int64_t code = codes->Value(k);
          if (last_row[code] == row) continue;
          last_row[code] = row;
        }
        ARROW_RETURN_NOT_OK(take.Append(k));
        ++total;
      }
      ARROW_RETURN_NOT_OK(offsets.Append(total));
    }
    ARROW_ASSIGN_OR_RAISE(auto indices, take.Finish());
    ARROW_ASSIGN_OR_RAISE(auto kept, cp::Take(values, indices));
    ARROW_ASSIGN_OR_RAISE(auto offset_array, offsets.Finish());
    return MakeList(type, list, offset_array, kept.make_array());
  };
  return resolved;
}

// array_join(array<string>, delimiter[, null_replacement]): nulls are skipped unless replaced.
arrow::Result<ResolvedCall> ResolveArrayJoin(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3, "[2, 3]"));
  const auto& type = *call.args[0]->type();
  if (!IsList(type) || ElementType(type)->id() != arrow::Type::STRING) {
    return UnexpectedInputType(call, 0, "\"ARRAY<STRING>\"");
  }
  ResolvedCall resolved;
  resolved.args = {call.args[0]};
  for (size_t i = 1; i < call.args.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto arg, MakeCast(call.args[i], arrow::utf8(), CastKind::kImplicit,
                                             *call.config));
    resolved.args.push_back(arg);
  }
  resolved.return_type = arrow::utf8();
  resolved.nullable = AnyNullable(resolved.args);
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto input, CollectionArgumentArray(args[0], num_rows, context.pool));
    ARROW_ASSIGN_OR_RAISE(auto delimiters,
                          CollectionArgumentArray(args[1], num_rows, context.pool));
    std::shared_ptr<arrow::Array> replacements;
    if (args.size() > 2) {
      ARROW_ASSIGN_OR_RAISE(replacements,
                            CollectionArgumentArray(args[2], num_rows, context.pool));
    }
    const auto& list = static_cast<const arrow::ListArray&>(*input);
    const auto& strings = static_cast<const arrow::StringArray&>(*list.values());
    const auto& delimiter = static_cast<const arrow::StringArray&>(*delimiters);
    const auto* replacement = static_cast<const arrow::StringArray*>(replacements.get());
    arrow::StringBuilder out(context.pool);
    std::string text;
    for (int64_t row = 0; row < num_rows; ++row) {
      if (list.IsNull(row) || delimiter.IsNull(row) ||
          (replacement != nullptr && replacement->IsNull(row))) {
        ARROW_RETURN_NOT_OK(out.AppendNull());
        continue;
      }
      text.clear();
      bool first = true;
      for (int32_t j = list.value_offset(row); j < list.value_offset(row + 1); ++j) {
        std::string_view piece;
        if (strings.IsNull(j)) {
          if (replacement == nullptr) continue;
          piece = replacement->GetView(row);
        } else {
          piece = strings.GetView(j);
        }
        if (!first) text.append(delimiter.GetView(row));
        text.append(piece);
        first = false;
      }
      ARROW_RETURN_NOT_OK(out.Append(text));
    }
    ARROW_ASSIGN_OR_RAISE(auto result, out.Finish());
    return arrow::Datum(result);
  };
  return resolved;
}

// slice(array, start, length): 1-based start, negative from the end.
arrow::Result<ResolvedCall> ResolveSlice(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 3, 3, "3"));
  if (!IsList(*call.args[0]->type())) return UnexpectedInputType(call, 0, "\"ARRAY\"");
  ResolvedCall resolved;
  resolved.args = {call.args[0]};
  for (size_t i = 1; i < 3; ++i) {
    ARROW_ASSIGN_OR_RAISE(auto arg, MakeCast(call.args[i], arrow::int32(), CastKind::kImplicit,
                                             *call.config));
    resolved.args.push_back(arg);
  }
  resolved.return_type = call.args[0]->type();
  resolved.can_fail = true;
  auto type = resolved.return_type;
  resolved.kernel = [type](const std::vector<arrow::Datum>& args, const EvalContext& context,
                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto input, CollectionArgumentArray(args[0], num_rows, context.pool));
    const auto& list = static_cast<const arrow::ListArray&>(*input);
    NumericInput<arrow::Int32Type> start(args[1]), length(args[2]);
    arrow::Int64Builder take(context.pool);
    arrow::Int32Builder offsets(context.pool);
    arrow::TypedBufferBuilder<bool> validity(context.pool);
    ARROW_RETURN_NOT_OK(offsets.Append(0));
    int32_t total = 0;
    int64_t null_count = 0;
    for (int64_t row = 0; row < num_rows; ++row) {
      const bool valid = list.IsValid(row) && start.IsValid(row) && length.IsValid(row);
      ARROW_RETURN_NOT_OK(validity.Append(valid));
      if (!valid) {
        ++null_count;
        ARROW_RETURN_NOT_OK(offsets.Append(total));
        continue;
      }
      const int64_t size = list.value_length(row);
      const int64_t s = start.Value(row), l = length.Value(row);
      if (s == 0) {
        return SparkError("INVALID_PARAMETER_VALUE.START",
                          "The value of parameter(s) `start` in `slice` is invalid: Expects a "
                          "positive or a negative value for `start`, but got 0.");
      }
      if (l < 0) {
        return SparkError("INVALID_PARAMETER_VALUE.LENGTH",
                          "The value of parameter(s) `length` in `slice` is invalid: Expects "
                          "`length` greater than or equal to 0, but got " +
                              std::to_string(l) + ".");
      }
      const int64_t from = s > 0 ? s - 1 : size + s;
      if (from >= 0 && from < size) {
        const int64_t to = std::min(size, from + l);
        for (int64_t j = from; j < to; ++j) {
          ARROW_RETURN_NOT_OK(take.Append(list.value_offset(row) + j));
          ++total;
        }
      }
      ARROW_RETURN_NOT_OK(offsets.Append(total));
    }
    ARROW_ASSIGN_OR_RAISE(auto indices, take.Finish());
    ARROW_ASSIGN_OR_RAISE(auto kept, cp::Take(list.values(), indices));
    ARROW_ASSIGN_OR_RAISE(auto offset_array, offsets.Finish());
    ARROW_ASSIGN_OR_RAISE(auto validity_buffer, validity.Finish());
    return MakeList(type, list, offset_array, kept.make_array(), validity_buffer, null_count);
  };
  return resolved;
}

// flatten(array<array<T>>): null when the outer array or any inner array is null.
arrow::Result<ResolvedCall> ResolveFlatten(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto& type = *call.args[0]->type();
  if (!IsList(type) || !IsList(*ElementType(type))) {
    return UnexpectedInputType(call, 0, "\"ARRAY\" of \"ARRAY\"");
  }
  ResolvedCall resolved;
  resolved.args = call.args;
  resolved.return_type = ElementType(type);
  auto result_type = resolved.return_type;
  resolved.kernel = [result_type](const std::vector<arrow::Datum>& args,
                                  const EvalContext& context,
                                  int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto input, CollectionArgumentArray(args[0], num_rows, context.pool));
    const auto& outer = static_cast<const arrow::ListArray&>(*input);
    const auto& inner = static_cast<const arrow::ListArray&>(*outer.values());
    arrow::Int64Builder take(context.pool);
    arrow::Int32Builder offsets(context.pool);
    arrow::TypedBufferBuilder<bool> validity(context.pool);
    ARROW_RETURN_NOT_OK(offsets.Append(0));
    int32_t total = 0;
    int64_t null_count = 0;
    for (int64_t row = 0; row < num_rows; ++row) {
      bool valid = outer.IsValid(row);
      for (int32_t j = outer.value_offset(row); valid && j < outer.value_offset(row + 1); ++j) {
        valid = inner.IsValid(j);
      }
      ARROW_RETURN_NOT_OK(validity.Append(valid));
      if (valid) {
        for (int32_t j = outer.value_offset(row); j < outer.value_offset(row + 1); ++j) {
          for (int32_t k = inner.value_offset(j); k < inner.value_offset(j + 1); ++k) {
            ARROW_RETURN_NOT_OK(take.Append(k));
            ++total;
          }
        }
      } else {
        ++null_count;
      }
      ARROW_RETURN_NOT_OK(offsets.Append(total));
    }
    ARROW_ASSIGN_OR_RAISE(auto indices, take.Finish());
    ARROW_ASSIGN_OR_RAISE(auto kept, cp::Take(inner.values(), indices));
    ARROW_ASSIGN_OR_RAISE(auto offset_array, offsets.Finish());
    ARROW_ASSIGN_OR_RAISE(auto validity_buffer, validity.Finish());
    return MakeList(result_type, outer, offset_array, kept.make_array(), validity_buffer,
                    null_count);
  };
  return resolved;
}

}  // namespace

void RegisterArrayFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("array_distinct", ResolveArrayDistinct);
  registry.RegisterScalar("array_sort", SortResolver(true));
  registry.RegisterScalar("sort_array", SortResolver(false));
  registry.RegisterScalar("array_join", ResolveArrayJoin);
  registry.RegisterScalar("array_max", ExtremeResolver(true));
  registry.RegisterScalar("array_min", ExtremeResolver(false));
  registry.RegisterScalar("slice", ResolveSlice);
  registry.RegisterScalar("flatten", ResolveFlatten);
}

}  // namespace sluice::expr
