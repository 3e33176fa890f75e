// Reading back what the streaming file sink committed, for the file sink tests (feeding it:
// support/batch_stream_fixture.h).
#pragma once

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/array/util.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/scalar.h>
#include <arrow/table.h>
#include <gtest/gtest.h>

#include "sluice/checkpoint/file_sink_log.h"
#include "sluice/formats/file_format.h"
#include "sluice/formats/partition_discovery.h"
#include "support/batch_stream_fixture.h"

/// Asserts that an arrow::Status expression is OK, printing it otherwise.
#ifndef ASSERT_OK
#define ASSERT_OK(expression)                                \
  do {                                                       \
    const ::arrow::Status assert_ok_status = (expression);   \
    ASSERT_TRUE(assert_ok_status.ok()) << assert_ok_status.ToString(); \
  } while (false)
#endif

namespace sluice::testing {

/// The rows a manifest-aware reader sees in a file sink's output `folder`: the files
/// checkpoint::CommittedSinkFiles lists, decoded with the format's reader, with the values of
/// the `partition_by` columns of `schema` taken from their col=value folders. Columns: the data
/// columns, then the partition columns (Spark's order when reading a partitioned folder).
/// Fails when the folder has no manifest.
inline arrow::Result<std::shared_ptr<arrow::Table>> ReadCommittedRows(
    const std::string& folder, formats::FileFormat format,
    const std::shared_ptr<arrow::Schema>& schema, const std::vector<std::string>& partition_by) {
  namespace fs = std::filesystem;
  ARROW_ASSIGN_OR_RAISE(auto files, checkpoint::CommittedSinkFiles(folder));
  if (!files.has_value()) return arrow::Status::Invalid(folder, " has no file sink manifest");
  arrow::FieldVector data_fields, partition_fields;
  for (const auto& field : schema->fields()) {
    bool partition = std::find(partition_by.begin(), partition_by.end(), field->name()) !=
                     partition_by.end();
    (partition ? partition_fields : data_fields).push_back(field);
  }
  auto data_schema = arrow::schema(data_fields);
  arrow::FieldVector all_fields = data_fields;
  all_fields.insert(all_fields.end(), partition_fields.begin(), partition_fields.end());
  auto out_schema = arrow::schema(all_fields);
  ARROW_ASSIGN_OR_RAISE(auto reader,
                        formats::MakeFormatReader(format, {}, formats::FormatContext{}));
  arrow::RecordBatchVector batches;
  for (const auto& file : *files) {
    // col=value folders between the output folder and the file.
    std::map<std::string, std::optional<std::string>> values;
    for (const auto& part : fs::relative(file, folder).parent_path()) {
      std::string segment = part.string();
      size_t equals = segment.find('=');
      if (equals == std::string::npos) continue;
      std::string value = formats::UnescapePathName(segment.substr(equals + 1));
      values[formats::UnescapePathName(segment.substr(0, equals))] =
          value == formats::kDefaultPartitionName ? std::nullopt
                                                  : std::optional<std::string>(value);
    }
    ARROW_ASSIGN_OR_RAISE(auto file_reader, reader->OpenFile(file, data_schema));
    ARROW_ASSIGN_OR_RAISE(auto table, file_reader->ToTable());
    ARROW_ASSIGN_OR_RAISE(auto combined, table->CombineChunksToBatch());
    arrow::ArrayVector columns = combined->columns();
    for (const auto& field : partition_fields) {
      auto value = values.find(field->name());
      if (value == values.end()) {
        return arrow::Status::Invalid(file, " is not in a ", field->name(), "= folder");
      }
      std::shared_ptr<arrow::Scalar> scalar = arrow::MakeNullScalar(field->type());
      if (value->second.has_value()) {
        ARROW_ASSIGN_OR_RAISE(scalar, arrow::Scalar::Parse(field->type(), *value->second));
      }
      ARROW_ASSIGN_OR_RAISE(auto column,
                            arrow::MakeArrayFromScalar(*scalar, combined->num_rows()));
      columns.push_back(column);
    }
    batches.push_back(arrow::RecordBatch::Make(out_schema, combined->num_rows(), columns));
  }
  return arrow::Table::FromRecordBatches(out_schema, batches);
}

/// The names of all regular files under `folder`, relative to it, sorted, skipping the
/// manifest folder.
inline std::vector<std::string> DataFilesUnder(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  for (auto it = fs::recursive_directory_iterator(folder); it != fs::end(it); ++it) {
    if (it->path().filename() == checkpoint::kSinkMetadataFolder) {
      it.disable_recursion_pending();
    } else if (it->is_regular_file()) {
      names.push_back(fs::relative(it->path(), folder).string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace sluice::testing
