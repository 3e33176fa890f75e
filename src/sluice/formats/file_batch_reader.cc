#include "sluice/formats/file_batch_reader.h"

#include <chrono>
#include <filesystem>

#include <arrow/array/util.h>
#include <arrow/io/interfaces.h>
#include <arrow/scalar.h>
#include <arrow/util/thread_pool.h>

#include "sluice/common/errors.h"
#include "sluice/checkpoint/file_uri.h"

namespace sluice::formats {

arrow::Status FileNotExistError(const std::string& local_path) {
  return SparkError("FAILED_READ_FILE.FILE_NOT_EXIST",
                    "Encountered error while reading file " + checkpoint::FileUri(local_path) +
                        ". File does not exist. It is possible the underlying files have been "
                        "updated.\nYou can explicitly invalidate the cache in Spark by running "
                        "'REFRESH TABLE tableName' command in SQL or by recreating the "
                        "Dataset/DataFrame involved.");
}

bool FileBatchReader::SkipCorrupt(const arrow::Status& failure, const std::string& path) const {
  if (!scan_.ignore_corrupt_files || failure.IsOutOfMemory()) return false;
  // FAILFAST's malformed records fail the scan whatever the setting, as in Spark.
  auto error_class = ErrorClassOf(failure);
  if (error_class && error_class->starts_with("MALFORMED_RECORD_IN_PARSING")) return false;
  WarnSkippedCorruptFile(path, failure);
  return true;
}

FileDecode::FileDecode(std::shared_ptr<const FormatReader> reader, std::string local_path,
                       std::shared_ptr<arrow::Schema> schema,
                       arrow::internal::Executor* executor, ReadAheadLimit limit)
    : reader_(std::move(reader)),
      local_path_(std::move(local_path)),
      schema_(std::move(schema)),
      ahead_([this] { return Read(); }, executor, limit) {
  ahead_.Start();
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> FileDecode::Read() {
  if (opened_ == nullptr) {
    if (empty_) return nullptr;
    std::error_code error;
    if (!std::filesystem::exists(local_path_, error)) return FileNotExistError(local_path_);
    if (std::filesystem::file_size(local_path_, error) == 0 && !error) {
      empty_ = true;
      return nullptr;
    }
    ARROW_ASSIGN_OR_RAISE(opened_, reader_->OpenFile(local_path_, schema_));
  }
  auto next = opened_->Next();
  // A page that does not decode (a file damaged past its footer) names the file, as Spark
  // does; errors of Spark's own classes (FAILFAST's malformed records) stay as they are.
  if (!next.ok() && !next.status().IsOutOfMemory() && !ErrorClassOf(next.status())) {
    return FailedReadError(local_path_, next.status());
  }
  return next;
}

namespace {

bool IsFileNotExist(const arrow::Status& status) {
  return ErrorClassOf(status) == "FAILED_READ_FILE.FILE_NOT_EXIST";
}

int64_t SteadyNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

arrow::internal::Executor* IoPool() { return arrow::io::default_io_context().executor(); }

}  // namespace

std::unique_ptr<FileDecode> FileBatchReader::DecodeAhead(const std::string& local_path) const {
  return std::make_unique<FileDecode>(reader_, local_path, DecodedSchema(), BackgroundPool(),
                                      ahead_limit_);
}

void FileBatchReader::TakeOver(std::unique_ptr<FileDecode>& decode) {
  if (decode == nullptr || next_ != nullptr || next_file_ != 0 || files_.empty() ||
      decode->local_path() != files_[0].local_path ||
      !decode->schema()->Equals(*DecodedSchema())) {
    return;
  }
  next_ = std::move(decode);
}

bool FileBatchReader::OpenNext() {
  if (next_file_ >= files_.size()) return false;
  // Its turn has come: the file decodes at the process's priority.
  const ReadAheadLimit limit = decode_ahead() ? ahead_limit_ : ReadAheadLimit{};
  if (next_ != nullptr) {
    current_ = std::move(next_);
    current_->Reschedule(IoPool(), limit);
  } else {
    current_ = std::make_unique<FileDecode>(reader_, files_[next_file_].local_path,
                                            DecodedSchema(), IoPool(), limit);
  }
  current_file_ = &files_[next_file_++];
  if (decode_ahead() && next_file_ < files_.size()) {
    next_ = DecodeAhead(files_[next_file_].local_path);
  }
  return true;
}

void FileBatchReader::CountReadTime() {
  load_->read_nanos.store(SteadyNanos() - first_read_nanos_, std::memory_order_relaxed);
}

void FileBatchReader::EndFile() {
  load_->decode_cpu_nanos.fetch_add(current_->cpu_nanos(), std::memory_order_relaxed);
  CountReadTime();
  // Destroyed on the I/O pool: unmapping a Parquet file of 100 MB took 2-3 ms, 5% of q14's
  // batch thread. A decode at its end has no read under way, so that waits for nothing; a
  // pool that takes no more tasks drops this one, and the decode with it, here.
  ARROW_UNUSED(IoPool()->Spawn([decode = std::move(current_)]() mutable { decode.reset(); }));
  if (!decode_ahead() && next_file_ < files_.size() && load_->DecodeBound()) {
    set_decode_ahead(true, AheadLimitFor(*load_));
  }
}

void FileBatchReader::ReadOnly(const arrow::Schema& read) {
  const auto format = reader_->format();
  if (format != FileFormat::kParquet && format != FileFormat::kOrc) return;
  arrow::FieldVector fields;
  std::vector<int> positions;
  bool pruned = false;
  for (const auto& field : data_schema_->fields()) {
    const auto wanted = read.GetFieldByName(field->name());
    if (wanted == nullptr) {
      positions.push_back(-1);
      pruned = true;
      continue;
    }
    // ORC files are read by whole columns.
    auto type = format == FileFormat::kParquet ? wanted->type() : field->type();
    pruned = pruned || !type->Equals(*field->type());
    positions.push_back(static_cast<int>(fields.size()));
    fields.push_back(field->WithType(std::move(type)));
  }
  if (!pruned) return;
  read_schema_ = arrow::schema(std::move(fields));
  read_positions_ = std::move(positions);
}

namespace {

/// `column`, read with some struct fields left out, as a column of `type`: the missing
/// fields null.
arrow::Result<std::shared_ptr<arrow::Array>> WithAllFields(
    const std::shared_ptr<arrow::Array>& column, const std::shared_ptr<arrow::DataType>& type,
    UnreadColumns& unread) {
  if (column->type()->Equals(*type) || type->id() != arrow::Type::STRUCT) return column;
  const auto& read_type = static_cast<const arrow::StructType&>(*column->type());
  const auto& data = *column->data();
  // The children keep the struct's offset: build them over offset + length rows.
  const int64_t rows = data.offset + data.length;
  std::vector<std::shared_ptr<arrow::ArrayData>> children;
  for (const auto& field : type->fields()) {
    const int index = read_type.GetFieldIndex(field->name());
    if (index < 0) {
      ARROW_ASSIGN_OR_RAISE(auto nulls, unread.Get(field->type(), rows));
      children.push_back(nulls->data());
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto child,
                          WithAllFields(arrow::MakeArray(data.child_data[static_cast<size_t>(
                                            index)]),
                                        field->type(), unread));
    children.push_back(child->data());
  }
  auto expanded = arrow::ArrayData::Make(type, data.length, {data.buffers[0]}, data.null_count,
                                         data.offset);
  expanded->child_data = std::move(children);
  return arrow::MakeArray(expanded);
}

}  // namespace

arrow::Status FileBatchReader::ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) {
  *batch = nullptr;
  if (first_read_nanos_ < 0) first_read_nanos_ = SteadyNanos();
  // The time read so far, whatever the return.
  struct ReadTimeCounter {
    FileBatchReader* reader;
    ~ReadTimeCounter() { reader->CountReadTime(); }
  } read_time_counter{this};
  while (true) {
    if (current_ == nullptr && !OpenNext()) return arrow::Status::OK();
    std::shared_ptr<arrow::RecordBatch> data;
    const int64_t asked = SteadyNanos();
    auto read = current_->Next();
    load_->wait_nanos.fetch_add(SteadyNanos() - asked, std::memory_order_relaxed);
    if (read.ok()) {
      data = std::move(read).ValueUnsafe();
    } else {
      // The rest of a corrupt file is skipped with a warning (ignoreCorruptFiles); a missing
      // one has no rows to skip (ignoreMissingFiles).
      const bool skipped = IsFileNotExist(read.status())
                               ? scan_.ignore_missing_files
                               : SkipCorrupt(read.status(), current_file_->local_path);
      if (!skipped) return read.status();
    }
    if (data == nullptr) {
      EndFile();
      continue;
    }
    if (data->num_rows() == 0 && data->num_columns() > 0) continue;
    arrow::ArrayVector columns;
    if (read_schema_ == nullptr) {
      columns = data->columns();
    } else {
      for (int c = 0; c < data_schema_->num_fields(); ++c) {
        const auto& type = data_schema_->field(c)->type();
        const int position = read_positions_[static_cast<size_t>(c)];
        if (position < 0) {
          ARROW_ASSIGN_OR_RAISE(auto nulls, unread_.Get(type, data->num_rows()));
          columns.push_back(std::move(nulls));
          continue;
        }
        ARROW_ASSIGN_OR_RAISE(auto column, WithAllFields(data->column(position), type, unread_));
        columns.push_back(std::move(column));
      }
    }
    for (const auto& value : current_file_->partition_values) {
      ARROW_ASSIGN_OR_RAISE(auto column, arrow::MakeArrayFromScalar(*value, data->num_rows()));
      columns.push_back(std::move(column));
    }
    *batch = arrow::RecordBatch::Make(schema_, data->num_rows(), std::move(columns));
    return arrow::Status::OK();
  }
}

}  // namespace sluice::formats
