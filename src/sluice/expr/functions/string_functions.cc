// Spark's string functions over utf8 columns: concat, concat_ws, substring, left/right,
// upper/lower/initcap, the trim family, lengths, reverse, ascii, chr, format_string. Positions
// and lengths count code points, as Spark's UTF8String does. Searching and padding live in
// string_search_functions.cc, encodings and fuzzy matching in string_encoding_functions.cc.
#include <algorithm>
#include <climits>
#include <optional>
#include <string>
#include <vector>

#include <arrow/array.h>
#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/expr/functions/string_arguments.h"
#include "sluice/expr/functions/string_case.h"
#include "sluice/expr/functions/string_columns.h"
#include "sluice/expr/functions/string_format.h"
#include "sluice/types/spark_types.h"

namespace sluice::expr {

namespace {

using P = StringParam;

std::vector<StringInput> StringInputs(const std::vector<arrow::Datum>& args, size_t first = 0) {
  std::vector<StringInput> inputs;
  inputs.reserve(args.size());
  for (size_t i = first; i < args.size(); ++i) inputs.emplace_back(args[i]);
  return inputs;
}

int64_t TotalBytes(const std::vector<StringInput>& inputs, int64_t num_rows) {
  int64_t total = 0;
  for (const auto& input : inputs) total += input.TotalBytes(num_rows);
  return total;
}

// A unary string -> string function from `append(text, out)`; with `ascii_case`, a case
// mapping that maps all-ASCII arrays whole (MapAsciiCase).
template <typename Append>
ScalarResolver UnaryString(Append append, std::optional<AsciiCase> ascii_case = std::nullopt) {
  return [append, ascii_case](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_ASSIGN_OR_RAISE(auto resolved,
                          ResolveStringCall(call, {{P::kString}, 0, "1"}, arrow::utf8()));
    resolved.kernel = [append, ascii_case](const std::vector<arrow::Datum>& args,
                                           const EvalContext& context,
                                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
      if (ascii_case) {
        ARROW_ASSIGN_OR_RAISE(auto mapped, MapAsciiCase(args[0], *ascii_case, context.pool));
        if (mapped) return std::move(*mapped);
      }
      StringInput input(args[0]);
      return MapToStrings(args, num_rows, input.TotalBytes(num_rows) + 16, context.pool,
                          [&](int64_t row, StringOutput& out) {
                            if (!input.IsValid(row)) {
                              out.AppendNullRow();
                            } else {
                              append(input.View(row), out);
                              out.EndRow();
                            }
                            return arrow::Status::OK();
                          });
    };
    return resolved;
  };
}

// ---- concat, concat_ws ----

arrow::Result<ResolvedCall> ResolveConcat(CallSite call) {
  bool all_binary = !call.args.empty();
  for (const auto& arg : call.args) all_binary &= arg->type()->id() == arrow::Type::BINARY;
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(
      resolved.args,
      CoerceStringArguments(call, {all_binary ? P::kStringOrBinary : P::kString}));
  resolved.return_type = all_binary ? arrow::binary() : arrow::utf8();
  resolved.nullable = AnyNullable(resolved.args);
  auto type = resolved.return_type;
  resolved.kernel = [type](const std::vector<arrow::Datum>& args, const EvalContext& context,
                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
    if (args.empty()) return arrow::Datum(std::make_shared<arrow::StringScalar>(""));
    auto inputs = StringInputs(args);
    return MapToStrings(
        args, num_rows, TotalBytes(inputs, num_rows), context.pool,
        [&](int64_t row, StringOutput& out) {
          for (const auto& input : inputs) {
            if (!input.IsValid(row)) {
              out.AppendNullRow();
              return arrow::Status::OK();
            }
            out.Append(input.View(row));
          }
          out.EndRow();
          return arrow::Status::OK();
        },
        type);
  };
  return resolved;
}

// An array<string> argument of concat_ws, array or scalar.
class StringListInput {
 public:
  explicit StringListInput(const arrow::Datum& datum) {
    if (datum.is_scalar()) {
      const auto& scalar = static_cast<const arrow::BaseListScalar&>(*datum.scalar());
      is_scalar_ = true;
      valid_ = scalar.is_valid;
      if (valid_) values_ = scalar.value->data();
      return;
    }
    const auto& data = *datum.array();
    validity_ = data.null_count != 0 && data.buffers[0] ? data.buffers[0]->data() : nullptr;
    offset_ = data.offset;
    offsets_ = data.GetValues<int32_t>(1);
    values_ = data.child_data[0];
  }
  bool IsValid(int64_t row) const {
    if (is_scalar_) return valid_;
    return validity_ == nullptr || arrow::bit_util::GetBit(validity_, offset_ + row);
  }
  std::pair<int64_t, int64_t> Range(int64_t row) const {
    if (is_scalar_) return {0, values_->length};
    return {offsets_[row], offsets_[row + 1]};
  }
  const std::shared_ptr<arrow::ArrayData>& values() const { return values_; }

