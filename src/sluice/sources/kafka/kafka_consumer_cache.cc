#include "sluice/sources/kafka/kafka_consumer_cache.h"

#include <utility>

namespace sluice::sources::kafka {

std::unique_ptr<KafkaPartitionConsumer> KafkaConsumerCache::Take() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::move(consumer_);
}

void KafkaConsumerCache::Keep(std::unique_ptr<KafkaPartitionConsumer> consumer) {
  std::unique_ptr<KafkaPartitionConsumer> dropped;
  std::lock_guard<std::mutex> lock(mutex_);
  // Closing a consumer waits for librdkafka: `dropped` goes after the lock is released.
  dropped = closed_ ? std::move(consumer) : std::exchange(consumer_, std::move(consumer));
}

void KafkaConsumerCache::Close() {
  std::unique_ptr<KafkaPartitionConsumer> dropped;
  std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  dropped = std::move(consumer_);
}

}  // namespace sluice::sources::kafka
