#include "sluice/physical/filter_rows.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include <arrow/array/util.h>
#include <arrow/buffer.h>
#include <arrow/compute/api_vector.h>
#include <arrow/type.h>
#include <arrow/util/bit_run_reader.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/bitmap_ops.h>

#include "sluice/common/take_strings.h"

namespace sluice::physical {

namespace {

// Below this mean run length a memcpy per run and column costs more than Take's gather.
constexpr int64_t kMinMeanRunLength = 8;

int64_t RowsIn(const std::vector<RowRun>& runs) {
  int64_t rows = 0;
  for (const RowRun& run : runs) rows += run.length;
  return rows;
}

arrow::Result<std::shared_ptr<arrow::Buffer>> Allocate(int64_t bytes, arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(std::unique_ptr<arrow::Buffer> buffer, arrow::AllocateBuffer(bytes, pool));
  return std::shared_ptr<arrow::Buffer>(std::move(buffer));
}

static_assert(std::endian::native == std::endian::little, "bitmaps are read a word at a time");

/// Appends runs of bits to a bitmap, 56 bits at most per load and 64 per store. Arrow's
/// CopyBitmap, called per run, cost 600 instructions a call: 6% of Nexmark q1's, whose runs
/// are 46 rows long.
class BitAppender {
 public:
  explicit BitAppender(uint8_t* out) : out_(out) {}

  /// Appends the `length` bits of `bitmap` from bit `offset`.
  void Append(const uint8_t* bitmap, int64_t offset, int64_t length) {
    while (length > 0) {
      const int n = static_cast<int>(std::min<int64_t>(length, 56));
      const int shift = static_cast<int>(offset & 7);
      // Only the bytes holding the n bits are read: a bitmap may end right after them.
      uint64_t word = 0;
      std::memcpy(&word, bitmap + (offset >> 3), static_cast<size_t>((shift + n + 7) / 8));
      Push((word >> shift) & ((uint64_t{1} << n) - 1), n);
      offset += n;
      length -= n;
    }
  }

  /// Writes the bits still held; the unused bits of the last byte are zero.
  void Finish() { std::memcpy(out_, &pending_, static_cast<size_t>((held_ + 7) / 8)); }

 private:
  void Push(uint64_t bits, int n) {
    pending_ |= bits << held_;
    held_ += n;
    if (held_ < 64) return;
    std::memcpy(out_, &pending_, 8);
    out_ += 8;
    held_ -= 64;
    pending_ = bits >> (n - held_);  // the bits that did not fit
  }

  uint8_t* out_;
  uint64_t pending_ = 0;
  int held_ = 0;  // bits in pending_, fewer than 64
};

/// The bits of `bitmap` (from bit `offset`) at the rows of `runs`, packed; trailing bits zero.
arrow::Result<std::shared_ptr<arrow::Buffer>> CopyBitRuns(const uint8_t* bitmap, int64_t offset,
                                                          const std::vector<RowRun>& runs,
                                                          int64_t rows, arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto buffer, Allocate(arrow::bit_util::BytesForBits(rows), pool));
  BitAppender out(buffer->mutable_data());
  for (const RowRun& run : runs) out.Append(bitmap, offset + run.start, run.length);
  out.Finish();
  return buffer;
}

/// The validity bitmap of the copied rows (null when none of them can be null).
arrow::Status CopyValidity(const arrow::ArrayData& rows, const std::vector<RowRun>& runs,
                           int64_t kept, arrow::MemoryPool* pool, arrow::ArrayData* out) {
  out->buffers.resize(1);
  if (!rows.MayHaveNulls()) {
    out->null_count = 0;
    return arrow::Status::OK();
  }
  ARROW_ASSIGN_OR_RAISE(out->buffers[0],
                        CopyBitRuns(rows.buffers[0]->data(), rows.offset, runs, kept, pool));
  out->null_count = kept - arrow::internal::CountSetBits(out->buffers[0]->data(), 0, kept);
  // The nulls may all be in rows left out (a struct's null rows of other event types).
  if (out->null_count == 0) out->buffers[0] = nullptr;
  return arrow::Status::OK();
}

arrow::Result<std::shared_ptr<arrow::Buffer>> CopyFixedWidth(const arrow::ArrayData& rows,
                                                             int64_t width,
                                                             const std::vector<RowRun>& runs,
                                                             int64_t kept,
                                                             arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto buffer, Allocate(kept * width, pool));
  const uint8_t* in = rows.buffers[1]->data() + rows.offset * width;
  uint8_t* out = buffer->mutable_data();
  for (const RowRun& run : runs) {
    std::memcpy(out, in + run.start * width, static_cast<size_t>(run.length * width));
    out += run.length * width;
  }
  return buffer;
}

