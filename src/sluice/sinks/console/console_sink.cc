#include "sluice/sinks/console/console_sink.h"

#include <algorithm>
#include <vector>

#include <arrow/table.h>

#include "sluice/api/show_format.h"
#include "sluice/common/session_config.h"
#include "sluice/datetime/zone.h"
#include "sluice/sources/typed_options.h"

namespace sluice::sinks {

namespace {

constexpr char kBanner[] = "-------------------------------------------\n";
// show()'s cell width when truncating.
constexpr int kTruncatedCellWidth = 20;

/// Prints batches; rendering state is rebuilt per batch, so the sink holds only its options.
class ConsoleSink final : public StreamSink {
 public:
  ConsoleSink(int32_t num_rows, bool truncate, SessionConfig config, std::ostream* out)
      : num_rows_(num_rows), truncate_(truncate), config_(std::move(config)), out_(out) {}

  // Spark prints the object's identity (ConsoleTable$@<hash>); the hash is left out, as it
  // differs on every run.
  std::string Describe() const override {
    return "org.apache.spark.sql.execution.streaming.ConsoleTable$";
  }

  arrow::Status AddBatch(int64_t batch_id, physical::BatchStream& data,
                         OutputMode mode) override {
    // show() reads one row more than it prints, to know whether to say "only showing".
    const int64_t shown_rows = std::max<int64_t>(num_rows_, 0);
    const int64_t wanted = shown_rows + 1;
    arrow::RecordBatchVector kept;
    int64_t kept_rows = 0;
    int64_t rows = 0;
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto batch, data.Next());
      if (batch == nullptr) break;
      rows += batch->num_rows();
      if (kept_rows < wanted && batch->num_rows() > 0) {
        const int64_t take = std::min(batch->num_rows(), wanted - kept_rows);
        kept.push_back(batch->Slice(0, take));
        kept_rows += take;
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto rendered, RenderShowStrings(*data.schema(), kept, config_));
    ARROW_ASSIGN_OR_RAISE(std::string table,
                          FormatShow(*rendered, num_rows_,
                                     truncate_ ? kTruncatedCellWidth : 0, /*vertical=*/false));
    // Spark prints show()'s text with println; the text ends in a newline except after the
    // "only showing top N rows" footer.
    *out_ << kBanner << "Batch: " << batch_id << "\n" << kBanner << table
          << (rows > shown_rows ? "" : "\n");
    out_->flush();
    last_output_rows_ = rows;
    return arrow::Status::OK();
  }

  int64_t last_output_rows() const override { return last_output_rows_; }

 private:
  const int32_t num_rows_;
  const bool truncate_;
  const SessionConfig config_;
  std::ostream* out_;
  int64_t last_output_rows_ = 0;
};

}  // namespace

arrow::Result<std::unique_ptr<StreamSink>> MakeConsoleSink(const formats::OptionMap& options,
                                                           std::ostream* out,
                                                           std::string session_time_zone) {
  ARROW_ASSIGN_OR_RAISE(int32_t num_rows, sources::IntOption(options, "numRows", 20));
  ARROW_ASSIGN_OR_RAISE(bool truncate, sources::BooleanOption(options, "truncate", true));
  // Fail now, not at the first batch, if the zone is unknown.
  ARROW_RETURN_NOT_OK(datetime::TimeZone::Find(session_time_zone).status());
  SessionConfig config;
  ARROW_RETURN_NOT_OK(config.Set("spark.sql.session.timeZone", session_time_zone));
  return std::make_unique<ConsoleSink>(num_rows, truncate, std::move(config), out);
}

}  // namespace sluice::sinks
