#include "sluice/state/rocksdb_checkpoint_format.h"

#include <bit>
#include <cstring>


#include "sluice/common/crc32.h"
#include "sluice/common/errors.h"

namespace sluice::state {

static_assert(std::endian::native == std::endian::little,
              "the snapshot metadata layout is written with the host's byte order");

namespace {

constexpr size_t kFixedPartSize = 4 + 2 + 2 + 8 + 8 + 4;

template <typename T>
void Append(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

/// Reads integers and strings from a byte range, failing instead of reading past its end.
class Cursor {
 public:
  explicit Cursor(std::string_view bytes) : bytes_(bytes) {}

  template <typename T>
  bool Read(T* value) {
    if (bytes_.size() - at_ < sizeof(T)) return false;
    std::memcpy(value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }

  bool ReadString(size_t size, std::string* value) {
    if (bytes_.size() - at_ < size) return false;
    value->assign(bytes_.data() + at_, size);
    at_ += size;
    return true;
  }

  bool at_end() const { return at_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  size_t at_ = 0;
};

arrow::Status Corrupt(const std::string& path, const std::string& store, std::string_view why) {
  return SparkError("CANNOT_LOAD_STATE_STORE",
                    "An error occurred during loading state. The snapshot metadata " + path +
                        " of " + store + " is corrupt: " + std::string(why) + ".");
}

}  // namespace

std::string EncodeSnapshotMetadata(const RocksDbSnapshotMetadata& metadata) {
  std::string out;
  out.append(kRocksDbSnapshotMagic, sizeof(kRocksDbSnapshotMagic));
  Append<uint16_t>(out, kRocksDbSnapshotFormatVersion);
  Append<uint16_t>(out, 0);
  Append<uint64_t>(out, static_cast<uint64_t>(metadata.version));
  Append<uint64_t>(out, static_cast<uint64_t>(metadata.num_keys));
  Append<uint32_t>(out, static_cast<uint32_t>(metadata.files.size()));
  for (const RocksDbSnapshotFile& file : metadata.files) {
    Append<uint32_t>(out, static_cast<uint32_t>(file.name.size()));
    out.append(file.name);
    Append<uint64_t>(out, file.size);
  }
  Append<uint32_t>(out, Crc32(0, out.data(), out.size()));
  return out;
}

arrow::Result<RocksDbSnapshotMetadata> DecodeSnapshotMetadata(std::string_view contents,
                                                              const std::string& path,
                                                              const std::string& store,
                                                              int64_t version) {
  if (contents.size() < kFixedPartSize + sizeof(uint32_t)) {
    return Corrupt(path, store, "it is truncated (" + std::to_string(contents.size()) + " bytes)");
  }
  if (std::memcmp(contents.data(), kRocksDbSnapshotMagic, sizeof(kRocksDbSnapshotMagic)) != 0) {
    return Corrupt(path, store, "it is not a Sluice snapshot metadata file");
  }
  size_t crc_at = contents.size() - sizeof(uint32_t);
  uint32_t stored_crc;
  std::memcpy(&stored_crc, contents.data() + crc_at, sizeof(stored_crc));
  if (Crc32(0, contents.data(), crc_at) != stored_crc) {
    return Corrupt(path, store, "its checksum does not match (truncated or damaged)");
  }
  Cursor cursor(contents.substr(sizeof(kRocksDbSnapshotMagic), crc_at - 4));
  uint16_t format_version = 0, zero = 0;
  uint64_t stored_version = 0, num_keys = 0;
  uint32_t file_count = 0;
  cursor.Read(&format_version);
  cursor.Read(&zero);
  cursor.Read(&stored_version);
  cursor.Read(&num_keys);
  cursor.Read(&file_count);
  if (format_version > kRocksDbSnapshotFormatVersion) {
    return Corrupt(path, store,
                   "its format version " + std::to_string(format_version) +
                       " is newer than this engine reads (" +
                       std::to_string(kRocksDbSnapshotFormatVersion) + ")");
  }
  if (static_cast<int64_t>(stored_version) != version) {
    return SparkError("CANNOT_LOAD_STATE_STORE.CANNOT_READ_CHECKPOINT",
                      "An error occurred during loading state. Cannot read RocksDB checkpoint "
                      "metadata. Expected " +
                          std::to_string(version) + ", but found " +
                          std::to_string(stored_version) + " (in " + path + " of " + store +
                          ").");
  }
  RocksDbSnapshotMetadata metadata;
  metadata.version = version;
  metadata.num_keys = static_cast<int64_t>(num_keys);
  for (uint32_t i = 0; i < file_count; ++i) {
    RocksDbSnapshotFile file;
    uint32_t name_size = 0;
    if (!cursor.Read(&name_size) || !cursor.ReadString(name_size, &file.name) ||
        !cursor.Read(&file.size)) {
      return Corrupt(path, store, "its list of files is cut");
    }
    if (file.name.empty() || file.name.find('/') != std::string::npos || file.name[0] == '.') {
      return Corrupt(path, store, "it lists the invalid file name '" + file.name + "'");
    }
    metadata.files.push_back(std::move(file));
  }
  if (!cursor.at_end()) return Corrupt(path, store, "it has bytes after its list of files");
  return metadata;
}

}  // namespace sluice::state
