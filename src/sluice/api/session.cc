#include "sluice/api/session.h"

#include <mutex>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/compute/initialize.h>
#include <arrow/table.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/session_state.h"
#include "sluice/common/errors.h"
#include "sluice/execution/console_progress_bar.h"
#include "sluice/execution/streaming_query.h"
#include "sluice/plan/relation.h"
#include "sluice/server/web_ui.h"
#include "sluice/server/web_ui_settings.h"
#include "sluice/types/spark_type_names.h"

namespace sluice {

namespace {

// Arrow registers its compute kernels once per process, before any query runs.
arrow::Status InitializeArrowOnce() {
  static std::once_flag once;
  static arrow::Status status;
  std::call_once(once, [] { status = arrow::compute::Initialize(); });
  return status;
}

}  // namespace

arrow::Status RuntimeConfig::set(const std::string& key, const std::string& value) {
  if (server::IsStaticWebUiSetting(key)) {
    return SparkError("CANNOT_MODIFY_CONFIG",
                      "Cannot modify the value of the Spark config: \"" + key +
                          "\". The web UI reads it once, when the session is built: set it "
                          "with SparkSession.builder.config.");
  }
  return state_->config.Set(key, value);
}

std::optional<std::string> RuntimeConfig::get(const std::string& key) const {
  return state_->config.Get(key);
}

void RuntimeConfig::unset(const std::string& key) { state_->config.Unset(key); }

SparkSession::Builder& SparkSession::Builder::appName(const std::string& name) {
  app_name_ = name;
  return *this;
}

SparkSession::Builder& SparkSession::Builder::master(const std::string&) { return *this; }

SparkSession::Builder& SparkSession::Builder::config(const std::string& key,
                                                     const std::string& value) {
  settings_[key] = value;
  return *this;
}

arrow::Result<std::shared_ptr<SparkSession>> SparkSession::Builder::getOrCreate() {
  ARROW_RETURN_NOT_OK(InitializeArrowOnce());
  auto session = std::make_shared<SparkSession>(app_name_);
  for (const auto& [key, value] : settings_) {
    ARROW_RETURN_NOT_OK(session->state_->config.Set(key, value));
  }
  ARROW_ASSIGN_OR_RAISE(auto ui_settings, server::WebUiSettings::FromConfig(session->state_->config));
  if (ui_settings.enabled) {
    ARROW_ASSIGN_OR_RAISE(session->state_->web_ui,
                          server::WebUi::Start(ui_settings, session->state_->streams));
  }
  if (ui_settings.show_console_progress) {
    if (auto bar = execution::ConsoleProgressBar::ForStandardError()) {
      session->state_->streams->addListener(std::move(bar));
    }
  }
  return session;
}

SparkSession::SparkSession(std::string app_name)
    : app_name_(std::move(app_name)), state_(std::make_shared<SessionState>()) {}

DataFrame SparkSession::createDataFrame(std::shared_ptr<arrow::Table> table) const {
  for (const auto& field : table->schema()->fields()) {
    auto normalized = types::ToSparkArrowType(field->type());
    if (!normalized.ok()) return DataFrame(state_, normalized.status());
    if (!(*normalized)->Equals(*field->type())) {
      return DataFrame(state_,
                       SparkError("UNSUPPORTED_DATATYPE",
                                  "The column " + QuoteIdentifier(field->name()) +
                                      " has the Arrow type " + field->type()->ToString() +
                                      "; cast it to " + (*normalized)->ToString() +
                                      " before creating the DataFrame."));
    }
  }
  auto source = std::make_shared<plan::InMemorySource>(std::move(table));
  return DataFrame(state_, plan::Relation::Make(std::move(source), state_->analysis_context()));
}

DataFrame SparkSession::range(int64_t start, int64_t end, int64_t step) const {
  if (step == 0) {
    return DataFrame(state_, SparkError("INVALID_PARAMETER_VALUE.RANGE_STEP",
                                        "The value of parameter `step` in `range` is invalid: "
                                        "it must not be 0."));
  }
  arrow::Int64Builder builder;
  for (int64_t value = start; step > 0 ? value < end : value > end; value += step) {
    auto status = builder.Append(value);
    if (!status.ok()) return DataFrame(state_, status);
  }
  auto array = builder.Finish();
  if (!array.ok()) return DataFrame(state_, array.status());
  auto schema = arrow::schema({arrow::field("id", arrow::int64(), false)});
  return createDataFrame(arrow::Table::Make(schema, {*array}));
}

}  // namespace sluice

namespace sluice {

DataStreamReader SparkSession::readStream() const { return DataStreamReader(state_); }

const std::shared_ptr<execution::StreamingQueryManager>& SparkSession::streams() const {
  return state_->streams;
}

DataFrame SparkSession::table(const std::string& name) const { return read().table(name); }

void SparkSession::stop() const {
  for (const auto& query : state_->streams->active()) (void)query->stop();
  state_->web_ui.reset();
}

std::optional<std::string> SparkSession::uiWebUrl() const {
  if (state_->web_ui == nullptr) return std::nullopt;
  return state_->web_ui->url();
}

}  // namespace sluice
