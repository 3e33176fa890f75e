// The foreach sink's protocol as Spark 4.0.1 runs a ForeachWriter: open(partition 0, epoch =
// batch id), process per row unless open declined, close with the error if any (the writer's
// own, or "aborted due to a task failure" when the input failed), and the writer's errors
// wrapped as FOREACH_USER_FUNCTION_ERROR. Also the Row view handed to process.
#include "sluice/sinks/foreach/foreach_sink.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sluice/common/errors.h"
#include "support/batch_stream_fixture.h"

namespace sluice::sinks {
namespace {

/// Logs every call; declines epochs or fails on a value when told to.
class RecordingWriter final : public ForeachWriter {
 public:
  arrow::Result<bool> Open(int64_t partition_id, int64_t epoch_id) override {
    log.push_back("open " + std::to_string(partition_id) + " " + std::to_string(epoch_id));
    if (!open_error.ok()) return open_error;
    return accept_epoch;
  }
  arrow::Status Process(const Row& row) override {
    log.push_back("process " + row.ToString());
    ARROW_ASSIGN_OR_RAISE(int64_t value, row.GetLong("value"));
    if (value == fail_on_value) return process_error;
    return arrow::Status::OK();
  }
  arrow::Status Close(const arrow::Status& error) override {
    log.push_back("close " + (error.ok() ? std::string("OK") : error.message()));
    return close_error;
  }

