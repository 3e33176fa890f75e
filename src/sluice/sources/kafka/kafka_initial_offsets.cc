#include "sluice/sources/kafka/kafka_initial_offsets.h"

#include <optional>

#include "sluice/checkpoint/batch_log.h"
#include "sluice/sources/kafka/kafka_offset_json.h"

namespace sluice::sources::kafka {

namespace {

// KafkaSourceInitialOffsetWriter.VERSION, and its version line.
constexpr int kInitialOffsetsVersion = 1;
constexpr std::string_view kVersionLine = "v1\n";

}  // namespace

std::string InitialOffsetsFileContents(const PartitionOffsets& offsets) {
  // The leading zero byte keeps the file readable by Spark 2.1 (SPARK-19517).
  const std::string json = PartitionOffsetsJson(offsets);
  std::string contents;
  contents.reserve(1 + kVersionLine.size() + json.size());
  contents.push_back('\0');
  contents.append(kVersionLine).append(json);
  return contents;
}

arrow::Result<PartitionOffsets> ParseInitialOffsetsFile(std::string_view contents,
                                                        const std::string& path) {
  if (!contents.empty() && contents.front() == '\0') contents.remove_prefix(1);
  if (contents.empty()) {
    return checkpoint::MalformedLogFile(path, "it is empty");
  }
  std::string_view json = contents;
  if (contents.front() == 'v') {
    ARROW_ASSIGN_OR_RAISE(auto lines, checkpoint::SplitVersionedLog(
                                          contents, kInitialOffsetsVersion, path));
    if (lines.size() != 1) {
      return checkpoint::MalformedLogFile(path, "it should hold one line of Kafka offsets");
    }
    json = lines[0];
  }
  auto offsets = ParsePartitionOffsets(json);
  if (!offsets.ok()) {
    return checkpoint::MalformedLogFile(path, offsets.status().message());
  }
  return offsets;
}

arrow::Result<PartitionOffsets> LoadOrRecordInitialOffsets(
    const std::string& metadata_path,
    const std::function<arrow::Result<PartitionOffsets>()>& resolve) {
  if (metadata_path.empty()) return resolve();
  checkpoint::BatchLog log(metadata_path);
  ARROW_ASSIGN_OR_RAISE(std::optional<std::string> contents, log.Get(0));
  if (contents) return ParseInitialOffsetsFile(*contents, log.PathOf(0));
  ARROW_ASSIGN_OR_RAISE(PartitionOffsets offsets, resolve());
  ARROW_RETURN_NOT_OK(log.Add(0, InitialOffsetsFileContents(offsets)));
  return offsets;
}

}  // namespace sluice::sources::kafka
