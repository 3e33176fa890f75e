#include "sluice/expr/functions/string_format.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <arrow/array.h>
#include <arrow/scalar.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/functions/string_case.h"
#include "sluice/expr/functions/string_columns.h"

namespace sluice::expr {

namespace {

// ---- Java's shortest decimal digits of a double ----

// The shortest digits that round-trip `value` (> 0, finite) and its decimal exponent: value =
// 0.d1d2... * 10^exponent.
struct DecimalDigits {
  std::string digits;
  int exponent = 0;
};

template <typename Float>
DecimalDigits ShortestDigits(Float value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  std::string_view text(buffer, static_cast<size_t>(result.ptr - buffer));
  DecimalDigits out;
  const size_t e = text.find('e');
  for (char c : text.substr(0, e)) {
    if (c >= '0' && c <= '9') out.digits.push_back(c);
  }
  out.exponent = std::atoi(std::string(text.substr(e + 1)).c_str()) + 1;
  while (out.digits.size() > 1 && out.digits.back() == '0') out.digits.pop_back();
  return out;
}

template <typename Float>
std::string JavaFloatingToString(Float value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-Infinity" : "Infinity";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  std::string text = value < 0 ? "-" : "";
  const Float magnitude = std::fabs(value);
  const DecimalDigits d = ShortestDigits(magnitude);
  if (magnitude >= Float(1e-3) && magnitude < Float(1e7)) {
    if (d.exponent <= 0) {
      text += "0." + std::string(static_cast<size_t>(-d.exponent), '0') + d.digits;
    } else if (static_cast<size_t>(d.exponent) >= d.digits.size()) {
      text += d.digits + std::string(d.exponent - d.digits.size(), '0') + ".0";
    } else {
      text += d.digits.substr(0, d.exponent) + "." + d.digits.substr(d.exponent);
    }
    return text;
  }
  text += d.digits.substr(0, 1) + "." + (d.digits.size() > 1 ? d.digits.substr(1) : "0");
  return text + "E" + std::to_string(d.exponent - 1);
}

// Rounds `d` half-up to keep `keep` digits (keep may be <= 0: rounding to zero or one unit).
DecimalDigits RoundHalfUp(DecimalDigits d, int keep) {
  if (keep < 0) return {"0", d.exponent};
  if (static_cast<size_t>(keep) >= d.digits.size()) return d;
  const bool up = d.digits[keep] >= '5';
  d.digits.resize(keep);
  if (up) {
    int i = keep - 1;
    while (i >= 0 && d.digits[i] == '9') d.digits[i--] = '0';
    if (i >= 0) {
      ++d.digits[i];
    } else {
      d.digits.insert(d.digits.begin(), '1');
      ++d.exponent;
    }
  }
  if (d.digits.empty()) d.digits = "0";
  return d;
}

// The fixed-point text of magnitude `d` with `precision` fraction digits (Java's %f).
std::string FixedText(const DecimalDigits& source, int precision, bool zero) {
  if (zero) return precision > 0 ? "0." + std::string(precision, '0') : "0";
  const DecimalDigits d = RoundHalfUp(source, source.exponent + precision);
  std::string digits = d.digits;
  if (source.exponent + precision < 0) digits = "0";
  int exponent = source.exponent + precision < 0 ? 1 - precision : d.exponent;
  // value = 0.digits * 10^exponent; produce integer and fraction parts.
  std::string integer, fraction;
  for (int i = 0; i < exponent; ++i) {
    integer.push_back(static_cast<size_t>(i) < digits.size() ? digits[i] : '0');
  }
  if (integer.empty()) integer = "0";
  for (int i = exponent; static_cast<int>(fraction.size()) < precision; ++i) {
    fraction.push_back(i >= 0 && static_cast<size_t>(i) < digits.size() ? digits[i] : '0');
  }
  return precision > 0 ? integer + "." + fraction : integer;
}

// Java's %e text: d.ddddde+XX with `precision` fraction digits.
std::string ScientificText(const DecimalDigits& source, int precision, bool zero) {
  DecimalDigits d = zero ? DecimalDigits{"0", 1} : RoundHalfUp(source, precision + 1);
  std::string mantissa = d.digits.substr(0, 1);
  if (precision > 0) {
    std::string fraction = d.digits.substr(1);
    fraction.resize(precision, '0');
    mantissa += "." + fraction;
  }
  const int exponent = zero ? 0 : d.exponent - 1;
  std::string exp_text = std::to_string(std::abs(exponent));
  if (exp_text.size() < 2) exp_text = "0" + exp_text;
  return mantissa + (exponent < 0 ? "e-" : "e+") + exp_text;
}

// ---- the format string ----

struct Specifier {
  std::string literal;       // text before the specifier
  bool has_conversion = false;
  int index = 0;             // 1-based explicit index, 0 ordinary, -1 previous ('<')
  bool left = false, alternate = false, plus = false, space = false, zero = false,
       group = false, paren = false;
  int width = -1;
  int precision = -1;
  char conversion = 0;       // lower case
  bool upper = false;
  std::string text;          // the specifier as written, for messages
};

arrow::Status UnknownConversion(std::string_view conversion) {
  return arrow::Status::Invalid("UnknownFormatConversionException: Conversion = '",
                                std::string(conversion), "'");
}

arrow::Result<std::vector<Specifier>> ParseFormat(std::string_view format) {
  std::vector<Specifier> specs;
  Specifier current;
  size_t i = 0;
  while (i < format.size()) {
    if (format[i] != '%') {
      current.literal.push_back(format[i++]);
      continue;
    }
    const size_t start = i++;
    auto digits = [&]() {
      size_t begin = i;
      while (i < format.size() && format[i] >= '0' && format[i] <= '9') ++i;
      return format.substr(begin, i - begin);
    };
    // argument index: digits followed by '$'
    size_t save = i;
    auto number = digits();
    if (!number.empty() && i < format.size() && format[i] == '$') {
      current.index = std::atoi(std::string(number).c_str());
      ++i;
    } else {
      i = save;
    }
    for (; i < format.size(); ++i) {
      const char f = format[i];
      if (f == '-') current.left = true;
      else if (f == '#') current.alternate = true;
      else if (f == '+') current.plus = true;
      else if (f == ' ') current.space = true;
      else if (f == '0') current.zero = true;
      else if (f == ',') current.group = true;
      else if (f == '(') current.paren = true;
      else if (f == '<') current.index = -1;
      else break;
    }
    auto width = digits();
    if (!width.empty()) current.width = std::atoi(std::string(width).c_str());
    if (i < format.size() && format[i] == '.') {
      ++i;
      auto precision = digits();
      if (precision.empty()) return UnknownConversion(".");
      current.precision = std::atoi(std::string(precision).c_str());
    }
    if (i >= format.size()) {
      return arrow::Status::Invalid("UnknownFormatConversionException: Conversion = '%'");
    }
    const char c = format[i++];
    current.text = std::string(format.substr(start, i - start));
    const char lower = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    if (std::strchr("bhscdoxefgn%", lower) == nullptr ||
        (c != lower && std::strchr("bhscxeg", lower) == nullptr)) {
      return UnknownConversion(std::string(1, c));
    }
    current.conversion = lower;
    current.upper = c != lower;
    if ((current.left || current.zero) && current.width < 0) {
      return arrow::Status::Invalid("MissingFormatWidthException: ", current.text);
    }
    if (current.left && current.zero) {
      return arrow::Status::Invalid("IllegalFormatFlagsException: Flags = '-0'");
    }
    if (current.precision >= 0 && std::strchr("cdoxn%", lower) != nullptr) {
      return arrow::Status::Invalid("IllegalFormatPrecisionException: ", current.precision);
    }
    current.has_conversion = true;
    specs.push_back(std::move(current));
    current = Specifier();
  }
  if (!current.literal.empty()) specs.push_back(std::move(current));
  return specs;
}

// ---- argument values ----

enum class ValueKind { kNull, kInteger, kFloating, kBoolean, kString, kOther };

struct Value {
  ValueKind kind = ValueKind::kNull;
  int64_t integer = 0;
  int bits = 64;              // width of the integer type, for %x/%o of negatives
  double floating = 0;
  bool is_float32 = false;
  bool boolean = false;
  std::string_view string;
  std::string owned;          // text of other values (decimals, arrays)
};

// Reads one argument's values row by row.
class ArgumentReader {
 public:
  explicit ArgumentReader(const arrow::Datum& datum) : datum_(datum) {
    if (datum.is_array()) {
      array_ = datum.make_array();
      type_ = datum.type();
    } else {
      type_ = datum.scalar()->type;
    }
    if (type_->id() == arrow::Type::STRING) strings_.emplace(datum);
  }

