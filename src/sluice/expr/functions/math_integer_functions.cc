// Integer-flavoured math: hex, unhex, bin, conv, factorial, the bitwise operators & | ^ ~ and
// the shifts, with Java's semantics (shift counts taken modulo the width).
#include <array>
#include <cstdint>
#include <string>

#include <arrow/builder.h>
#include <arrow/compute/api.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/math_function_groups.h"
#include "sluice/expr/type_coercion.h"

namespace sluice::expr {

namespace cp = arrow::compute;

namespace {

constexpr char kUpperDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

std::shared_ptr<arrow::Array> ToArray(const arrow::Datum& datum, int64_t num_rows,
                                      arrow::MemoryPool* pool) {
  if (datum.is_array()) return datum.make_array();
  return arrow::MakeArrayFromScalar(*datum.scalar(), num_rows, pool).ValueOr(nullptr);
}

// Digits of `value` read as unsigned in base 2^bits_per_digit.
std::string UnsignedDigits(uint64_t value, int bits_per_digit) {
  if (value == 0) return "0";
  char buffer[64];
  int position = 64;
  const uint64_t mask = (uint64_t{1} << bits_per_digit) - 1;
  while (value != 0) {
    buffer[--position] = kUpperDigits[value & mask];
    value >>= bits_per_digit;
  }
  return std::string(buffer + position, 64 - position);
}

arrow::Result<ResolvedCall> ResolveHex(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto id = call.args[0]->type()->id();
  ResolvedCall resolved;
  if (arrow::is_integer(id) || id == arrow::Type::NA) {
    ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, arrow::int64()));
  } else if (id == arrow::Type::STRING || id == arrow::Type::BINARY) {
    resolved.args = call.args;
  } else {
    return UnexpectedInputType(call, 0, "(\"BIGINT\" or \"BINARY\" or \"STRING\")");
  }
  resolved.return_type = arrow::utf8();
  resolved.nullable = AnyNullable(resolved.args);
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    auto input = ToArray(args[0], num_rows, context.pool);
    arrow::StringBuilder builder(context.pool);
    ARROW_RETURN_NOT_OK(builder.Reserve(num_rows));
    std::string text;
    for (int64_t i = 0; i < num_rows; ++i) {
      if (input->IsNull(i)) {
        ARROW_RETURN_NOT_OK(builder.AppendNull());
        continue;
      }
      if (input->type_id() == arrow::Type::INT64) {
        text = UnsignedDigits(static_cast<uint64_t>(
                                  static_cast<const arrow::Int64Array&>(*input).Value(i)),
                              4);
      } else {
        auto view = static_cast<const arrow::BinaryArray&>(*input).GetView(i);
        text.clear();
        for (unsigned char c : view) {
          text.push_back(kUpperDigits[c >> 4]);
          text.push_back(kUpperDigits[c & 15]);
        }
      }
      ARROW_RETURN_NOT_OK(builder.Append(text));
    }
    ARROW_ASSIGN_OR_RAISE(auto out, builder.Finish());
    return arrow::Datum(out);
  };
  return resolved;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

arrow::Result<ResolvedCall> ResolveUnhex(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, arrow::utf8()));
  resolved.return_type = arrow::binary();
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    auto input = ToArray(args[0], num_rows, context.pool);
    const auto& strings = static_cast<const arrow::StringArray&>(*input);
    arrow::BinaryBuilder builder(context.pool);
    ARROW_RETURN_NOT_OK(builder.Reserve(num_rows));
    std::string bytes;
    for (int64_t i = 0; i < num_rows; ++i) {
      if (strings.IsNull(i)) {
        ARROW_RETURN_NOT_OK(builder.AppendNull());
        continue;
      }
      auto text = strings.GetView(i);
      bytes.clear();
      bool valid = true;
      size_t position = 0;
      if (text.size() % 2 == 1) {  // An odd length reads as if led by a '0'.
        const int low = HexValue(text[0]);
        valid = low >= 0;
        bytes.push_back(static_cast<char>(low));
        position = 1;
      }
      for (; valid && position < text.size(); position += 2) {
        const int high = HexValue(text[position]), low = HexValue(text[position + 1]);
        valid = high >= 0 && low >= 0;
        bytes.push_back(static_cast<char>(high * 16 + low));
      }
      if (valid) {
        ARROW_RETURN_NOT_OK(builder.Append(bytes));
      } else {
        ARROW_RETURN_NOT_OK(builder.AppendNull());
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto out, builder.Finish());
    return arrow::Datum(out);
  };
  return resolved;
}

arrow::Result<ResolvedCall> ResolveBin(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto id = call.args[0]->type()->id();
  if (!arrow::is_integer(id) && id != arrow::Type::NA && id != arrow::Type::STRING) {
    return UnexpectedInputType(call, 0, "\"BIGINT\"");
  }
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, arrow::int64()));
  resolved.return_type = arrow::utf8();
  resolved.nullable = AnyNullable(resolved.args);
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    NumericInput<arrow::Int64Type> input(args[0]);
    arrow::StringBuilder builder(context.pool);
    ARROW_RETURN_NOT_OK(builder.Reserve(num_rows));
    for (int64_t i = 0; i < num_rows; ++i) {
      if (!input.IsValid(i)) {
        ARROW_RETURN_NOT_OK(builder.AppendNull());
      } else {
        ARROW_RETURN_NOT_OK(builder.Append(UnsignedDigits(
            static_cast<uint64_t>(input.Value(i)), 1)));
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto out, builder.Finish());
    return arrow::Datum(out);
  };
  return resolved;
}

