// The "socket" source against a real TCP server on the loopback interface, checked against what
// Spark 4.0.1 does with the same lines: the empty batch 0 that connects (offset -1), one offset
// per line, "\r\n" and "\r" as line ends, an unterminated last line kept when the server
// closes, and Spark's option errors.
#include "sluice/sources/socket/socket_source.h"

#include <chrono>
#include <thread>
#include <vector>

#include <arrow/array.h>
#include <gtest/gtest.h>

#include "sluice/common/clock.h"
#include "sluice/common/errors.h"
#include "sources/source_test_support.h"
#include "support/loopback_server.h"

namespace sluice::sources {
namespace {

constexpr auto kPatience = std::chrono::seconds(10);

using sluice::testing::LoopbackServer;

struct Lines {
  std::vector<std::string> values;
  std::vector<int64_t> timestamps_us;
};

class SocketSourceTest : public ::testing::Test {
 protected:
  std::unique_ptr<StreamSource> Start(formats::OptionMap options) {
    options.emplace("host", "127.0.0.1");
    options.emplace("port", std::to_string(server_.port()));
    SourceContext context;
    context.clock = &clock_;
    return testing::StartSource(MakeSocketSourceProvider(options), context);
  }

  std::string Latest(StreamSource& source, const std::optional<std::string>& start) {
    return testing::LatestOffsetText(source, start);
  }

  // Polls (boundedly) until the reading thread has buffered up to offset `expected`.
  bool AwaitOffset(StreamSource& source, const std::string& start, const std::string& expected) {
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (Latest(source, start) != expected) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
  }

  Lines Batch(StreamSource& source, const std::optional<std::string>& start,
              const std::string& end) {
    Lines lines;
    auto table = testing::BatchReader(source, start, end)->ToTable();
    EXPECT_TRUE(table.ok());
    auto batch = (*table)->CombineChunksToBatch().ValueOrDie();
    const auto& values = static_cast<const arrow::StringArray&>(*batch->column(0));
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      lines.values.emplace_back(values.GetView(i));
      if (batch->num_columns() > 1) {
        lines.timestamps_us.push_back(
            static_cast<const arrow::TimestampArray&>(*batch->column(1)).Value(i));
      }
    }
    return lines;
  }

