// The checkpoint files of the RocksDB state store provider, in the store's folder
// (state/<operator>/<partition>[/<store name>]), after Spark's RocksDB changelog checkpointing:
//
//   <v>.changelog     every committed version v >= 1: the keys v put and removed, in the order
//                     it did so (state_file_format.h, kind 3); replaying it onto version v - 1
//                     gives version v.
//   <v>.snapshot/     every min_deltas_for_snapshot versions: the whole database at version v,
//                     as rocksdb::Checkpoint makes it (CURRENT, MANIFEST-*, OPTIONS-*, *.sst),
//                     plus the file `metadata` described below. Table files (*.sst) never change
//                     once written, so a snapshot shares the ones of the previous snapshot of the
//                     same database by hard links.
//   .<name>.<random>.tmp   a file or folder being written, or the remains of a write a crash
//                     interrupted; never read, deleted by the next cleanup.
//
// Visibility is atomic: a changelog and a snapshot folder are written, fsynced, then renamed
// into place and their folder fsynced, so a name without the leading dot is always complete.
// Version v loads from the newest snapshot at or below v, then the changelogs after it.
//
// `metadata`, all integers little-endian:
//   magic "SLRS" (4 bytes), u16 format version (kRocksDbSnapshotFormatVersion), u16 zero,
//   u64 state version, u64 number of keys,
//   u32 number of files, then per file: u32 name length, name bytes, u64 size in bytes,
//   u32 CRC-32 of every byte before it.
// A reader checks the CRC, the format version and the state version, then that every listed
// file is there with its size; the contents of table files are checked by RocksDB's own
// block checksums as they are read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>

namespace sluice::state {

inline constexpr char kRocksDbSnapshotMagic[4] = {'S', 'L', 'R', 'S'};
/// Bumped whenever the layout changes; a reader refuses newer versions.
inline constexpr uint16_t kRocksDbSnapshotFormatVersion = 1;
/// The name of the metadata file inside a snapshot folder.
inline constexpr const char* kRocksDbSnapshotMetadataName = "metadata";

/// One file of a snapshot folder.
struct RocksDbSnapshotFile {
  std::string name;
  uint64_t size = 0;
};

/// What a snapshot's `metadata` file holds.
struct RocksDbSnapshotMetadata {
  int64_t version = 0;
  /// Keys in the store at `version`, so that loading needs no count.
  int64_t num_keys = 0;
  /// The database's files, `metadata` itself excluded.
  std::vector<RocksDbSnapshotFile> files;
};

/// The bytes of a `metadata` file.
std::string EncodeSnapshotMetadata(const RocksDbSnapshotMetadata& metadata);

/// Decodes the `metadata` file `contents` read from `path` (named in errors, with `store`
/// describing the store), which must be that of `version`. Errors carry Spark's
/// CANNOT_LOAD_STATE_STORE error class.
arrow::Result<RocksDbSnapshotMetadata> DecodeSnapshotMetadata(std::string_view contents,
                                                              const std::string& path,
                                                              const std::string& store,
                                                              int64_t version);

}  // namespace sluice::state
