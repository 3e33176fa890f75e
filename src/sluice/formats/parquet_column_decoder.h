// Decoding a Parquet leaf column outside lists and maps straight into Arrow arrays.
//
// Arrow's column readers go through record readers and builders made for every shape of
// column: per value they check capacity, re-read validity and dispatch through a chunking
// helper. For the flat and struct leaves of numbers and strings, which are most columns, the
// pages' definition levels and values map onto an array directly. Measured on Nexmark's
// events (10 files of 1M rows), beyond reading and decompressing the pages: bid.extra, 66 MB
// of strings a file, decoded in 75 ms against Arrow's 160 (Arrow spent 27-56 ms decoding each
// long column); Nexmark q0 from those files took 10-15% less time and CPU.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <arrow/array/data.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>
#include <parquet/column_reader.h>

namespace parquet {
class ColumnChunkMetaData;
class ColumnDescriptor;
class Page;
}  // namespace parquet

namespace sluice::formats {

/// The values of one column chunk, read a batch of rows at a time.
class ParquetColumnDecoder {
 public:
  /// Whether the decoder reads `chunk` (of `column`) as an array of `type`: a column outside
  /// lists and maps, of int32 read as int32 or date32, int64 as int64 or timestamp, float,
  /// double, or byte arrays as string or binary, whose pages are plain or dictionary-encoded
  /// with levels in RLE, not encrypted.
  static bool Decodes(const parquet::ColumnDescriptor& column, const arrow::DataType& type,
                      const parquet::ColumnChunkMetaData& chunk);

  /// `name` (the column's path) is for errors.
  ParquetColumnDecoder(std::unique_ptr<parquet::PageReader> pages,
                       const parquet::ColumnDescriptor& column,
                       std::shared_ptr<arrow::DataType> type, std::string name,
                       arrow::MemoryPool* pool);
  ~ParquetColumnDecoder();

  /// The next `rows` values. `levels` gets their definition levels (left empty for a required
  /// column), from which the structs around the column take their validity.
  arrow::Result<std::shared_ptr<arrow::ArrayData>> Read(int64_t rows,
                                                        std::vector<int16_t>* levels);

 private:
  class Indices;
  class BytesOut;
  arrow::Result<std::shared_ptr<arrow::ArrayData>> ReadBatch(int64_t rows,
                                                             std::vector<int16_t>* levels);
  /// Decodes the definition levels of the next `rows` rows of the current page into `levels`
  /// and their validity into `validity` from `first_row` on; the rows that hold a value.
  arrow::Result<int64_t> DecodeLevels(int64_t rows, int16_t* levels, uint8_t* validity,
                                      int64_t first_row);
  /// Decodes the values of the next `rows` rows, `present` of which hold one (those at
  /// `levels`' maximum; all when `levels` is null), into the rows at `out`.
  arrow::Status DecodeFixed(int64_t rows, int64_t present, const int16_t* levels, uint8_t* out);
  /// As DecodeFixed, for byte arrays: appended to `out`, rows numbered from `first_row`.
  arrow::Status DecodeBytes(int64_t rows, int64_t present, const int16_t* levels,
                            int64_t first_row, BytesOut* out);
  arrow::Status NextDataPage();
  arrow::Status ReadDictionary(const parquet::Page& page);
  /// Appends `count` values of the current page to `out` (fixed-width values, packed).
  arrow::Status TakeFixed(int64_t count, uint8_t* out);
  arrow::Status Corrupt(const std::string& what) const;

  std::unique_ptr<parquet::PageReader> pages_;
  const std::shared_ptr<arrow::DataType> type_;
  const std::string name_;
  arrow::MemoryPool* const pool_;
  const int16_t max_level_;
  const int width_;  // bytes of a fixed-width value; 0 for byte arrays
  std::shared_ptr<parquet::Page> page_;  // the data page being read
  int64_t page_rows_left_ = 0;
  parquet::LevelDecoder levels_;
  // The values of a plain page: the bytes not yet read.
  const uint8_t* plain_ = nullptr;
  const uint8_t* plain_end_ = nullptr;
  // The dictionary (fixed-width values packed, or byte arrays' bytes and offsets), and the
  // indices of a dictionary-encoded page (null for a plain one).
  std::vector<uint8_t> dictionary_;
  std::vector<int32_t> dictionary_offsets_;
  int64_t dictionary_size_ = -1;  // -1: no dictionary page read
  std::unique_ptr<Indices> indices_;
  std::vector<uint32_t> index_batch_;
  std::vector<uint8_t> fixed_batch_;
  /// Bytes a byte-array value took in the last batch (plus one), to size the next batch's.
  int64_t bytes_per_value_ = 32;
};

}  // namespace sluice::formats
