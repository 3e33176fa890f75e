// Spark's hash functions: hash (Murmur3 x86_32, seed 42) and xxhash64 (XXH64, seed 42) over the
// Spark binary form of each argument, and the digests md5, sha1/sha, sha2 and crc32.
#include <openssl/evp.h>

#include <cmath>
#include <cstring>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include "sluice/common/crc32.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/expr/functions/hash_spark_murmur3.h"

namespace sluice::expr {

namespace {

constexpr int32_t kSeed = 42;

// Hashes value `i` of `array` into `seed`; a null value leaves the seed unchanged.
template <typename H>
typename H::Hash HashValue(const arrow::Array& array, int64_t i, typename H::Hash seed) {
  if (array.IsNull(i)) return seed;
  switch (array.type_id()) {
    case arrow::Type::BOOL:
      return H::HashInt(static_cast<const arrow::BooleanArray&>(array).Value(i) ? 1 : 0, seed);
    case arrow::Type::INT8:
      return H::HashInt(static_cast<const arrow::Int8Array&>(array).Value(i), seed);
    case arrow::Type::INT16:
      return H::HashInt(static_cast<const arrow::Int16Array&>(array).Value(i), seed);
    case arrow::Type::INT32:
      return H::HashInt(static_cast<const arrow::Int32Array&>(array).Value(i), seed);
    case arrow::Type::DATE32:
      return H::HashInt(static_cast<const arrow::Date32Array&>(array).Value(i), seed);
    case arrow::Type::INT64:
      return H::HashLong(static_cast<const arrow::Int64Array&>(array).Value(i), seed);
    case arrow::Type::TIMESTAMP:
      return H::HashLong(static_cast<const arrow::TimestampArray&>(array).Value(i), seed);
    case arrow::Type::FLOAT:
      return HashFloat<H>(static_cast<const arrow::FloatArray&>(array).Value(i), seed);
    case arrow::Type::DOUBLE:
      return HashDouble<H>(static_cast<const arrow::DoubleArray&>(array).Value(i), seed);
    case arrow::Type::DECIMAL128: {
      const arrow::Decimal128 value(
          static_cast<const arrow::Decimal128Array&>(array).GetValue(i));
      return HashDecimal<H>(static_cast<const arrow::Decimal128Type&>(*array.type()).precision(),
                            value.high_bits(), value.low_bits(), seed);
    }
    case arrow::Type::STRING:
    case arrow::Type::BINARY: {
      auto view = static_cast<const arrow::BinaryArray&>(array).GetView(i);
      return H::HashBytes(reinterpret_cast<const uint8_t*>(view.data()),
                          static_cast<int64_t>(view.size()), seed);
    }
    case arrow::Type::LIST: {
      const auto& list = static_cast<const arrow::ListArray&>(array);
      const auto& values = *list.values();
      for (int64_t j = list.value_offset(i); j < list.value_offset(i + 1); ++j) {
        seed = HashValue<H>(values, j, seed);
      }
      return seed;
    }
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapArray&>(array);
      for (int64_t j = map.value_offset(i); j < map.value_offset(i + 1); ++j) {
        seed = HashValue<H>(*map.keys(), j, seed);
        seed = HashValue<H>(*map.items(), j, seed);
      }
      return seed;
    }
    case arrow::Type::STRUCT: {
      const auto& structure = static_cast<const arrow::StructArray&>(array);
      for (int f = 0; f < structure.num_fields(); ++f) {
        seed = HashValue<H>(*structure.field(f), i, seed);
      }
      return seed;
    }
    default:
      return seed;
  }
}

// Folds one argument into the running hash of every row; typed loops for the common flat types.
template <typename H>
void HashColumn(const arrow::Array& array, typename H::Hash* hashes) {
  const int64_t n = array.length();
  const bool no_nulls = array.null_count() == 0;
  switch (array.type_id()) {
    case arrow::Type::NA:
      return;
    case arrow::Type::INT32:
    case arrow::Type::DATE32: {
      const auto* values = array.data()->GetValues<int32_t>(1);
      for (int64_t i = 0; i < n; ++i) {
        if (no_nulls || array.IsValid(i)) hashes[i] = H::HashInt(values[i], hashes[i]);
      }
      return;
    }
    case arrow::Type::INT64:
    case arrow::Type::TIMESTAMP: {
      const auto* values = array.data()->GetValues<int64_t>(1);
      for (int64_t i = 0; i < n; ++i) {
        if (no_nulls || array.IsValid(i)) hashes[i] = H::HashLong(values[i], hashes[i]);
      }
      return;
    }
    case arrow::Type::DOUBLE: {
      const auto* values = array.data()->GetValues<double>(1);
      for (int64_t i = 0; i < n; ++i) {
        if (no_nulls || array.IsValid(i)) hashes[i] = HashDouble<H>(values[i], hashes[i]);
      }
      return;
    }
    case arrow::Type::STRING:
    case arrow::Type::BINARY: {
      const auto& binary = static_cast<const arrow::BinaryArray&>(array);
      for (int64_t i = 0; i < n; ++i) {
        if (no_nulls || array.IsValid(i)) {
          auto view = binary.GetView(i);
          hashes[i] = H::HashBytes(reinterpret_cast<const uint8_t*>(view.data()),
                                   static_cast<int64_t>(view.size()), hashes[i]);
        }
      }
      return;
    }
    default:
      for (int64_t i = 0; i < n; ++i) hashes[i] = HashValue<H>(array, i, hashes[i]);
  }
}

bool ContainsMap(const arrow::DataType& type) {
  if (type.id() == arrow::Type::MAP) return true;
  for (const auto& field : type.fields()) {
    if (ContainsMap(*field->type())) return true;
  }
  return false;
}

template <typename H, typename OutType>
ScalarResolver RowHashResolver() {
  return [](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, static_cast<size_t>(-1), "> 0"));
    for (size_t i = 0; i < call.args.size(); ++i) {
      if (ContainsMap(*call.args[i]->type())) {
        return DataTypeMismatch(call, "HASH_MAP_TYPE",
                                "Input to the function `" + call.name +
                                    "` cannot contain elements of the \"MAP\" type. In Spark, "
                                    "same maps may have different hashcode, thus hash "
                                    "expressions are prohibited on \"MAP\" elements. To restore "
                                    "previous behavior set \"spark.sql.legacy.allowHashOnMapType\" "
                                    "to \"true\".");
      }
    }
    ResolvedCall resolved;
    resolved.args = call.args;
    resolved.return_type = std::make_shared<OutType>();
    resolved.nullable = false;
    resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                         int64_t num_rows) -> arrow::Result<arrow::Datum> {
      using Hash = typename H::Hash;
      using CType = typename OutType::c_type;
      ARROW_ASSIGN_OR_RAISE(auto buffer,
                            arrow::AllocateBuffer(num_rows * sizeof(Hash), context.pool));
      auto* hashes = reinterpret_cast<Hash*>(buffer->mutable_data());
      const Hash seed = static_cast<Hash>(static_cast<CType>(kSeed));
      std::fill(hashes, hashes + num_rows, seed);
      for (const auto& arg : args) {
        std::shared_ptr<arrow::Array> array;
        if (arg.is_scalar()) {
          ARROW_ASSIGN_OR_RAISE(array, arrow::MakeArrayFromScalar(*arg.scalar(), num_rows,
                                                                 context.pool));
        } else {
          array = arg.make_array();
        }
        HashColumn<H>(*array, hashes);
      }
      return arrow::Datum(arrow::ArrayData::Make(std::make_shared<OutType>(), num_rows,
                                                 {nullptr, std::move(buffer)}, 0));
    };
    return resolved;
  };
}

