// A streaming test DSL in the spirit of Spark's StreamTest: a test is a list of actions run in
// order against one query over replayable memory sources, writing to a memory sink.
//
//   auto input = MemoryStream("a INT");
//   TestStream(df, {AddData(input, "a INT", {"[1, 2]"}), CheckAnswer({"[1]", "[2]"}),
//                   StopStream(), AddData(input, ...), StartStream(), CheckNewAnswer(...)});
//
// Rows are written as canonical JSON arrays, one per row ("[1,\"x\",null]", see
// canonical_values.h), and compared as multisets unless a check says otherwise.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_writer.h"
#include "sluice/common/clock.h"
#include "sluice/execution/crash_point.h"
#include "sluice/sinks/memory/memory_sink.h"
#include "sluice/sources/memory/memory_stream.h"
#include "support/scratch_dir.h"
#include "support/session_fixture.h"

namespace sluice::testing {

class StreamTest;

/// One step of a stream test.
struct StreamAction {
  std::string description;
  std::function<void(StreamTest&)> run;
};

/// How StartStream starts the query.
struct StartOptions {
  Trigger trigger = Trigger::Default();
  /// The clock the trigger waits on; null: the system clock.
  std::shared_ptr<ManualClock> clock;
  /// Kills the query at chosen steps of the batch loop.
  execution::CrashHook crash_hook;
};

/// A fixture running StreamActions. Each test gets a fresh checkpoint folder, kept across
/// StopStream/StartStream so restarts resume from it.
class StreamTest : public SessionTest {
 protected:
  void SetUp() override;
  void TearDown() override;

  /// A memory source of rows of `ddl_schema`.
  std::shared_ptr<sources::MemoryStream> MemoryStream(const std::string& ddl_schema);
  /// Runs `actions` on `df` written to a memory sink in `output_mode`. Starts the query first
  /// unless the first action is StartStream; stops it at the end.
  void TestStream(const DataFrame& df, const std::vector<StreamAction>& actions,
                  const std::string& output_mode = "append");

 public:
  // The state the actions work on.
  DataFrame df_{nullptr, arrow::Status::OK()};
  std::string output_mode_;
  std::string query_name_;
  /// The query's checkpoint folder, inside scratch_dir_ (not created before the query starts).
  std::string checkpoint_;
  std::shared_ptr<StreamingQuery> query_;
  /// The memory sink's table, kept across restarts as Spark's StreamTest keeps its sink.
  std::shared_ptr<sinks::MemoryTable> sink_table_;
  std::shared_ptr<ManualClock> clock_;
  /// Rows seen by the last CheckAnswer/CheckNewAnswer, for CheckNewAnswer.
  size_t rows_checked_ = 0;
  /// Removed with everything in it when the test ends.
  ScratchDir scratch_dir_;

  void Start(const StartOptions& options);
  /// Waits until the running query has processed what its trigger allows now.
  void WaitForProgress();
  std::vector<std::string> SinkRows();
  std::vector<std::string> LastBatchRows();
};

/// Kills a query at `point` of batch `batch_id`, once: the restarted query (which may be
/// given the same hook) runs through.
execution::CrashHook KillOnceAt(execution::CrashPoint point, int64_t batch_id);

/// A gtest parameter name for a crash point: its name with "_" for anything but letters and
/// digits ("after the commit" -> "after_the_commit").
std::string CrashPointTestName(const ::testing::TestParamInfo<execution::CrashPoint>& info);

/// The rows of a table as canonical JSON arrays.
std::vector<std::string> RowsOf(const arrow::Table& table);

StreamAction AddData(const std::shared_ptr<sources::MemoryStream>& source,
                     const std::vector<std::string>& json_columns);
/// All rows in the sink equal `rows` (any order) once the query processed what it can.
StreamAction CheckAnswer(const std::vector<std::string>& rows);
/// The rows of the last batch equal `rows` (any order).
StreamAction CheckLastBatch(const std::vector<std::string>& rows);
/// The rows added to the sink since the previous check equal `rows` (any order).
StreamAction CheckNewAnswer(const std::vector<std::string>& rows);
StreamAction StartStream(StartOptions options = {});
StreamAction StopStream();
/// Advances the manual clock given to StartStream and waits for the triggered batch.
StreamAction AdvanceClock(int64_t milliseconds);
/// The query stops with an error of this Spark class (found in the message of the
/// STREAM_FAILED error that wraps it).
StreamAction ExpectFailure(const std::string& error_class);
StreamAction AssertOnQuery(const std::string& description,
                           std::function<void(StreamingQuery&)> check);

}  // namespace sluice::testing
