// Spark's string search and rewrite functions: lpad/rpad, instr/locate/position,
// startswith/endswith/contains, repeat, replace, translate (code-point positions, as Spark's
// UTF8String counts them).
#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/string_arguments.h"
#include "sluice/expr/functions/string_columns.h"

namespace sluice::expr {

namespace {

using P = StringParam;

std::vector<uint32_t> CodePoints(std::string_view text) {
  std::vector<uint32_t> points;
  size_t pos = 0;
  while (pos < text.size()) points.push_back(Utf8Decode(text, pos));
  return points;
}

// ---- lpad, rpad ----

// UTF8String.lpad/rpad: pad to `length` code points with repetitions of `pad`, or truncate.
void Pad(std::string_view text, int64_t length, std::string_view pad, bool left,
         StringOutput& out) {
  const int64_t chars = Utf8Length(text);
  const int64_t spaces = length - chars;
  if (spaces <= 0 || pad.empty()) {
    out.AppendRow(SubstringSql(text, 1, std::max<int64_t>(length, 0), false));
    return;
  }
  const int64_t pad_chars = Utf8Length(pad);
  const int64_t whole = spaces / pad_chars;
  const std::string_view rest = pad.substr(0, Utf8Offset(pad, spaces % pad_chars));
  if (!left) out.Append(text);
  for (int64_t i = 0; i < whole; ++i) out.Append(pad);
  out.Append(rest);
  if (left) out.Append(text);
  out.EndRow();
}

ScalarResolver PadFunction(bool left) {
  return [left](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_ASSIGN_OR_RAISE(
        auto resolved,
        ResolveStringCall(call, {{P::kString, P::kInt, P::kString}, 1, "[2, 3]"}, arrow::utf8()));
    resolved.kernel = [left](const std::vector<arrow::Datum>& args, const EvalContext& context,
                             int64_t num_rows) -> arrow::Result<arrow::Datum> {
      StringInput input(args[0]);
      IntInput length(args[1]);
      StringInput pad(args.size() > 2 ? args[2]
                                      : arrow::Datum(std::make_shared<arrow::StringScalar>(" ")));
      return MapToStrings(args, num_rows, input.TotalBytes(num_rows) * 2, context.pool,
                          [&](int64_t row, StringOutput& out) {
                            if (!input.IsValid(row) || !length.IsValid(row) ||
                                !pad.IsValid(row)) {
                              out.AppendNullRow();
                            } else {
                              Pad(input.View(row), length.Value(row), pad.View(row), left, out);
                            }
                            return arrow::Status::OK();
                          });
    };
    return resolved;
  };
}

// ---- instr, locate ----

// UTF8String.indexOf(needle, start) in code points, -1 when absent.
int64_t IndexOf(std::string_view haystack, std::string_view needle, int64_t start) {
  if (needle.empty()) return 0;
  const size_t begin = Utf8Offset(haystack, start);
  if (begin >= haystack.size() && start > 0) return -1;
  const size_t found = haystack.find(needle, begin);
  if (found == std::string_view::npos) return -1;
  return start + Utf8Length(haystack.substr(begin, found - begin));
}

arrow::Result<ResolvedCall> ResolveInstr(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(auto resolved,
                        ResolveStringCall(call, {{P::kString, P::kString}, 0, "2"}, arrow::int32()));
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput text(args[0]);
    StringInput needle(args[1]);
    return MapToFixed<arrow::Int32Type>(
        args, num_rows, context.pool, [&](int64_t row, int32_t* out) -> arrow::Result<bool> {
          if (!text.IsValid(row) || !needle.IsValid(row)) return false;
          *out = static_cast<int32_t>(IndexOf(text.View(row), needle.View(row), 0) + 1);
          return true;
        });
  };
  return resolved;
}

// locate(substr, str[, pos]): a null position gives 0, as Spark does.
arrow::Result<ResolvedCall> ResolveLocate(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(
      auto resolved,
      ResolveStringCall(call, {{P::kString, P::kString, P::kInt}, 1, "[2, 3]"}, arrow::int32()));
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput needle(args[0]);
    StringInput text(args[1]);
    IntInput start(args.size() > 2 ? args[2] : arrow::Datum(int32_t{1}));
    return MapToFixed<arrow::Int32Type>(
        args, num_rows, context.pool, [&](int64_t row, int32_t* out) -> arrow::Result<bool> {
          if (!start.IsValid(row)) {
            *out = 0;
            return true;
          }
          if (!needle.IsValid(row) || !text.IsValid(row)) return false;
          const int64_t position = start.Value(row);
          *out = position < 1
                     ? 0
                     : static_cast<int32_t>(IndexOf(text.View(row), needle.View(row), position - 1) + 1);
          return true;
        });
  };
  return resolved;
}