// The bytes of argument `index` as binary (strings are read as their UTF-8 bytes).
arrow::Result<std::vector<BoundExprPtr>> BinaryArguments(const CallSite& call, size_t count) {
  std::vector<BoundExprPtr> args = call.args;
  for (size_t i = 0; i < count; ++i) {
    const auto id = args[i]->type()->id();
    if (id == arrow::Type::STRING || id == arrow::Type::BINARY) continue;
    if (id == arrow::Type::NA) {
      args[i] = std::make_shared<BoundLiteral>(arrow::MakeNullScalar(arrow::binary()),
                                               args[i]->sql());
      continue;
    }
    return UnexpectedInputType(call, i, "\"BINARY\"");
  }
  return args;
}

std::shared_ptr<arrow::Array> ToArray(const arrow::Datum& datum, int64_t num_rows,
                                      arrow::MemoryPool* pool) {
  if (datum.is_array()) return datum.make_array();
  return arrow::MakeArrayFromScalar(*datum.scalar(), num_rows, pool).ValueOr(nullptr);
}

void AppendHex(const uint8_t* digest, unsigned length, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->clear();
  for (unsigned i = 0; i < length; ++i) {
    out->push_back(kHex[digest[i] >> 4]);
    out->push_back(kHex[digest[i] & 15]);
  }
}

