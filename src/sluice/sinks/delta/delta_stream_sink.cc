#include "sluice/sinks/delta/delta_stream_sink.h"

#include <chrono>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/checkpoint/offset_seq.h"
#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/delta/delta_write.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/sources/typed_options.h"

namespace sluice::sinks {

namespace {

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class DeltaStreamSink final : public StreamSink {
 public:
  DeltaStreamSink(std::string table_path, delta::WriteOptions template_options,
                  std::string checkpoint_root)
      : log_(std::move(table_path)),
        template_(std::move(template_options)),
        checkpoint_root_(std::move(checkpoint_root)) {}

  std::string Describe() const override {
    return "DeltaSink[" + formats::QualifiedPath(log_.table_path()) + "]";
  }

  arrow::Status AddBatch(int64_t batch_id, physical::BatchStream& data,
                         OutputMode mode) override {
    last_output_rows_ = 0;
    if (query_id_.empty()) {
      checkpoint::CheckpointPaths paths(checkpoint_root_);
      ARROW_ASSIGN_OR_RAISE(auto metadata, checkpoint::ReadWholeFile(paths.metadata()));
      ARROW_ASSIGN_OR_RAISE(query_id_,
                            checkpoint::ParseQueryMetadata(metadata, paths.metadata()));
    }
    // The table as it is now: other writers may have committed since the last batch.
    std::optional<delta::Snapshot> read;
    ARROW_ASSIGN_OR_RAISE(auto latest, log_.LatestVersion());
    if (latest) {
      if (snapshot_) {
        ARROW_ASSIGN_OR_RAISE(read, log_.Update(*snapshot_, *latest));
      } else {
        ARROW_ASSIGN_OR_RAISE(read, log_.Load(*latest));
      }
    }
    auto committed = read ? read->AppVersion(query_id_) : std::nullopt;
    if (committed && *committed >= batch_id) {
      // This batch (or a later one: the checkpoint was rolled back) is in the table already.
      snapshot_ = std::move(read);
      return arrow::Status::OK();
    }
    delta::WriteOptions options = template_;
    options.mode = mode == OutputMode::kComplete ? delta::WriteMode::kOverwrite
                                                 : delta::WriteMode::kAppend;
    options.transaction = delta::Transaction{query_id_, batch_id, std::nullopt};
    options.operation = "STREAMING UPDATE";
    options.operation_parameters = {{"outputMode", std::string(OutputModeName(mode))},
                                    {"queryId", query_id_},
                                    {"epochId", std::to_string(batch_id)}};
    options.now_ms = NowMillis();
    ARROW_ASSIGN_OR_RAISE(auto result, delta::WriteToTable(log_, read, data, options));
    last_output_rows_ = result.rows;
    snapshot_ = std::move(result.snapshot);
    return arrow::Status::OK();
  }

  int64_t last_output_rows() const override { return last_output_rows_; }

 private:
  delta::DeltaLog log_;
  delta::WriteOptions template_;
  std::string checkpoint_root_;
  std::string query_id_;
  /// The table as of this sink's last commit or check, brought forward each batch.
  std::optional<delta::Snapshot> snapshot_;
  int64_t last_output_rows_ = 0;
};

}  // namespace

arrow::Result<std::unique_ptr<StreamSink>> MakeDeltaStreamSink(
    const formats::OptionMap& options, const std::string& path,
    const std::vector<std::string>& partition_by, OutputMode mode,
    const formats::FormatContext& context, std::string checkpoint_root) {
  if (path.empty()) {
    return SparkError("_LEGACY_ERROR_TEMP_2047",
                      "'path' is not specified: give start() the path of the Delta table or "
                      "use toTable().");
  }
  if (mode == OutputMode::kUpdate) {
    return SparkError("DELTA_UNSUPPORTED_OUTPUT_MODE",
                      "Data source delta does not support Update output mode. Use append or "
                      "complete, or write each batch with foreachBatch and a MERGE.");
  }
  delta::WriteOptions write;
  write.partition_by = partition_by;
  ARROW_ASSIGN_OR_RAISE(write.merge_schema, sources::BooleanOption(options, "mergeSchema", false));
  ARROW_ASSIGN_OR_RAISE(write.parquet,
                        formats::MakeFormatWriter(formats::FileFormat::kParquet, options, context));
  ARROW_ASSIGN_OR_RAISE(write.zone, formats::FindZone(context.session_time_zone));
  return std::make_unique<DeltaStreamSink>(formats::LocalPath(path), std::move(write),
                                           std::move(checkpoint_root));
}

}  // namespace sluice::sinks
