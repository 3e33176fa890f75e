#include "sluice/api/data_source_settings.h"

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/types/ddl_parser.h"

namespace sluice {

namespace {

std::string DoubleOptionText(double value) {
  std::string text = std::to_string(value);
  while (text.size() > 1 && text.back() == '0' && text[text.size() - 2] != '.') text.pop_back();
  return text;
}

}  // namespace

formats::FormatContext FormatContextOf(const SessionConfig& config) {
  formats::FormatContext context;
  context.session_time_zone = config.session_time_zone();
  context.case_sensitive = config.case_sensitive();
  context.ignore_missing_files = config.ignore_missing_files();
  context.ignore_corrupt_files = config.ignore_corrupt_files();
  return context;
}

template <typename Builder>
Builder& DataSourceSettings<Builder>::format(const std::string& source) {
  format_ = source;
  return self();
}

template <typename Builder>
Builder& DataSourceSettings<Builder>::option(const std::string& key, const std::string& value) {
  // Erase first: the map compares keys case-insensitively, and the last spelling is kept.
  options_.erase(key);
  options_.emplace(key, value);
  return self();
}

template <typename Builder>
Builder& DataSourceSettings<Builder>::option(const std::string& key, const char* value) {
  return option(key, std::string(value));
}

template <typename Builder>
Builder& DataSourceSettings<Builder>::option(const std::string& key, bool value) {
  return option(key, std::string(value ? "true" : "false"));
}

template <typename Builder>
Builder& DataSourceSettings<Builder>::option(const std::string& key, int64_t value) {
  return option(key, std::to_string(value));
}

template <typename Builder>
Builder& DataSourceSettings<Builder>::option(const std::string& key, double value) {
  return option(key, DoubleOptionText(value));
}

template <typename Builder>
Builder& DataSourceSettings<Builder>::options(const std::map<std::string, std::string>& options) {
  for (const auto& [key, value] : options) option(key, value);
  return self();
}

template <typename Reader>
Reader& ReaderSettings<Reader>::schema(const std::string& ddl) {
  auto parsed = types::ParseSchema(ddl);
  schema_error_ = parsed.status();
  schema_ = parsed.ok() ? *parsed : nullptr;
  return this->self();
}

template <typename Reader>
Reader& ReaderSettings<Reader>::schema(std::shared_ptr<arrow::Schema> schema) {
  schema_ = std::move(schema);
  schema_error_ = arrow::Status::OK();
  return this->self();
}

template <typename Reader>
DataFrame ReaderSettings<Reader>::json(const std::string& path) {
  return this->format("json").load(path);
}
template <typename Reader>
DataFrame ReaderSettings<Reader>::csv(const std::string& path) {
  return this->format("csv").load(path);
}
template <typename Reader>
DataFrame ReaderSettings<Reader>::parquet(const std::string& path) {
  return this->format("parquet").load(path);
}
template <typename Reader>
DataFrame ReaderSettings<Reader>::orc(const std::string& path) {
  return this->format("orc").load(path);
}
template <typename Reader>
DataFrame ReaderSettings<Reader>::text(const std::string& path) {
  return this->format("text").load(path);
}

template <typename Writer>
Writer& WriterSettings<Writer>::partitionBy(const std::vector<std::string>& columns) {
  partition_by_ = columns;
  return this->self();
}

// The four builders; a new one adds its line here.
template class DataSourceSettings<DataFrameReader>;
template class DataSourceSettings<DataStreamReader>;
template class DataSourceSettings<DataFrameWriter>;
template class DataSourceSettings<DataStreamWriter>;
template class ReaderSettings<DataFrameReader>;
template class ReaderSettings<DataStreamReader>;
template class WriterSettings<DataFrameWriter>;
template class WriterSettings<DataStreamWriter>;

}  // namespace sluice
