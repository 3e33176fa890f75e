// A Kafka sink whose brokers cannot be reached fails its batch with a clear error after a
// bounded wait, in both delivery modes. Needs no broker: nothing listens on the port.
#include <chrono>

#include <gtest/gtest.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/offset_seq.h"
#include "sluice/sinks/kafka/kafka_stream_sink.h"
#include "support/batch_stream_fixture.h"
#include "support/scratch_dir.h"

namespace sluice::sinks {
namespace {

// Port 1 (tcpmux) is never served on a test machine: connections are refused at once.
constexpr const char* kNobody = "127.0.0.1:1";

class KafkaSinkUnreachableTest : public ::testing::Test {
 protected:
  std::shared_ptr<arrow::Schema> schema_ = arrow::schema({arrow::field("value", arrow::utf8())});
  testing::ScratchDir scratch_;
};

TEST_F(KafkaSinkUnreachableTest, AtLeastOnceFailsAfterTheDeliveryTimeout) {
  auto sink = MakeKafkaStreamSink({{"kafka.bootstrap.servers", kNobody},
                                   {"topic", "lost"},
                                   {"kafka.delivery.timeout.ms", "1500"}},
                                  schema_, scratch_.path());
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  testing::InMemoryBatchStream data(schema_, {testing::MakeBatch(schema_, {R"(["a", "b"])"})});
  auto started = std::chrono::steady_clock::now();
  auto status = (*sink)->AddBatch(0, data, OutputMode::kAppend);
  auto waited = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(status.IsIOError()) << status.ToString();
  EXPECT_NE(status.message().find("Kafka topic 'lost'"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find(std::string("bootstrap servers '") + kNobody + "'"),
            std::string::npos)
      << status.message();
  EXPECT_LT(waited, std::chrono::seconds(30));
}

TEST_F(KafkaSinkUnreachableTest, ExactlyOnceFailsAfterMaxBlock) {
  // The sink reads the query id from the checkpoint, written when the query starts.
  ASSERT_TRUE(checkpoint::WriteFileAtomically(scratch_.path() + "/metadata",
                                              checkpoint::SerializeQueryMetadata("q-1"))
                  .ok());
  auto sink = MakeKafkaStreamSink({{"kafka.bootstrap.servers", kNobody},
                                   {"topic", "lost"},
                                   {"exactlyOnce", "true"},
                                   {"kafka.max.block.ms", "1500"}},
                                  schema_, scratch_.path());
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  testing::InMemoryBatchStream data(schema_, {testing::MakeBatch(schema_, {R"(["a"])"})});
  auto started = std::chrono::steady_clock::now();
  auto status = (*sink)->AddBatch(0, data, OutputMode::kAppend);
  auto waited = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(status.IsIOError()) << status.ToString();
  EXPECT_NE(status.message().find("transactional id 'sluice-kafka-sink-q-1'"),
            std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("kafka.max.block.ms = 1500 ms"), std::string::npos)
      << status.message();
  EXPECT_LT(waited, std::chrono::seconds(30));
}

}  // namespace
}  // namespace sluice::sinks
