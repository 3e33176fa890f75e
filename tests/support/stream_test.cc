#include "support/stream_test.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <thread>

#include <arrow/json/from_string.h>
#include <arrow/table.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/types/ddl_parser.h"
#include "support/canonical_values.h"
#include "support/table_rows.h"

namespace sluice::testing {

namespace {

std::vector<std::string> Sorted(std::vector<std::string> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// Gives a ManualClock-driven query the chance to finish the batch it triggered: true once it
/// waits for a future time again or has stopped.
void WaitUntilWaitingOrStopped(StreamTest& test) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (!test.query_->isActive()) return;
    if (test.clock_->WaitForWaiter(std::chrono::milliseconds(5))) return;
  }
  ADD_FAILURE() << "the query did not come back to wait for its trigger within 30 s";
}

}  // namespace

void StreamTest::SetUp() {
  SessionTest::SetUp();
  checkpoint_ = scratch_dir_ / "checkpoint";
  query_name_ = "stream_test_" + formats::RandomUuid().substr(0, 8);
}

void StreamTest::TearDown() {
  if (query_) (void)query_->stop();
  query_.reset();
}

std::shared_ptr<sources::MemoryStream> StreamTest::MemoryStream(const std::string& ddl_schema) {
  auto schema = types::ParseSchema(ddl_schema);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  return sources::MemoryStream::Make(*schema);
}

void StreamTest::Start(const StartOptions& options) {
  ASSERT_TRUE(query_ == nullptr || !query_->isActive()) << "the query is running already";
  clock_ = options.clock;
  if (sink_table_ == nullptr) {
    auto schema = df_.schema();
    ASSERT_TRUE(schema.ok()) << schema.status().ToString();
    sink_table_ = std::make_shared<sinks::MemoryTable>(query_name_, *schema);
  }
  auto writer = df_.writeStream()
                    .sink([table = sink_table_] { return sinks::MakeMemorySink(table); })
                    .queryName(query_name_)
                    .outputMode(output_mode_)
                    .option("checkpointLocation", checkpoint_)
                    .trigger(options.trigger)
                    .crashHook(options.crash_hook);
  if (clock_) writer.clock(clock_);
  auto started = writer.start();
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  query_ = *started;
}

void StreamTest::WaitForProgress() {
  if (query_ == nullptr || !query_->isActive()) return;
  if (clock_) {
    WaitUntilWaitingOrStopped(*this);
    return;
  }
  auto status = query_->processAllAvailable();
  EXPECT_TRUE(status.ok()) << status.ToString();
}

std::vector<std::string> StreamTest::SinkRows() {
  if (sink_table_ == nullptr) return {};
  auto table = sink_table_->ToTable();
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  return table.ok() ? RowsOf(**table) : std::vector<std::string>{};
}

std::vector<std::string> StreamTest::LastBatchRows() {
  std::vector<std::string> rows;
  if (query_ == nullptr) return rows;
  auto progress = query_->lastProgress();
  if (!progress) return rows;
  // The memory table holds all batches; the last one's rows are its last numOutputRows.
  auto all = SinkRows();
  int64_t count = progress->sink.num_output_rows;
  if (count < 0 || count > static_cast<int64_t>(all.size())) return all;
  return {all.end() - count, all.end()};
}

void StreamTest::TestStream(const DataFrame& df, const std::vector<StreamAction>& actions,
                            const std::string& output_mode) {
  df_ = df;
  output_mode_ = output_mode;
  ASSERT_TRUE(df_.ok()) << df_.status().ToString();
  // As Spark's StreamTest: the query starts by itself unless the test starts it before the
  // first action that needs a running query (anything but AddData).
  bool started_manually = false;
  for (const auto& action : actions) {
    if (action.description == "StartStream") started_manually = true;
    if (action.description != "AddData") break;
  }
  if (!started_manually) Start(StartOptions{});
  for (size_t i = 0; i < actions.size(); ++i) {
    SCOPED_TRACE("action " + std::to_string(i) + ": " + actions[i].description);
    actions[i].run(*this);
    if (::testing::Test::HasFatalFailure()) return;
  }
  if (query_) (void)query_->stop();
}

