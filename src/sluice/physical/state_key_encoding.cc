#include "sluice/physical/state_key_encoding.h"

#include <cstring>

#include <arrow/type.h>

#include "sluice/expr/functions/hash_spark_murmur3.h"

namespace sluice::physical {

namespace {

constexpr uint32_t kPartitionHashSeed = 42;

using expr::SparkMurmur3;

/// Reads encoded values (row_codec.h's layout) and folds each into a running Murmur3 hash as
/// Spark's hash() folds the value of that type; a null leaves the hash unchanged. The bytes
/// were written by this build's encoder; a short read stops hashing rather than read past.
class EncodedValueHasher {
 public:
  explicit EncodedValueHasher(std::string_view bytes)
      : data_(reinterpret_cast<const uint8_t*>(bytes.data())), size_(bytes.size()) {}

  size_t position() const { return position_; }
  void Seek(size_t position) { position_ = position; }

  uint32_t Hash(const arrow::DataType& type, uint32_t seed) {
    if (!Has(1)) return seed;
    if (data_[position_++] == 0) return seed;  // null (and the null type's only value)
    switch (type.id()) {
      case arrow::Type::BOOL:
        return Has(1) ? SparkMurmur3::HashInt(data_[position_++] != 0 ? 1 : 0, seed) : seed;
      case arrow::Type::INT8:
        return SparkMurmur3::HashInt(Read<int8_t>(), seed);
      case arrow::Type::UINT8:
        return SparkMurmur3::HashInt(Read<uint8_t>(), seed);
      case arrow::Type::INT16:
        return SparkMurmur3::HashInt(Read<int16_t>(), seed);
      case arrow::Type::UINT16:
        return SparkMurmur3::HashInt(Read<uint16_t>(), seed);
      case arrow::Type::INT32:
      case arrow::Type::UINT32:
      case arrow::Type::DATE32:
      case arrow::Type::INTERVAL_MONTHS:  // Spark's year-month interval: an int
        return SparkMurmur3::HashInt(Read<int32_t>(), seed);
      case arrow::Type::INT64:
      case arrow::Type::UINT64:
      case arrow::Type::TIMESTAMP:
      case arrow::Type::DURATION:  // Spark's day-time interval: a long
        return SparkMurmur3::HashLong(Read<int64_t>(), seed);
      case arrow::Type::FLOAT:
        return expr::HashFloat<SparkMurmur3>(Read<float>(), seed);
      case arrow::Type::DOUBLE:
        return expr::HashDouble<SparkMurmur3>(Read<double>(), seed);
      case arrow::Type::DECIMAL128: {
        const uint64_t low = Read<uint64_t>();
        const int64_t high = Read<int64_t>();
        const int precision = static_cast<const arrow::Decimal128Type&>(type).precision();
        return expr::HashDecimal<SparkMurmur3>(precision, high, low, seed);
      }
      case arrow::Type::INTERVAL_MONTH_DAY_NANO: {
        // Spark's calendar interval: microseconds, then days, then months.
        const int32_t months = Read<int32_t>();
        const int32_t days = Read<int32_t>();
        const int64_t nanos = Read<int64_t>();
        return SparkMurmur3::HashInt(
            months, SparkMurmur3::HashInt(days, SparkMurmur3::HashLong(nanos / 1000, seed)));
      }
      case arrow::Type::STRING:
      case arrow::Type::BINARY:
      case arrow::Type::LARGE_STRING:
      case arrow::Type::LARGE_BINARY: {
        const uint32_t length = Read<uint32_t>();
        if (!Has(length)) return seed;
        seed = SparkMurmur3::HashBytes(data_ + position_, length, seed);
        position_ += length;
        return seed;
      }
      case arrow::Type::LIST:
      case arrow::Type::LARGE_LIST:
      case arrow::Type::FIXED_SIZE_LIST: {
        const auto& element = *type.field(0)->type();
        for (uint32_t count = Read<uint32_t>(); count > 0 && Has(1); --count) {
          seed = Hash(element, seed);
        }
        return seed;
      }
      case arrow::Type::MAP: {
        const auto& map = static_cast<const arrow::MapType&>(type);
        for (uint32_t count = Read<uint32_t>(); count > 0 && Has(1); --count) {
          seed = Hash(*map.key_type(), seed);
          seed = Hash(*map.item_type(), seed);
        }
        return seed;
      }
      case arrow::Type::STRUCT:
        for (const auto& field : type.fields()) seed = Hash(*field->type(), seed);
        return seed;
      default: {
        // Types Spark does not have (times, 64-bit dates, other decimals, fixed-size
        // binary, half floats): their bytes.
        const auto width = static_cast<size_t>(type.byte_width());
        if (!Has(width)) return seed;
        seed = SparkMurmur3::HashBytes(data_ + position_, static_cast<int64_t>(width), seed);
        position_ += width;
        return seed;
      }
    }
  }

