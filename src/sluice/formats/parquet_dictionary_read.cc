#include "sluice/formats/parquet_dictionary_read.h"

#include <arrow/array/array_base.h>
#include <arrow/buffer.h>
#include <arrow/compute/api_vector.h>
#include <arrow/type.h>
#include <parquet/metadata.h>
#include <parquet/schema.h>

#include "sluice/common/take_strings.h"

namespace sluice::formats {

namespace {

bool DictionaryEncoded(parquet::Encoding::type encoding) {
  return encoding == parquet::Encoding::PLAIN_DICTIONARY ||
         encoding == parquet::Encoding::RLE_DICTIONARY;
}

/// Whether every data page of the leaf `column` in every row group is dictionary-encoded.
bool AllPagesDictionaryEncoded(const parquet::FileMetaData& metadata, int column) {
  for (int group = 0; group < metadata.num_row_groups(); ++group) {
    const auto chunk = metadata.RowGroup(group)->ColumnChunk(column);
    const auto& stats = chunk->encoding_stats();
    if (stats.empty()) return false;
    for (const parquet::PageEncodingStats& pages : stats) {
      const bool data = pages.page_type == parquet::PageType::DATA_PAGE ||
                        pages.page_type == parquet::PageType::DATA_PAGE_V2;
      if (data && pages.count > 0 && !DictionaryEncoded(pages.encoding)) return false;
    }
  }
  return true;
}

}  // namespace

std::vector<int> DictionaryEncodedStringLeaves(const parquet::FileMetaData& metadata) {
  std::vector<int> leaves;
  const parquet::SchemaDescriptor& schema = *metadata.schema();
  for (int column = 0; column < schema.num_columns(); ++column) {
    const parquet::ColumnDescriptor& leaf = *schema.Column(column);
    const auto& logical = leaf.logical_type();
    if (leaf.physical_type() != parquet::Type::BYTE_ARRAY || leaf.max_repetition_level() > 0 ||
        !(logical->is_string() || logical->is_none())) {
      continue;
    }
    if (AllPagesDictionaryEncoded(metadata, column)) leaves.push_back(column);
  }
  return leaves;
}

std::shared_ptr<arrow::DataType> WithoutDictionaries(const std::shared_ptr<arrow::DataType>& type) {
  if (type->id() == arrow::Type::DICTIONARY) {
    return static_cast<const arrow::DictionaryType&>(*type).value_type();
  }
  if (type->id() != arrow::Type::STRUCT) return type;
  arrow::FieldVector fields;
  bool changed = false;
  for (const auto& field : type->fields()) {
    auto plain = WithoutDictionaries(field->type());
    changed = changed || plain != field->type();
    fields.push_back(field->WithType(std::move(plain)));
  }
  return changed ? arrow::struct_(std::move(fields)) : type;
}

arrow::Result<std::shared_ptr<arrow::ArrayData>> ExpandDictionaries(
    const std::shared_ptr<arrow::ArrayData>& array, arrow::MemoryPool* pool) {
  if (array->type->id() == arrow::Type::DICTIONARY) {
    const auto& type = static_cast<const arrow::DictionaryType&>(*array->type);
    const auto values = type.value_type()->id();
    if (type.index_type()->id() == arrow::Type::INT32 &&
        (values == arrow::Type::STRING || values == arrow::Type::BINARY)) {
      return TakeStrings(*array->dictionary, array->GetValues<int32_t>(1), array->length,
                         array->MayHaveNulls() ? array->buffers[0]->data() : nullptr,
                         array->offset, pool);
    }
    // Other dictionaries (not read by DictionaryEncodedStringLeaves' choice): Arrow's Take.
    auto indices = array->Copy();
    indices->type = type.index_type();
    indices->dictionary = nullptr;
    arrow::compute::ExecContext context(pool);
    ARROW_ASSIGN_OR_RAISE(auto taken, arrow::compute::Take(arrow::Datum(array->dictionary),
                                                           arrow::Datum(indices),
                                                           arrow::compute::TakeOptions(),
                                                           &context));
    return taken.array();
  }
  if (array->type->id() != arrow::Type::STRUCT) return array;
  std::shared_ptr<arrow::ArrayData> out;
  for (size_t i = 0; i < array->child_data.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto child, ExpandDictionaries(array->child_data[i], pool));
    if (child == array->child_data[i]) continue;
    if (out == nullptr) out = array->Copy();
    out->child_data[i] = std::move(child);
  }
  if (out == nullptr) return array;
  out->type = WithoutDictionaries(array->type);
  return out;
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> ExpandDictionaries(
    const arrow::RecordBatch& batch, const std::shared_ptr<arrow::Schema>& schema,
    arrow::MemoryPool* pool) {
  std::vector<std::shared_ptr<arrow::ArrayData>> columns;
  columns.reserve(static_cast<size_t>(batch.num_columns()));
  for (const auto& column : batch.column_data()) {
    ARROW_ASSIGN_OR_RAISE(auto plain, ExpandDictionaries(column, pool));
    columns.push_back(std::move(plain));
  }
  return arrow::RecordBatch::Make(schema, batch.num_rows(), std::move(columns));
}

}  // namespace sluice::formats