// Spark's NumberConverter.convert: digits are read until the first invalid one, as an unsigned
// 64-bit value; a negative input shown in a positive base is its two's complement.
// Returns false for a null result; sets *overflow when the digits do not fit 64 bits.
bool ConvertNumber(std::string_view text, int32_t from_base, int32_t to_base, bool* overflow,
                   std::string* out) {
  *overflow = false;
  const int32_t to_radix = to_base < 0 ? -to_base : to_base;
  if (from_base < 2 || from_base > 36 || to_radix < 2 || to_radix > 36) return false;
  if (text.empty()) return false;
  bool negative = text[0] == '-';
  size_t position = negative ? 1 : 0;
  uint64_t value = 0;
  const uint64_t bound = (~uint64_t{0} - from_base) / from_base;
  for (; position < text.size(); ++position) {
    const char c = text[position];
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    else if (c >= 'a' && c <= 'z') digit = c - 'a' + 10;
    else if (c >= 'A' && c <= 'Z') digit = c - 'A' + 10;
    if (digit < 0 || digit >= from_base) break;
    if (value >= bound && (~uint64_t{0} - digit) / from_base < value) {
      *overflow = true;
      value = ~uint64_t{0};
      break;
    }
    value = value * from_base + digit;
  }
  auto signed_value = static_cast<int64_t>(value);
  if (negative && to_base > 0) {
    signed_value = signed_value < 0 ? -1 : -signed_value;
  }
  if (to_base < 0 && signed_value < 0) {
    signed_value = -signed_value;
    negative = true;
  }
  uint64_t unsigned_value = static_cast<uint64_t>(signed_value);
  char buffer[65];
  int index = 65;
  do {
    buffer[--index] = kUpperDigits[unsigned_value % to_radix];
    unsigned_value /= to_radix;
  } while (unsigned_value != 0);
  out->assign(negative && to_base < 0 ? "-" : "");
  out->append(buffer + index, 65 - index);
  return true;
}

arrow::Result<ResolvedCall> ResolveConv(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 3, 3, "3"));
  ResolvedCall resolved;
  const bool ansi = call.config->ansi_enabled();
  ARROW_ASSIGN_OR_RAISE(auto number, MakeCast(call.args[0], arrow::utf8(), CastKind::kImplicit,
                                              *call.config));
  ARROW_ASSIGN_OR_RAISE(auto from, MakeCast(call.args[1], arrow::int32(), CastKind::kImplicit,
                                            *call.config));
  ARROW_ASSIGN_OR_RAISE(auto to, MakeCast(call.args[2], arrow::int32(), CastKind::kImplicit,
                                          *call.config));
  resolved.args = {number, from, to};
  resolved.return_type = arrow::utf8();
  resolved.can_fail = ansi;
  resolved.kernel = [ansi](const std::vector<arrow::Datum>& args, const EvalContext& context,
                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
    auto input = ToArray(args[0], num_rows, context.pool);
    const auto& strings = static_cast<const arrow::StringArray&>(*input);
    NumericInput<arrow::Int32Type> from(args[1]), to(args[2]);
    arrow::StringBuilder builder(context.pool);
    ARROW_RETURN_NOT_OK(builder.Reserve(num_rows));
    std::string text;
    for (int64_t i = 0; i < num_rows; ++i) {
      bool overflow = false;
      if (strings.IsNull(i) || !from.IsValid(i) || !to.IsValid(i) ||
          !ConvertNumber(strings.GetView(i), from.Value(i), to.Value(i), &overflow, &text)) {
        ARROW_RETURN_NOT_OK(builder.AppendNull());
        continue;
      }
      if (overflow && ansi) {
        return SparkError("ARITHMETIC_OVERFLOW",
                          "Overflow in function conv(). If necessary set "
                          "\"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
      }
      ARROW_RETURN_NOT_OK(builder.Append(text));
    }
    ARROW_ASSIGN_OR_RAISE(auto out, builder.Finish());
    return arrow::Datum(out);
  };
  return resolved;
}

arrow::Result<ResolvedCall> ResolveFactorial(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto id = call.args[0]->type()->id();
  if (!arrow::is_integer(id) && id != arrow::Type::NA && id != arrow::Type::STRING) {
    return UnexpectedInputType(call, 0, "\"INT\"");
  }
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, arrow::int32()));
  resolved.return_type = arrow::int64();
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    arrow::Datum unused(std::make_shared<arrow::Int8Scalar>(0));
    return ApplyBinary<arrow::Int32Type, arrow::Int8Type, arrow::Int64Type>(
        args[0], unused, num_rows, arrow::int64(), context.pool,
        [](int32_t n, int8_t, int64_t* out) {
          if (n < 0 || n > 20) return RowOutcome::kNull;
          int64_t result = 1;
          for (int32_t k = 2; k <= n; ++k) result *= k;
          *out = result;
          return RowOutcome::kValue;
        },
        [](int64_t) -> arrow::Result<arrow::Datum> {
          return arrow::Status::Invalid("factorial cannot fail");
        });
  };
  return resolved;
}

