// The offsets of the Delta streaming source, as Delta's DeltaSourceOffset writes them into
// offsets/<N>: {"sourceVersion":1,"reservoirId":<table id>,"reservoirVersion":<version>,
// "index":<file index>,"isStartingVersion":<bool>}. An offset is a position in the sequence of
// the table's data files: `index` is the last file taken from version `reservoirVersion` (-1:
// none of it yet); with isStartingVersion the version's files are the table's whole snapshot at
// that version (the first batch of a query that starts without startingVersion), otherwise the
// files its commit added.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <arrow/result.h>

namespace sluice::sources {

struct DeltaSourceOffset {
  std::string reservoir_id;
  int64_t reservoir_version = 0;
  int64_t index = -1;
  bool is_starting_version = false;

  bool operator==(const DeltaSourceOffset&) const = default;
};

/// The offset's JSON, fields in Delta's order.
std::string DeltaSourceOffsetToJson(const DeltaSourceOffset& offset);

/// Reads an offset; fails naming `where` when the text is not one or its sourceVersion is
/// newer than 1.
arrow::Result<DeltaSourceOffset> ParseDeltaSourceOffset(std::string_view json,
                                                        const std::string& where);

}  // namespace sluice::sources
