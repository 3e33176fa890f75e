// `sluice checkpoint`: what a streaming checkpoint holds, read with the checkpoint, source and
// state layers' own readers, without changing anything.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/checkpoint/offset_seq.h"
#include "sluice/checkpoint/recovery.h"
#include "sluice/state/operator_metadata.h"

namespace sluice::tools {

/// One source of the query, in plan order.
struct SourceReport {
  int index = 0;
  /// Its end offset in the latest batch, as logged; nullopt for "-" (no offset yet).
  std::optional<std::string> latest_offset;
  /// The batch ids of the entries in its folder sources/<index> (a file source's log, the
  /// start time or initial offsets others keep there).
  std::vector<int64_t> metadata_batches;
  /// A file source: the files its log admitted so far.
  std::optional<int64_t> files_admitted;
  /// A Kafka source: the initial offsets it recorded, as offsets JSON.
  std::optional<std::string> kafka_initial_offsets;
};

/// One stateful operator and what its state takes on disk.
struct StateOperatorReport {
  state::StateOperatorInfo info;
  /// The setting that fixes its state format and the value the checkpoint pinned, when the
  /// operator has one (aggregations, joins, flatMapGroupsWithState).
  std::optional<std::pair<std::string, std::string>> state_format;
  /// The newest state version any of its stores has on disk (batch N writes version N + 1).
  std::optional<int64_t> latest_version;
  /// Bytes of every file under state/<operator id> (hard-linked RocksDB files count once per
  /// link).
  int64_t bytes_on_disk = 0;
};

/// What a checkpoint holds.
struct CheckpointReport {
  std::string root;
  std::string query_id;
  /// The batch ids of offsets/ and commits/, ascending.
  std::vector<int64_t> offsets_batches;
  std::vector<int64_t> commit_batches;
  /// Where a restart resumes (spec section 7).
  checkpoint::ResumePoint resume;
  /// The newest offsets entry and its batch id (none before batch 0 was planned).
  std::optional<int64_t> latest_batch;
  std::optional<checkpoint::OffsetSeq> latest_offsets;
  /// The commit of latest_batch, when it has one.
  std::optional<checkpoint::CommitMetadata> latest_commit;
  std::vector<SourceReport> sources;
  std::vector<StateOperatorReport> operators;

  /// The value the latest offsets entry pins for `key`, if any.
  std::optional<std::string> PinnedSetting(const std::string& key) const;
};

/// Reads the checkpoint at `root`: its metadata, every entry of its offsets and commits logs,
/// its sources' folders and its state operators' metadata and schemas. Nothing is written. A
/// missing or damaged file fails with an error naming the file (a missing `metadata`: the
/// folder is not a checkpoint).
arrow::Result<CheckpointReport> ReadCheckpointReport(const std::string& root);

// Printing (checkpoint_report_print.cc).

/// Writes `report` for a reader: batches as ranges ("offsets 0-41, commits 0-40"), times as
/// ISO 8601 UTC followed by the milliseconds, one section per part of the checkpoint.
void PrintCheckpointReport(const CheckpointReport& report, std::ostream& out);

/// `report` as one JSON object (times as milliseconds), for scripts.
std::string CheckpointReportJson(const CheckpointReport& report);

/// Sorted batch ids as ranges: {0, 1, 2, 5} -> "0-2, 5"; "none" when empty.
std::string BatchRanges(const std::vector<int64_t>& batch_ids);

}  // namespace sluice::tools
