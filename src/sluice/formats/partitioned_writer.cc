#include "sluice/formats/partitioned_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <cctype>
#include <filesystem>
#include <random>
#include <unordered_map>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/compute/api_vector.h>
#include <arrow/util/io_util.h>

#include "sluice/checkpoint/durable_io.h"
#include "sluice/common/errors.h"
#include "sluice/formats/format_options.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/types/interval_types.h"
#include "sluice/types/spark_type_names.h"

namespace sluice::formats {

namespace fs = std::filesystem;

struct PartitionedWriter::OpenFile {
  WrittenFile written;    // its relative path is the final path
  std::string temporary;  // absolute hidden path while writing
  std::unique_ptr<FormatFileWriter> writer;
};

std::string RandomUuid() {
  std::random_device device;
  std::mt19937_64 generator((static_cast<uint64_t>(device()) << 32) ^ device());
  uint64_t high = generator(), low = generator();
  high = (high & 0xFFFFFFFFFFFF0FFFULL) | 0x0000000000004000ULL;
  low = (low & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;
  char text[37];
  std::snprintf(text, sizeof(text), "%08x-%04x-%04x-%04x-%012llx",
                static_cast<unsigned>(high >> 32), static_cast<unsigned>(high >> 16 & 0xFFFF),
                static_cast<unsigned>(high & 0xFFFF), static_cast<unsigned>(low >> 48),
                static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFULL));
  return text;
}

namespace {

bool HoldsInterval(const arrow::DataType& type) {
  if (types::IsDayTimeInterval(type) || types::IsYearMonthInterval(type)) return true;
  for (const auto& field : type.fields()) {
    if (HoldsInterval(*field->type())) return true;
  }
  return false;
}

// Files do not hold Spark's intervals: they would be read back as plain numbers, so an
// interval column is refused (cast it to a string to keep its text).
arrow::Status CheckNoIntervals(const arrow::Schema& schema, FileFormat format) {
  for (const auto& field : schema.fields()) {
    if (HoldsInterval(*field->type())) {
      return SparkError("UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
                        "The " + std::string(FileFormatDisplayName(format)) +
                            " datasource doesn't support the column " +
                            QuoteIdentifier(field->name()) + " of the type \"" +
                            types::SqlString(*field->type()) + "\".");
    }
  }
  return arrow::Status::OK();
}

/// `status` of writing the part file `path`, naming the file and the system's reason (e.g. "No
/// space left on device"): the format writers say only "Error writing bytes to file".
arrow::Status NamingFile(const arrow::Status& status, const std::string& path) {
  if (status.ok()) return status;
  int error = arrow::internal::ErrnoFromStatus(status);
  return status.WithMessage("Cannot write ", path, ": ", status.message(),
                            error != 0 ? std::string(": ") + std::strerror(error) : "");
}

}  // namespace

arrow::Status SyncPartFiles(const std::string& output_folder,
                            const std::vector<std::string>& relative_paths) {
  // Each file, then each folder that got a new entry, from the files' folders up to the
  // output folder (which got the first partition folders), once each.
  std::set<fs::path> entries;
  for (const auto& relative : relative_paths) {
    fs::path path = fs::path(output_folder) / relative;
    ARROW_RETURN_NOT_OK(checkpoint::SyncFile(path.string()));
    for (fs::path entry = fs::path(relative); !entry.empty(); entry = entry.parent_path()) {
      if (!entries.insert(fs::path(output_folder) / entry).second) break;
    }
  }
  for (const auto& entry : entries) {
    ARROW_RETURN_NOT_OK(checkpoint::SyncFolderOf(entry.string()));
  }
  return arrow::Status::OK();
}

void DeleteUncommittedFiles(const std::string& output_folder,
                            const std::vector<std::string>& relative_paths) {
  for (const auto& relative : relative_paths) {
    std::error_code ignored;
    fs::remove(fs::path(output_folder) / relative, ignored);
  }
}

std::vector<std::string> RelativePaths(const std::vector<WrittenFile>& files) {
  std::vector<std::string> paths;
  paths.reserve(files.size());
  for (const auto& file : files) paths.push_back(file.relative);
  return paths;
}

PartitionedWriter::~PartitionedWriter() {
  // Files never finished are removed, so no half-written file stays behind.
  for (auto& [folder, file] : files_) {
    std::error_code error;
    fs::remove(file->temporary, error);
  }
}

arrow::Result<std::unique_ptr<PartitionedWriter>> PartitionedWriter::Make(
    std::shared_ptr<const FormatWriter> writer, std::string directory,
    std::shared_ptr<arrow::Schema> schema, const std::vector<std::string>& partition_columns,
    std::shared_ptr<const datetime::TimeZone> zone, std::string job_id,
    bool collect_statistics) {
  std::unique_ptr<PartitionedWriter> out(new PartitionedWriter());
  for (const auto& name : partition_columns) {
    int found = -1;
    for (int i = 0; i < schema->num_fields(); ++i) {
      std::string a = schema->field(i)->name(), b = name;
      std::transform(a.begin(), a.end(), a.begin(), ::tolower);
      std::transform(b.begin(), b.end(), b.begin(), ::tolower);
      if (a == b) found = i;
    }
    if (found < 0) {
      std::string columns;
      for (const auto& field : schema->fields()) {
        columns += (columns.empty() ? "" : ", ") + QuoteIdentifier(field->name());
      }
      return SparkError("COLUMN_NOT_FOUND",
                        "The column " + QuoteIdentifier(name) +
                            " cannot be found. Verify the spelling and correctness of the column "
                            "name according to the SQL config \"spark.sql.caseSensitive\". "
                            "Partition columns must be among [" + columns + "].");
    }
    if (std::find(out->partition_indices_.begin(), out->partition_indices_.end(), found) !=
        out->partition_indices_.end()) {
      return SparkError("COLUMN_ALREADY_EXISTS",
                        "The column " + QuoteIdentifier(name) +
                            " already exists. Choose another name or rename the existing column.");
    }
    const auto& type = schema->field(found)->type();
    if (type->id() == arrow::Type::LIST || type->id() == arrow::Type::MAP ||
        type->id() == arrow::Type::STRUCT) {
      return SparkError("INVALID_PARTITION_COLUMN_DATA_TYPE",
                        "Cannot use " + type->ToString() + " for partition column " +
                            QuoteIdentifier(schema->field(found)->name()) + ".");
    }
    out->partition_indices_.push_back(found);
    out->partition_names_.push_back(schema->field(found)->name());
  }
  if (!partition_columns.empty() &&
      static_cast<int>(out->partition_indices_.size()) == schema->num_fields()) {
    return SparkError("ALL_PARTITION_COLUMNS_NOT_ALLOWED",
                      "Cannot use all columns for partition columns.");
  }
  arrow::FieldVector data_fields;
  for (int i = 0; i < schema->num_fields(); ++i) {
    if (std::find(out->partition_indices_.begin(), out->partition_indices_.end(), i) ==
        out->partition_indices_.end()) {
      out->data_indices_.push_back(i);
      data_fields.push_back(schema->field(i));
    }
  }
  out->data_schema_ = arrow::schema(data_fields);
  ARROW_RETURN_NOT_OK(CheckNoIntervals(*schema, writer->format()));
  ARROW_RETURN_NOT_OK(writer->CheckSchema(*out->data_schema_));
  ARROW_ASSIGN_OR_RAISE(auto text, ValueText::MakeCastStyle(std::move(zone)));
  out->text_ = std::make_unique<ValueText>(std::move(text));
  out->writer_ = std::move(writer);
  out->directory_ = std::move(directory);
  out->job_id_ = std::move(job_id);
  out->collect_statistics_ = collect_statistics;
  return out;
}

arrow::Result<PartitionedWriter::OpenFile*> PartitionedWriter::FileFor(
    const std::string& folder, const std::vector<std::optional<std::string>>& values) {
  auto found = files_.find(folder);
  if (found != files_.end()) return found->second.get();
  auto file = std::make_unique<OpenFile>();
  std::string name = "part-00000-" + job_id_ + (partition_indices_.empty() ? "-" : ".") + "c000" +
                     writer_->FileSuffix();
  file->written.relative = folder.empty() ? name : folder + "/" + name;
  file->written.partition_values = values;
  if (collect_statistics_) {
    for (const auto& field : data_schema_->fields()) {
      file->written.statistics.emplace_back(field->type());
    }
  }
  fs::path target_folder = fs::path(directory_) / folder;
  std::error_code error;
  fs::create_directories(target_folder, error);
  if (error) {
    return arrow::Status::IOError("Cannot create ", QualifiedPath(target_folder.string()), ": ",
                                  error.message());
  }
  file->temporary = (target_folder / ("." + name + ".inprogress")).string();
  auto opened = writer_->Open(file->temporary, data_schema_);
  ARROW_RETURN_NOT_OK(NamingFile(opened.status(), file->temporary));
  file->writer = std::move(*opened);
  OpenFile* raw = file.get();
  files_.emplace(folder, std::move(file));
  return raw;
}

arrow::Status PartitionedWriter::WriteTo(OpenFile* file, const arrow::RecordBatch& data) {
  file->written.rows += data.num_rows();
  for (size_t c = 0; c < file->written.statistics.size(); ++c) {
    ARROW_RETURN_NOT_OK(file->written.statistics[c].Update(*data.column(static_cast<int>(c))));
  }
  return NamingFile(file->writer->Write(data), file->temporary);
}

arrow::Status PartitionedWriter::Write(const std::shared_ptr<arrow::RecordBatch>& batch) {
  arrow::ArrayVector data_columns;
  for (int index : data_indices_) data_columns.push_back(batch->column(index));
  auto data = arrow::RecordBatch::Make(data_schema_, batch->num_rows(), data_columns);
  if (partition_indices_.empty()) {
    ARROW_ASSIGN_OR_RAISE(OpenFile * file, FileFor("", {}));
    return WriteTo(file, *data);
  }
  // Group rows by their partition folder, in order of first appearance.
  std::vector<std::string> folders;
  std::vector<std::vector<std::optional<std::string>>> folder_values;
  std::unordered_map<std::string, size_t> folder_index;
  std::vector<std::vector<int64_t>> rows;
  std::string folder, value;
  for (int64_t row = 0; row < batch->num_rows(); ++row) {
    folder.clear();
    for (size_t p = 0; p < partition_indices_.size(); ++p) {
      const arrow::Array& column = *batch->column(partition_indices_[p]);
      if (p > 0) folder.push_back('/');
      folder.append(EscapePathName(partition_names_[p]));
      folder.push_back('=');
      value.clear();
      if (!column.IsNull(row)) text_->Append(column, row, &value);
      folder.append(value.empty() ? std::string(kDefaultPartitionName) : EscapePathName(value));
    }
    auto [it, inserted] = folder_index.emplace(folder, folders.size());
    if (inserted) {
      folders.push_back(folder);
      rows.emplace_back();
      // The folder's values, kept as text for table formats that record them.
      std::vector<std::optional<std::string>> values;
      for (int index : partition_indices_) {
        const arrow::Array& column = *batch->column(index);
        value.clear();
        if (!column.IsNull(row)) text_->Append(column, row, &value);
        values.push_back(value.empty() ? std::nullopt : std::optional<std::string>(value));
      }
      folder_values.push_back(std::move(values));
    }
    rows[it->second].push_back(row);
  }
  for (size_t g = 0; g < folders.size(); ++g) {
    arrow::Int64Builder indices;
    ARROW_RETURN_NOT_OK(indices.AppendValues(rows[g]));
    ARROW_ASSIGN_OR_RAISE(auto index_array, indices.Finish());
    ARROW_ASSIGN_OR_RAISE(auto taken, arrow::compute::Take(data, index_array));
    ARROW_ASSIGN_OR_RAISE(OpenFile * file, FileFor(folders[g], folder_values[g]));
    ARROW_RETURN_NOT_OK(WriteTo(file, *taken.record_batch()));
  }
  return arrow::Status::OK();
}

arrow::Result<std::vector<WrittenFile>> PartitionedWriter::Finish() {
  if (files_.empty() && partition_indices_.empty()) {
    ARROW_RETURN_NOT_OK(FileFor("", {}).status());
  }
  std::vector<WrittenFile> written;
  for (auto& [folder, file] : files_) {
    ARROW_RETURN_NOT_OK(NamingFile(file->writer->Close(), file->temporary));
    if (collect_statistics_) file->writer->RecordedBounds(&file->written.statistics);
    fs::path final_path = fs::path(directory_) / file->written.relative;
    ARROW_RETURN_NOT_OK(checkpoint::RenameFile(file->temporary, final_path.string()));
    file->temporary.clear();
    written.push_back(std::move(file->written));
  }
  files_.clear();
  std::sort(written.begin(), written.end(),
            [](const WrittenFile& a, const WrittenFile& b) { return a.relative < b.relative; });
  return written;
}

}  // namespace sluice::formats
