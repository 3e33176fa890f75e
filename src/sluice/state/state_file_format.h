// The files of the in-memory state store provider: <version>.delta and <version>.snapshot in
// the store's folder (state/<operator>/<partition>[/<store name>]), and the <version>.changelog
// files of the RocksDB provider (rocksdb_checkpoint_format.h), which share this layout.
//
// Bit compatibility with Spark's HDFSBackedStateStoreProvider files (LZ4-compressed streams of
// UnsafeRows) is out of scope: a Sluice checkpoint's state is read by Sluice only. The names
// and the delta/snapshot scheme follow Spark's, so the folder looks the same.
//
// Layout, all integers little-endian:
//   header   magic "SLST" (4 bytes), u16 format version (kStateFileFormatVersion),
//            u8 kind (1 = delta, 2 = snapshot, 3 = changelog), u8 zero, u64 state version
//   records  u32 key length, u32 value length, key bytes, value bytes;
//            value length kRemovedValueLength marks the removal of the key (deltas and
//            changelogs only)
//   trailer  u64 number of records, u32 CRC-32 of every byte before it
// A delta or a changelog holds every change of its version in the order it was made, as
// Spark's delta files and changelogs do: a key put twice appears twice, and records apply in
// file order. A snapshot holds every entry of its version. A reader checks
// the length and the CRC before anything else, so a truncated or damaged file fails, naming
// the file (the changelog reader, which streams, checks them as it reads and at the end).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

namespace sluice::state {

inline constexpr char kStateFileMagic[4] = {'S', 'L', 'S', 'T'};
/// Bumped whenever the layout changes; a reader refuses newer versions.
inline constexpr uint16_t kStateFileFormatVersion = 1;
inline constexpr uint32_t kRemovedValueLength = 0xFFFFFFFFu;
inline constexpr size_t kStateFileHeaderSize = 16;
inline constexpr size_t kStateFileTrailerSize = 12;

/// What a state file holds.
enum class StateFileKind : uint8_t { kDelta = 1, kSnapshot = 2, kChangelog = 3 };

/// "<version>.delta", "<version>.snapshot" or "<version>.changelog".
std::string StateFileName(int64_t version, StateFileKind kind);

/// A state file name as StateFileName writes it, parsed; nullopt for any other name (temp
/// files of interrupted writes included).
struct ParsedStateFileName {
  int64_t version;
  StateFileKind kind;
};
std::optional<ParsedStateFileName> ParseStateFileName(std::string_view name);

/// Builds the bytes of one state file in memory. Not thread-safe.
class StateFileWriter {
 public:
  StateFileWriter(StateFileKind kind, int64_t version);

  /// Reserves room for `bytes` more bytes of records.
  void Reserve(size_t bytes) { contents_.reserve(contents_.size() + bytes); }
  /// Appends an entry (or, in a delta, an upsert).
  void Put(std::string_view key, std::string_view value);
  /// Appends the removal of `key` (deltas only).
  void Remove(std::string_view key);
  /// The finished file; the writer is empty afterwards.
  std::string Finish();

 private:
  void AppendRecord(std::string_view key, uint32_t value_length, std::string_view value);

  std::string contents_;
  uint64_t records_ = 0;
};

/// Reads the state file `contents` read from `path` (named in errors, with `store` describing
/// the store), checking that it is of `kind` and `version`, and calls `visit` for each record
/// in file order with the value, or nullopt for a removal. Errors carry Spark's
/// CANNOT_LOAD_STATE_STORE error class.
arrow::Status ReadStateFile(
    std::string_view contents, const std::string& path, const std::string& store,
    StateFileKind kind, int64_t version,
    const std::function<void(std::string_view key, std::optional<std::string_view> value)>&
        visit);

/// The state files in a store's folder, by kind and version, and the hidden temp entries
/// that interrupted writes left; other names are ignored.
struct StateFolderListing {
  std::set<int64_t> deltas;
  std::set<int64_t> snapshots;
  std::set<int64_t> changelogs;
  std::vector<std::string> temp_entries;

  /// The newest snapshot at or below `version`, or 0 (the empty version 0) when none.
  int64_t BaseSnapshot(int64_t version) const;
};

/// Lists `folder` (an absent folder lists empty); fails naming the folder when it cannot.
arrow::Result<StateFolderListing> ListStateFolder(const std::string& folder);

}  // namespace sluice::state