  arrow::Result<Value> Read(int64_t row) const {
    Value value;
    std::shared_ptr<arrow::Scalar> scalar;
    if (strings_) {
      if (!strings_->IsValid(row)) return value;
      value.kind = ValueKind::kString;
      value.string = strings_->View(row);
      return value;
    }
    if (array_) {
      if (array_->IsNull(row)) return value;
      ARROW_ASSIGN_OR_RAISE(scalar, array_->GetScalar(row));
    } else {
      scalar = datum_.scalar();
      if (!scalar->is_valid) return value;
    }
    switch (type_->id()) {
      case arrow::Type::NA:
        return value;
      case arrow::Type::INT8:
        return Integer(static_cast<const arrow::Int8Scalar&>(*scalar).value, 8);
      case arrow::Type::INT16:
        return Integer(static_cast<const arrow::Int16Scalar&>(*scalar).value, 16);
      case arrow::Type::INT32:
        return Integer(static_cast<const arrow::Int32Scalar&>(*scalar).value, 32);
      case arrow::Type::INT64:
        return Integer(static_cast<const arrow::Int64Scalar&>(*scalar).value, 64);
      case arrow::Type::DATE32:
        // Spark hands its internal value to the formatter: days since the epoch.
        value.kind = ValueKind::kOther;
        value.owned = std::to_string(static_cast<const arrow::Date32Scalar&>(*scalar).value);
        return value;
      case arrow::Type::TIMESTAMP:
        value.kind = ValueKind::kOther;
        value.owned = std::to_string(static_cast<const arrow::TimestampScalar&>(*scalar).value);
        return value;
      case arrow::Type::FLOAT:
        value.kind = ValueKind::kFloating;
        value.floating = static_cast<const arrow::FloatScalar&>(*scalar).value;
        value.is_float32 = true;
        return value;
      case arrow::Type::DOUBLE:
        value.kind = ValueKind::kFloating;
        value.floating = static_cast<const arrow::DoubleScalar&>(*scalar).value;
        return value;
      case arrow::Type::BOOL:
        value.kind = ValueKind::kBoolean;
        value.boolean = static_cast<const arrow::BooleanScalar&>(*scalar).value;
        return value;
      default:
        value.kind = ValueKind::kOther;
        value.owned = scalar->ToString();
        return value;
    }
  }

