// Spark's regular-expression functions (Java regex semantics run on RE2 through
// regex_translation.h): rlike/regexp_like/regexp, like/ilike, regexp_extract(_all),
// regexp_replace, split, regexp_count, regexp_substr, regexp_instr. A constant pattern is
// compiled once when the call is resolved; other patterns once per distinct value in a batch.
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/expr/functions/literal_splitter.h"
#include "sluice/expr/functions/regex_translation.h"
#include "sluice/expr/functions/string_arguments.h"
#include "sluice/expr/functions/string_case.h"
#include "sluice/expr/functions/string_columns.h"
#include "sluice/types/spark_types.h"

namespace sluice::expr {

namespace {

using P = StringParam;

// The compiled pattern of each row: the constant one, or one compiled per distinct value.
class PatternSource {
 public:
  PatternSource(std::shared_ptr<const JavaRegex> constant, std::string function)
      : constant_(std::move(constant)), function_(std::move(function)) {}

  arrow::Result<const JavaRegex*> Get(std::string_view pattern) {
    if (constant_) return constant_.get();
    auto it = cache_.find(std::string(pattern));
    if (it != cache_.end()) return it->second.get();
    if (cache_.size() >= 256) cache_.clear();
    ARROW_ASSIGN_OR_RAISE(auto regex, CompileJavaRegex(pattern, function_));
    const JavaRegex* raw = regex.get();
    cache_.emplace(std::string(pattern), std::move(regex));
    return raw;
  }

 private:
  std::shared_ptr<const JavaRegex> constant_;
  std::string function_;
  std::unordered_map<std::string, std::shared_ptr<const JavaRegex>> cache_;
};

// Compiles argument `index` of `call` when it is a non-null string literal.
arrow::Result<std::shared_ptr<const JavaRegex>> ConstantRegex(const CallSite& call, size_t index,
                                                              const std::string& function) {
  auto pattern = ConstantString(call, index);
  if (!pattern) return nullptr;
  return CompileJavaRegex(*pattern, function);
}

arrow::Status GroupIndexError(const std::string& function, int group_count, int64_t index) {
  return SparkError("INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX",
                    "The value of parameter(s) `idx` in `" + function +
                        "` is invalid: Expects group index between 0 and " +
                        std::to_string(group_count) + ", but got " + std::to_string(index) + ".");
}

// ---- rlike / regexp_like / regexp ----

ScalarResolver RegexLike(std::string function) {
  return [function](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_ASSIGN_OR_RAISE(auto resolved,
                          ResolveStringCall(call, {{P::kString, P::kString}, 0, "2"},
                                            arrow::boolean()));
    ARROW_ASSIGN_OR_RAISE(auto constant, ConstantRegex(call, 1, function));
    resolved.can_fail = constant == nullptr;
    resolved.costly_per_value = !IsLiteralPattern(ConstantString(call, 1).value_or(""));
    resolved.kernel = [constant, function](const std::vector<arrow::Datum>& args,
                                           const EvalContext& context,
                                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
      StringInput text(args[0]);
      StringInput pattern(args[1]);
      PatternSource patterns(constant, function);
      return MapToFixed<arrow::BooleanType>(
          args, num_rows, context.pool, [&](int64_t row, bool* out) -> arrow::Result<bool> {
            if (!text.IsValid(row) || !pattern.IsValid(row)) return false;
            const std::string_view p = pattern.View(row);
            const std::string_view t = text.View(row);
            if (IsLiteralPattern(p)) {
              *out = t.find(p) != std::string_view::npos;
              return true;
            }
            ARROW_ASSIGN_OR_RAISE(const JavaRegex* regex, patterns.Get(p));
            *out = regex->MayMatch(t) &&
                   RE2::PartialMatch(re2::StringPiece(t.data(), t.size()), regex->re2());
            return true;
          });
    };
    return resolved;
  };
}

// ---- like / ilike ----

// A LIKE pattern compiled for matching: plain comparisons for the common shapes (exact,
// prefix%, %suffix, %infix%), RE2 otherwise.
struct LikeMatcher {
  enum class Shape { kExact, kPrefix, kSuffix, kContains, kRegex } shape = Shape::kRegex;
  std::string literal;
  std::shared_ptr<const RE2> regex;

