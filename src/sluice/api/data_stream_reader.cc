// DataStreamReader: the API edge of the streaming sources.
#include "sluice/api/data_stream_reader.h"

#include "sluice/api/session_state.h"
#include "sluice/common/errors.h"
#include "sluice/execution/streaming_settings.h"
#include "sluice/plan/relation.h"
#include "sluice/sources/source_registry.h"
#include "sluice/types/ddl_parser.h"

namespace sluice {

DataStreamReader::DataStreamReader(std::shared_ptr<SessionState> state)
    : state_(std::move(state)) {}

DataStreamReader& DataStreamReader::format(const std::string& source) {
  format_ = source;
  return *this;
}

DataStreamReader& DataStreamReader::schema(const std::string& ddl) {
  auto parsed = types::ParseSchema(ddl);
  schema_error_ = parsed.status();
  schema_ = parsed.ok() ? *parsed : nullptr;
  return *this;
}

DataStreamReader& DataStreamReader::schema(std::shared_ptr<arrow::Schema> schema) {
  schema_ = std::move(schema);
  schema_error_ = arrow::Status::OK();
  return *this;
}

DataStreamReader& DataStreamReader::option(const std::string& key, const std::string& value) {
  options_.erase(key);
  options_.emplace(key, value);
  return *this;
}

DataStreamReader& DataStreamReader::option(const std::string& key, const char* value) {
  return option(key, std::string(value));
}

DataStreamReader& DataStreamReader::option(const std::string& key, bool value) {
  return option(key, std::string(value ? "true" : "false"));
}

DataStreamReader& DataStreamReader::option(const std::string& key, int64_t value) {
  return option(key, std::to_string(value));
}

DataStreamReader& DataStreamReader::options(const std::map<std::string, std::string>& options) {
  for (const auto& [key, value] : options) option(key, value);
  return *this;
}

DataFrame DataStreamReader::load() const { return load(std::string()); }

DataFrame DataStreamReader::load(const std::string& path) const {
  if (!schema_error_.ok()) return DataFrame(state_, schema_error_);
  auto settings = execution::StreamingSettings::FromConfig(state_->config);
  if (!settings.ok()) return DataFrame(state_, settings.status());
  sources::SourceRequest request;
  request.format = format_;
  request.options = options_;
  request.path = path;
  request.schema = schema_;
  request.format_context.session_time_zone = state_->config.session_time_zone();
  request.format_context.case_sensitive = state_->config.case_sensitive();
  request.schema_inference = settings->schema_inference;
  auto provider = sources::MakeStreamSourceProvider(request);
  if (!provider.ok()) return DataFrame(state_, provider.status());
  return load(*provider);
}

DataFrame DataStreamReader::load(
    std::shared_ptr<const sources::StreamSourceProvider> source) const {
  return DataFrame(state_, plan::Relation::Make(std::move(source), state_->analysis_context()));
}

DataFrame DataStreamReader::json(const std::string& path) { return format("json").load(path); }
DataFrame DataStreamReader::csv(const std::string& path) { return format("csv").load(path); }
DataFrame DataStreamReader::parquet(const std::string& path) {
  return format("parquet").load(path);
}
DataFrame DataStreamReader::orc(const std::string& path) { return format("orc").load(path); }
DataFrame DataStreamReader::text(const std::string& path) { return format("text").load(path); }

}  // namespace sluice