 private:
  bool is_scalar_ = false;
  bool valid_ = false;
  const uint8_t* validity_ = nullptr;
  int64_t offset_ = 0;
  const int32_t* offsets_ = nullptr;
  std::shared_ptr<arrow::ArrayData> values_;
};

arrow::Result<ResolvedCall> ResolveConcatWs(CallSite call) {
  if (call.args.empty()) return CheckArgCount(call, 1, SIZE_MAX, "> 0");
  ResolvedCall resolved;
  std::vector<bool> is_list;
  for (size_t i = 0; i < call.args.size(); ++i) {
    const auto& arg = call.args[i];
    if (i > 0 && arg->type()->id() == arrow::Type::LIST) {
      const auto& value_type = *static_cast<const arrow::ListType&>(*arg->type()).value_type();
      if (value_type.id() != arrow::Type::STRING && value_type.id() != arrow::Type::NA) {
        return UnexpectedInputType(call, i, "(\"ARRAY<STRING>\" or \"STRING\")");
      }
      BoundExprPtr list = arg;
      if (value_type.id() == arrow::Type::NA) {
        ARROW_ASSIGN_OR_RAISE(list, MakeCast(arg, types::MakeArrayType(arrow::utf8(), true),
                                             CastKind::kImplicit, *call.config));
      }
      resolved.args.push_back(std::move(list));
      is_list.push_back(true);
      continue;
    }
    CallSite single{call.name, {arg}, call.config};
    auto coerced = CoerceStringArguments(single, {P::kString});
    if (!coerced.ok()) {
      return UnexpectedInputType(call, i, i == 0 ? "\"STRING\""
                                                 : "(\"ARRAY<STRING>\" or \"STRING\")");
    }
    resolved.args.push_back((*coerced)[0]);
    is_list.push_back(false);
  }
  resolved.return_type = arrow::utf8();
  resolved.nullable = resolved.args[0]->nullable();
  resolved.kernel = [is_list](const std::vector<arrow::Datum>& args, const EvalContext& context,
                              int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput separator(args[0]);
    std::vector<StringInput> strings;
    std::vector<StringListInput> lists;
    std::vector<StringInput> list_values;
    for (size_t i = 1; i < args.size(); ++i) {
      if (is_list[i]) {
        lists.emplace_back(args[i]);
        list_values.emplace_back(arrow::Datum(lists.back().values()));
        strings.emplace_back(arrow::Datum(std::make_shared<arrow::StringScalar>("")));
      } else {
        strings.emplace_back(args[i]);
        lists.emplace_back(arrow::Datum(std::make_shared<arrow::ListScalar>(
            arrow::MakeArrayOfNull(arrow::utf8(), 0).ValueOrDie())));
        list_values.emplace_back(arrow::Datum(std::make_shared<arrow::StringScalar>("")));
      }
    }
    return MapToStrings(
        args, num_rows, TotalBytes(strings, num_rows) * 2, context.pool,
        [&](int64_t row, StringOutput& out) {
          if (!separator.IsValid(row)) {
            out.AppendNullRow();
            return arrow::Status::OK();
          }
          const std::string_view sep = separator.View(row);
          bool first = true;
          auto add = [&](std::string_view value) {
            if (!first) out.Append(sep);
            out.Append(value);
            first = false;
          };
          for (size_t i = 0; i + 1 < args.size(); ++i) {
            if (!is_list[i + 1]) {
              if (strings[i].IsValid(row)) add(strings[i].View(row));
              continue;
            }
            if (!lists[i].IsValid(row)) continue;
            auto [begin, end] = lists[i].Range(row);
            for (int64_t k = begin; k < end; ++k) {
              if (list_values[i].IsValid(k)) add(list_values[i].View(k));
            }
          }
          out.EndRow();
          return arrow::Status::OK();
        });
  };
  return resolved;
}

// ---- substring, left, right ----

enum class SubstringKind { kSubstring, kLeft, kRight };

ScalarResolver Substring(SubstringKind kind) {
  return [kind](CallSite call) -> arrow::Result<ResolvedCall> {
    StringSignature signature{{P::kStringOrBinary, P::kInt}, 0, "2"};
    if (kind == SubstringKind::kSubstring) {
      signature = {{P::kStringOrBinary, P::kInt, P::kInt}, 1, "[2, 3]"};
    }
    ARROW_ASSIGN_OR_RAISE(auto resolved, ResolveStringCall(call, signature, arrow::utf8()));
    const bool bytes = resolved.args[0]->type()->id() == arrow::Type::BINARY;
    resolved.return_type = resolved.args[0]->type()->id() == arrow::Type::BINARY
                               ? arrow::binary()
                               : arrow::utf8();
    auto type = resolved.return_type;
    resolved.kernel = [kind, bytes, type](const std::vector<arrow::Datum>& args,
                                          const EvalContext& context,
                                          int64_t num_rows) -> arrow::Result<arrow::Datum> {
      StringInput input(args[0]);
      const std::string_view span = input.Span();
      IntInput first(args[1]);
      IntInput second(args.size() > 2 ? args[2] : arrow::Datum(int32_t{INT32_MAX}));
      return MapToStrings(
          args, num_rows, input.TotalBytes(num_rows), context.pool,
          [&](int64_t row, StringOutput& out) {
            if (!input.IsValid(row) || !first.IsValid(row) || !second.IsValid(row)) {
              out.AppendNullRow();
              return arrow::Status::OK();
            }
            const std::string_view text = input.View(row);
            const int64_t n = first.Value(row);
            switch (kind) {
              case SubstringKind::kSubstring:
                out.AppendRowWithin(SubstringSql(text, n, second.Value(row), bytes), span);
                break;
              case SubstringKind::kLeft:
                out.AppendRowWithin(SubstringSql(text, 1, n, bytes), span);
                break;
              case SubstringKind::kRight:
                out.AppendRowWithin(
                    n <= 0 ? std::string_view() : SubstringSql(text, -n, INT32_MAX, bytes), span);
                break;
            }
            return arrow::Status::OK();
          },
          type);
    };
    return resolved;
  };
}

// ---- trim family ----

enum class TrimSide { kBoth, kLeading, kTrailing };

// Whether code point `cp` is in the trim set (nullptr: the space character only).
bool InTrimSet(uint32_t cp, const std::vector<uint32_t>* set) {
  if (set == nullptr) return cp == ' ';
  return std::find(set->begin(), set->end(), cp) != set->end();
}

std::string_view TrimText(std::string_view text, TrimSide side, const std::vector<uint32_t>* set) {
  size_t begin = 0;
  size_t end = text.size();
  if (side != TrimSide::kTrailing) {
    while (begin < end) {
      size_t next = begin;
      if (!InTrimSet(Utf8Decode(text, next), set)) break;
      begin = next;
    }
  }
  if (side != TrimSide::kLeading) {
    while (end > begin) {
      size_t start = end - 1;
      while (start > begin && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
      size_t probe = start;
      if (!InTrimSet(Utf8Decode(text, probe), set)) break;
      end = start;
    }
  }
  return text.substr(begin, end - begin);
}

std::vector<uint32_t> CodePoints(std::string_view text) {
  std::vector<uint32_t> points;
  size_t pos = 0;
  while (pos < text.size()) points.push_back(Utf8Decode(text, pos));
  return points;
}

// trim(str) or trim(trimStr, str) (Spark's SQL argument order); btrim(str[, trimStr]).
ScalarResolver Trim(TrimSide side, bool trim_string_last) {
  return [side, trim_string_last](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_ASSIGN_OR_RAISE(auto resolved,
                          ResolveStringCall(call, {{P::kString, P::kString}, 1, "[1, 2]"},
                                            arrow::utf8()));
    const int source_index = resolved.args.size() == 1 || trim_string_last ? 0 : 1;
    resolved.kernel = [side, source_index](const std::vector<arrow::Datum>& args,
                                           const EvalContext& context,
                                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
      StringInput source(args[source_index]);
      const std::string_view span = source.Span();
      const bool has_set = args.size() == 2;
      StringInput trim_set(args[has_set ? 1 - source_index : 0]);
      std::vector<uint32_t> constant_set;
      const bool constant = has_set && trim_set.is_scalar() && trim_set.IsValid(0);
      if (constant) constant_set = CodePoints(trim_set.View(0));
      std::vector<uint32_t> row_set;
      return MapToStrings(args, num_rows, source.TotalBytes(num_rows), context.pool,
                          [&](int64_t row, StringOutput& out) {
                            if (!source.IsValid(row) || (has_set && !trim_set.IsValid(row))) {
                              out.AppendNullRow();
                              return arrow::Status::OK();
                            }
                            const std::vector<uint32_t>* set = nullptr;
                            if (constant) {
                              set = &constant_set;
                            } else if (has_set) {
                              row_set = CodePoints(trim_set.View(row));
                              set = &row_set;
                            }
                            out.AppendRowWithin(TrimText(source.View(row), side, set), span);
                            return arrow::Status::OK();
                          });
    };
    return resolved;
  };
}

// ---- lengths ----

enum class LengthKind { kChars, kOctets, kBits };

/// The length of each text (in bytes, or in characters: the bytes that start one), changed
/// by `change` for each occurrence of `search` (none when empty), times `scale`.
Kernel LengthKernel(bool bytes, int scale, std::string search, int64_t change) {
  return [bytes, scale, search = std::move(search), change](
             const std::vector<arrow::Datum>& args, const EvalContext& context,
             int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput input(args[0]);
    return MapToFixed<arrow::Int32Type>(
        args, num_rows, context.pool, [&](int64_t row, int32_t* out) -> arrow::Result<bool> {
          if (!input.IsValid(row)) return false;
          const std::string_view text = input.View(row);
          int64_t length = bytes ? static_cast<int64_t>(text.size()) : Utf8Length(text);
          if (change != 0 && search.size() == 1) {
            length += change * CountByte(text, search[0]);
          } else if (change != 0) {
            // The occurrences replace finds: from the left, not overlapping.
            for (size_t at = text.find(search); at != std::string_view::npos;
                 at = text.find(search, at + search.size())) {
              length += change;
            }
          }
          *out = static_cast<int32_t>(length * scale);
          return true;
        });
  };
}

/// length(replace(s, search, replacement)) with a literal search and replacement: the length
/// of s changed by each occurrence of search, counted without building the replaced string
/// (`length(s) - length(replace(s, 'c', ''))` is how SQL counts a character). A count of bytes,
/// or of the bytes that start a character (Utf8Length), adds up over concatenation, so the
/// count is exact for any bytes. Nothing when `arg` is not such a call.
std::optional<ResolvedCall> LengthOfReplace(const BoundExprPtr& arg, bool bytes, int scale) {
  if (arg->kind() != BoundKind::kCall ||
      static_cast<const BoundCall&>(*arg).function_name() != "replace") {
    return std::nullopt;
  }
  const CallSite replace{"replace", arg->children()};
  const auto search = ConstantString(replace, 1);
  const auto replacement =
      replace.args.size() > 2 ? ConstantString(replace, 2) : std::optional<std::string>("");
  if (!search || !replacement) return std::nullopt;
  auto length_of = [bytes](std::string_view text) {
    return bytes ? static_cast<int64_t>(text.size()) : Utf8Length(text);
  };
  // What each occurrence adds; replace leaves the text as it is when search is empty.
  const int64_t change = search->empty() ? 0 : length_of(*replacement) - length_of(*search);
  ResolvedCall resolved;
  resolved.args = {replace.args[0]};
  resolved.return_type = arrow::int32();
  resolved.kernel = LengthKernel(bytes, scale, *search, change);
  return resolved;
}

ScalarResolver Length(LengthKind kind) {
  return [kind](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_ASSIGN_OR_RAISE(auto resolved,
                          ResolveStringCall(call, {{P::kStringOrBinary}, 0, "1"}, arrow::int32()));
    const bool bytes = kind != LengthKind::kChars ||
                       resolved.args[0]->type()->id() == arrow::Type::BINARY;
    const int scale = kind == LengthKind::kBits ? 8 : 1;
    if (auto fused = LengthOfReplace(resolved.args[0], bytes, scale)) {
      fused->nullable = resolved.nullable;
      return *std::move(fused);
    }
    resolved.kernel = LengthKernel(bytes, scale, "", 0);
    return resolved;
  };
}

// ---- reverse, ascii, chr ----

void AppendReversed(std::string_view text, StringOutput& out) {
  size_t end = text.size();
  while (end > 0) {
    size_t start = end - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    out.Append(text.substr(start, end - start));
    end = start;
  }
}

arrow::Result<ResolvedCall> ResolveAscii(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(auto resolved,
                        ResolveStringCall(call, {{P::kString}, 0, "1"}, arrow::int32()));
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput text(args[0]);
    return MapToFixed<arrow::Int32Type>(
        args, num_rows, context.pool, [&](int64_t row, int32_t* out) -> arrow::Result<bool> {
          if (!text.IsValid(row)) return false;
          const std::string_view t = text.View(row);
          size_t pos = 0;
          *out = t.empty() ? 0 : static_cast<int32_t>(Utf8Decode(t, pos));
          return true;
        });
  };
  return resolved;
}

// chr(n): the character n mod 256 (Latin-1), '' for negative n.
arrow::Result<ResolvedCall> ResolveChr(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  ResolvedCall resolved;
  const auto& type = *call.args[0]->type();
  if (!arrow::is_integer(type.id()) && type.id() != arrow::Type::NA &&
      type.id() != arrow::Type::STRING && !arrow::is_floating(type.id()) &&
      type.id() != arrow::Type::DECIMAL128) {
    return UnexpectedInputType(call, 0, "\"BIGINT\"");
  }
  ARROW_ASSIGN_OR_RAISE(auto arg,
                        MakeCast(call.args[0], arrow::int64(), CastKind::kImplicit, *call.config));
  resolved.args = {arg};
  resolved.return_type = arrow::utf8();
  resolved.nullable = arg->nullable();
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    IntInput code(args[0]);
    std::string encoded;
    return MapToStrings(args, num_rows, num_rows * 2, context.pool,
                        [&](int64_t row, StringOutput& out) {
                          if (!code.IsValid(row)) {
                            out.AppendNullRow();
                            return arrow::Status::OK();
                          }
                          const int64_t n = code.Value(row);
                          encoded.clear();
                          if (n >= 0) Utf8Encode(static_cast<uint32_t>(n & 0xFF), encoded);
                          out.AppendRow(encoded);
                          return arrow::Status::OK();
                        });
  };
  return resolved;
}

}  // namespace

