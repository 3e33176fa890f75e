#include "sluice/formats/parquet_reader.h"

#include <algorithm>

#include <arrow/io/file.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/exception.h>

#include "sluice/common/errors.h"
#include "sluice/common/recycling_memory_pool.h"
#include "sluice/formats/parquet_dictionary_read.h"
#include "sluice/formats/parquet_row_group_decoder.h"
#include "sluice/types/spark_types.h"

namespace sluice::formats {

namespace {

/// The leaf columns of `field` that a value of `wanted` reads: all of them, or for a struct
/// wanted with fewer fields (a pruned read) those of the fields it names.
void CollectLeaves(const parquet::arrow::SchemaField& field, const arrow::DataType& wanted,
                   bool case_sensitive, std::vector<int>* leaves) {
  if (field.is_leaf()) {
    leaves->push_back(field.column_index);
    return;
  }
  const bool pruned = wanted.id() == arrow::Type::STRUCT &&
                      field.field->type()->id() == arrow::Type::STRUCT &&
                      wanted.num_fields() < field.field->type()->num_fields();
  for (const auto& child : field.children) {
    if (!pruned) {
      CollectLeaves(child, *child.field->type(), case_sensitive, leaves);
      continue;
    }
    for (const auto& wanted_child : wanted.fields()) {
      if (SameColumnName(child.field->name(), wanted_child->name(), case_sensitive)) {
        CollectLeaves(child, *wanted_child->type(), case_sensitive, leaves);
        break;
      }
    }
  }
}

/// The file is mapped rather than read: its column chunks are then slices of the page cache,
/// where reads would copy them into fresh memory that the allocator must first zero. Files
/// of a file source are never changed once they are visible (as in Spark). The pages are
/// decompressed into buffers of the batch pool too, which the next file's columns reuse
/// (Parquet's default pool left them to the allocator, and a scan's peak memory 10-20 MB
/// higher). With `dictionaries`, the string columns whose pages are all dictionary-encoded
/// are read as dictionary arrays, for ExpandDictionaries (parquet_dictionary_read.h).
arrow::Result<std::unique_ptr<parquet::arrow::FileReader>> OpenParquet(const std::string& path,
                                                                       bool dictionaries) {
  ARROW_ASSIGN_OR_RAISE(auto input,
                        arrow::io::MemoryMappedFile::Open(path, arrow::io::FileMode::READ));
  parquet::arrow::FileReaderBuilder builder;
  auto result = [&]() -> arrow::Result<std::unique_ptr<parquet::arrow::FileReader>> {
    ARROW_RETURN_NOT_OK(builder.Open(input, parquet::ReaderProperties(BatchMemoryPool())));
    parquet::ArrowReaderProperties properties;
    if (dictionaries) {
      for (int leaf : DictionaryEncodedStringLeaves(*builder.raw_reader()->metadata())) {
        properties.set_read_dictionary(leaf, true);
      }
    }
    std::unique_ptr<parquet::arrow::FileReader> reader;
    ARROW_RETURN_NOT_OK(
        builder.memory_pool(BatchMemoryPool())->properties(properties)->Build(&reader));
    return reader;
  }();
  if (!result.ok()) {
    return FailedReadError(path, result.status());
  }
  return std::move(result).ValueUnsafe();
}

class ParquetReader final : public FormatReader {
 public:
  ParquetReader(ParquetReadOptions options, FormatContext context)
      : options_(std::move(options)), context_(std::move(context)) {}

  FileFormat format() const override { return FileFormat::kParquet; }
  const FileSourceOptions& file_options() const override { return options_.files; }

