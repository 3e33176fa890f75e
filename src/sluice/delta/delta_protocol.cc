#include "sluice/delta/delta_protocol.h"

#include <algorithm>

#include <arrow/type.h>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"

namespace sluice::delta {

namespace {

constexpr int32_t kMaxReaderVersion = 1;
constexpr int32_t kMaxWriterVersion = 2;
constexpr int32_t kReaderFeaturesVersion = 3;
constexpr int32_t kWriterFeaturesVersion = 7;

std::string Join(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

arrow::Status InvalidVersion(const Protocol& protocol, const std::string& table) {
  return SparkError("DELTA_INVALID_PROTOCOL_VERSION",
                    "Unsupported Delta protocol version: table \"" + table +
                        "\" requires reader version " +
                        std::to_string(protocol.min_reader_version) + " and writer version " +
                        std::to_string(protocol.min_writer_version) +
                        ", but this engine supports reader versions [1, 3] and writer versions "
                        "[1, 2, 7]. Rewrite the table with a client that supports its "
                        "features, or read it with one.");
}

/// True when a field of `type` (at any depth) carries column invariants.
bool HasInvariants(const arrow::DataType& type) {
  for (const auto& field : type.fields()) {
    if (field->metadata() != nullptr && field->metadata()->Contains("delta.invariants")) {
      return true;
    }
    if (HasInvariants(*field->type())) return true;
  }
  return false;
}

}  // namespace

Protocol NewTableProtocol() { return Protocol{1, 2, std::nullopt, std::nullopt}; }

arrow::Status CheckReadable(const Protocol& protocol, const std::string& table) {
  if (protocol.min_reader_version == kReaderFeaturesVersion) {
    std::vector<std::string> unsupported = protocol.reader_features.value_or(
        std::vector<std::string>{});
    if (!unsupported.empty()) {
      return SparkError("DELTA_UNSUPPORTED_FEATURES_FOR_READ",
                        "Unsupported Delta read feature: table \"" + table +
                            "\" requires reader table feature(s) that are unsupported by this "
                            "engine: " + Join(unsupported) + ".");
    }
    return arrow::Status::OK();
  }
  if (protocol.min_reader_version > kMaxReaderVersion) return InvalidVersion(protocol, table);
  return arrow::Status::OK();
}

arrow::Status CheckWritable(const Snapshot& snapshot, const std::string& table,
                            bool removes_files) {
  const Protocol& protocol = snapshot.protocol;
  ARROW_RETURN_NOT_OK(CheckReadable(protocol, table));
  if (protocol.min_writer_version == kWriterFeaturesVersion) {
    std::vector<std::string> unsupported;
    for (const auto& feature : protocol.writer_features.value_or(std::vector<std::string>{})) {
      if (feature != "appendOnly" && feature != "invariants") unsupported.push_back(feature);
    }
    if (!unsupported.empty()) {
      return SparkError("DELTA_UNSUPPORTED_FEATURES_FOR_WRITE",
                        "Unsupported Delta write feature: table \"" + table +
                            "\" requires writer table feature(s) that are unsupported by this "
                            "engine: " + Join(unsupported) + ".");
    }
  } else if (protocol.min_writer_version > kMaxWriterVersion) {
    return InvalidVersion(protocol, table);
  }
  if (snapshot.schema != nullptr && HasInvariants(*arrow::struct_(snapshot.schema->fields()))) {
    return SparkError("DELTA_UNSUPPORTED_FEATURES_FOR_WRITE",
                      "Unsupported Delta write feature: table \"" + table +
                          "\" has column invariants (delta.invariants), which this engine does "
                          "not enforce.");
  }
  auto append_only = snapshot.metadata.configuration.find("delta.appendOnly");
  if (removes_files && append_only != snapshot.metadata.configuration.end() &&
      AsciiLower(append_only->second) == "true") {
    return SparkError("DELTA_CANNOT_MODIFY_APPEND_ONLY",
                      "This table is configured to only allow appends. If you would like to "
                      "permit updates or deletes, use 'ALTER TABLE " + table +
                          " SET TBLPROPERTIES (delta.appendOnly=false)'.");
  }
  return arrow::Status::OK();
}

}  // namespace sluice::delta
