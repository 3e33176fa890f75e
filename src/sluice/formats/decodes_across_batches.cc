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
  if (!decode_ahead) return;
  if (auto next = next_first_file()) decodes_.emplace_back(last + 1, reader.DecodeAhead(*next));
}

}  // namespace sluice::formats
