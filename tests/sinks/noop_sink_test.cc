// The noop sink reads every row (Spark reports them as numOutputRows) and writes nothing.
#include "sluice/sinks/noop/noop_sink.h"

#include <gtest/gtest.h>

#include "support/batch_stream_fixture.h"

namespace sluice::sinks {
namespace {

TEST(NoopSinkTest, DrainsEveryBatchAndCountsItsRows) {
  auto schema = arrow::schema({arrow::field("a", arrow::int64())});
  auto sink = MakeNoopSink();
  EXPECT_EQ(sink->Describe(), "org.apache.spark.sql.execution.datasources.noop.NoopTable$");
  testing::InMemoryBatchStream stream(
      schema, {testing::MakeBatch(schema, {"[1, 2, 3]"}), testing::MakeBatch(schema, {"[]"}),
               testing::MakeBatch(schema, {"[4]"})});
  ASSERT_TRUE(sink->AddBatch(0, stream, OutputMode::kComplete).ok());
  EXPECT_EQ(stream.pulled(), 3u);
  EXPECT_EQ(sink->last_output_rows(), 4);

  testing::InMemoryBatchStream empty(schema, {});
  ASSERT_TRUE(sink->AddBatch(1, empty, OutputMode::kAppend).ok());
  EXPECT_EQ(sink->last_output_rows(), 0);
}

TEST(NoopSinkTest, AFailingInputFailsTheBatch) {
  testing::InMemoryBatchStream failing(arrow::schema({}), {},
                                       arrow::Status::Invalid("upstream failed"));
  auto sink = MakeNoopSink();
  arrow::Status added = sink->AddBatch(0, failing, OutputMode::kAppend);
  EXPECT_EQ(added.message(), "upstream failed");
}

}  // namespace
}  // namespace sluice::sinks
