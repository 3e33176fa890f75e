#include "sluice/sources/kafka/kafka_partition_consumer.h"

#include <string>
#include <utility>

namespace sluice::sources::kafka {

namespace {

struct PartitionListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* list) const {
    rd_kafka_topic_partition_list_destroy(list);
  }
};
using PartitionList = std::unique_ptr<rd_kafka_topic_partition_list_t, PartitionListDeleter>;

// Takes ownership of a librdkafka error and returns its text.
std::string ErrorText(rd_kafka_error_t* error) {
  std::string text = rd_kafka_error_string(error);
  rd_kafka_error_destroy(error);
  return text;
}

}  // namespace

KafkaPartitionQueue::~KafkaPartitionQueue() {
  put_back_.reset();
  rd_kafka_queue_destroy(queue_);
}

KafkaMessage KafkaPartitionQueue::Poll(int timeout_ms) {
  KafkaMessage message = put_back_ ? std::move(put_back_)
                                   : KafkaMessage(rd_kafka_consume_queue(queue_, timeout_ms));
  if (message != nullptr && message->err == RD_KAFKA_RESP_ERR_NO_ERROR &&
      message->offset >= next_) {
    next_ = message->offset + 1;
  }
  return message;
}

void KafkaPartitionQueue::PutBack(KafkaMessage record, int64_t offset) {
  put_back_ = std::move(record);
  next_ = offset;
}

void KafkaPartitionQueue::SkipTo(int64_t offset) {
  if (offset > next_) next_ = offset;
}

arrow::Result<std::unique_ptr<KafkaPartitionConsumer>> KafkaPartitionConsumer::Make(
    const std::map<std::string, std::string>& client_config,
    const std::string& group_id_prefix) {
  ARROW_ASSIGN_OR_RAISE(auto handle, KafkaConsumerHandle::Make(client_config, group_id_prefix));
  return std::unique_ptr<KafkaPartitionConsumer>(new KafkaPartitionConsumer(std::move(handle)));
}

arrow::Status KafkaPartitionConsumer::AssignExactly(const PartitionOffsets& starts) {
  PartitionSet stale;
  for (const auto& [partition, queue] : queues_) {
    auto start = starts.find(partition);
    if (start == starts.end() || start->second != queue->next()) stale.insert(partition);
  }
  ARROW_RETURN_NOT_OK(Unassign(stale));
  PartitionOffsets added;
  for (const auto& [partition, offset] : starts) {
    if (queues_.count(partition) == 0) added.emplace(partition, offset);
  }
  return Assign(added);
}

arrow::Result<KafkaPartitionQueue*> KafkaPartitionConsumer::QueueFrom(
    const TopicPartition& partition, int64_t offset) {
  auto found = queues_.find(partition);
  if (found != queues_.end() && found->second->next() == offset) return found->second.get();
  return Reassign(partition, offset);
}

arrow::Result<KafkaPartitionQueue*> KafkaPartitionConsumer::Reassign(
    const TopicPartition& partition, int64_t offset) {
  if (queues_.count(partition) > 0) ARROW_RETURN_NOT_OK(Unassign({partition}));
  ARROW_RETURN_NOT_OK(Assign({{partition, offset}}));
  return queues_.at(partition).get();
}

arrow::Status KafkaPartitionConsumer::Assign(const PartitionOffsets& starts) {
  if (starts.empty()) return arrow::Status::OK();
  PartitionList list(rd_kafka_topic_partition_list_new(static_cast<int>(starts.size())));
  std::map<TopicPartition, std::unique_ptr<KafkaPartitionQueue>> added;
  for (const auto& [partition, offset] : starts) {
    // The queue stops forwarding to the consumer queue before librdkafka starts fetching,
    // and keeps doing so (librdkafka leaves a queue the application forwarded alone).
    rd_kafka_queue_t* queue = rd_kafka_queue_get_partition(
        handle_->get(), partition.topic.c_str(), partition.partition);
    if (queue == nullptr) {
      return arrow::Status::IOError("Cannot read ", partition.ToString(), ": no such partition");
    }
    rd_kafka_queue_forward(queue, nullptr);
    added[partition] = std::make_unique<KafkaPartitionQueue>(queue, offset);
    rd_kafka_topic_partition_list_add(list.get(), partition.topic.c_str(), partition.partition)
        ->offset = offset;
  }
  if (rd_kafka_error_t* error = rd_kafka_incremental_assign(handle_->get(), list.get())) {
    std::string text = ErrorText(error);
    return arrow::Status::IOError("Cannot read ", SetText(KeysOf(starts)), " from offsets ",
                                  MapText(starts), ": ", text);
  }
  queues_.merge(added);
  return arrow::Status::OK();
}

arrow::Status KafkaPartitionConsumer::Unassign(const PartitionSet& partitions) {
  if (partitions.empty()) return arrow::Status::OK();
  PartitionList list(rd_kafka_topic_partition_list_new(static_cast<int>(partitions.size())));
  for (const auto& partition : partitions) {
    rd_kafka_topic_partition_list_add(list.get(), partition.topic.c_str(), partition.partition);
    queues_.erase(partition);
  }
  if (rd_kafka_error_t* error = rd_kafka_incremental_unassign(handle_->get(), list.get())) {
    return arrow::Status::IOError("Cannot stop reading ", SetText(partitions), ": ",
                                  ErrorText(error));
  }
  return arrow::Status::OK();
}

}  // namespace sluice::sources::kafka