 private:
  static Value Integer(int64_t v, int bits) {
    Value value;
    value.kind = ValueKind::kInteger;
    value.integer = v;
    value.bits = bits;
    return value;
  }

  arrow::Datum datum_;
  std::shared_ptr<arrow::Array> array_;
  std::shared_ptr<arrow::DataType> type_;
  std::optional<StringInput> strings_;
};

// ---- formatting one specifier ----

void Justify(const Specifier& spec, std::string_view text, StringOutput& out) {
  const int64_t length = Utf8Length(text);
  const int64_t pad = spec.width > length ? spec.width - length : 0;
  if (!spec.left) {
    for (int64_t i = 0; i < pad; ++i) out.AppendChar(' ');
  }
  out.Append(text);
  if (spec.left) {
    for (int64_t i = 0; i < pad; ++i) out.AppendChar(' ');
  }
}

void AppendMaybeUpper(const Specifier& spec, std::string_view text, StringOutput& out) {
  std::string_view shown = text;
  if (spec.precision >= 0) shown = text.substr(0, Utf8Offset(text, spec.precision));
  if (!spec.upper) return Justify(spec, shown, out);
  StringOutput upper(1, static_cast<int64_t>(shown.size()) + 8, arrow::default_memory_pool());
  AppendUpper(shown, upper);
  upper.EndRow();
  auto data = upper.Finish();
  if (!data.ok()) return;
  const auto& array = **data;
  const int32_t* offsets = array.GetValues<int32_t>(1);
  Justify(spec,
          std::string_view(reinterpret_cast<const char*>(array.buffers[2]->data()),
                           static_cast<size_t>(offsets[1])),
          out);
}

std::string Group(const std::string& integer) {
  std::string grouped;
  const size_t n = integer.size();
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) grouped.push_back(',');
    grouped.push_back(integer[i]);
  }
  return grouped;
}

