#include "sluice/tools/state_command.h"

#include <unistd.h>

#include <filesystem>

#include <arrow/table.h>

#include "sluice/api/dataframe_reader.h"
#include "sluice/checkpoint/batch_log.h"
#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/formats/file_writers.h"
#include "sluice/state/operator_metadata.h"

namespace sluice::tools {

namespace fs = std::filesystem;

namespace {

/// The batch the selection reads: the one it names, else the last committed one.
arrow::Result<int64_t> BatchOf(const StateSelection& selection) {
  if (selection.batch_id) return *selection.batch_id;
  checkpoint::CheckpointPaths paths(selection.checkpoint);
  ARROW_ASSIGN_OR_RAISE(auto latest, checkpoint::BatchLog(paths.commits()).LatestBatchId());
  // ReadState has already failed, naming the checkpoint, when there is no committed batch.
  return latest.value_or(0);
}

}  // namespace

DataFrame ReadState(const SparkSession& session, const StateSelection& selection) {
  DataFrameReader reader = session.read();
  reader.format("statestore").option("operatorId", selection.operator_id);
  if (selection.store_name) reader.option("storeName", *selection.store_name);
  if (selection.join_side) reader.option("joinSide", *selection.join_side);
  if (selection.batch_id) reader.option("batchId", *selection.batch_id);
  return reader.load(selection.checkpoint);
}

arrow::Status PrintState(const SparkSession& session, const StateSelection& selection,
                         int limit, std::ostream& out) {
  DataFrame rows = ReadState(session, selection);
  ARROW_RETURN_NOT_OK(rows.status());
  ARROW_ASSIGN_OR_RAISE(auto table, rows.collect());
  ARROW_ASSIGN_OR_RAISE(const int64_t batch_id, BatchOf(selection));
  ARROW_ASSIGN_OR_RAISE(auto info,
                        state::ReadOperatorMetadata(
                            checkpoint::CheckpointPaths(selection.checkpoint),
                            selection.operator_id));
  const std::string store =
      selection.join_side ? *selection.join_side + " side"
                          : "store " + selection.store_name.value_or("default");
  out << "Operator " << info.operator_id << " (" << info.operator_name << "), " << store
      << ", batch " << batch_id << " (state version " << batch_id + 1
      << "): " << table->num_rows() << " row(s)\n";
  ARROW_ASSIGN_OR_RAISE(auto text,
                        session.createDataFrame(table).showString(limit, /*truncate_to=*/0));
  out << text << std::flush;
  return arrow::Status::OK();
}

arrow::Result<int64_t> WriteStateParquet(const SparkSession& session,
                                         const StateSelection& selection,
                                         const std::string& path) {
  std::error_code error;
  if (fs::exists(path, error)) {
    return arrow::Status::IOError("The output file ", path,
                                  " already exists: remove it or name another one.");
  }
  DataFrame rows = ReadState(session, selection);
  ARROW_ASSIGN_OR_RAISE(auto table, rows.collect());
  ARROW_ASSIGN_OR_RAISE(auto writer,
                        formats::MakeParquetWriter(formats::OptionMap{}, formats::FormatContext{}));
  // Written beside the target under a hidden name, then renamed: no partial file is left
  // under `path`.
  const fs::path target(path);
  const fs::path temporary =
      target.parent_path() / ("." + target.filename().string() + "." +
                              std::to_string(::getpid()) + ".tmp");
  auto write = [&]() -> arrow::Status {
    ARROW_ASSIGN_OR_RAISE(auto file, writer->Open(temporary.string(), table->schema()));
    arrow::TableBatchReader batches(*table);
    std::shared_ptr<arrow::RecordBatch> batch;
    while (true) {
      ARROW_RETURN_NOT_OK(batches.ReadNext(&batch));
      if (batch == nullptr) break;
      ARROW_RETURN_NOT_OK(file->Write(*batch));
    }
    return file->Close();
  };
  arrow::Status status = write();
  if (status.ok()) {
    fs::rename(temporary, target, error);
    if (error) {
      status = arrow::Status::IOError("Cannot move the finished file to ", path, ": ",
                                      error.message());
    }
  }
  if (!status.ok()) {
    fs::remove(temporary, error);
    return status;
  }
  return table->num_rows();
}

}  // namespace sluice::tools