// Declared in string_encoding_functions.cc and string_search_functions.cc.
void RegisterStringEncodingFunctions(FunctionRegistry& registry);
void RegisterStringSearchFunctions(FunctionRegistry& registry);

void RegisterStringFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("concat", ResolveConcat);
  registry.RegisterScalar("||", ResolveConcat);
  registry.RegisterScalar("concat_ws", ResolveConcatWs);
  registry.RegisterScalar("substring", Substring(SubstringKind::kSubstring));
  registry.RegisterScalar("substr", Substring(SubstringKind::kSubstring));
  registry.RegisterScalar("left", Substring(SubstringKind::kLeft));
  registry.RegisterScalar("right", Substring(SubstringKind::kRight));
  for (const char* name : {"upper", "ucase"}) {
    registry.RegisterScalar(name, UnaryString(AppendUpper, AsciiCase::kUpper));
  }
  for (const char* name : {"lower", "lcase"}) {
    registry.RegisterScalar(name, UnaryString(AppendLower, AsciiCase::kLower));
  }
  registry.RegisterScalar("initcap", UnaryString(AppendInitcap));
  registry.RegisterScalar("reverse", UnaryString(AppendReversed));
  registry.RegisterScalar("trim", Trim(TrimSide::kBoth, false));
  registry.RegisterScalar("ltrim", Trim(TrimSide::kLeading, false));
  registry.RegisterScalar("rtrim", Trim(TrimSide::kTrailing, false));
  registry.RegisterScalar("btrim", Trim(TrimSide::kBoth, true));
  for (const char* name : {"length", "char_length", "character_length", "len"}) {
    registry.RegisterScalar(name, Length(LengthKind::kChars));
  }
  registry.RegisterScalar("octet_length", Length(LengthKind::kOctets));
  registry.RegisterScalar("bit_length", Length(LengthKind::kBits));
  registry.RegisterScalar("ascii", ResolveAscii);
  registry.RegisterScalar("chr", ResolveChr);
  registry.RegisterScalar("char", ResolveChr);
  registry.RegisterScalar("format_string", ResolveFormatString);
  registry.RegisterScalar("printf", ResolveFormatString);
  RegisterStringEncodingFunctions(registry);
  RegisterStringSearchFunctions(registry);
}

}  // namespace sluice::expr
