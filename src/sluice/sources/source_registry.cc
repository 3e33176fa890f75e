#include "sluice/sources/source_registry.h"

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/sources/delta/delta_stream_source.h"
#include "sluice/sources/delta/delta_table_source.h"
#include "sluice/sources/file/file_stream_source.h"
#include "sluice/sources/kafka/kafka_source_provider.h"
#include "sluice/sources/nexmark/nexmark_source.h"
#include "sluice/sources/rate/rate_per_micro_batch_source.h"
#include "sluice/sources/rate/rate_source.h"
#include "sluice/sources/socket/socket_source.h"
#include "sluice/sources/state/state_store_source.h"

namespace sluice::sources {

namespace {

/// The table path of a Delta read: load()'s argument, else the "path" option.
arrow::Result<std::string> DeltaPath(const SourceRequest& request) {
  if (!request.path.empty()) return request.path;
  auto option = request.options.find("path");
  if (option == request.options.end()) {
    return SparkError("_LEGACY_ERROR_TEMP_1029",
                      "'path' is not specified: give load() the path of the Delta table or set "
                      "the \"path\" option.");
  }
  return option->second;
}

/// The checkpoint a state source reads: load()'s path, or the "path" option, or empty.
std::string CheckpointPath(const SourceRequest& request) {
  if (!request.path.empty()) return request.path;
  auto option = request.options.find("path");
  return option == request.options.end() ? std::string() : option->second;
}

}  // namespace

arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeStreamSourceProvider(
    const SourceRequest& request) {
  const std::string name = AsciiLower(request.format);
  auto file_format = formats::ParseFileFormat(name);
  if (file_format.ok()) {
    std::string path = request.path;
    if (path.empty()) {
      auto option = request.options.find("path");
      if (option == request.options.end()) {
        return SparkError("_LEGACY_ERROR_TEMP_2047", "'path' is not specified.");
      }
      path = option->second;
    }
    return MakeFileStreamSourceProvider(*file_format, request.options, path, request.schema,
                                        request.format_context, request.schema_inference);
  }
  if (name == "rate") return MakeRateSourceProvider(request.options);
  if (name == "rate-micro-batch") return MakeRatePerMicroBatchSourceProvider(request.options);
  if (name == "socket") return MakeSocketSourceProvider(request.options);
  if (name == "nexmark") return MakeNexmarkSourceProvider(request.options);
  if (name == "kafka") return kafka::MakeKafkaSourceProvider(request.options, request.schema);
  if (name == "delta") {
    ARROW_ASSIGN_OR_RAISE(auto path, DeltaPath(request));
    return MakeDeltaStreamSourceProvider(path, request.options, request.schema,
                                         request.format_context);
  }
  return SparkError("DATA_SOURCE_NOT_FOUND",
                    "Failed to find the data source: " + request.format +
                        ". Streaming sources: json, csv, parquet, orc, text, rate, "
                        "rate-micro-batch, socket, kafka, delta, nexmark.");
}

bool IsNonFileBatchSource(std::string_view format) {
  const std::string name = AsciiLower(format);
  return name == "kafka" || name == "delta" || name == "statestore" ||
         name == "state-metadata";
}

arrow::Result<std::shared_ptr<const plan::DataSource>> MakeBatchSource(
    const SourceRequest& request) {
  if (AsciiLower(request.format) == "kafka") {
    return kafka::MakeKafkaRelation(request.options, request.schema);
  }
  if (AsciiLower(request.format) == "delta") {
    ARROW_ASSIGN_OR_RAISE(auto path, DeltaPath(request));
    return DeltaTableSource::Make(path, request.options, request.schema,
                                  request.format_context);
  }
  if (AsciiLower(request.format) == "statestore") {
    return MakeStateStoreSource(CheckpointPath(request), request.options);
  }
  if (AsciiLower(request.format) == "state-metadata") {
    return MakeStateMetadataSource(CheckpointPath(request));
  }
  return SparkError("DATA_SOURCE_NOT_FOUND",
                    "Failed to find the data source: " + request.format + ".");
}

}  // namespace sluice::sources