  std::vector<std::string> log;
  bool accept_epoch = true;
  int64_t fail_on_value = -1;
  arrow::Status process_error = arrow::Status::Invalid("bad row 1");
  arrow::Status open_error;
  arrow::Status close_error;
};

std::shared_ptr<arrow::Schema> ValueSchema() {
  return arrow::schema({arrow::field("value", arrow::int64()), arrow::field("s", arrow::utf8())});
}

std::vector<std::shared_ptr<arrow::RecordBatch>> ThreeRows() {
  return {testing::MakeBatch(ValueSchema(), {"[0, 1]", "[\"a\", null]"}),
          testing::MakeBatch(ValueSchema(), {"[2]", "[\"c\"]"})};
}

struct Outcome {
  arrow::Status status;
  int64_t output_rows = -1;
};

// Runs one batch of ThreeRows() through a foreach sink over `writer`.
Outcome RunBatch(const std::shared_ptr<RecordingWriter>& writer, int64_t batch_id) {
  auto sink = MakeForeachSink(writer);
  testing::InMemoryBatchStream stream(ValueSchema(), ThreeRows());
  Outcome outcome;
  outcome.status = sink->AddBatch(batch_id, stream, OutputMode::kAppend);
  outcome.output_rows = sink->last_output_rows();
  return outcome;
}

TEST(ForeachSinkTest, OpensProcessesEveryRowAndCloses) {
  auto writer = std::make_shared<RecordingWriter>();
  Outcome outcome = RunBatch(writer, 7);
  ASSERT_TRUE(outcome.status.ok());
  EXPECT_EQ(writer->log, (std::vector<std::string>{"open 0 7", "process [0,a]",
                                                   "process [1,null]", "process [2,c]",
                                                   "close OK"}));
  EXPECT_EQ(outcome.output_rows, 3);
}

TEST(ForeachSinkTest, ADeclinedEpochSkipsTheRowsButStillCloses) {
  auto writer = std::make_shared<RecordingWriter>();
  writer->accept_epoch = false;
  Outcome outcome = RunBatch(writer, 3);
  ASSERT_TRUE(outcome.status.ok());
  EXPECT_EQ(writer->log, (std::vector<std::string>{"open 0 3", "close OK"}));
  EXPECT_EQ(outcome.output_rows, 3);  // Spark still counts the rows it read
}

TEST(ForeachSinkTest, AProcessErrorReachesCloseAndFailsTheBatchWrapped) {
  auto writer = std::make_shared<RecordingWriter>();
  writer->fail_on_value = 1;
  arrow::Status status = RunBatch(writer, 0).status;
  EXPECT_EQ(writer->log, (std::vector<std::string>{"open 0 0", "process [0,a]",
                                                   "process [1,null]", "close bad row 1"}));
  EXPECT_EQ(ErrorClassOf(status), "FOREACH_USER_FUNCTION_ERROR");
  EXPECT_EQ(status.message(),
            "[FOREACH_USER_FUNCTION_ERROR] An error occurred in the user provided function in "
            "foreach sink. Reason: bad row 1");
}

TEST(ForeachSinkTest, ASparkErrorFromTheWriterPassesThrough) {
  auto writer = std::make_shared<RecordingWriter>();
  writer->fail_on_value = 0;
  writer->process_error = SparkError("DIVIDE_BY_ZERO", "Division by zero.");
  arrow::Status status = RunBatch(writer, 0).status;
  EXPECT_EQ(ErrorClassOf(status), "DIVIDE_BY_ZERO");
}

TEST(ForeachSinkTest, AnOpenErrorFailsWithoutClose) {
  auto writer = std::make_shared<RecordingWriter>();
  writer->open_error = arrow::Status::IOError("no connection");
  arrow::Status status = RunBatch(writer, 0).status;
  EXPECT_EQ(writer->log, (std::vector<std::string>{"open 0 0"}));
  EXPECT_EQ(ErrorClassOf(status), "FOREACH_USER_FUNCTION_ERROR");
}

TEST(ForeachSinkTest, ACloseErrorFailsABatchThatHadNone) {
  auto writer = std::make_shared<RecordingWriter>();
  writer->close_error = arrow::Status::IOError("flush failed");
  arrow::Status status = RunBatch(writer, 0).status;
  EXPECT_NE(status.message().find("Reason: flush failed"), std::string::npos);
}

TEST(ForeachSinkTest, AnInputFailureAbortsTheWriter) {
  testing::InMemoryBatchStream failing(
      ValueSchema(), {testing::MakeBatch(ValueSchema(), {"[5]", "[\"e\"]"})},
      SparkError("DIVIDE_BY_ZERO", "Division by zero."));
  auto writer = std::make_shared<RecordingWriter>();
  auto sink = MakeForeachSink(writer);
  arrow::Status status = sink->AddBatch(2, failing, OutputMode::kAppend);
  EXPECT_EQ(ErrorClassOf(status), "DIVIDE_BY_ZERO");
  EXPECT_EQ(writer->log,
            (std::vector<std::string>{"open 0 2", "process [5,e]",
                                      "close [_LEGACY_ERROR_TEMP_2256] Foreach writer has been "
                                      "aborted due to a task failure."}));
}

TEST(ForeachRowTest, ReadsTypedValuesByPositionAndName) {
  auto schema = arrow::schema(
      {arrow::field("i", arrow::int32()), arrow::field("l", arrow::int64()),
       arrow::field("f", arrow::float32()), arrow::field("s", arrow::utf8()),
       arrow::field("b", arrow::boolean()),
       arrow::field("ts", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")),
       arrow::field("d", arrow::date32())});
  auto full = testing::MakeBatch(schema, {"[7, null]", "[-8, 9]", "[1.5, 2]", "[\"x\", \"yz\"]",
                                          "[true, false]", "[1700000000123000, 0]",
                                          "[19675, 0]"});
  // A sliced batch: the view must honour the arrays' offsets.
  auto batch = full->Slice(1, 1);
  Row first(*full, 0);
  EXPECT_EQ(*first.GetInt(0), 7);
  EXPECT_EQ(*first.GetLong("i"), 7);  // widened
  EXPECT_EQ(*first.GetLong(1), -8);
  EXPECT_EQ(*first.GetDouble("f"), 1.5);
  EXPECT_EQ(*first.GetString("s"), "x");
  EXPECT_TRUE(*first.GetBoolean("b"));
  EXPECT_EQ(*first.GetTimestampMicros("ts"), 1700000000123000);
  EXPECT_EQ(*first.GetDateDays("d"), 19675);
  EXPECT_EQ(first.ToString(), "[7,-8,1.5,x,true,2023-11-14 22:13:20.123,2023-11-14]");

  Row second(*batch, 0);
  EXPECT_TRUE(second.IsNullAt(0));
  EXPECT_EQ(*second.GetLong("l"), 9);
  EXPECT_EQ(*second.GetString(3), "yz");
  EXPECT_FALSE(*second.GetBoolean(4));
  EXPECT_EQ(second.ToString(), "[null,9,2.0,yz,false,1970-01-01 00:00:00,1970-01-01]");
}

TEST(ForeachRowTest, RefusesNullsWrongTypesAndUnknownNames) {
  auto schema =
      arrow::schema({arrow::field("value", arrow::int64()), arrow::field("s", arrow::utf8())});
  auto batch = testing::MakeBatch(schema, {"[null]", "[\"x\"]"});
  Row row(*batch, 0);
  EXPECT_EQ(ErrorClassOf(row.GetLong(0).status()), "ROW_VALUE_IS_NULL");
  EXPECT_EQ(row.GetLong(0).status().message(),
            "[ROW_VALUE_IS_NULL] Found NULL in a row at the index 0, expected a non-NULL value.");
  EXPECT_EQ(row.GetInt("s").status().message(), "Column `s` is STRING, not INT.");
  EXPECT_EQ(row.GetString("nope").status().message(),
            "[FIELD_NOT_FOUND] No such struct field `nope` in `value`, `s`.");
  EXPECT_TRUE(row.GetString(5).status().IsIndexError());
}

}  // namespace
}  // namespace sluice::sinks
