#include "sluice/formats/parquet_row_group_decoder.h"

#include <algorithm>

#include <arrow/buffer.h>
#include <arrow/util/bitmap_generate.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/exception.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/schema.h>

#include "sluice/common/recycling_memory_pool.h"
#include "sluice/formats/parquet_column_decoder.h"
#include "sluice/formats/parquet_dictionary_read.h"

namespace sluice::formats {

namespace {

/// A column of the batches, or a field of one of their structs.
struct Node {
  std::shared_ptr<arrow::Field> field;
  int leaf = -1;                // a leaf: its place among the decoded leaves
  std::vector<Node> children;   // a struct: the fields that hold leaves asked for
  int16_t defined_level = 0;    // a struct: a level from which it is not null
  int first_leaf = -1;          // whose levels give the struct's validity
};

/// The node of `field` with the leaves of `wanted` under it (none: not read); false when a
/// wanted leaf lies in something other than a struct.
bool BuildNode(const parquet::arrow::SchemaField& field, const std::vector<int>& wanted,
               std::vector<int>* leaves, Node* node) {
  if (field.is_leaf()) {
    if (!std::binary_search(wanted.begin(), wanted.end(), field.column_index)) return true;
    node->leaf = static_cast<int>(leaves->size());
    node->first_leaf = node->leaf;
    node->field = field.field->WithType(WithoutDictionaries(field.field->type()));
    leaves->push_back(field.column_index);
    return true;
  }
  arrow::FieldVector fields;
  for (const auto& child_field : field.children) {
    Node child;
    if (!BuildNode(child_field, wanted, leaves, &child)) return false;
    if (child.field == nullptr) continue;
    fields.push_back(child.field);
    node->children.push_back(std::move(child));
  }
  if (node->children.empty()) return true;
  if (field.field->type()->id() != arrow::Type::STRUCT) return false;
  node->field = field.field->WithType(arrow::struct_(fields));
  node->defined_level = field.level_info.def_level;
  node->first_leaf = node->children.front().first_leaf;
  return true;
}

/// The columns holding `wanted` (sorted leaf indices), and the leaves in the order the nodes
/// number them; false when one lies outside structs.
bool BuildColumns(const parquet::arrow::FileReader& file, const std::vector<int>& wanted,
                  std::vector<Node>* columns, std::vector<int>* leaves) {
  for (const auto& field : file.manifest().schema_fields) {
    Node node;
    if (!BuildNode(field, wanted, leaves, &node)) return false;
    if (node.field != nullptr) columns->push_back(std::move(node));
  }
  return true;
}

void CollectLeafTypes(const Node& node, std::vector<std::shared_ptr<arrow::DataType>>* types) {
  if (node.leaf >= 0) (*types)[static_cast<size_t>(node.leaf)] = node.field->type();
  for (const Node& child : node.children) CollectLeafTypes(child, types);
}

/// The type of each of the `count` leaves the nodes number.
std::vector<std::shared_ptr<arrow::DataType>> LeafTypes(const std::vector<Node>& columns,
                                                        size_t count) {
  std::vector<std::shared_ptr<arrow::DataType>> types(count);
  for (const Node& column : columns) CollectLeafTypes(column, &types);
  return types;
}

class RowGroupDecoder final : public arrow::RecordBatchReader {
 public:
  RowGroupDecoder(std::unique_ptr<parquet::arrow::FileReader> file, std::vector<Node> columns,
                  std::vector<int> leaves, int64_t batch_rows)
      : file_(std::move(file)),
        columns_(std::move(columns)),
        leaves_(std::move(leaves)),
        leaf_types_(LeafTypes(columns_, leaves_.size())),
        batch_rows_(batch_rows),
        levels_(leaves_.size()),
        arrays_(leaves_.size()) {
    arrow::FieldVector fields;
    for (const Node& column : columns_) fields.push_back(column.field);
    schema_ = arrow::schema(std::move(fields), file_->manifest().schema_metadata);
  }

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    const auto& metadata = *file_->parquet_reader()->metadata();
    while (rows_left_ == 0) {
      if (next_group_ >= metadata.num_row_groups()) {
        *batch = nullptr;
        return arrow::Status::OK();
      }
      ARROW_RETURN_NOT_OK(OpenRowGroup(next_group_++));
    }
    const int64_t rows = std::min(batch_rows_, rows_left_);
    for (size_t i = 0; i < leaves_.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(arrays_[i], decoders_[i]->Read(rows, &levels_[i]));
    }
    arrow::ArrayDataVector columns;
    for (const Node& column : columns_) {
      ARROW_ASSIGN_OR_RAISE(auto array, Assemble(column, rows));
      columns.push_back(std::move(array));
    }
    rows_left_ -= rows;
    *batch = arrow::RecordBatch::Make(schema_, rows, std::move(columns));
    return arrow::Status::OK();
  }

