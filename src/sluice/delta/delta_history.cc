#include "sluice/delta/delta_history.h"

#include <sys/stat.h>

#include <algorithm>

#include <arrow/builder.h>
#include <arrow/table.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/types/spark_types.h"

namespace sluice::delta {

namespace {

int64_t ModificationTimeMs(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return 0;
  return static_cast<int64_t>(info.st_mtim.tv_sec) * 1000 + info.st_mtim.tv_nsec / 1000000;
}

arrow::Status AppendMap(arrow::MapBuilder* builder,
                        const std::map<std::string, std::string>& values) {
  auto* keys = static_cast<arrow::StringBuilder*>(builder->key_builder());
  auto* items = static_cast<arrow::StringBuilder*>(builder->item_builder());
  ARROW_RETURN_NOT_OK(builder->Append());
  for (const auto& [key, value] : values) {
    ARROW_RETURN_NOT_OK(keys->Append(key));
    ARROW_RETURN_NOT_OK(items->Append(value));
  }
  return arrow::Status::OK();
}

template <typename Builder, typename T>
arrow::Status AppendOptional(Builder* builder, const std::optional<T>& value) {
  return value ? builder->Append(*value) : builder->AppendNull();
}

}  // namespace

arrow::Result<std::vector<HistoryEntry>> ReadHistory(const DeltaLog& log,
                                                     std::optional<int64_t> limit) {
  ARROW_ASSIGN_OR_RAISE(auto versions, ListCommitVersions(log.LogFolder()));
  if (versions.empty()) {
    return SparkError("DELTA_TABLE_NOT_FOUND",
                      "Delta table " + log.table_path() + " doesn't exist.");
  }
  std::vector<HistoryEntry> entries;
  int64_t previous = INT64_MIN;
  for (int64_t version : versions) {
    HistoryEntry entry;
    entry.version = version;
    entry.timestamp_ms = ModificationTimeMs(log.CommitPath(version));
    if (previous != INT64_MIN && entry.timestamp_ms <= previous) entry.timestamp_ms = previous + 1;
    previous = entry.timestamp_ms;
    entries.push_back(std::move(entry));
  }
  std::reverse(entries.begin(), entries.end());
  if (limit && *limit >= 0 && static_cast<size_t>(*limit) < entries.size()) {
    entries.resize(static_cast<size_t>(*limit));
  }
  for (auto& entry : entries) {
    ARROW_ASSIGN_OR_RAISE(auto actions, log.ReadCommit(entry.version));
    for (auto& action : actions) {
      if (auto* info = std::get_if<CommitInfo>(&action)) entry.info = std::move(*info);
    }
  }
  return entries;
}

arrow::Result<std::shared_ptr<arrow::Table>> HistoryTable(
    const std::vector<HistoryEntry>& entries) {
  auto pool = arrow::default_memory_pool();
  auto map_type = types::MakeMapType(arrow::utf8(), arrow::utf8(), /*value_nullable=*/true);
  arrow::Int64Builder version(pool);
  arrow::TimestampBuilder timestamp(types::TimestampLtzType(), pool);
  arrow::StringBuilder operation(pool);
  arrow::MapBuilder parameters(pool, std::make_shared<arrow::StringBuilder>(pool),
                               std::make_shared<arrow::StringBuilder>(pool), map_type);
  arrow::Int64Builder read_version(pool);
  arrow::StringBuilder isolation_level(pool);
  arrow::BooleanBuilder blind_append(pool);
  arrow::MapBuilder metrics(pool, std::make_shared<arrow::StringBuilder>(pool),
                            std::make_shared<arrow::StringBuilder>(pool), map_type);
  arrow::StringBuilder engine_info(pool);
  for (const auto& entry : entries) {
    const CommitInfo& info = entry.info;
    ARROW_RETURN_NOT_OK(version.Append(entry.version));
    ARROW_RETURN_NOT_OK(timestamp.Append(entry.timestamp_ms * 1000));
    ARROW_RETURN_NOT_OK(info.operation.empty() ? operation.AppendNull()
                                               : operation.Append(info.operation));
    ARROW_RETURN_NOT_OK(AppendMap(&parameters, info.operation_parameters));
    ARROW_RETURN_NOT_OK(AppendOptional(&read_version, info.read_version));
    ARROW_RETURN_NOT_OK(AppendOptional(&isolation_level, info.isolation_level));
    ARROW_RETURN_NOT_OK(AppendOptional(&blind_append, info.is_blind_append));
    ARROW_RETURN_NOT_OK(AppendMap(&metrics, info.operation_metrics));
    ARROW_RETURN_NOT_OK(AppendOptional(&engine_info, info.engine_info));
  }
  auto schema = arrow::schema({
      arrow::field("version", arrow::int64()),
      arrow::field("timestamp", types::TimestampLtzType()),
      arrow::field("operation", arrow::utf8()),
      arrow::field("operationParameters", map_type),
      arrow::field("readVersion", arrow::int64()),
      arrow::field("isolationLevel", arrow::utf8()),
      arrow::field("isBlindAppend", arrow::boolean()),
      arrow::field("operationMetrics", map_type),
      arrow::field("engineInfo", arrow::utf8()),
  });
  arrow::ArrayVector columns(9);
  ARROW_RETURN_NOT_OK(version.Finish(&columns[0]));
  ARROW_RETURN_NOT_OK(timestamp.Finish(&columns[1]));
  ARROW_RETURN_NOT_OK(operation.Finish(&columns[2]));
  ARROW_RETURN_NOT_OK(parameters.Finish(&columns[3]));
  ARROW_RETURN_NOT_OK(read_version.Finish(&columns[4]));
  ARROW_RETURN_NOT_OK(isolation_level.Finish(&columns[5]));
  ARROW_RETURN_NOT_OK(blind_append.Finish(&columns[6]));
  ARROW_RETURN_NOT_OK(metrics.Finish(&columns[7]));
  ARROW_RETURN_NOT_OK(engine_info.Finish(&columns[8]));
  return arrow::Table::Make(schema, columns);
}

}  // namespace sluice::delta