// ---- startswith, endswith, contains ----

enum class Containment { kStarts, kEnds, kContains };

ScalarResolver Contains(Containment kind) {
  return [kind](CallSite call) -> arrow::Result<ResolvedCall> {
    const bool binary = call.args.size() == 2 &&
                        call.args[0]->type()->id() == arrow::Type::BINARY &&
                        call.args[1]->type()->id() == arrow::Type::BINARY;
    const P param = binary ? P::kStringOrBinary : P::kString;
    ARROW_ASSIGN_OR_RAISE(auto resolved,
                          ResolveStringCall(call, {{param, param}, 0, "2"}, arrow::boolean()));
    resolved.kernel = [kind](const std::vector<arrow::Datum>& args, const EvalContext& context,
                             int64_t num_rows) -> arrow::Result<arrow::Datum> {
      StringInput text(args[0]);
      StringInput part(args[1]);
      return MapToFixed<arrow::BooleanType>(
          args, num_rows, context.pool, [&](int64_t row, bool* out) -> arrow::Result<bool> {
            if (!text.IsValid(row) || !part.IsValid(row)) return false;
            const std::string_view t = text.View(row);
            const std::string_view p = part.View(row);
            *out = kind == Containment::kStarts ? t.starts_with(p)
                   : kind == Containment::kEnds ? t.ends_with(p)
                                                : t.find(p) != std::string_view::npos;
            return true;
          });
    };
    return resolved;
  };
}

// ---- repeat, replace, translate ----

arrow::Result<ResolvedCall> ResolveRepeat(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(auto resolved,
                        ResolveStringCall(call, {{P::kString, P::kInt}, 0, "2"}, arrow::utf8()));
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput text(args[0]);
    IntInput times(args[1]);
    return MapToStrings(args, num_rows, text.TotalBytes(num_rows), context.pool,
                        [&](int64_t row, StringOutput& out) -> arrow::Status {
                          if (!text.IsValid(row) || !times.IsValid(row)) {
                            out.AppendNullRow();
                            return arrow::Status::OK();
                          }
                          const std::string_view t = text.View(row);
                          const int64_t n = std::max<int64_t>(times.Value(row), 0);
                          if (static_cast<int64_t>(t.size()) * n > INT32_MAX) {
                            return SparkError("COLLECTION_SIZE_LIMIT_EXCEEDED",
                                              "Can't create a string of " +
                                                  std::to_string(t.size() * n) +
                                                  " bytes: the limit is 2147483647 bytes.");
                          }
                          for (int64_t i = 0; i < n; ++i) out.Append(t);
                          out.EndRow();
                          return arrow::Status::OK();
                        });
  };
  resolved.can_fail = true;
  return resolved;
}

