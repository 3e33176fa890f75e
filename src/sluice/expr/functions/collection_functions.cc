// Spark's functions reading collections: size/cardinality, map_keys, map_values, element_at,
// the subscript operator "[]", try_element_at, get and array_contains. Lookups compute one take
// index per row and gather with a single vectorized take; one part of a split at a plain-text
// separator is cut from the text instead (ResolveSplitElement).
#include <optional>
#include <string>

#include <arrow/compute/api.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/collection_function_groups.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/expr/functions/literal_splitter.h"
#include "sluice/expr/functions/string_arguments.h"
#include "sluice/expr/functions/string_columns.h"
#include "sluice/expr/type_coercion.h"
#include "sluice/types/spark_types.h"

namespace sluice::expr {

namespace cp = arrow::compute;

namespace {

bool IsList(const arrow::DataType& type) { return type.id() == arrow::Type::LIST; }
bool IsMap(const arrow::DataType& type) { return type.id() == arrow::Type::MAP; }

arrow::Result<ResolvedCall> ResolveSize(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto& type = *call.args[0]->type();
  if (!IsList(type) && !IsMap(type) && type.id() != arrow::Type::NA) {
    return UnexpectedInputType(call, 0, "(\"ARRAY\" or \"MAP\")");
  }
  ResolvedCall resolved;
  resolved.args = call.args;
  resolved.return_type = arrow::int32();
  resolved.nullable = call.args[0]->nullable();
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    if (args[0].type()->id() == arrow::Type::NA) {
      return arrow::Datum(arrow::MakeNullScalar(arrow::int32()));
    }
    ARROW_ASSIGN_OR_RAISE(auto input, CollectionArgumentArray(args[0], num_rows, context.pool));
    const auto& list = static_cast<const arrow::ListArray&>(*input);
    ARROW_ASSIGN_OR_RAISE(auto values, arrow::AllocateBuffer(num_rows * sizeof(int32_t),
                                                             context.pool));
    auto* out = reinterpret_cast<int32_t*>(values->mutable_data());
    for (int64_t i = 0; i < num_rows; ++i) out[i] = list.value_length(i);
    std::shared_ptr<arrow::Buffer> validity;
    if (list.null_count() > 0) {
      ARROW_ASSIGN_OR_RAISE(validity, arrow::AllocateBitmap(num_rows, context.pool));
      arrow::internal::CopyBitmap(list.null_bitmap_data(), list.offset(), num_rows,
                                  validity->mutable_data(), 0);
    }
    return arrow::Datum(arrow::ArrayData::Make(arrow::int32(), num_rows,
                                               {validity, std::move(values)},
                                               list.null_count()));
  };
  return resolved;
}

ScalarResolver MapPart(bool keys) {
  return [keys](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
    if (!IsMap(*call.args[0]->type())) return UnexpectedInputType(call, 0, "\"MAP\"");
    const auto& map_type = static_cast<const arrow::MapType&>(*call.args[0]->type());
    auto type = keys ? types::MakeArrayType(map_type.key_type(), false)
                     : types::MakeArrayType(map_type.item_type(),
                                            map_type.item_field()->nullable());
    ResolvedCall resolved;
    resolved.args = call.args;
    resolved.return_type = type;
    resolved.nullable = call.args[0]->nullable();
    resolved.kernel = [keys, type](const std::vector<arrow::Datum>& args,
                                   const EvalContext& context,
                                   int64_t num_rows) -> arrow::Result<arrow::Datum> {
      ARROW_ASSIGN_OR_RAISE(auto input, CollectionArgumentArray(args[0], num_rows, context.pool));
      const auto& map = static_cast<const arrow::MapArray&>(*input);
      const auto& entries = *map.data()->child_data[0];
      auto part = entries.child_data[keys ? 0 : 1]->Slice(entries.offset, entries.length);
      auto data = arrow::ArrayData::Make(type, num_rows,
                                         {map.data()->buffers[0], map.data()->buffers[1]},
                                         {part}, map.data()->null_count, map.data()->offset);
      return arrow::Datum(data);
    };
    return resolved;
  };
}

enum class Access { kElementAt, kTryElementAt, kSubscript, kGet };

arrow::Status IndexError(Access access, int64_t index, int64_t size) {
  if (access == Access::kElementAt) {
    if (index == 0) {
      return SparkError("INVALID_INDEX_OF_ZERO",
                        "The index 0 is invalid. An index shall be either < 0 or > 0 (the first "
                        "element has index 1).");
    }
    return SparkError("INVALID_ARRAY_INDEX_IN_ELEMENT_AT",
                      "The index " + std::to_string(index) +
                          " is out of bounds. The array has " + std::to_string(size) +
                          " elements. Use `try_element_at` to tolerate accessing element at "
                          "invalid index and return NULL instead. If necessary set "
                          "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
  }
  return SparkError("INVALID_ARRAY_INDEX",
                    "The index " + std::to_string(index) + " is out of bounds. The array has " +
                        std::to_string(size) +
                        " elements. Use the SQL function `get()` to tolerate accessing element "
                        "at invalid index and return NULL instead. If necessary set "
                        "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
}

Kernel ArrayAccessKernel(Access access, bool ansi) {
  const bool one_based = access == Access::kElementAt || access == Access::kTryElementAt;
  const bool fail = ansi && (access == Access::kElementAt || access == Access::kSubscript);
  return [access, one_based, fail](const std::vector<arrow::Datum>& args,
                                   const EvalContext& context,
                                   int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto input, CollectionArgumentArray(args[0], num_rows, context.pool));
    const auto& list = static_cast<const arrow::ListArray&>(*input);
    NumericInput<arrow::Int32Type> index(args[1]);
    arrow::Int64Builder take(context.pool);
    ARROW_RETURN_NOT_OK(take.Reserve(num_rows));
    for (int64_t row = 0; row < num_rows; ++row) {
      if (list.IsNull(row) || !index.IsValid(row)) {
        take.UnsafeAppendNull();
        continue;
      }
      const int64_t size = list.value_length(row);
      const int64_t i = index.Value(row);
      int64_t position;
      if (one_based) {
        // Index 0 fails even in try_element_at, as in Spark.
        if (i == 0) return IndexError(Access::kElementAt, 0, size);
        position = i > 0 ? i - 1 : size + i;
      } else {
        position = i;
      }
      if (position < 0 || position >= size) {
        if (fail) return IndexError(access, i, size);
        take.UnsafeAppendNull();
        continue;
      }
      take.UnsafeAppend(list.value_offset(row) + position);
    }
    ARROW_ASSIGN_OR_RAISE(auto indices, take.Finish());
    return cp::Take(list.values(), indices);
  };
}

// split(text, 'separator'[, limit])[index] with a literal separator, limit and index, as one
// call: each row's part is cut from its text, without the array of every part and the copy
// out of it (Nexmark's q22 takes three directories of each url so). Otherwise nullopt, and
// the array is made and indexed as written. Same results and errors as the two calls.
std::optional<ResolvedCall> ResolveSplitElement(const CallSite& call, Access access, bool ansi) {
  const auto* split = dynamic_cast<const BoundCall*>(call.args[0].get());
  if (split == nullptr || split->function_name() != "split") return std::nullopt;
  const CallSite split_site{"split", split->children(), call.config};
  std::optional<std::string> separator = ConstantString(split_site, 1);
  if (!separator || !IsLiteralPattern(*separator)) return std::nullopt;
  int64_t limit = -1;
  if (split_site.args.size() > 2) {
    const std::optional<int64_t> constant = ConstantInt(split_site, 2);
    if (!constant) return std::nullopt;
    limit = *constant;
  }
  const std::optional<int64_t> index = ConstantInt(call, 1);
  if (!index) return std::nullopt;
  const bool one_based = access == Access::kElementAt || access == Access::kTryElementAt;
  const bool fail = ansi && (access == Access::kElementAt || access == Access::kSubscript);
  // The part's position when PartWithinFirst64 can find it (a one-byte separator, a part
  // counted from the start that is not the last of `limit`, which holds the rest), else -1.
  const int64_t from_start = !one_based ? *index : *index > 0 ? *index - 1 : -1;
  const int64_t first64_position =
      separator->size() == 1 && from_start >= 0 && (limit <= 0 || from_start < limit - 1)
          ? from_start
          : -1;
  ResolvedCall resolved;
  resolved.args = {split->children()[0]};
  resolved.return_type = arrow::utf8();
  resolved.can_fail = fail;
  resolved.kernel = [access, one_based, fail, separator = std::move(*separator), limit,
                     i = *index, first64_position](
                        const std::vector<arrow::Datum>& args, const EvalContext& context,
                        int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput text(args[0]);
    const std::string_view span = text.Span();
    const bool scalar = AllScalars(args);
    const int64_t rows = scalar ? 1 : num_rows;
    StringOutput out(rows, 0, context.pool);
    for (int64_t row = 0; row < rows; ++row) {
      if (!text.IsValid(row)) {
        out.AppendNullRow();
        continue;
      }
      const std::string_view t = text.View(row);
      if (first64_position >= 0) {
        size_t start = 0;
        size_t end = 0;
        const int found =
            PartWithinFirst64(t, span, separator[0], first64_position, &start, &end);
        if (found == 1) {
          out.AppendRowWithin(std::string_view(t.data() + start, end - start), span);
          continue;
        }
        if (found == 0 && !fail) {
          out.AppendNullRow();
          continue;
        }
      }
      auto count_parts = [&] {
        LiteralSplitter parts(t, separator, limit);
        int64_t size = 0;
        while (parts.Next()) ++size;
        return size;
      };
      // Index 0 fails even in try_element_at, as in Spark.
      if (one_based && i == 0) return IndexError(Access::kElementAt, 0, count_parts());
      // A part counted from the end needs the number of parts first.
      const int64_t position = !one_based ? i : i > 0 ? i - 1 : count_parts() + i;
      const std::optional<std::string_view> part = LiteralPart(t, separator, limit, position);
      if (!part) {
        if (fail) return IndexError(access, i, count_parts());
        out.AppendNullRow();
        continue;
      }
      out.AppendRowWithin(*part, span);
    }
    ARROW_ASSIGN_OR_RAISE(auto data, out.Finish());
    return FinishDatum(std::move(data), scalar);
  };
  return resolved;
}

// Per row: the index of the first entry in [offsets(row), offsets(row + 1)) whose `matches`
// value is true, or null.
arrow::Result<std::shared_ptr<arrow::Array>> FirstMatch(const arrow::ListArray& list,
                                                        const arrow::BooleanArray& matches,
                                                        arrow::MemoryPool* pool) {
  const int64_t n = list.length();
  const int64_t base = n ? list.value_offset(0) : 0;
  arrow::Int64Builder take(pool);
  ARROW_RETURN_NOT_OK(take.Reserve(n));
  for (int64_t row = 0; row < n; ++row) {
    int64_t found = -1;
    if (list.IsValid(row)) {
      for (int32_t j = list.value_offset(row); j < list.value_offset(row + 1); ++j) {
        if (matches.IsValid(j - base) && matches.Value(j - base)) {
          found = j;
          break;
        }
      }
    }
    if (found < 0) {
      take.UnsafeAppendNull();
    } else {
      take.UnsafeAppend(found);
    }
  }
  return take.Finish();
}

// Compares every element of each row's collection with that row's `needle`: a boolean per
// element in [offset(0), offset(length)).
arrow::Result<std::shared_ptr<arrow::BooleanArray>> ElementsEqual(
    const arrow::ListArray& list, const std::shared_ptr<arrow::Array>& elements,
    const arrow::Datum& needle, arrow::MemoryPool* pool) {
  const int64_t n = list.length();
  const int64_t base = n ? list.value_offset(0) : 0;
  const int64_t count = n ? list.value_offset(n) - base : 0;
  auto values = elements->Slice(base, count);
  arrow::Datum repeated;
  if (needle.is_scalar()) {
    repeated = needle;
  } else {
    std::vector<int64_t> parents = ParentRows(list);
    auto parent_array = std::make_shared<arrow::Int64Array>(
        static_cast<int64_t>(parents.size()), arrow::Buffer::Wrap(parents));
    ARROW_ASSIGN_OR_RAISE(repeated, cp::Take(needle, parent_array));
  }
  ARROW_ASSIGN_OR_RAISE(auto equal, cp::CallFunction("equal", {values, repeated}));
  auto array = equal.make_array();
  if (array->length() != count) {
    ARROW_ASSIGN_OR_RAISE(array, arrow::MakeArrayFromScalar(*equal.scalar(), count, pool));
  }
  return std::static_pointer_cast<arrow::BooleanArray>(array);
}

Kernel MapLookupKernel() {
  return [](const std::vector<arrow::Datum>& args, const EvalContext& context,
            int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto input, CollectionArgumentArray(args[0], num_rows, context.pool));
    const auto& map = static_cast<const arrow::MapArray&>(*input);
    ARROW_ASSIGN_OR_RAISE(auto matches,
                          ElementsEqual(map, map.keys(), args[1], context.pool));
    // The matches are relative to offset(0); FirstMatch reads them so.
    ARROW_ASSIGN_OR_RAISE(auto indices, FirstMatch(map, *matches, context.pool));
    return cp::Take(map.items(), indices);
  };
}

ScalarResolver AccessResolver(Access access) {
  return [access](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
    const auto& type = *call.args[0]->type();
    const bool ansi = call.config->ansi_enabled();
    ResolvedCall resolved;
    if (IsList(type)) {
      const auto index_id = call.args[1]->type()->id();
      if (index_id != arrow::Type::INT32 && index_id != arrow::Type::INT8 &&
          index_id != arrow::Type::INT16 && index_id != arrow::Type::NA) {
        return UnexpectedInputType(call, 1, "\"INT\"");
      }
      if (std::optional<ResolvedCall> fused = ResolveSplitElement(call, access, ansi)) {
        return std::move(*fused);
      }
      ARROW_ASSIGN_OR_RAISE(auto index, MakeCast(call.args[1], arrow::int32(),
                                                 CastKind::kImplicit, *call.config));
      resolved.args = {call.args[0], index};
      resolved.return_type = static_cast<const arrow::ListType&>(type).value_type();
      resolved.can_fail = ansi && (access == Access::kElementAt || access == Access::kSubscript);
      resolved.kernel = ArrayAccessKernel(access, ansi);
      return resolved;
    }
    if (IsMap(type) && access != Access::kGet) {
      const auto& map_type = static_cast<const arrow::MapType&>(type);
      ARROW_ASSIGN_OR_RAISE(auto key, MakeCast(call.args[1], map_type.key_type(),
                                               CastKind::kImplicit, *call.config));
      resolved.args = {call.args[0], key};
      resolved.return_type = map_type.item_type();
      resolved.kernel = MapLookupKernel();
      return resolved;
    }
    if (type.id() == arrow::Type::NA) {
      resolved.args = call.args;
      resolved.return_type = arrow::null();
      resolved.kernel = [](const std::vector<arrow::Datum>&, const EvalContext&,
                           int64_t) -> arrow::Result<arrow::Datum> {
        return arrow::Datum(arrow::MakeNullScalar(arrow::null()));
      };
      return resolved;
    }
    return UnexpectedInputType(call, 0, access == Access::kGet ? "\"ARRAY\""
                                                               : "(\"ARRAY\" or \"MAP\")");
  };
}

arrow::Result<ResolvedCall> ResolveArrayContains(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  const auto& type = *call.args[0]->type();
  if (type.id() == arrow::Type::NA || call.args[1]->type()->id() == arrow::Type::NA) {
    // An untyped NULL array or value is an analysis error, not a null result.
    return DataTypeMismatch(call, "NULL_TYPE",
                            "Null typed values cannot be used as arguments of `array_contains`.");
  }
  if (!IsList(type)) return UnexpectedInputType(call, 0, "\"ARRAY\"");
  auto element = static_cast<const arrow::ListType&>(type).value_type();
  auto common = CommonType(element, call.args[1]->type());
  if (common == nullptr) {
    return DataTypeMismatch(call, "ARRAY_FUNCTION_DIFF_TYPES",
                            "Input to `array_contains` should have been \"ARRAY\" followed by a "
                            "value with same element type, but it's [\"" +
                                SqlTypeName(type) + "\", \"" +
                                SqlTypeName(*call.args[1]->type()) + "\"].");
  }
  if (common->id() == arrow::Type::NA) common = element;
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(auto needle, MakeCast(call.args[1], common, CastKind::kImplicit,
                                              *call.config));
  resolved.args = {call.args[0], needle};
  resolved.return_type = arrow::boolean();
  auto list_type = types::MakeArrayType(common, true);
  resolved.kernel = [list_type, common](const std::vector<arrow::Datum>& args,
                                        const EvalContext& context,
                                        int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto input, CollectionArgumentArray(args[0], num_rows, context.pool));
    const auto& list = static_cast<const arrow::ListArray&>(*input);
    std::shared_ptr<arrow::Array> values = list.values();
    if (!values->type()->Equals(*common) && common->id() != arrow::Type::NA) {
      ARROW_ASSIGN_OR_RAISE(auto cast, cp::Cast(values, common));
      values = cast.make_array();
    }
    arrow::Datum needle = args[1];
    if (needle.type()->id() == arrow::Type::NA) {
      return arrow::Datum(arrow::MakeNullScalar(arrow::boolean()));
    }
    ARROW_ASSIGN_OR_RAISE(auto matches, ElementsEqual(list, values, needle, context.pool));
    const int64_t base = num_rows ? list.value_offset(0) : 0;
    arrow::BooleanBuilder out(context.pool);
    ARROW_RETURN_NOT_OK(out.Reserve(num_rows));
    const bool scalar_needle = needle.is_scalar();
    const bool needle_scalar_valid = scalar_needle && needle.scalar()->is_valid;
    auto needle_array = scalar_needle ? nullptr : needle.make_array();
    for (int64_t row = 0; row < num_rows; ++row) {
      const bool needle_valid = scalar_needle ? needle_scalar_valid : needle_array->IsValid(row);
      if (list.IsNull(row) || !needle_valid) {
        out.UnsafeAppendNull();
        continue;
      }
      bool found = false, saw_null = false;
      for (int32_t j = list.value_offset(row); j < list.value_offset(row + 1); ++j) {
        if (!matches->IsValid(j - base)) {
          saw_null = true;
        } else if (matches->Value(j - base)) {
          found = true;
          break;
        }
      }
      if (found) {
        out.UnsafeAppend(true);
      } else if (saw_null) {
        out.UnsafeAppendNull();
      } else {
        out.UnsafeAppend(false);
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto result, out.Finish());
    return arrow::Datum(result);
  };
  return resolved;
}

}  // namespace

void RegisterCollectionFunctions(FunctionRegistry& registry) {
  RegisterCollectionConstructors(registry);
  RegisterArrayFunctions(registry);
  registry.RegisterScalar("size", ResolveSize);
  registry.RegisterScalar("cardinality", ResolveSize);
  registry.RegisterScalar("map_keys", MapPart(true));
  registry.RegisterScalar("map_values", MapPart(false));
  registry.RegisterScalar("element_at", AccessResolver(Access::kElementAt));
  registry.RegisterScalar("try_element_at", AccessResolver(Access::kTryElementAt));
  registry.RegisterScalar("[]", AccessResolver(Access::kSubscript));
  registry.RegisterScalar("get", AccessResolver(Access::kGet));
  registry.RegisterScalar("array_contains", ResolveArrayContains);
}

}  // namespace sluice::expr