 private:
  bool Has(size_t count) const { return position_ + count <= size_; }

  /// A little-endian value of T, or 0 past the end.
  template <typename T>
  T Read() {
    T value{};
    if (!Has(sizeof(T))) {
      position_ = size_;
      return value;
    }
    std::memcpy(&value, data_ + position_, sizeof(T));
    position_ += sizeof(T);
    return value;
  }

  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
};

}  // namespace

StatePartitioner::StatePartitioner(std::vector<std::shared_ptr<arrow::DataType>> key_types,
                                   int32_t num_partitions, StatePartitioning partitioning,
                                   const std::vector<int>& key_order)
    : key_types_(std::move(key_types)),
      num_partitions_(num_partitions),
      partitioning_(partitioning) {
  bool identity = true;
  for (size_t i = 0; i < key_order.size(); ++i) identity &= key_order[i] == static_cast<int>(i);
  if (identity) return;
  hash_order_.resize(key_order.size());
  for (size_t i = 0; i < key_order.size(); ++i) hash_order_[key_order[i]] = static_cast<int>(i);
}

int32_t StatePartitioner::PartitionOf(std::string_view key) const {
  if (num_partitions_ <= 1) return 0;
  if (partitioning_ == StatePartitioning::kEncodedBytes) {
    const uint32_t hash = SparkMurmur3::HashBytes(reinterpret_cast<const uint8_t*>(key.data()),
                                                  static_cast<int64_t>(key.size()),
                                                  kPartitionHashSeed);
    return static_cast<int32_t>(hash % static_cast<uint32_t>(num_partitions_));
  }
  EncodedValueHasher hasher(key);
  uint32_t hash = kPartitionHashSeed;
  if (hash_order_.empty()) {
    for (const auto& type : key_types_) hash = hasher.Hash(*type, hash);
  } else {
    // Find where each column starts, then hash them in Spark's order (keys of up to 16 columns
    // without allocating, as this runs per key).
    const size_t columns = key_types_.size();
    size_t inline_starts[16];
    std::vector<size_t> heap_starts(columns > 16 ? columns : 0);
    size_t* starts = columns > 16 ? heap_starts.data() : inline_starts;
    for (size_t c = 0; c < key_types_.size(); ++c) {
      starts[c] = hasher.position();
      hasher.Hash(*key_types_[c], 0);
    }
    for (int c : hash_order_) {
      hasher.Seek(starts[c]);
      hash = hasher.Hash(*key_types_[c], hash);
    }
  }
  // pmod of the Java int.
  const int32_t remainder = static_cast<int32_t>(hash) % num_partitions_;
  return remainder < 0 ? remainder + num_partitions_ : remainder;
}

std::optional<int64_t> EventTimeMicrosOfKey(std::string_view key, bool is_window) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(key.data());
  const size_t size = key.size();
  // Each value starts with its null flag (0 = null); a timestamp's payload is 8 bytes.
  if (size < 1 || bytes[0] == 0) return std::nullopt;
  size_t position = 1;
  if (is_window) {
    if (size < position + 1) return std::nullopt;
    position += bytes[position] == 0 ? 1 : 1 + sizeof(int64_t);  // skip the start
    if (size < position + 1 || bytes[position] == 0) return std::nullopt;
    position += 1;
  }
  if (size < position + sizeof(int64_t)) return std::nullopt;
  int64_t micros;
  std::memcpy(&micros, bytes + position, sizeof(micros));
  return micros;
}

}  // namespace sluice::physical