execution::CrashHook KillOnceAt(execution::CrashPoint point, int64_t batch_id) {
  auto fired = std::make_shared<bool>(false);
  return [=](execution::CrashPoint at, int64_t batch) {
    if (*fired || at != point || batch != batch_id) return false;
    *fired = true;
    return true;
  };
}

std::string CrashPointTestName(const ::testing::TestParamInfo<execution::CrashPoint>& info) {
  std::string name = execution::CrashPointName(info.param);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

std::vector<std::string> RowsOf(const arrow::Table& table) {
  return RenderRows(table, {CanonicalText, ",", "[", "]"});
}

StreamAction AddData(const std::shared_ptr<sources::MemoryStream>& source,
                     const std::vector<std::string>& json_columns) {
  return {"AddData", [source, json_columns](StreamTest& test) {
            std::vector<std::shared_ptr<arrow::Array>> columns;
            const auto& schema = source->schema();
            for (int i = 0; i < schema->num_fields(); ++i) {
              auto array = arrow::json::ArrayFromJSONString(schema->field(i)->type(), json_columns[i]);
              ASSERT_TRUE(array.ok()) << array.status().ToString();
              columns.push_back(*array);
            }
            auto added = source->AddData(arrow::Table::Make(schema, columns));
            ASSERT_TRUE(added.ok()) << added.status().ToString();
          }};
}

StreamAction CheckAnswer(const std::vector<std::string>& rows) {
  return {"CheckAnswer", [rows](StreamTest& test) {
            test.WaitForProgress();
            auto actual = test.SinkRows();
            EXPECT_EQ(Sorted(actual), Sorted(rows));
            test.rows_checked_ = actual.size();
          }};
}

StreamAction CheckLastBatch(const std::vector<std::string>& rows) {
  return {"CheckLastBatch", [rows](StreamTest& test) {
            test.WaitForProgress();
            EXPECT_EQ(Sorted(test.LastBatchRows()), Sorted(rows));
          }};
}

StreamAction CheckNewAnswer(const std::vector<std::string>& rows) {
  return {"CheckNewAnswer", [rows](StreamTest& test) {
            test.WaitForProgress();
            auto actual = test.SinkRows();
            std::vector<std::string> added;
            if (test.rows_checked_ <= actual.size()) {
              added.assign(actual.begin() + test.rows_checked_, actual.end());
            }
            EXPECT_EQ(Sorted(added), Sorted(rows));
            test.rows_checked_ = actual.size();
          }};
}

StreamAction StartStream(StartOptions options) {
  return {"StartStream", [options](StreamTest& test) { test.Start(options); }};
}

StreamAction StopStream() {
  return {"StopStream", [](StreamTest& test) {
            ASSERT_NE(test.query_, nullptr);
            ASSERT_TRUE(test.query_->stop().ok());
            EXPECT_FALSE(test.query_->isActive());
          }};
}

StreamAction AdvanceClock(int64_t milliseconds) {
  return {"AdvanceClock", [milliseconds](StreamTest& test) {
            ASSERT_NE(test.clock_, nullptr) << "StartStream was not given a ManualClock";
            // Advance only once the loop waits, so the advance triggers exactly one batch.
            WaitUntilWaitingOrStopped(test);
            test.clock_->Advance(milliseconds);
            std::this_thread::yield();
            WaitUntilWaitingOrStopped(test);
          }};
}

StreamAction ExpectFailure(const std::string& error_class) {
  return {"ExpectFailure", [error_class](StreamTest& test) {
            ASSERT_NE(test.query_, nullptr);
            auto status = test.query_->awaitTermination();
            ASSERT_FALSE(status.ok()) << "the query ended without an error";
            EXPECT_NE(status.message().find("[" + error_class + "]"), std::string::npos)
                << status.ToString();
          }};
}

StreamAction AssertOnQuery(const std::string& description,
                           std::function<void(StreamingQuery&)> check) {
  return {"AssertOnQuery: " + description, [check](StreamTest& test) {
            ASSERT_NE(test.query_, nullptr);
            check(*test.query_);
          }};
}

}  // namespace sluice::testing
