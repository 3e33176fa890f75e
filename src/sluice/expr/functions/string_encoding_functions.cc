// Spark's base64/unbase64 and the fuzzy-matching string functions levenshtein and soundex.
#include <algorithm>
#include <string>
#include <vector>

#include <arrow/type.h>

#include "sluice/common/base64.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/string_arguments.h"
#include "sluice/expr/functions/string_columns.h"

namespace sluice::expr {

namespace {

using P = StringParam;

// base64(bin): standard alphabet with padding, no line breaks (Spark 4's default).
arrow::Result<ResolvedCall> ResolveBase64(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(auto resolved,
                        ResolveStringCall(call, {{P::kStringOrBinary}, 0, "1"}, arrow::utf8()));
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput input(args[0]);
    return MapToStrings(args, num_rows, input.TotalBytes(num_rows) * 4 / 3 + 4 * num_rows,
                        context.pool, [&](int64_t row, StringOutput& out) {
                          if (!input.IsValid(row)) {
                            out.AppendNullRow();
                            return arrow::Status::OK();
                          }
                          const std::string_view bytes = input.View(row);
                          const int64_t size = static_cast<int64_t>(Base64Length(bytes.size()));
                          EncodeBase64(bytes, out.Extend(size));
                          out.Advance(size);
                          out.EndRow();
                          return arrow::Status::OK();
                        });
  };
  return resolved;
}

int Base64Value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// unbase64(str): decodes like commons-codec's lenient decoder (characters outside the alphabet
// are skipped, a trailing partial group is decoded as far as it goes).
arrow::Result<ResolvedCall> ResolveUnbase64(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(auto resolved,
                        ResolveStringCall(call, {{P::kString}, 0, "1"}, arrow::binary()));
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput input(args[0]);
    return MapToStrings(
        args, num_rows, input.TotalBytes(num_rows), context.pool,
        [&](int64_t row, StringOutput& out) {
          if (!input.IsValid(row)) {
            out.AppendNullRow();
            return arrow::Status::OK();
          }
          uint32_t bits = 0;
          int count = 0;
          for (unsigned char c : input.View(row)) {
            if (c == '=') break;
            const int v = Base64Value(c);
            if (v < 0) continue;
            bits = (bits << 6) | static_cast<uint32_t>(v);
            if (++count == 4) {
              out.AppendChar(static_cast<char>(bits >> 16));
              out.AppendChar(static_cast<char>(bits >> 8));
              out.AppendChar(static_cast<char>(bits));
              bits = 0;
              count = 0;
            }
          }
          if (count == 2) {
            out.AppendChar(static_cast<char>(bits >> 4));
          } else if (count == 3) {
            out.AppendChar(static_cast<char>(bits >> 10));
            out.AppendChar(static_cast<char>(bits >> 2));
          }
          out.EndRow();
          return arrow::Status::OK();
        },
        arrow::binary());
  };
  return resolved;
}

std::vector<uint32_t> Decode(std::string_view text) {
  std::vector<uint32_t> points;
  size_t pos = 0;
  while (pos < text.size()) points.push_back(Utf8Decode(text, pos));
  return points;
}

// levenshtein(a, b[, threshold]): edit distance in code points; -1 when above the threshold.
arrow::Result<ResolvedCall> ResolveLevenshtein(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(
      auto resolved,
      ResolveStringCall(call, {{P::kString, P::kString, P::kInt}, 1, "[2, 3]"}, arrow::int32()));
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput left(args[0]);
    StringInput right(args[1]);
    const bool has_threshold = args.size() > 2;
    IntInput threshold(has_threshold ? args[2] : arrow::Datum(int32_t{0}));
    std::vector<int64_t> previous, current;
    return MapToFixed<arrow::Int32Type>(
        args, num_rows, context.pool, [&](int64_t row, int32_t* out) -> arrow::Result<bool> {
          if (!left.IsValid(row) || !right.IsValid(row) || !threshold.IsValid(row)) return false;
          const auto a = Decode(left.View(row));
          const auto b = Decode(right.View(row));
          previous.resize(b.size() + 1);
          current.resize(b.size() + 1);
          for (size_t j = 0; j <= b.size(); ++j) previous[j] = static_cast<int64_t>(j);
          for (size_t i = 1; i <= a.size(); ++i) {
            current[0] = static_cast<int64_t>(i);
            for (size_t j = 1; j <= b.size(); ++j) {
              current[j] = std::min({previous[j] + 1, current[j - 1] + 1,
                                     previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            }
            std::swap(previous, current);
          }
          int64_t distance = previous[b.size()];
          if (has_threshold && distance > threshold.Value(row)) distance = -1;
          *out = static_cast<int32_t>(distance);
          return true;
        });
  };
  return resolved;
}

// soundex(str): American Soundex of the leading ASCII letter and the letters after it; a string
// not starting with an ASCII letter is returned unchanged.
char SoundexCode(char upper) {
  static constexpr char kCodes[] = "01230120022455012623010202";  // A..Z
  return kCodes[upper - 'A'];
}

arrow::Result<ResolvedCall> ResolveSoundex(CallSite call) {
  ARROW_ASSIGN_OR_RAISE(auto resolved,
                        ResolveStringCall(call, {{P::kString}, 0, "1"}, arrow::utf8()));
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput input(args[0]);
    return MapToStrings(args, num_rows, num_rows * 4, context.pool,
                        [&](int64_t row, StringOutput& out) {
                          if (!input.IsValid(row)) {
                            out.AppendNullRow();
                            return arrow::Status::OK();
                          }
                          const std::string_view text = input.View(row);
                          char first = text.empty() ? 0 : text[0];
                          if (first >= 'a' && first <= 'z') first = static_cast<char>(first - 32);
                          if (first < 'A' || first > 'Z') {
                            out.AppendRow(text);
                            return arrow::Status::OK();
                          }
                          char code[4] = {first, '0', '0', '0'};
                          int length = 1;
                          char last = SoundexCode(first);
                          for (size_t i = 1; i < text.size() && length < 4; ++i) {
                            char c = text[i];
                            if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
                            if (c < 'A' || c > 'Z') {
                              last = '0';
                              continue;
                            }
                            const char digit = SoundexCode(c);
                            if (digit == '0') {
                              // H and W do not separate equal codes; vowels do.
                              if (c != 'H' && c != 'W') last = '0';
                              continue;
                            }
                            if (digit != last) code[length++] = digit;
                            last = digit;
                          }
                          out.AppendRow(std::string_view(code, 4));
                          return arrow::Status::OK();
                        });
  };
  return resolved;
}

}  // namespace

void RegisterStringEncodingFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("base64", ResolveBase64);
  registry.RegisterScalar("unbase64", ResolveUnbase64);
  registry.RegisterScalar("levenshtein", ResolveLevenshtein);
  registry.RegisterScalar("soundex", ResolveSoundex);
}

}  // namespace sluice::expr