/// Offsets rebased to the copied values, then the values of each run in one memcpy; or no
/// copy of the values when the rows left out between the runs hold none (null or empty) and
/// most of the buffer is kept: the values of the runs then lie next to each other already.
/// A filter on Nexmark's event type keeps the bids, whose 100-byte `extra` is null in the
/// persons and auctions between them: copying it was 3% of q0's time.
template <typename Offset>
arrow::Status CopyBinary(const arrow::ArrayData& rows, const std::vector<RowRun>& runs,
                         int64_t kept, arrow::MemoryPool* pool, arrow::ArrayData* out) {
  const Offset* offsets = rows.GetValues<Offset>(1);
  const std::shared_ptr<arrow::Buffer>& values_in = rows.buffers[2];
  const uint8_t* values = values_in == nullptr ? nullptr : values_in->data();
  ARROW_ASSIGN_OR_RAISE(auto offsets_out, Allocate((kept + 1) * sizeof(Offset), pool));
  Offset* next = reinterpret_cast<Offset*>(offsets_out->mutable_data());
  Offset total = 0;
  next[0] = 0;
  for (const RowRun& run : runs) {
    const Offset base = offsets[run.start];
    for (int64_t i = 1; i <= run.length; ++i) next[i] = total + (offsets[run.start + i] - base);
    next += run.length;
    total = *next;
  }
  const Offset first = runs.empty() ? 0 : offsets[runs.front().start];
  const Offset spanned =
      runs.empty() ? 0 : offsets[runs.back().start + runs.back().length] - first;
  if (values_in != nullptr && total > 0 && total == spanned && 2 * total >= values_in->size()) {
    out->buffers.push_back(std::move(offsets_out));
    out->buffers.push_back(arrow::SliceBuffer(values_in, first, total));
    return arrow::Status::OK();
  }
  ARROW_ASSIGN_OR_RAISE(auto values_out, Allocate(total, pool));
  uint8_t* to = values_out->mutable_data();
  for (const RowRun& run : runs) {
    const Offset begin = offsets[run.start];
    const Offset length = offsets[run.start + run.length] - begin;
    if (length > 0) std::memcpy(to, values + begin, static_cast<size_t>(length));
    to += length;
  }
  out->buffers.push_back(std::move(offsets_out));
  out->buffers.push_back(std::move(values_out));
  return arrow::Status::OK();
}

/// The rows of `runs` as indices for Take.
arrow::Result<std::shared_ptr<arrow::Array>> RunIndices(const std::vector<RowRun>& runs,
                                                        int64_t kept, arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto buffer, Allocate(kept * static_cast<int64_t>(sizeof(int64_t)), pool));
  int64_t* next = reinterpret_cast<int64_t*>(buffer->mutable_data());
  for (const RowRun& run : runs) {
    for (int64_t i = 0; i < run.length; ++i) *next++ = run.start + i;
  }
  return arrow::MakeArray(arrow::ArrayData::Make(arrow::int64(), kept, {nullptr, buffer}, 0));
}

/// Whether the type's values are whole bytes of one width in buffer 1.
bool IsByteWidth(const arrow::DataType& type) {
  if (type.id() == arrow::Type::BOOL || type.id() == arrow::Type::DICTIONARY ||
      type.id() == arrow::Type::EXTENSION || type.num_fields() != 0) {
    return false;
  }
  const auto* fixed = dynamic_cast<const arrow::FixedWidthType*>(&type);
  return fixed != nullptr && fixed->bit_width() > 0 && fixed->bit_width() % 8 == 0;
}

}  // namespace

std::optional<std::vector<RowRun>> SelectedRuns(const arrow::ArrayData& mask, size_t max_runs) {
  std::vector<RowRun> runs;
  const uint8_t* validity = mask.MayHaveNulls() ? mask.buffers[0]->data() : nullptr;
  // The visitor splits runs at its chunk boundaries: adjacent pieces are joined again.
  auto add = [&runs, max_runs](int64_t start, int64_t length) {
    if (!runs.empty() && runs.back().start + runs.back().length == start) {
      runs.back().length += length;
      return arrow::Status::OK();
    }
    if (runs.size() == max_runs) return arrow::Status::CapacityError("more runs than wanted");
    runs.push_back({start, length});
    return arrow::Status::OK();
  };
  if (!arrow::internal::VisitTwoSetBitRuns(mask.buffers[1]->data(), mask.offset, validity,
                                           mask.offset, mask.length, add)
           .ok()) {
    return std::nullopt;
  }
  return runs;
}

