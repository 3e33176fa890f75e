// Which Delta tables this engine may read and write: the protocol versions and table features
// it implements. A table that needs more is refused with Spark's error rather than read or
// written wrongly.
#pragma once

#include <string>

#include <arrow/status.h>

#include "sluice/delta/delta_actions.h"
#include "sluice/delta/delta_log.h"

namespace sluice::delta {

/// The protocol of tables this engine creates: reader 1, writer 2 (appendOnly, invariants).
Protocol NewTableProtocol();

/// OK when the table's protocol needs nothing this engine lacks to read it (reader version 1,
/// or 3 without reader features). DELTA_INVALID_PROTOCOL_VERSION or
/// DELTA_UNSUPPORTED_FEATURES_FOR_READ naming `table` otherwise.
arrow::Status CheckReadable(const Protocol& protocol, const std::string& table);

/// OK when this engine may commit to the table: readable, writer version up to 2 (or 7 with
/// only appendOnly and invariants), and no column invariants to enforce. `removes_files`
/// says whether the commit removes files, which delta.appendOnly=true forbids
/// (DELTA_CANNOT_MODIFY_APPEND_ONLY).
arrow::Status CheckWritable(const Snapshot& snapshot, const std::string& table,
                            bool removes_files);

}  // namespace sluice::delta