  bool Matches(std::string_view text) const {
    switch (shape) {
      case Shape::kExact: return text == literal;
      case Shape::kPrefix: return text.starts_with(literal);
      case Shape::kSuffix: return text.ends_with(literal);
      case Shape::kContains: return text.find(literal) != std::string_view::npos;
      case Shape::kRegex:
        return RE2::FullMatch(re2::StringPiece(text.data(), text.size()), *regex);
    }
    return false;
  }
};

arrow::Result<LikeMatcher> CompileLike(std::string_view pattern, char escape) {
  ARROW_ASSIGN_OR_RAISE(auto translated, LikeToRe2(pattern, escape));
  LikeMatcher matcher;
  // Shapes without wildcards inside and without the escape character.
  std::string_view core = pattern;
  const bool leading = core.starts_with('%');
  if (leading) core.remove_prefix(1);
  const bool trailing = core.ends_with('%') && !core.empty();
  if (trailing) core.remove_suffix(1);
  if (core.find_first_of(std::string("%_") + escape) == std::string_view::npos) {
    matcher.literal = std::string(core);
    matcher.shape = leading && trailing ? LikeMatcher::Shape::kContains
                    : leading          ? LikeMatcher::Shape::kSuffix
                    : trailing         ? LikeMatcher::Shape::kPrefix
                                       : LikeMatcher::Shape::kExact;
    return matcher;
  }
  RE2::Options options;
  options.set_log_errors(false);
  matcher.regex = std::make_shared<const RE2>(translated, options);
  if (!matcher.regex->ok()) {
    return arrow::Status::Invalid("Could not compile LIKE pattern '", std::string(pattern), "'");
  }
  return matcher;
}

ScalarResolver Like(bool ignore_case) {
  return [ignore_case](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_ASSIGN_OR_RAISE(
        auto resolved,
        ResolveStringCall(call, {{P::kString, P::kString, P::kString}, 1, "[2, 3]"},
                          arrow::boolean()));
    char escape = '\\';
    if (call.args.size() == 3) {
      auto escape_text = ConstantString(call, 2);
      if (!escape_text || escape_text->size() != 1) {
        return DataTypeMismatch(call, "INVALID_ESCAPE_CHAR",
                                "The escape character must be a string literal of one "
                                "character.");
      }
      escape = (*escape_text)[0];
      resolved.args.pop_back();
    }
    std::shared_ptr<const LikeMatcher> constant;
    if (auto pattern = ConstantString(call, 1)) {
      std::string text = *pattern;
      if (ignore_case) {
        StringOutput lowered(1, static_cast<int64_t>(text.size()), arrow::default_memory_pool());
        AppendLower(text, lowered);
        lowered.EndRow();
        ARROW_ASSIGN_OR_RAISE(auto data, lowered.Finish());
        text = std::string(reinterpret_cast<const char*>(data->buffers[2]->data()),
                           static_cast<size_t>(data->GetValues<int32_t>(1)[1]));
      }
      ARROW_ASSIGN_OR_RAISE(auto matcher, CompileLike(text, escape));
      constant = std::make_shared<const LikeMatcher>(std::move(matcher));
    }
    resolved.can_fail = constant == nullptr;
    // Lowering a text for ilike allocates; a LIKE pattern that is not one of the plain shapes
    // runs a regex.
    resolved.costly_per_value = ignore_case || constant == nullptr ||
                                constant->shape == LikeMatcher::Shape::kRegex;
    resolved.kernel = [constant, escape, ignore_case](
                          const std::vector<arrow::Datum>& args, const EvalContext& context,
                          int64_t num_rows) -> arrow::Result<arrow::Datum> {
      StringInput text(args[0]);
      StringInput pattern(args[1]);
      std::string last_pattern;
      std::optional<LikeMatcher> row_matcher;
      auto lower = [&](std::string_view value) -> std::string {
        StringOutput lowered(1, static_cast<int64_t>(value.size()), context.pool);
        AppendLower(value, lowered);
        lowered.EndRow();
        auto data = lowered.Finish();
        if (!data.ok()) return std::string(value);
        return std::string(reinterpret_cast<const char*>((*data)->buffers[2]->data()),
                           static_cast<size_t>((*data)->GetValues<int32_t>(1)[1]));
      };
      return MapToFixed<arrow::BooleanType>(
          args, num_rows, context.pool, [&](int64_t row, bool* out) -> arrow::Result<bool> {
            if (!text.IsValid(row) || !pattern.IsValid(row)) return false;
            const LikeMatcher* matcher = constant.get();
            if (matcher == nullptr) {
              std::string p(pattern.View(row));
              if (ignore_case) p = lower(p);
              if (!row_matcher || p != last_pattern) {
                ARROW_ASSIGN_OR_RAISE(auto compiled, CompileLike(p, escape));
                row_matcher = std::move(compiled);
                last_pattern = p;
              }
              matcher = &*row_matcher;
            }
            if (ignore_case) {
              *out = matcher->Matches(lower(text.View(row)));
            } else {
              *out = matcher->Matches(text.View(row));
            }
            return true;
          });
    };
    return resolved;
  };
}

// ---- regexp_extract, regexp_extract_all, regexp_substr, regexp_instr, regexp_count ----

enum class ExtractKind { kFirst, kAll, kSubstr, kInstr, kCount };

ScalarResolver Extract(ExtractKind kind, std::string function) {
  return [kind, function](CallSite call) -> arrow::Result<ResolvedCall> {
    const bool has_index = kind == ExtractKind::kFirst || kind == ExtractKind::kAll ||
                           kind == ExtractKind::kInstr;
    StringSignature signature{{P::kString, P::kString}, 0, "2"};
    if (has_index) signature = {{P::kString, P::kString, P::kInt}, 1, "[2, 3]"};
    std::shared_ptr<arrow::DataType> type =
        kind == ExtractKind::kAll ? types::MakeArrayType(arrow::utf8(), true)
        : kind == ExtractKind::kInstr || kind == ExtractKind::kCount ? arrow::int32()
                                                                      : arrow::utf8();
    ARROW_ASSIGN_OR_RAISE(auto resolved, ResolveStringCall(call, signature, type));
    ARROW_ASSIGN_OR_RAISE(auto constant, ConstantRegex(call, 1, function));
    const int64_t default_index = kind == ExtractKind::kInstr ? 0 : 1;
    // A constant pattern compiled here and a constant group index among its groups leave
    // nothing to fail at run time: AND, OR and CASE need not keep rows from the call.
    std::optional<int64_t> index = 0;
    if (has_index) index = call.args.size() > 2 ? ConstantInt(call, 2) : default_index;
    resolved.can_fail = constant == nullptr || !index.has_value() || *index < 0 ||
                        *index > constant->re2().NumberOfCapturingGroups();
    resolved.costly_per_value = true;
    if (kind == ExtractKind::kSubstr) resolved.nullable = true;
    resolved.kernel = [kind, function, constant, default_index](
                          const std::vector<arrow::Datum>& args, const EvalContext& context,
                          int64_t num_rows) -> arrow::Result<arrow::Datum> {
      StringInput text(args[0]);
      StringInput pattern(args[1]);
      IntInput index(args.size() > 2 ? args[2] : arrow::Datum(static_cast<int32_t>(default_index)));
      PatternSource patterns(constant, function);
      std::vector<re2::StringPiece> groups;
      // Finds the first match; returns false when there is none.
      auto first_match = [&](const JavaRegex& regex, std::string_view t, int group_count) {
        bool found = false;
        ForEachJavaMatch(regex, t, group_count, groups, [&](auto&) {
          found = true;
          return false;
        });
        return found;
      };
      auto check_index = [&](int group_count, int64_t idx) -> arrow::Status {
        if (idx < 0 || idx > group_count) return GroupIndexError(function, group_count, idx);
        return arrow::Status::OK();
      };
      if (kind == ExtractKind::kInstr || kind == ExtractKind::kCount) {
        return MapToFixed<arrow::Int32Type>(
            args, num_rows, context.pool, [&](int64_t row, int32_t* out) -> arrow::Result<bool> {
              if (!text.IsValid(row) || !pattern.IsValid(row) || !index.IsValid(row)) {
                return false;
              }
              ARROW_ASSIGN_OR_RAISE(const JavaRegex* regex, patterns.Get(pattern.View(row)));
              const std::string_view t = text.View(row);
              const int group_count = regex->re2().NumberOfCapturingGroups();
              if (kind == ExtractKind::kCount) {
                int32_t count = 0;
                ForEachJavaMatch(*regex, t, 0, groups, [&](auto&) {
                  ++count;
                  return true;
                });
                *out = count;
                return true;
              }
              *out = 0;
              if (first_match(*regex, t, group_count)) {
                const int64_t idx = index.Value(row);
                ARROW_RETURN_NOT_OK(check_index(group_count, idx));
                const auto& group = groups[static_cast<size_t>(idx)];
                if (group.data() != nullptr) {
                  *out = static_cast<int32_t>(
                      Utf8Length(t.substr(0, static_cast<size_t>(group.data() - t.data()))) + 1);
                }
              }
              return true;
            });
      }
      if (kind == ExtractKind::kAll) {
        const bool scalar = AllScalars(args);
        const int64_t rows = scalar ? 1 : num_rows;
        StringListOutput out(rows, context.pool, types::MakeArrayType(arrow::utf8(), true));
        for (int64_t row = 0; row < rows; ++row) {
          if (!text.IsValid(row) || !pattern.IsValid(row) || !index.IsValid(row)) {
            out.AppendNullList();
            continue;
          }
          ARROW_ASSIGN_OR_RAISE(const JavaRegex* regex, patterns.Get(pattern.View(row)));
          const std::string_view t = text.View(row);
          const int group_count = regex->re2().NumberOfCapturingGroups();
          const int64_t idx = index.Value(row);
          arrow::Status status;
          ForEachJavaMatch(*regex, t, group_count, groups, [&](auto& found) {
            status = check_index(group_count, idx);
            if (!status.ok()) return false;
            const auto& group = found[static_cast<size_t>(idx)];
            out.AppendElement(std::string_view(group.data() ? group.data() : "", group.size()));
            return true;
          });
          ARROW_RETURN_NOT_OK(status);
          out.EndList();
        }
        ARROW_ASSIGN_OR_RAISE(auto data, out.Finish());
        return FinishDatum(std::move(data), scalar);
      }
      return MapToStrings(
          args, num_rows, text.TotalBytes(num_rows) / 2, context.pool,
          [&](int64_t row, StringOutput& out) -> arrow::Status {
            if (!text.IsValid(row) || !pattern.IsValid(row) || !index.IsValid(row)) {
              out.AppendNullRow();
              return arrow::Status::OK();
            }
            ARROW_ASSIGN_OR_RAISE(const JavaRegex* regex, patterns.Get(pattern.View(row)));
            const std::string_view t = text.View(row);
            const int group_count = regex->re2().NumberOfCapturingGroups();
            if (!first_match(*regex, t, group_count)) {
              if (kind == ExtractKind::kSubstr) {
                out.AppendNullRow();
              } else {
                out.AppendRow({});
              }
              return arrow::Status::OK();
            }
            const int64_t idx = kind == ExtractKind::kSubstr ? 0 : index.Value(row);
            ARROW_RETURN_NOT_OK(check_index(group_count, idx));
            const auto& group = groups[static_cast<size_t>(idx)];
            out.AppendRow(std::string_view(group.data() ? group.data() : "", group.size()));
            return arrow::Status::OK();
          });
    };
    return resolved;
  };
}

// ---- regexp_replace ----

arrow::Status ReplaceError(std::string_view source, std::string_view pattern,
                           std::string_view replacement, int64_t position) {
  return SparkError("INVALID_REGEXP_REPLACE",
                    "Could not perform regexp_replace for source = \"" + std::string(source) +
                        "\", pattern = \"" + std::string(pattern) + "\", replacement = \"" +
                        std::string(replacement) + "\" and position = " +
                        std::to_string(position) + ".");
}

arrow::Result<ResolvedCall> ResolveRegexpReplace(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(
      auto resolved,
      ResolveStringCall(call, {{P::kString, P::kString, P::kString, P::kInt}, 1, "[3, 4]"},
                        arrow::utf8()));
  if (call.args.size() == 4) {
    if (auto position = ConstantInt(call, 3); position && *position <= 0) {
      return DataTypeMismatch(call, "VALUE_OUT_OF_RANGE",
                              "The position must be between (0, 2147483647] (current value = " +
                                  std::to_string(*position) + ").");
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto constant, ConstantRegex(call, 1, "regexp_replace"));
  resolved.can_fail = true;
  resolved.costly_per_value = true;
  resolved.kernel = [constant](const std::vector<arrow::Datum>& args, const EvalContext& context,
                               int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput text(args[0]);
    StringInput pattern(args[1]);
    StringInput replacement(args[2]);
    IntInput position(args.size() > 3 ? args[3] : arrow::Datum(int32_t{1}));
    PatternSource patterns(constant, "regexp_replace");
    std::vector<re2::StringPiece> groups;
    const JavaRegex* parsed_for = nullptr;
    std::string parsed_text;
    Replacement parsed;
    return MapToStrings(
        args, num_rows, text.TotalBytes(num_rows), context.pool,
        [&](int64_t row, StringOutput& out) -> arrow::Status {
          if (!text.IsValid(row) || !pattern.IsValid(row) || !replacement.IsValid(row) ||
              !position.IsValid(row)) {
            out.AppendNullRow();
            return arrow::Status::OK();
          }
          ARROW_ASSIGN_OR_RAISE(const JavaRegex* regex, patterns.Get(pattern.View(row)));
          const std::string_view rep = replacement.View(row);
          if (parsed_for != regex || rep != parsed_text) {
            parsed = ParseReplacement(rep, regex->re2());
            parsed_for = regex;
            parsed_text = std::string(rep);
          }
          const std::string_view source = text.View(row);
          const int64_t pos = position.Value(row);
          if (pos <= 0) {
            return SparkError("INVALID_PARAMETER_VALUE.REGEX_POSITION",
                              "The value of parameter(s) `position` in `regexp_replace` is "
                              "invalid: expects a position greater than 0, but got " +
                                  std::to_string(pos) + ".");
          }
          const size_t skip = Utf8Offset(source, pos - 1);
          const std::string_view t = source.substr(skip);
          out.Append(source.substr(0, skip));
          size_t copied = 0;
          bool failed = false;
          int needed = 0;
          for (const auto& piece : parsed.pieces) needed = std::max(needed, piece.group);
          ForEachJavaMatch(*regex, t, needed, groups, [&](auto& found) {
            if (parsed.invalid) {
              failed = true;
              return false;
            }
            const size_t start = static_cast<size_t>(found[0].data() - t.data());
            out.Append(t.substr(copied, start - copied));
            for (const auto& piece : parsed.pieces) {
              if (piece.group < 0) {
                out.Append(piece.literal);
              } else if (const auto& g = found[static_cast<size_t>(piece.group)]; g.data()) {
                out.Append(std::string_view(g.data(), g.size()));
              }
            }
            copied = start + found[0].size();
            return true;
          });
          if (failed) return ReplaceError(source, pattern.View(row), rep, pos);
          out.Append(t.substr(copied));
          out.EndRow();
          return arrow::Status::OK();
        });
  };
  return resolved;
}

// ---- split ----

// UTF8String.split(pattern, limit) as Spark 4 runs it: Java's String.split with trailing empty
// strings kept (limit 0 acts as -1); an empty pattern splits into characters.
void SplitRow(const JavaRegex& regex, std::string_view literal, std::string_view text,
              bool empty_pattern, int64_t limit, std::vector<re2::StringPiece>& groups,
              StringListOutput& out) {
  if (limit == 0) limit = -1;
  if (empty_pattern && !text.empty()) {
    const int64_t chars = Utf8Length(text);
    const int64_t count = limit > chars || limit <= 0 ? chars : limit;
    size_t pos = 0;
    for (int64_t i = 0; i < count; ++i) {
      const size_t start = pos;
      Utf8Decode(text, pos);
      out.AppendElement(text.substr(start, pos - start));
    }
    out.EndList();
    return;
  }
  size_t index = 0;
  int64_t pieces = 0;
  bool matched = false;
  if (!literal.empty()) {
    LiteralSplitter parts(text, literal, limit);
    while (std::optional<std::string_view> part = parts.Next()) out.AppendElement(*part);
    out.EndList();
    return;
  }
  ForEachJavaMatch(regex, text, 0, groups, [&](auto& found) {
    const size_t start = static_cast<size_t>(found[0].data() - text.data());
    const size_t end = start + found[0].size();
    if (limit > 0 && pieces >= limit - 1) return false;
    if (index == 0 && start == 0 && end == 0) return true;  // no leading empty string
    out.AppendElement(text.substr(index, start - index));
    ++pieces;
    index = end;
    matched = true;
    return true;
  });
  if (!matched) {
    out.AppendElement(text);
  } else {
    out.AppendElement(text.substr(index));
  }
  out.EndList();
}

arrow::Result<ResolvedCall> ResolveSplit(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(
      auto resolved,
      ResolveStringCall(call, {{P::kString, P::kString, P::kInt}, 1, "[2, 3]"},
                        types::MakeArrayType(arrow::utf8(), false)));
  ARROW_ASSIGN_OR_RAISE(auto constant, ConstantRegex(call, 1, "split"));
  resolved.can_fail = constant == nullptr;
  // A plain-text separator is a string search, as cheap as a lookup.
  resolved.costly_per_value = !IsLiteralPattern(ConstantString(call, 1).value_or(""));
  resolved.kernel = [constant](const std::vector<arrow::Datum>& args, const EvalContext& context,
                               int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput text(args[0]);
    StringInput pattern(args[1]);
    IntInput limit(args.size() > 2 ? args[2] : arrow::Datum(int32_t{-1}));
    PatternSource patterns(constant, "split");
    std::vector<re2::StringPiece> groups;
    const bool scalar = AllScalars(args);
    const int64_t rows = scalar ? 1 : num_rows;
    StringListOutput out(rows, context.pool, types::MakeArrayType(arrow::utf8(), false));
    for (int64_t row = 0; row < rows; ++row) {
      if (!text.IsValid(row) || !pattern.IsValid(row) || !limit.IsValid(row)) {
        out.AppendNullList();
        continue;
      }
      const std::string_view p = pattern.View(row);
      ARROW_ASSIGN_OR_RAISE(const JavaRegex* regex, patterns.Get(p));
      SplitRow(*regex, IsLiteralPattern(p) ? p : std::string_view(), text.View(row), p.empty(),
               limit.Value(row), groups, out);
    }
    ARROW_ASSIGN_OR_RAISE(auto data, out.Finish());
    return FinishDatum(std::move(data), scalar);
  };
  return resolved;
}

}  // namespace

void RegisterRegexFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("rlike", RegexLike("rlike"));
  registry.RegisterScalar("regexp_like", RegexLike("regexp_like"));
  registry.RegisterScalar("regexp", RegexLike("regexp"));
  registry.RegisterScalar("like", Like(false));
  registry.RegisterScalar("ilike", Like(true));
  registry.RegisterScalar("regexp_extract", Extract(ExtractKind::kFirst, "regexp_extract"));
  registry.RegisterScalar("regexp_extract_all",
                          Extract(ExtractKind::kAll, "regexp_extract_all"));
  registry.RegisterScalar("regexp_substr", Extract(ExtractKind::kSubstr, "regexp_substr"));
  registry.RegisterScalar("regexp_instr", Extract(ExtractKind::kInstr, "regexp_instr"));
  registry.RegisterScalar("regexp_count", Extract(ExtractKind::kCount, "regexp_count"));
  registry.RegisterScalar("regexp_replace", ResolveRegexpReplace);
  registry.RegisterScalar("split", ResolveSplit);
}

}  // namespace sluice::expr
