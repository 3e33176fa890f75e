#include "sluice/state/state_file_format.h"

#include <bit>
#include <charconv>
#include <cstring>
#include <filesystem>


#include "sluice/common/crc32.h"
#include "sluice/common/errors.h"

namespace sluice::state {

// The layout is little-endian; copying integers with memcpy relies on the host being so too.
static_assert(std::endian::native == std::endian::little,
              "the state file layout is written with the host's byte order");

namespace {

constexpr const char* kLoadError = "CANNOT_LOAD_STATE_STORE";
constexpr const char* kLoadMessage = "An error occurred during loading state. ";

template <typename T>
void AppendInteger(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <typename T>
T ReadInteger(const char* at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}

const char* KindName(StateFileKind kind) {
  switch (kind) {
    case StateFileKind::kDelta:
      return "delta";
    case StateFileKind::kSnapshot:
      return "snapshot";
    case StateFileKind::kChangelog:
      return "changelog";
  }
  return "unknown";
}

arrow::Status Corrupt(const std::string& path, const std::string& store, std::string_view why) {
  return SparkError(kLoadError, std::string(kLoadMessage) + "The state file " + path + " of " +
                                    store + " is corrupt: " + std::string(why) + ".");
}

}  // namespace

std::string StateFileName(int64_t version, StateFileKind kind) {
  return std::to_string(version) + "." + KindName(kind);
}

std::optional<ParsedStateFileName> ParseStateFileName(std::string_view name) {
  size_t dot = name.find('.');
  if (dot == 0 || dot == std::string_view::npos) return std::nullopt;
  int64_t version = 0;
  auto [end, error] = std::from_chars(name.data(), name.data() + dot, version);
  if (error != std::errc() || end != name.data() + dot || version < 0) return std::nullopt;
  std::string_view suffix = name.substr(dot + 1);
  if (suffix == "delta") return ParsedStateFileName{version, StateFileKind::kDelta};
  if (suffix == "snapshot") return ParsedStateFileName{version, StateFileKind::kSnapshot};
  if (suffix == "changelog") return ParsedStateFileName{version, StateFileKind::kChangelog};
  return std::nullopt;
}

StateFileWriter::StateFileWriter(StateFileKind kind, int64_t version) {
  contents_.append(kStateFileMagic, sizeof(kStateFileMagic));
  AppendInteger<uint16_t>(contents_, kStateFileFormatVersion);
  AppendInteger<uint8_t>(contents_, static_cast<uint8_t>(kind));
  AppendInteger<uint8_t>(contents_, 0);
  AppendInteger<uint64_t>(contents_, static_cast<uint64_t>(version));
}

void StateFileWriter::AppendRecord(std::string_view key, uint32_t value_length,
                                   std::string_view value) {
  AppendInteger<uint32_t>(contents_, static_cast<uint32_t>(key.size()));
  AppendInteger<uint32_t>(contents_, value_length);
  contents_.append(key);
  contents_.append(value);
  ++records_;
}

void StateFileWriter::Put(std::string_view key, std::string_view value) {
  AppendRecord(key, static_cast<uint32_t>(value.size()), value);
}

void StateFileWriter::Remove(std::string_view key) {
  AppendRecord(key, kRemovedValueLength, {});
}

std::string StateFileWriter::Finish() {
  AppendInteger<uint64_t>(contents_, records_);
  AppendInteger<uint32_t>(contents_,
                          Crc32(0, contents_.data(), contents_.size()));
  records_ = 0;
  return std::move(contents_);
}

arrow::Status ReadStateFile(
    std::string_view contents, const std::string& path, const std::string& store,
    StateFileKind kind, int64_t version,
    const std::function<void(std::string_view key, std::optional<std::string_view> value)>&
        visit) {
  if (contents.size() < kStateFileHeaderSize + kStateFileTrailerSize) {
    return Corrupt(path, store,
                   "it is truncated (" + std::to_string(contents.size()) + " bytes)");
  }
  if (std::memcmp(contents.data(), kStateFileMagic, sizeof(kStateFileMagic)) != 0) {
    return Corrupt(path, store, "it is not a Sluice state file");
  }
  const char* data = contents.data();
  size_t body_end = contents.size() - kStateFileTrailerSize;
  uint32_t stored_crc = ReadInteger<uint32_t>(data + body_end + sizeof(uint64_t));
  if (Crc32(0, data, body_end + sizeof(uint64_t)) != stored_crc) {
    return Corrupt(path, store, "its checksum does not match (truncated or damaged)");
  }
  uint16_t format_version = ReadInteger<uint16_t>(data + 4);
  if (format_version > kStateFileFormatVersion) {
    return Corrupt(path, store,
                   "its format version " + std::to_string(format_version) +
                       " is newer than this engine reads (" +
                       std::to_string(kStateFileFormatVersion) + ")");
  }
  if (ReadInteger<uint8_t>(data + 6) != static_cast<uint8_t>(kind) ||
      ReadInteger<int64_t>(data + 8) != version) {
    return Corrupt(path, store,
                   std::string("it does not hold the ") + KindName(kind) + " of version " +
                       std::to_string(version));
  }
  uint64_t expected_records = ReadInteger<uint64_t>(data + body_end);
  uint64_t records = 0;
  size_t at = kStateFileHeaderSize;
  while (at < body_end) {
    if (body_end - at < 2 * sizeof(uint32_t)) return Corrupt(path, store, "a record is cut");
    uint32_t key_size = ReadInteger<uint32_t>(data + at);
    uint32_t value_size = ReadInteger<uint32_t>(data + at + 4);
    at += 2 * sizeof(uint32_t);
    bool removed = value_size == kRemovedValueLength;
    if (key_size > body_end - at) {
      return SparkError(std::string(kLoadError) + ".CANNOT_READ_" +
                            (kind == StateFileKind::kSnapshot ? "SNAPSHOT" : "DELTA") +
                            "_FILE_KEY_SIZE",
                        std::string(kLoadMessage) + "Error reading " + KindName(kind) +
                            " file " + path + " of " + store + ": key size cannot be " +
                            std::to_string(key_size) + ".");
    }
    std::string_view key(data + at, key_size);
    at += key_size;
    if (removed) {
      if (kind == StateFileKind::kSnapshot) {
        return Corrupt(path, store, "a snapshot holds a removal");
      }
      visit(key, std::nullopt);
    } else {
      if (value_size > body_end - at) {
        // Spark names the value size of snapshots only; a delta's is a plain corruption.
        if (kind != StateFileKind::kSnapshot) {
          return Corrupt(path, store, "value size cannot be " + std::to_string(value_size));
        }
        return SparkError(std::string(kLoadError) + ".CANNOT_READ_SNAPSHOT_FILE_VALUE_SIZE",
                          std::string(kLoadMessage) + "Error reading " + KindName(kind) +
                              " file " + path + " of " + store + ": value size cannot be " +
                              std::to_string(value_size) + ".");
      }
      visit(key, std::string_view(data + at, value_size));
      at += value_size;
    }
    ++records;
  }
  if (records != expected_records) {
    return Corrupt(path, store,
                   "it holds " + std::to_string(records) + " records where its trailer says " +
                       std::to_string(expected_records));
  }
  return arrow::Status::OK();
}

int64_t StateFolderListing::BaseSnapshot(int64_t version) const {
  auto it = snapshots.upper_bound(version);
  return it == snapshots.begin() ? 0 : *std::prev(it);
}

arrow::Result<StateFolderListing> ListStateFolder(const std::string& folder) {
  namespace fs = std::filesystem;
  StateFolderListing listing;
  std::error_code error;
  if (!fs::exists(folder, error)) return listing;
  for (fs::directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    std::string name = it->path().filename().string();
    if (auto parsed = ParseStateFileName(name)) {
      switch (parsed->kind) {
        case StateFileKind::kDelta:
          listing.deltas.insert(parsed->version);
          break;
        case StateFileKind::kSnapshot:
          listing.snapshots.insert(parsed->version);
          break;
        case StateFileKind::kChangelog:
          listing.changelogs.insert(parsed->version);
          break;
      }
    } else if (name.size() > 4 && name.front() == '.' && name.ends_with(".tmp")) {
      listing.temp_entries.push_back(it->path().string());
    }
  }
  if (error) return arrow::Status::IOError("Cannot list ", folder, ": ", error.message());
  return listing;
}

}  // namespace sluice::state