arrow::Result<std::shared_ptr<arrow::ArrayData>> CopyRuns(const arrow::ArrayData& rows,
                                                          const std::vector<RowRun>& runs,
                                                          arrow::MemoryPool* pool) {
  const int64_t kept = RowsIn(runs);
  const arrow::DataType& type = *rows.type;
  auto out = std::make_shared<arrow::ArrayData>(rows.type, kept);
  if (type.id() == arrow::Type::NA) {
    out->buffers = {nullptr};
    out->null_count = kept;
    return out;
  }
  const bool flat = IsByteWidth(type) || type.id() == arrow::Type::BOOL ||
                    type.id() == arrow::Type::STRUCT || type.id() == arrow::Type::STRING ||
                    type.id() == arrow::Type::BINARY || type.id() == arrow::Type::LARGE_STRING ||
                    type.id() == arrow::Type::LARGE_BINARY;
  if (!flat) {
    ARROW_ASSIGN_OR_RAISE(auto indices, RunIndices(runs, kept, pool));
    arrow::compute::ExecContext context(pool);
    ARROW_ASSIGN_OR_RAISE(
        auto taken, arrow::compute::Take(arrow::Datum(rows), indices,
                                         arrow::compute::TakeOptions::NoBoundsCheck(), &context));
    return taken.array();
  }
  ARROW_RETURN_NOT_OK(CopyValidity(rows, runs, kept, pool, out.get()));
  switch (type.id()) {
    case arrow::Type::BOOL: {
      ARROW_ASSIGN_OR_RAISE(auto bits,
                            CopyBitRuns(rows.buffers[1]->data(), rows.offset, runs, kept, pool));
      out->buffers.push_back(std::move(bits));
      break;
    }
    case arrow::Type::STRING:
    case arrow::Type::BINARY:
      ARROW_RETURN_NOT_OK(CopyBinary<int32_t>(rows, runs, kept, pool, out.get()));
      break;
    case arrow::Type::LARGE_STRING:
    case arrow::Type::LARGE_BINARY:
      ARROW_RETURN_NOT_OK(CopyBinary<int64_t>(rows, runs, kept, pool, out.get()));
      break;
    case arrow::Type::STRUCT:
      // A struct's children hold its rows from its own offset on.
      for (const auto& child : rows.child_data) {
        ARROW_ASSIGN_OR_RAISE(auto copied,
                              CopyRuns(*child->Slice(rows.offset, rows.length), runs, pool));
        out->child_data.push_back(std::move(copied));
      }
      break;
    default: {
      const int64_t width = static_cast<const arrow::FixedWidthType&>(type).bit_width() / 8;
      ARROW_ASSIGN_OR_RAISE(auto values, CopyFixedWidth(rows, width, runs, kept, pool));
      out->buffers.push_back(std::move(values));
      break;
    }
  }
  return out;
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> FilterRows(
    const std::shared_ptr<arrow::RecordBatch>& batch, const arrow::Array& mask,
    arrow::MemoryPool* pool) {
  // An empty mask may have no buffers at all.
  if (batch->num_rows() == 0) return batch;
  const arrow::ArrayData& bits = *mask.data();
  const int64_t kept =
      mask.null_count() == 0
          ? arrow::internal::CountSetBits(bits.buffers[1]->data(), bits.offset, bits.length)
          : arrow::internal::CountAndSetBits(bits.buffers[0]->data(), bits.offset,
                                             bits.buffers[1]->data(), bits.offset, bits.length);
  if (kept == batch->num_rows()) return batch;
  if (kept == 0) return batch->Slice(0, 0);
  auto runs = SelectedRuns(bits, static_cast<size_t>(kept / kMinMeanRunLength));
  arrow::ArrayVector columns;
  if (!runs && batch->num_rows() > std::numeric_limits<uint32_t>::max()) {
    arrow::compute::ExecContext context(pool);
    ARROW_ASSIGN_OR_RAISE(auto filtered,
                          arrow::compute::Filter(arrow::Datum(batch), mask,
                                                 arrow::compute::FilterOptions::Defaults(),
                                                 &context));
    return filtered.record_batch();
  }
  if (!runs) {
    // Runs too short to copy: the kept rows gathered by index, strings in two passes
    // (TakeColumn), where Arrow's Filter appends them to builders that grow as they go.
    std::vector<uint32_t> indices;
    indices.reserve(static_cast<size_t>(kept));
    ARROW_RETURN_NOT_OK(arrow::internal::VisitTwoSetBitRuns(
        bits.buffers[1]->data(), bits.offset,
        mask.null_count() == 0 ? nullptr : bits.buffers[0]->data(), bits.offset, bits.length,
        [&indices](int64_t start, int64_t length) {
          for (int64_t row = start; row < start + length; ++row) {
            indices.push_back(static_cast<uint32_t>(row));
          }
          return arrow::Status::OK();
        }));
    for (const auto& column : batch->columns()) {
      ARROW_ASSIGN_OR_RAISE(auto taken, TakeColumn(*column, indices, pool));
      columns.push_back(std::move(taken));
    }
    return arrow::RecordBatch::Make(batch->schema(), kept, std::move(columns));
  }
  for (const auto& column : batch->columns()) {
    ARROW_ASSIGN_OR_RAISE(auto copied, CopyRuns(*column->data(), *runs, pool));
    columns.push_back(arrow::MakeArray(std::move(copied)));
  }
  return arrow::RecordBatch::Make(batch->schema(), kept, std::move(columns));
}

}  // namespace sluice::physical
