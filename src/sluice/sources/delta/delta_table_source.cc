#include "sluice/sources/delta/delta_table_source.h"

#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/delta/delta_log.h"
#include "sluice/delta/delta_protocol.h"
#include "sluice/delta/delta_scan.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/sources/delta/delta_timestamp_option.h"
#include "sluice/sources/typed_options.h"

namespace sluice::sources {

arrow::Result<std::shared_ptr<DeltaTableSource>> DeltaTableSource::Make(
    const std::string& path, const formats::OptionMap& options,
    const std::shared_ptr<arrow::Schema>& user_schema, const formats::FormatContext& context) {
  if (user_schema != nullptr) {
    return SparkError("DELTA_UNSUPPORTED_SCHEMA_DURING_READ",
                      "Delta does not support specifying the schema at read time: the table's "
                      "log fixes it. Remove .schema(...) from the read of " + path + ".");
  }
  const std::string table_path = formats::LocalPath(path);
  delta::DeltaLog log(table_path);
  auto version_option = options.find("versionAsOf");
  auto timestamp_option = options.find("timestampAsOf");
  if (version_option != options.end() && timestamp_option != options.end()) {
    return SparkError("DELTA_UNSUPPORTED_TIME_TRAVEL_MULTIPLE_FORMATS",
                      "Cannot specify both version and timestamp when time travelling the "
                      "table: set either versionAsOf or timestampAsOf.");
  }
  std::optional<int64_t> version;
  if (version_option != options.end()) {
    ARROW_ASSIGN_OR_RAISE(version, LongOption(options, "versionAsOf", 0));
  } else if (timestamp_option != options.end()) {
    ARROW_ASSIGN_OR_RAISE(auto timestamp_ms,
                          DeltaTimestampOption(options, "timestampAsOf", context));
    ARROW_ASSIGN_OR_RAISE(version, log.VersionAtOrBefore(*timestamp_ms, timestamp_option->second));
  }
  ARROW_ASSIGN_OR_RAISE(auto snapshot, log.Load(version));
  ARROW_RETURN_NOT_OK(delta::CheckReadable(snapshot.protocol, table_path));
  ARROW_ASSIGN_OR_RAISE(auto reader, formats::MakeFormatReader(formats::FileFormat::kParquet,
                                                               formats::OptionMap{}, context));
  const bool pinned = version.has_value();
  return std::shared_ptr<DeltaTableSource>(new DeltaTableSource(
      table_path, std::move(snapshot), pinned, std::move(reader), context));
}

std::string DeltaTableSource::Describe() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return "delta [path=" + formats::QualifiedPath(table_path_) +
         ", version=" + std::to_string(snapshot_->version) + "]";
}

arrow::Result<std::shared_ptr<const delta::Snapshot>> DeltaTableSource::CurrentSnapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (pinned_) return snapshot_;
  delta::DeltaLog log(table_path_);
  ARROW_ASSIGN_OR_RAISE(auto latest, log.LatestVersion());
  if (!latest || *latest == snapshot_->version) return snapshot_;
  ARROW_ASSIGN_OR_RAISE(auto updated, log.Update(*snapshot_, *latest));
  ARROW_RETURN_NOT_OK(delta::CheckReadable(updated.protocol, table_path_));
  if (!updated.schema->Equals(*schema_, /*check_metadata=*/false)) {
    return SparkError("DELTA_SCHEMA_CHANGED_WITH_VERSION",
                      "Detected schema change in version " + std::to_string(updated.version) +
                          " of the Delta table " + table_path_ + ":\nstreaming source schema: " +
                          schema_->ToString() + "\n\ndata file schema: " +
                          updated.schema->ToString() +
                          "\nPlease try restarting the query, or read the table again.");
  }
  snapshot_ = std::make_shared<const delta::Snapshot>(std::move(updated));
  return snapshot_;
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> DeltaTableSource::Open() const {
  ARROW_ASSIGN_OR_RAISE(auto snapshot, CurrentSnapshot());
  ARROW_ASSIGN_OR_RAISE(auto reader, delta::ReadDeltaFiles(table_path_, *snapshot,
                                                           snapshot->files, reader_, context_));
  return reader;
}

}  // namespace sluice::sources