 private:
  arrow::Status OpenRowGroup(int group) {
    try {
      auto row_group = file_->parquet_reader()->RowGroup(group);
      const parquet::SchemaDescriptor& schema = *row_group->metadata()->schema();
      decoders_.clear();
      for (size_t i = 0; i < leaves_.size(); ++i) {
        const parquet::ColumnDescriptor& column = *schema.Column(leaves_[i]);
        decoders_.push_back(std::make_unique<ParquetColumnDecoder>(
            row_group->GetColumnPageReader(leaves_[i]), column, leaf_types_[i],
            column.path()->ToDotString(), BatchMemoryPool()));
      }
      rows_left_ = row_group->metadata()->num_rows();
    } catch (const parquet::ParquetException& e) {
      return arrow::Status::IOError("Parquet row group ", group, ": ", e.what());
    }
    return arrow::Status::OK();
  }

  /// The array of `node` from the decoded leaves: a struct is null where the levels of its
  /// first leaf fall below its own.
  arrow::Result<std::shared_ptr<arrow::ArrayData>> Assemble(const Node& node, int64_t rows) {
    if (node.leaf >= 0) return arrays_[static_cast<size_t>(node.leaf)];
    arrow::ArrayDataVector children;
    for (const Node& child : node.children) {
      ARROW_ASSIGN_OR_RAISE(auto array, Assemble(child, rows));
      children.push_back(std::move(array));
    }
    std::shared_ptr<arrow::Buffer> validity;
    int64_t nulls = 0;
    const std::vector<int16_t>& levels = levels_[static_cast<size_t>(node.first_leaf)];
    if (node.field->nullable() && !levels.empty()) {
      ARROW_ASSIGN_OR_RAISE(validity, arrow::AllocateBitmap(rows, BatchMemoryPool()));
      const int16_t* level = levels.data();
      for (int64_t i = 0; i < rows; ++i) nulls += level[i] < node.defined_level;
      if (nulls == 0) {
        validity = nullptr;
      } else {
        arrow::internal::GenerateBitsUnrolled(validity->mutable_data(), 0, rows,
                                              [&] { return *level++ >= node.defined_level; });
      }
    }
    return arrow::ArrayData::Make(node.field->type(), rows, {std::move(validity)},
                                  std::move(children), nulls);
  }

  std::unique_ptr<parquet::arrow::FileReader> file_;
  const std::vector<Node> columns_;
  const std::vector<int> leaves_;
  const std::vector<std::shared_ptr<arrow::DataType>> leaf_types_;
  const int64_t batch_rows_;
  std::shared_ptr<arrow::Schema> schema_;
  int next_group_ = 0;
  int64_t rows_left_ = 0;
  std::vector<std::unique_ptr<ParquetColumnDecoder>> decoders_;
  std::vector<std::vector<int16_t>> levels_;
  arrow::ArrayDataVector arrays_;
};

}  // namespace

bool DecodesLeaves(const parquet::arrow::FileReader& file, const std::vector<int>& leaves) {
  std::vector<Node> columns;
  std::vector<int> order;
  if (!BuildColumns(file, leaves, &columns, &order)) return false;
  const auto types = LeafTypes(columns, order.size());
  const parquet::FileMetaData& metadata = *file.parquet_reader()->metadata();
  for (int group = 0; group < metadata.num_row_groups(); ++group) {
    auto row_group = metadata.RowGroup(group);
    for (size_t i = 0; i < order.size(); ++i) {
      if (!ParquetColumnDecoder::Decodes(*metadata.schema()->Column(order[i]), *types[i],
                                         *row_group->ColumnChunk(order[i]))) {
        return false;
      }
    }
  }
  return true;
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> DecodeRowGroups(
    std::unique_ptr<parquet::arrow::FileReader> file, const std::vector<int>& leaves,
    int64_t batch_rows) {
  std::vector<Node> columns;
  std::vector<int> order;
  if (!BuildColumns(*file, leaves, &columns, &order)) {
    return arrow::Status::Invalid("a Parquet column asked for lies in a list or map");
  }
  return std::make_shared<RowGroupDecoder>(std::move(file), std::move(columns), std::move(order),
                                           batch_rows);
}

}  // namespace sluice::formats
