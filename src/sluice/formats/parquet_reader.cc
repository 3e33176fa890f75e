#include "sluice/formats/parquet_reader.h"

#include <algorithm>

#include <arrow/io/file.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/exception.h>

#include "sluice/checkpoint/file_uri.h"
#include "sluice/common/errors.h"
#include "sluice/common/recycling_memory_pool.h"
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
/// higher).
arrow::Result<std::unique_ptr<parquet::arrow::FileReader>> OpenParquet(const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto input,
                        arrow::io::MemoryMappedFile::Open(path, arrow::io::FileMode::READ));
  parquet::arrow::FileReaderBuilder builder;
  auto result = [&]() -> arrow::Result<std::unique_ptr<parquet::arrow::FileReader>> {
    ARROW_RETURN_NOT_OK(builder.Open(input, parquet::ReaderProperties(BatchMemoryPool())));
    std::unique_ptr<parquet::arrow::FileReader> reader;
    ARROW_RETURN_NOT_OK(builder.memory_pool(BatchMemoryPool())->Build(&reader));
    return reader;
  }();
  if (!result.ok()) {
    return SparkError("FAILED_READ_FILE.NO_HINT",
                      "Encountered error while reading file " + checkpoint::FileUri(path) + ". " +
                          result.status().message());
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
    auto opened = OpenParquet(files[0]);
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
    ARROW_ASSIGN_OR_RAISE(auto reader, OpenParquet(path));
    reader->set_batch_size(context_.batch_rows);
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
    std::vector<int> row_groups(static_cast<size_t>(reader->num_row_groups()));
    for (size_t i = 0; i < row_groups.size(); ++i) row_groups[i] = static_cast<int>(i);
    std::shared_ptr<arrow::RecordBatchReader> batches;
    if (leaves.empty()) {
      // No column is read (count(*), or only partition columns): rows from the metadata.
      int64_t rows = reader->parquet_reader()->metadata()->num_rows();
      arrow::ArrayVector columns;
      for (const auto& field : data_schema->fields()) {
        ARROW_ASSIGN_OR_RAISE(auto nulls, arrow::MakeArrayOfNull(field->type(), rows));
        columns.push_back(nulls);
      }
      auto batch = arrow::RecordBatch::Make(data_schema, rows, columns);
      ARROW_ASSIGN_OR_RAISE(batches, arrow::RecordBatchReader::Make({batch}, data_schema));
      return batches;
    }
    ARROW_ASSIGN_OR_RAISE(auto owned, reader->GetRecordBatchReader(row_groups, leaves));
    batches = std::shared_ptr<arrow::RecordBatchReader>(std::move(owned));
    // The batch reader keeps using the file reader: keep it alive with the batches.
    return ConformToSchema(std::make_shared<OwningReader>(std::move(reader), std::move(batches)),
                           data_schema, context_.case_sensitive);
  }

 private:
  /// Keeps the parquet FileReader alive as long as its batch reader.
  class OwningReader final : public arrow::RecordBatchReader {
   public:
    OwningReader(std::unique_ptr<parquet::arrow::FileReader> file,
                 std::shared_ptr<arrow::RecordBatchReader> batches)
        : file_(std::move(file)), batches_(std::move(batches)) {}
    std::shared_ptr<arrow::Schema> schema() const override { return batches_->schema(); }
    arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
      return batches_->ReadNext(batch);
    }

   private:
    std::unique_ptr<parquet::arrow::FileReader> file_;
    std::shared_ptr<arrow::RecordBatchReader> batches_;
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