arrow::Result<ResolvedCall> ResolveReplace(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(
      auto resolved,
      ResolveStringCall(call, {{P::kString, P::kString, P::kString}, 1, "[2, 3]"}, arrow::utf8()));
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput text(args[0]);
    StringInput search(args[1]);
    StringInput replacement(args.size() > 2
                                ? args[2]
                                : arrow::Datum(std::make_shared<arrow::StringScalar>("")));
    return MapToStrings(args, num_rows, text.TotalBytes(num_rows), context.pool,
                        [&](int64_t row, StringOutput& out) {
                          if (!text.IsValid(row) || !search.IsValid(row) ||
                              !replacement.IsValid(row)) {
                            out.AppendNullRow();
                            return arrow::Status::OK();
                          }
                          std::string_view t = text.View(row);
                          const std::string_view s = search.View(row);
                          if (s.empty()) {
                            out.AppendRow(t);
                            return arrow::Status::OK();
                          }
                          const std::string_view r = replacement.View(row);
                          size_t found;
                          while ((found = t.find(s)) != std::string_view::npos) {
                            out.Append(t.substr(0, found));
                            out.Append(r);
                            t.remove_prefix(found + s.size());
                          }
                          out.Append(t);
                          out.EndRow();
                          return arrow::Status::OK();
                        });
  };
  return resolved;
}

// translate(str, from, to): each code point of `from` maps to the one at the same index of `to`,
// or is deleted when `to` is shorter; the first occurrence in `from` wins.
arrow::Result<ResolvedCall> ResolveTranslate(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(
      auto resolved,
      ResolveStringCall(call, {{P::kString, P::kString, P::kString}, 0, "3"}, arrow::utf8()));
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput text(args[0]);
    StringInput from(args[1]);
    StringInput to(args[2]);
    std::vector<std::pair<uint32_t, int64_t>> map;  // code point -> index into `to` (-1: delete)
    std::vector<uint32_t> targets;
    std::string encoded;
    return MapToStrings(args, num_rows, text.TotalBytes(num_rows), context.pool,
                        [&](int64_t row, StringOutput& out) {
                          if (!text.IsValid(row) || !from.IsValid(row) || !to.IsValid(row)) {
                            out.AppendNullRow();
                            return arrow::Status::OK();
                          }
                          if (row == 0 || !from.is_scalar() || !to.is_scalar()) {
                            map.clear();
                            targets = CodePoints(to.View(row));
                            int64_t index = 0;
                            for (uint32_t cp : CodePoints(from.View(row))) {
                              bool seen = false;
                              for (const auto& entry : map) seen |= entry.first == cp;
                              if (!seen) {
                                map.emplace_back(
                                    cp, index < static_cast<int64_t>(targets.size()) ? index : -1);
                              }
                              ++index;
                            }
                          }
                          const std::string_view t = text.View(row);
                          size_t pos = 0;
                          while (pos < t.size()) {
                            const size_t start = pos;
                            const uint32_t cp = Utf8Decode(t, pos);
                            auto it = std::find_if(map.begin(), map.end(),
                                                   [cp](const auto& e) { return e.first == cp; });
                            if (it == map.end()) {
                              out.Append(t.substr(start, pos - start));
                            } else if (it->second >= 0) {
                              encoded.clear();
                              Utf8Encode(targets[it->second], encoded);
                              out.Append(encoded);
                            }
                          }
                          out.EndRow();
                          return arrow::Status::OK();
                        });
  };
  return resolved;
}

}  // namespace

void RegisterStringSearchFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("lpad", PadFunction(true));
  registry.RegisterScalar("rpad", PadFunction(false));
  registry.RegisterScalar("instr", ResolveInstr);
  registry.RegisterScalar("locate", ResolveLocate);
  registry.RegisterScalar("position", ResolveLocate);
  registry.RegisterScalar("startswith", Contains(Containment::kStarts));
  registry.RegisterScalar("endswith", Contains(Containment::kEnds));
  registry.RegisterScalar("contains", Contains(Containment::kContains));
  registry.RegisterScalar("repeat", ResolveRepeat);
  registry.RegisterScalar("replace", ResolveReplace);
  registry.RegisterScalar("translate", ResolveTranslate);
}

}  // namespace sluice::expr
