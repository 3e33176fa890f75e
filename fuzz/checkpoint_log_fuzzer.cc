// libFuzzer target: any bytes given to the readers of what a checkpoint, a sink or a table log
// keeps on disk give a value or an error naming the file, never a crash, a hang or a sanitizer
// report. The first byte picks the reader: offsets, commits, query metadata, file sink manifest
// lines, file source log lines and offsets, Delta commits, Kafka offsets, state files.
#include "fuzz/fuzz_input.h"
#include "sluice/checkpoint/file_sink_log.h"
#include "sluice/checkpoint/offset_seq.h"
#include "sluice/delta/delta_actions.h"
#include "sluice/sources/file/file_source_offset.h"
#include "sluice/sources/file/file_stream_source_log.h"
#include "sluice/sources/kafka/kafka_initial_offsets.h"
#include "sluice/sources/kafka/kafka_offset_json.h"
#include "sluice/state/rocksdb_changelog.h"
#include "sluice/state/state_file_format.h"

namespace {

using sluice::fuzz::FuzzInput;

constexpr int kReaders = 13;

void Read(uint8_t reader, std::string_view text) {
  const std::string path = "/checkpoint/file";
  auto ignore = [](std::string_view, std::optional<std::string_view>) {};
  switch (reader % kReaders) {
    case 0:
      (void)sluice::checkpoint::ParseOffsetSeq(text, path);
      break;
    case 1:
      (void)sluice::checkpoint::ParseCommitMetadata(text, path);
      break;
    case 2:
      (void)sluice::checkpoint::ParseQueryMetadata(text, path);
      break;
    case 3:
      (void)sluice::checkpoint::ParseSinkFileStatus(text, path);
      break;
    case 4:
      (void)sluice::sources::ParseFileEntry(text, path);
      break;
    case 5:
      (void)sluice::sources::ParseFileSourceOffset(text);
      break;
    case 6:
      (void)sluice::delta::ParseCommit(text, path);
      break;
    case 7:
      (void)sluice::sources::kafka::ParsePartitionOffsets(text);
      break;
    case 8:
      (void)sluice::sources::kafka::ParseInitialOffsetsFile(text, path);
      break;
    case 9:
      (void)sluice::state::ReadStateFile(text, path, "store", sluice::state::StateFileKind::kDelta,
                                         1, ignore);
      break;
    case 10:
      (void)sluice::state::ReadStateFile(text, path, "store",
                                         sluice::state::StateFileKind::kSnapshot, 1, ignore);
      break;
    case 11: {
      sluice::fuzz::MemoryFile file(text);
      if (!file.ok()) break;
      (void)sluice::state::ReadChangelog(
          file.path(), "store", 1,
          [](std::string_view, std::optional<std::string_view>) { return arrow::Status::OK(); });
      break;
    }
    case 12:
      (void)sluice::state::ParseStateFileName(text);
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput input(data, size);
  Read(input.selector, input.text);
  return 0;
}