  LoopbackServer server_;
  ManualClock clock_{5'000};
};

std::string ErrorOf(const formats::OptionMap& options) {
  return testing::ErrorMessageOf(MakeSocketSourceProvider(options));
}

TEST(SocketSourceOptionsTest, RejectsBadOptionsWithSparksMessages) {
  EXPECT_EQ(ErrorOf({}),
            "[_LEGACY_ERROR_TEMP_1295] Set a host to read from with option(\"host\", ...).");
  EXPECT_EQ(ErrorOf({{"port", "1"}}),
            "[_LEGACY_ERROR_TEMP_1295] Set a host to read from with option(\"host\", ...).");
  EXPECT_EQ(ErrorOf({{"host", "localhost"}}),
            "[_LEGACY_ERROR_TEMP_1296] Set a port to read from with option(\"port\", ...).");
  EXPECT_EQ(ErrorOf({{"host", "localhost"}, {"port", "1"}, {"includeTimestamp", "abc"}}),
            "[_LEGACY_ERROR_TEMP_1297] IncludeTimestamp must be set to either \"true\" or "
            "\"false\".");
  EXPECT_EQ(ErrorOf({{"host", "localhost"}, {"port", "x"}}),
            "For input string: \"x\" (option 'port')");
  EXPECT_EQ(ErrorOf({{"host", "localhost"}, {"port", "1"}, {"includeTimestamp", "TRUE"}}),
            "no error");
}

TEST_F(SocketSourceTest, ReadsLinesAsSparkDoes) {
  auto source = Start({{"includeTimestamp", "true"}});
  EXPECT_EQ(source->Describe(),
            "TextSocketV2[host: 127.0.0.1, port: " + std::to_string(server_.port()) + "]");
  ASSERT_EQ(source->schema()->ToString(), "value: string\ntimestamp: timestamp[us, tz=UTC]");
  // Batch 0 has offset -1 and no rows; reading it connects.
  EXPECT_EQ(Latest(*source, std::nullopt), "-1");
  EXPECT_TRUE(Batch(*source, std::nullopt, "-1").values.empty());
  ASSERT_TRUE(server_.Accept());

  ASSERT_TRUE(server_.Send("hello\nworld\n"));
  ASSERT_TRUE(AwaitOffset(*source, "-1", "1"));
  EXPECT_EQ(source->ReportLatestOffset(), "1");
  Lines batch1 = Batch(*source, "-1", "1");
  EXPECT_EQ(batch1.values, (std::vector<std::string>{"hello", "world"}));
  EXPECT_EQ(batch1.timestamps_us, (std::vector<int64_t>{5'000'000, 5'000'000}));
  ASSERT_TRUE(source->Commit("-1").ok());

  clock_.Advance(1500);
  ASSERT_TRUE(server_.Send("a\r\nb\n\nlast-no-newline-\xC3\xBCtf"));
  ASSERT_TRUE(AwaitOffset(*source, "1", "4"));  // the last line waits for its end
  server_.CloseConnection();
  ASSERT_TRUE(AwaitOffset(*source, "1", "5"));
  ASSERT_TRUE(source->Commit("1").ok());
  Lines batch2 = Batch(*source, "1", "5");
  EXPECT_EQ(batch2.values,
            (std::vector<std::string>{"a", "b", "", "last-no-newline-\xC3\xBCtf"}));
  EXPECT_EQ(batch2.timestamps_us.front(), 6'500'000);
}

TEST_F(SocketSourceTest, CommitForgetsTheLinesItCovers) {
  auto source = Start({});
  ASSERT_TRUE(Batch(*source, std::nullopt, "-1").values.empty());
  ASSERT_TRUE(server_.Accept());
  ASSERT_TRUE(server_.Send("one\rtwo\nthree\n"));
  ASSERT_TRUE(AwaitOffset(*source, "-1", "2"));
  EXPECT_EQ(Batch(*source, "-1", "2").values,
            (std::vector<std::string>{"one", "two", "three"}));
  ASSERT_TRUE(source->Commit("1").ok());
  // A re-read of the range now finds only the line after the committed offset.
  EXPECT_EQ(Batch(*source, "-1", "2").values, (std::vector<std::string>{"three"}));
  auto out_of_order = source->Commit("0");
  ASSERT_FALSE(out_of_order.ok());
  EXPECT_NE(out_of_order.message().find("Offsets committed out of order: 1 followed by 0"),
            std::string::npos);
}

TEST_F(SocketSourceTest, DealsLinesIntoSparksPartitions) {
  auto source = Start({{"numPartitions", "2"}});
  ASSERT_TRUE(Batch(*source, std::nullopt, "-1").values.empty());
  ASSERT_TRUE(server_.Accept());
  ASSERT_TRUE(server_.Send("a\nb\nc\nd\ne\n"));
  ASSERT_TRUE(AwaitOffset(*source, "-1", "4"));
  EXPECT_EQ(Batch(*source, "-1", "4").values,
            (std::vector<std::string>{"a", "c", "e", "b", "d"}));
}

TEST_F(SocketSourceTest, ReplacesBytesThatAreNotUtf8) {
  auto source = Start({});
  ASSERT_TRUE(Batch(*source, std::nullopt, "-1").values.empty());
  ASSERT_TRUE(server_.Accept());
  ASSERT_TRUE(server_.Send("a\xFF" "b\xE2\x82" "c\n"));
  ASSERT_TRUE(AwaitOffset(*source, "-1", "0"));
  EXPECT_EQ(Batch(*source, "-1", "0").values,
            (std::vector<std::string>{"a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c"}));
}

// Under Trigger.AvailableNow Spark fixes the offset at the start: before the first batch
// connects that is -1, so the query runs the one batch that connects and ends.
TEST_F(SocketSourceTest, AvailableNowEndsWhereTheStartFoundIt) {
  auto source = Start({});
  ASSERT_TRUE(source->PrepareForAvailableNow().ok());
  ASSERT_TRUE(Batch(*source, std::nullopt, "-1").values.empty());
  ASSERT_TRUE(server_.Accept());
  ASSERT_TRUE(server_.Send("late\n"));
  // Wait until the line is buffered, then check that the offset still ignores it.
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (Batch(*source, "-1", "0").values.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(Batch(*source, "-1", "0").values, std::vector<std::string>{"late"});
  EXPECT_EQ(Latest(*source, "-1"), "-1");
}

TEST_F(SocketSourceTest, StopClosesTheConnection) {
  auto source = Start({});
  ASSERT_TRUE(Batch(*source, std::nullopt, "-1").values.empty());
  ASSERT_TRUE(server_.Accept());
  source->Stop();
  EXPECT_TRUE(server_.PeerClosed());
}

TEST(SocketSourceConnectTest, ARefusedConnectionFailsTheFirstBatch) {
  int port = 0;
  {
    LoopbackServer closed_soon;  // take a free port, then free it again
    port = closed_soon.port();
  }
  auto provider = MakeSocketSourceProvider({{"host", "127.0.0.1"}, {"port", std::to_string(port)}});
  ASSERT_TRUE(provider.ok());
  ManualClock clock;
  SourceContext context;
  context.clock = &clock;
  auto source = (*provider)->CreateSource(context);
  ASSERT_TRUE(source.ok());
  auto batch = (*source)->GetBatch(std::nullopt, "-1");
  ASSERT_FALSE(batch.ok());
  EXPECT_TRUE(batch.status().IsIOError());
  EXPECT_NE(batch.status().message().find("Connection refused"), std::string::npos);
}

}  // namespace
}  // namespace sluice::sources
