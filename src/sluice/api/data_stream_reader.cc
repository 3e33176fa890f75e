// DataStreamReader: the API edge of the streaming sources.
#include "sluice/api/data_stream_reader.h"

#include "sluice/api/session_state.h"
#include "sluice/api/table_identifier.h"
#include "sluice/common/errors.h"
#include "sluice/execution/streaming_settings.h"
#include "sluice/plan/relation.h"
#include "sluice/sources/source_registry.h"

namespace sluice {

DataStreamReader::DataStreamReader(std::shared_ptr<SessionState> state)
    : state_(std::move(state)) {}

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
  request.format_context = FormatContextOf(state_->config);
  request.schema_inference = settings->schema_inference;
  auto provider = sources::MakeStreamSourceProvider(request);
  if (!provider.ok()) return DataFrame(state_, provider.status());
  return load(*provider);
}

DataFrame DataStreamReader::table(const std::string& name) const {
  auto named = ResolveTable(*state_, name);
  if (!named.ok()) return DataFrame(state_, named.status());
  if (!named->exists) return DataFrame(state_, TableNotFound(name));
  DataStreamReader delta = *this;
  delta.format("delta");
  return delta.load(named->path);
}

DataFrame DataStreamReader::load(
    std::shared_ptr<const sources::StreamSourceProvider> source) const {
  return DataFrame(state_, plan::Relation::Make(std::move(source), state_->analysis_context()));
}

}  // namespace sluice
