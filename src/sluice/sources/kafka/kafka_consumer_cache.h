// The consumer a Kafka source keeps between its micro-batches (Spark's consumer cache,
// spark.kafka.consumer.cache.*, here one consumer per source for all its partitions).
#pragma once

#include <memory>
#include <mutex>

#include "sluice/sources/kafka/kafka_partition_consumer.h"

namespace sluice::sources::kafka {

/// Holds at most one consumer between the batches of one source: a batch takes it, and gives
/// it back only when it read every range of the batch, so that a consumer that failed is
/// never used again. Thread-safe.
class KafkaConsumerCache {
 public:
  /// The kept consumer, or null when there is none; the cache is empty afterwards.
  std::unique_ptr<KafkaPartitionConsumer> Take();
  /// Keeps `consumer` for the next batch (dropping one kept already), unless Close() was
  /// called: then `consumer` is dropped.
  void Keep(std::unique_ptr<KafkaPartitionConsumer> consumer);
  /// Drops the kept consumer, closing its connections, and keeps none from now on.
  void Close();

 private:
  std::mutex mutex_;
  std::unique_ptr<KafkaPartitionConsumer> consumer_;
  bool closed_ = false;
};

}  // namespace sluice::sources::kafka