// Sign, grouping, parentheses and zero padding of a decimal magnitude.
void AppendNumber(const Specifier& spec, bool negative, std::string magnitude, StringOutput& out) {
  if (spec.group) {
    const size_t dot = magnitude.find('.');
    const size_t end = dot == std::string::npos ? magnitude.find('e') : dot;
    const std::string integer = magnitude.substr(0, end);
    magnitude = Group(integer) + (end == std::string::npos ? "" : magnitude.substr(end));
  }
  std::string prefix, suffix;
  if (negative) {
    if (spec.paren) {
      prefix = "(";
      suffix = ")";
    } else {
      prefix = "-";
    }
  } else if (spec.plus) {
    prefix = "+";
  } else if (spec.space) {
    prefix = " ";
  }
  if (spec.zero) {
    const int64_t used = static_cast<int64_t>(prefix.size() + magnitude.size() + suffix.size());
    if (spec.width > used) magnitude.insert(0, static_cast<size_t>(spec.width - used), '0');
  }
  std::string text = prefix + magnitude + suffix;
  if (spec.upper) {
    for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  Justify(spec, text, out);
}

arrow::Status Mismatch(const Specifier& spec, std::string_view type) {
  return arrow::Status::Invalid("IllegalFormatConversionException: ", spec.conversion,
                                " != ", std::string(type));
}

std::string_view JavaTypeName(const Value& value) {
  switch (value.kind) {
    case ValueKind::kInteger: return value.bits == 64 ? "java.lang.Long" : "java.lang.Integer";
    case ValueKind::kFloating: return value.is_float32 ? "java.lang.Float" : "java.lang.Double";
    case ValueKind::kBoolean: return "java.lang.Boolean";
    case ValueKind::kString: return "org.apache.spark.unsafe.types.UTF8String";
    default: return "org.apache.spark.sql.types.Decimal";
  }
}

arrow::Status FormatOne(const Specifier& spec, const Value& value, StringOutput& out) {
  const char conversion = spec.conversion;
  if (conversion == 'b') {
    const bool result = value.kind == ValueKind::kBoolean ? value.boolean
                                                         : value.kind != ValueKind::kNull;
    AppendMaybeUpper(spec, result ? "true" : "false", out);
    return arrow::Status::OK();
  }
  if (value.kind == ValueKind::kNull) {
    AppendMaybeUpper(spec, "null", out);
    return arrow::Status::OK();
  }
  switch (conversion) {
    case 's': {
      if (spec.alternate) {
        return arrow::Status::Invalid("FormatFlagsConversionMismatchException: Conversion = s, "
                                      "Flags = #");
      }
      switch (value.kind) {
        case ValueKind::kString:
          AppendMaybeUpper(spec, value.string, out);
          break;
        case ValueKind::kInteger:
          AppendMaybeUpper(spec, std::to_string(value.integer), out);
          break;
        case ValueKind::kFloating:
          AppendMaybeUpper(spec,
                           value.is_float32 ? JavaFloatToString(static_cast<float>(value.floating))
                                            : JavaDoubleToString(value.floating),
                           out);
          break;
        case ValueKind::kBoolean:
          AppendMaybeUpper(spec, value.boolean ? "true" : "false", out);
          break;
        default:
          AppendMaybeUpper(spec, value.owned, out);
      }
      return arrow::Status::OK();
    }
    case 'c': {
      if (value.kind != ValueKind::kInteger) return Mismatch(spec, JavaTypeName(value));
      std::string encoded;
      Utf8Encode(static_cast<uint32_t>(value.integer), encoded);
      AppendMaybeUpper(spec, encoded, out);
      return arrow::Status::OK();
    }
    case 'd': {
      if (value.kind != ValueKind::kInteger) return Mismatch(spec, JavaTypeName(value));
      const bool negative = value.integer < 0;
      const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(value.integer)
                                          : static_cast<uint64_t>(value.integer);
      AppendNumber(spec, negative, std::to_string(magnitude), out);
      return arrow::Status::OK();
    }
    case 'o':
    case 'x': {
      if (value.kind != ValueKind::kInteger) return Mismatch(spec, JavaTypeName(value));
      uint64_t bits = static_cast<uint64_t>(value.integer);
      if (value.bits < 64) bits &= (uint64_t{1} << value.bits) - 1;
      char buffer[32];
      auto result = std::to_chars(buffer, buffer + sizeof(buffer), bits, conversion == 'x' ? 16 : 8);
      std::string digits(buffer, result.ptr);
      std::string prefix = spec.alternate ? (conversion == 'x' ? "0x" : "0") : "";
      if (spec.zero && spec.width > static_cast<int>(prefix.size() + digits.size())) {
        digits.insert(0, spec.width - prefix.size() - digits.size(), '0');
      }
      std::string text = prefix + digits;
      if (spec.upper) {
        for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      }
      Justify(spec, text, out);
      return arrow::Status::OK();
    }
    case 'e':
    case 'f':
    case 'g': {
      if (value.kind != ValueKind::kFloating) return Mismatch(spec, JavaTypeName(value));
      const double v = value.floating;
      if (std::isnan(v) || std::isinf(v)) {
        std::string text = std::isnan(v) ? "NaN" : (v < 0 ? (spec.paren ? "(Infinity)" : "-Infinity")
                                                         : (spec.plus ? "+Infinity" : "Infinity"));
        if (spec.upper) {
          for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        Justify(spec, text, out);
        return arrow::Status::OK();
      }
      const bool negative = std::signbit(v);
      const bool zero = v == 0;
      DecimalDigits digits;
      if (!zero) {
        digits = value.is_float32 ? ShortestDigits(static_cast<float>(std::fabs(v)))
                                  : ShortestDigits(std::fabs(v));
      }
      int precision = spec.precision < 0 ? 6 : spec.precision;
      std::string magnitude;
      if (conversion == 'f') {
        magnitude = FixedText(digits, precision, zero);
      } else if (conversion == 'e') {
        magnitude = ScientificText(digits, precision, zero);
      } else {
        if (precision == 0) precision = 1;
        const DecimalDigits rounded = zero ? DecimalDigits{"0", 1} : RoundHalfUp(digits, precision);
        const double abs_rounded = zero ? 0 : std::pow(10.0, rounded.exponent - 1);
        if (zero || (abs_rounded >= 1e-4 && rounded.exponent <= precision)) {
          magnitude = FixedText(digits, precision - (zero ? 1 : rounded.exponent), zero);
        } else {
          magnitude = ScientificText(digits, precision - 1, zero);
        }
      }
      AppendNumber(spec, negative, magnitude, out);
      return arrow::Status::OK();
    }
    default:
      return UnknownConversion(std::string(1, conversion));
  }
}

arrow::Status FormatRow(const std::vector<Specifier>& specs,
                        const std::vector<ArgumentReader>& readers, int64_t row,
                        StringOutput& out) {
  int ordinary = 0;
  int last = -1;
  for (const auto& spec : specs) {
    out.Append(spec.literal);
    if (!spec.has_conversion) continue;
    if (spec.conversion == '%') {
      Specifier percent = spec;
      Justify(percent, "%", out);
      continue;
    }
    if (spec.conversion == 'n') {
      out.AppendChar('\n');
      continue;
    }
    int index;
    if (spec.index == -1) {
      index = last;
    } else if (spec.index > 0) {
      index = spec.index - 1;
    } else {
      index = ordinary++;
    }
    if (index < 0 || index >= static_cast<int>(readers.size())) {
      if (spec.index == -1) {
        return arrow::Status::Invalid("MissingFormatArgumentException: Format specifier '",
                                      spec.text, "'");
      }
      return arrow::Status::Invalid("MissingFormatArgumentException: Format specifier '",
                                    spec.text, "'");
    }
    last = index;
    ARROW_ASSIGN_OR_RAISE(Value value, readers[index].Read(row));
    ARROW_RETURN_NOT_OK(FormatOne(spec, value, out));
  }
  return arrow::Status::OK();
}

}  // namespace

std::string JavaDoubleToString(double value) { return JavaFloatingToString(value); }
std::string JavaFloatToString(float value) { return JavaFloatingToString(value); }

arrow::Result<ResolvedCall> ResolveFormatString(CallSite call) {
  if (call.args.empty()) return CheckArgCount(call, 1, SIZE_MAX, "> 0");
  const auto& format_type = *call.args[0]->type();
  if (format_type.id() != arrow::Type::STRING && format_type.id() != arrow::Type::NA) {
    return UnexpectedInputType(call, 0, "\"STRING\"");
  }
  ResolvedCall resolved;
  resolved.args = call.args;
  if (format_type.id() == arrow::Type::NA) {
    ARROW_ASSIGN_OR_RAISE(resolved.args[0], MakeCast(call.args[0], arrow::utf8(),
                                                     CastKind::kImplicit, *call.config));
  }
  resolved.return_type = arrow::utf8();
  resolved.nullable = call.args[0]->nullable();
  resolved.can_fail = true;
  std::shared_ptr<const std::vector<Specifier>> constant;
  if (const arrow::Scalar* scalar = ConstantArgument(call, 0);
      scalar != nullptr && scalar->is_valid && scalar->type->id() == arrow::Type::STRING) {
    ARROW_ASSIGN_OR_RAISE(auto specs,
                          ParseFormat(static_cast<const arrow::BaseBinaryScalar&>(*scalar).view()));
    constant = std::make_shared<const std::vector<Specifier>>(std::move(specs));
  }
  resolved.kernel = [constant](const std::vector<arrow::Datum>& args, const EvalContext& context,
                               int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput format(args[0]);
    std::vector<ArgumentReader> readers;
    for (size_t i = 1; i < args.size(); ++i) readers.emplace_back(args[i]);
    std::vector<Specifier> row_specs;
    std::string row_format;
    bool parsed = false;
    return MapToStrings(args, num_rows, num_rows * 16, context.pool,
                        [&](int64_t row, StringOutput& out) -> arrow::Status {
                          if (!format.IsValid(row)) {
                            out.AppendNullRow();
                            return arrow::Status::OK();
                          }
                          const std::vector<Specifier>* specs = constant.get();
                          if (specs == nullptr) {
                            const std::string_view text = format.View(row);
                            if (!parsed || text != row_format) {
                              ARROW_ASSIGN_OR_RAISE(row_specs, ParseFormat(text));
                              row_format = std::string(text);
                              parsed = true;
                            }
                            specs = &row_specs;
                          }
                          ARROW_RETURN_NOT_OK(FormatRow(*specs, readers, row, out));
                          out.EndRow();
                          return arrow::Status::OK();
                        });
  };
  return resolved;
}

}  // namespace sluice::expr
