#include "sluice/formats/decodes_across_batches.h"

#include <algorithm>

#include <arrow/type.h>

namespace sluice::formats {

void DecodesAcrossBatches::Ready(
    FileBatchReader& reader, const arrow::Schema& read, int64_t first, int64_t last,
    const std::function<std::optional<std::string>()>& next_first_file) {
  if (first != loads_batch_) {
    previous_loads_ = std::move(current_loads_);
    current_loads_.clear();
    loads_batch_ = first;
    if (first_batch_ < 0) first_batch_ = first;
  }
  // The read's load in the previous batch (the first of them if it read the same columns
  // more than once) that was bound by decoding.
  const auto before =
      std::find_if(previous_loads_.begin(), previous_loads_.end(), [&](const ReadLoad& load) {
        return load.read->Equals(read) && load.load->DecodeBound();
      });
  const bool decode_ahead = before != previous_loads_.end();
  reader.set_decode_ahead(decode_ahead, decode_ahead ? FileBatchReader::AheadLimitFor(*before->load)
                                                     : FileBatchReader::kAheadLimit);
  current_loads_.push_back({std::make_shared<arrow::Schema>(read), reader.load()});
  // A decode for this batch is taken by the reader that reads its file as decoded (or left
  // for another read of the source in this batch); decodes for earlier batches are stale.
  std::erase_if(decodes_, [&](auto& decode) {
    if (decode.first == first) reader.TakeOver(decode.second);
    return decode.second == nullptr || (decode.first <= last && decode.first != first);
  });
  if (!decode_ahead) {
    if (first != first_batch_) return;
    // The first batch of a run has no batch before it to tell how its reads went, and while
    // it decodes its own file the other core would be idle: the next batch's first file
    // decodes whole meanwhile, on a thread of the lowest priority. With a file per batch,
    // q0 ran 0.50 s against 0.54 and q1 0.55 against 0.60, the first file's decode no longer
    // alone. A query that did not need it (q14: its time within noise) holds a file's
    // decoded batches a batch early (its peak memory 70 MB higher).
    reader.set_decode_ahead(false, FileBatchReader::kWholeFileLimit);
  }
  if (auto next = next_first_file()) decodes_.emplace_back(last + 1, reader.DecodeAhead(*next));
}

}  // namespace sluice::formats