// A digest as lower-case hex; `digest_for_row(row)` picks the algorithm (nullptr: null result).
template <typename PickDigest>
arrow::Result<arrow::Datum> DigestStrings(const arrow::Array& input, PickDigest&& digest_for_row,
                                          arrow::MemoryPool* pool) {
  const auto& binary = static_cast<const arrow::BinaryArray&>(input);
  arrow::StringBuilder builder(pool);
  ARROW_RETURN_NOT_OK(builder.Reserve(input.length()));
  std::string hex;
  unsigned char digest[EVP_MAX_MD_SIZE];
  for (int64_t i = 0; i < input.length(); ++i) {
    const EVP_MD* md = input.IsNull(i) ? nullptr : digest_for_row(i);
    if (md == nullptr) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    auto view = binary.GetView(i);
    unsigned length = 0;
    if (EVP_Digest(view.data(), view.size(), digest, &length, md, nullptr) != 1) {
      return arrow::Status::Invalid("digest computation failed");
    }
    AppendHex(digest, length, &hex);
    ARROW_RETURN_NOT_OK(builder.Append(hex));
  }
  ARROW_ASSIGN_OR_RAISE(auto out, builder.Finish());
  return arrow::Datum(out);
}

ScalarResolver DigestResolver(const EVP_MD* (*algorithm)()) {
  return [algorithm](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
    ResolvedCall resolved;
    ARROW_ASSIGN_OR_RAISE(resolved.args, BinaryArguments(call, 1));
    resolved.return_type = arrow::utf8();
    resolved.nullable = AnyNullable(resolved.args);
    resolved.kernel = [algorithm](const std::vector<arrow::Datum>& args,
                                  const EvalContext& context,
                                  int64_t num_rows) -> arrow::Result<arrow::Datum> {
      auto input = ToArray(args[0], num_rows, context.pool);
      const EVP_MD* md = algorithm();
      return DigestStrings(*input, [md](int64_t) { return md; }, context.pool);
    };
    return resolved;
  };
}

const EVP_MD* Sha2Algorithm(int32_t bits) {
  switch (bits) {
    case 0:
    case 256: return EVP_sha256();
    case 224: return EVP_sha224();
    case 384: return EVP_sha384();
    case 512: return EVP_sha512();
    default: return nullptr;
  }
}

arrow::Result<ResolvedCall> ResolveSha2(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, BinaryArguments(call, 1));
  ARROW_ASSIGN_OR_RAISE(resolved.args[1], MakeCast(resolved.args[1], arrow::int32(),
                                                   CastKind::kImplicit, *call.config));
  resolved.return_type = arrow::utf8();
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    auto input = ToArray(args[0], num_rows, context.pool);
    NumericInput<arrow::Int32Type> bits(args[1]);
    return DigestStrings(
        *input,
        [&bits](int64_t row) -> const EVP_MD* {
          return bits.IsValid(row) ? Sha2Algorithm(bits.Value(row)) : nullptr;
        },
        context.pool);
  };
  return resolved;
}

arrow::Result<ResolvedCall> ResolveCrc32(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, BinaryArguments(call, 1));
  resolved.return_type = arrow::int64();
  resolved.nullable = AnyNullable(resolved.args);
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    auto input = ToArray(args[0], num_rows, context.pool);
    const auto& binary = static_cast<const arrow::BinaryArray&>(*input);
    arrow::Int64Builder builder(context.pool);
    ARROW_RETURN_NOT_OK(builder.Reserve(num_rows));
    for (int64_t i = 0; i < num_rows; ++i) {
      if (binary.IsNull(i)) {
        builder.UnsafeAppendNull();
        continue;
      }
      auto view = binary.GetView(i);
      builder.UnsafeAppend(static_cast<int64_t>(Crc32(0, view.data(), view.size())));
    }
    ARROW_ASSIGN_OR_RAISE(auto out, builder.Finish());
    return arrow::Datum(out);
  };
  return resolved;
}

}  // namespace

void RegisterHashFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("hash", RowHashResolver<SparkMurmur3, arrow::Int32Type>());
  registry.RegisterScalar("xxhash64", RowHashResolver<SparkXxHash64, arrow::Int64Type>());
  registry.RegisterScalar("md5", DigestResolver(&EVP_md5));
  registry.RegisterScalar("sha1", DigestResolver(&EVP_sha1));
  registry.RegisterScalar("sha", DigestResolver(&EVP_sha1));
  registry.RegisterScalar("sha2", ResolveSha2);
  registry.RegisterScalar("crc32", ResolveCrc32);
}

}  // namespace sluice::expr