ScalarResolver BitwiseBinary(std::string arrow_name) {
  return [arrow_name](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
    for (size_t i = 0; i < 2; ++i) {
      const auto id = call.args[i]->type()->id();
      if (!arrow::is_integer(id) && id != arrow::Type::NA) {
        return UnexpectedInputType(call, i, "\"INTEGRAL\"");
      }
    }
    auto type = CommonType(call.args[0]->type(), call.args[1]->type());
    if (type == nullptr || type->id() == arrow::Type::NA) type = arrow::int32();
    ResolvedCall resolved;
    ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, type));
    resolved.return_type = type;
    resolved.nullable = AnyNullable(resolved.args);
    resolved.kernel = ArrowKernel(arrow_name);
    return resolved;
  };
}

arrow::Result<ResolvedCall> ResolveBitwiseNot(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  auto type = call.args[0]->type();
  if (type->id() == arrow::Type::NA) type = arrow::int32();
  if (!arrow::is_integer(type->id())) return UnexpectedInputType(call, 0, "\"INTEGRAL\"");
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, type));
  resolved.return_type = type;
  resolved.nullable = AnyNullable(resolved.args);
  resolved.kernel = ArrowKernel("bit_wise_not");
  return resolved;
}

enum class Shift { kLeft, kRight, kRightUnsigned };

template <typename T>
Kernel ShiftKernel(Shift shift, std::shared_ptr<arrow::DataType> type) {
  using C = typename arrow::TypeTraits<T>::CType;
  using U = std::make_unsigned_t<C>;
  return [shift, type](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    return ApplyBinary<T, arrow::Int32Type, T>(
        args[0], args[1], num_rows, type, context.pool,
        [shift](C value, int32_t count, C* out) {
          const int bits = static_cast<int>(sizeof(C) * 8);
          const int n = count & (bits - 1);
          switch (shift) {
            case Shift::kLeft: *out = static_cast<C>(static_cast<U>(value) << n); break;
            case Shift::kRight: *out = static_cast<C>(value >> n); break;
            case Shift::kRightUnsigned: *out = static_cast<C>(static_cast<U>(value) >> n); break;
          }
          return RowOutcome::kValue;
        },
        [](int64_t) -> arrow::Result<arrow::Datum> {
          return arrow::Status::Invalid("shift cannot fail");
        });
  };
}

ScalarResolver ShiftResolver(Shift shift) {
  return [shift](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
    auto type = call.args[0]->type();
    if (type->id() == arrow::Type::NA || type->id() == arrow::Type::INT8 ||
        type->id() == arrow::Type::INT16) {
      type = arrow::int32();
    }
    if (type->id() != arrow::Type::INT32 && type->id() != arrow::Type::INT64) {
      return UnexpectedInputType(call, 0, "(\"INT\" or \"BIGINT\")");
    }
    const auto count_id = call.args[1]->type()->id();
    if (count_id != arrow::Type::INT32 && count_id != arrow::Type::INT8 &&
        count_id != arrow::Type::INT16 && count_id != arrow::Type::NA) {
      return UnexpectedInputType(call, 1, "\"INT\"");
    }
    ResolvedCall resolved;
    ARROW_ASSIGN_OR_RAISE(auto value, MakeCast(call.args[0], type, CastKind::kImplicit,
                                               *call.config));
    ARROW_ASSIGN_OR_RAISE(auto count, MakeCast(call.args[1], arrow::int32(),
                                               CastKind::kImplicit, *call.config));
    resolved.args = {value, count};
    resolved.return_type = type;
    resolved.nullable = AnyNullable(resolved.args);
    resolved.kernel = type->id() == arrow::Type::INT32 ? ShiftKernel<arrow::Int32Type>(shift, type)
                                                       : ShiftKernel<arrow::Int64Type>(shift, type);
    return resolved;
  };
}

}  // namespace

void RegisterIntegerMathFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("hex", ResolveHex);
  registry.RegisterScalar("unhex", ResolveUnhex);
  registry.RegisterScalar("bin", ResolveBin);
  registry.RegisterScalar("conv", ResolveConv);
  registry.RegisterScalar("factorial", ResolveFactorial);
  registry.RegisterScalar("&", BitwiseBinary("bit_wise_and"));
  registry.RegisterScalar("|", BitwiseBinary("bit_wise_or"));
  registry.RegisterScalar("^", BitwiseBinary("bit_wise_xor"));
  registry.RegisterScalar("~", ResolveBitwiseNot);
  registry.RegisterScalar("shiftleft", ShiftResolver(Shift::kLeft));
  registry.RegisterScalar("shiftright", ShiftResolver(Shift::kRight));
  registry.RegisterScalar("shiftrightunsigned", ShiftResolver(Shift::kRightUnsigned));
}

}  // namespace sluice::expr
