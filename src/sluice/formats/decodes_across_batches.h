// What a streaming file scan carries from one micro-batch to the next so that its decoding
// keeps both cores busy: with a file or a few per batch, decoding them one at a time on one
// core was the whole batch. A read of the source whose decoding was what the query waited for
// (DecodeLoad) decodes ahead in the next batch, and starts decoding the first file of the
// batch after it while its own batch runs; so does the first batch of a run, which has no
// batch before it to go by.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <arrow/type_fwd.h>

#include "sluice/formats/file_batch_reader.h"

namespace sluice::formats {

/// Kept by one streaming file source; called from its batch loop thread only.
class DecodesAcrossBatches {
 public:
  /// Readies `reader`, which reads the batch of the source's log batches `first` to `last`
  /// with the columns `read` (ReadOnly already applied). A source may be read several times in
  /// one batch (a self-join reads it twice, each its own columns): what a read did in the
  /// batch before is found by its columns. `reader` decodes ahead if that read was bound by
  /// decoding (whole files ahead if decoding dominated it), and takes over the decode of its
  /// first file started then, if it reads that file as decoded. When it decodes ahead, and in
  /// the run's first batch, the first file of the next batch (`next_first_file`, when known)
  /// starts decoding for log batch `last` + 1.
  void Ready(FileBatchReader& reader, const arrow::Schema& read, int64_t first, int64_t last,
             const std::function<std::optional<std::string>()>& next_first_file);
  /// Drops the decodes under way (the query stops).
  void Clear() { decodes_.clear(); }

 private:
  struct ReadLoad {
    std::shared_ptr<arrow::Schema> read;
    std::shared_ptr<const DecodeLoad> load;
  };
  int64_t first_batch_ = -1;  // the first log batch of the run's first batch
  int64_t loads_batch_ = -1;  // the first log batch of the batch current_loads_ are of
  std::vector<ReadLoad> previous_loads_;
  std::vector<ReadLoad> current_loads_;
  /// Decodes of a batch's first file, by the log batch they are for. Files of a file source
  /// are never changed once visible.
  std::vector<std::pair<int64_t, std::unique_ptr<FileDecode>>> decodes_;
};

}  // namespace sluice::formats
