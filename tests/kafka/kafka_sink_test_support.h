// What the Kafka sink tests share: a stream test against the shared broker, with a query that
// writes a DataFrame to Kafka and the records read back by an independent client.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "support/kafka_broker.h"
#include "support/kafka_client.h"
#include "support/stream_test.h"

namespace sluice::testing {

class KafkaSinkTest : public StreamTest {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    bootstrap_ = SharedKafkaBroker().bootstrap();
    kafka_ = std::make_unique<KafkaTestClient>(bootstrap_);
    topic_ = UniqueTopicName("sink");
    ASSERT_TRUE(kafka_->CreateTopic(topic_, 1).ok());
  }

  /// A writer of `df` to Kafka with the broker and the test's checkpoint set.
  DataStreamWriter KafkaWriter(const DataFrame& df) {
    return df.writeStream()
        .format("kafka")
        .option("kafka.bootstrap.servers", bootstrap_)
        .option("checkpointLocation", checkpoint_);
  }

  /// Runs `query` until it has processed everything available, failing the test otherwise.
  static void Drain(const arrow::Result<std::shared_ptr<StreamingQuery>>& query) {
    ASSERT_TRUE(query.ok()) << query.status().ToString();
    auto status = (*query)->processAllAvailable();
    ASSERT_TRUE(status.ok()) << status.ToString();
  }

  /// The values of `topic` that a consumer with `isolation` reads, in log order per partition.
  std::vector<std::optional<std::string>> Values(
      const std::string& topic, KafkaIsolation isolation = KafkaIsolation::kReadCommitted) {
    auto records = kafka_->ConsumeAll(topic, isolation);
    EXPECT_TRUE(records.ok()) << records.status().ToString();
    std::vector<std::optional<std::string>> values;
    if (records.ok()) {
      for (const auto& record : *records) values.push_back(record.value);
    }
    return values;
  }

  std::string bootstrap_;
  std::unique_ptr<KafkaTestClient> kafka_;
  std::string topic_;
};

}  // namespace sluice::testing