  arrow::Result<std::shared_ptr<arrow::Schema>> InferSchema(
      const std::vector<std::string>& files) const override {
    if (files.empty()) {
      return SparkError("UNABLE_TO_INFER_SCHEMA",
                        "Unable to infer schema for Parquet. It must be specified manually.");
    }
    // Spark reads the footer of the first file only; with ignoreCorruptFiles a corrupt one
    // leaves no schema to infer.
    auto opened = OpenParquet(files[0], /*dictionaries=*/false);
    if (!opened.ok() && ScanOptionsOf(options_.files, context_).ignore_corrupt_files) {
      WarnSkippedCorruptFile(files[0], opened.status());
      return SparkError("UNABLE_TO_INFER_SCHEMA",
                        "Unable to infer schema for Parquet. It must be specified manually.");
    }
    ARROW_ASSIGN_OR_RAISE(auto reader, std::move(opened));
    std::shared_ptr<arrow::Schema> schema;
    ARROW_RETURN_NOT_OK(reader->GetSchema(&schema));
    ARROW_ASSIGN_OR_RAISE(auto spark, types::ToSparkArrowSchema(*schema));
    // Spark's inferred file columns are all nullable.
    arrow::FieldVector fields;
    for (const auto& field : spark->fields()) fields.push_back(field->WithNullable(true));
    return arrow::schema(fields);
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenFile(
      const std::string& path, const std::shared_ptr<arrow::Schema>& data_schema) const override {
    ARROW_ASSIGN_OR_RAISE(auto reader, OpenParquet(path, /*dictionaries=*/true));
    reader->set_batch_size(context_.parquet_batch_rows);
    std::shared_ptr<arrow::Schema> file_schema;
    ARROW_RETURN_NOT_OK(reader->GetSchema(&file_schema));
    const auto& manifest = reader->manifest();
    std::vector<int> leaves;
    for (const auto& wanted : data_schema->fields()) {
      for (int i = 0; i < file_schema->num_fields(); ++i) {
        if (SameColumnName(file_schema->field(i)->name(), wanted->name(), context_.case_sensitive)) {
          CollectLeaves(manifest.schema_fields[static_cast<size_t>(i)], *wanted->type(),
                        context_.case_sensitive, &leaves);
          break;
        }
      }
    }
    std::sort(leaves.begin(), leaves.end());
    if (leaves.empty()) {
      // No column is read (count(*), or only partition columns): rows from the metadata.
      int64_t rows = reader->parquet_reader()->metadata()->num_rows();
      arrow::ArrayVector columns;
      for (const auto& field : data_schema->fields()) {
        ARROW_ASSIGN_OR_RAISE(auto nulls, arrow::MakeArrayOfNull(field->type(), rows));
        columns.push_back(nulls);
      }
      auto batch = arrow::RecordBatch::Make(data_schema, rows, columns);
      return arrow::RecordBatchReader::Make({batch}, data_schema);
    }
    if (DecodesLeaves(*reader, leaves)) {
      ARROW_ASSIGN_OR_RAISE(auto decoded, DecodeRowGroups(std::move(reader), leaves,
                                                          context_.parquet_batch_rows));
      return ConformToSchema(std::move(decoded), data_schema, context_.case_sensitive);
    }
    ARROW_ASSIGN_OR_RAISE(auto row_groups, RowGroupReader::Make(std::move(reader), leaves));
    return ConformToSchema(std::move(row_groups), data_schema, context_.case_sensitive);
  }

 private:
  /// The batches of a file's row groups in turn, none spanning two (as Spark's vectorized
  /// reader reads them): a column read as a dictionary has one dictionary per row group, and
  /// Arrow cannot put two in one batch of a struct. The columns read as dictionaries come out
  /// expanded.
  class RowGroupReader final : public arrow::RecordBatchReader {
   public:
    static arrow::Result<std::shared_ptr<RowGroupReader>> Make(
        std::unique_ptr<parquet::arrow::FileReader> file, std::vector<int> leaves) {
      auto reader = std::make_shared<RowGroupReader>(std::move(file), std::move(leaves));
      // The first row group's reader (or one of none) gives the schema of them all.
      ARROW_RETURN_NOT_OK(reader->OpenRowGroup());
      arrow::FieldVector fields;
      for (const auto& field : reader->batches_->schema()->fields()) {
        fields.push_back(field->WithType(WithoutDictionaries(field->type())));
      }
      reader->schema_ = arrow::schema(std::move(fields), reader->batches_->schema()->metadata());
      reader->dictionaries_ = !reader->schema_->Equals(*reader->batches_->schema());
      return reader;
    }
    RowGroupReader(std::unique_ptr<parquet::arrow::FileReader> file, std::vector<int> leaves)
        : file_(std::move(file)), leaves_(std::move(leaves)) {}

    std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
    arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
      while (true) {
        if (batches_ == nullptr) {
          if (next_group_ >= file_->num_row_groups()) {
            *batch = nullptr;
            return arrow::Status::OK();
          }
          ARROW_RETURN_NOT_OK(OpenRowGroup());
        }
        ARROW_RETURN_NOT_OK(batches_->ReadNext(batch));
        if (*batch != nullptr) break;
        batches_ = nullptr;
      }
      if (dictionaries_) {
        ARROW_ASSIGN_OR_RAISE(*batch, ExpandDictionaries(**batch, schema_, BatchMemoryPool()));
      }
      return arrow::Status::OK();
    }

   private:
    /// The reader of the next row group (of none when the file has none).
    arrow::Status OpenRowGroup() {
      std::vector<int> groups;
      if (next_group_ < file_->num_row_groups()) groups.push_back(next_group_++);
      ARROW_ASSIGN_OR_RAISE(batches_, file_->GetRecordBatchReader(groups, leaves_));
      return arrow::Status::OK();
    }

    std::unique_ptr<parquet::arrow::FileReader> file_;  // used by batches_
    const std::vector<int> leaves_;
    int next_group_ = 0;
    std::unique_ptr<arrow::RecordBatchReader> batches_;
    std::shared_ptr<arrow::Schema> schema_;
    bool dictionaries_ = false;
  };

  ParquetReadOptions options_;
  FormatContext context_;
};

}  // namespace

arrow::Result<std::shared_ptr<const FormatReader>> MakeParquetReader(const OptionMap& options,
                                                                     const FormatContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseParquetReadOptions(options));
  return std::make_shared<ParquetReader>(std::move(parsed), context);
}

}  // namespace sluice::formats
