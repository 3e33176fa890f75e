// One librdkafka consumer handle of the Kafka source, configured from the user's kafka.*
// settings plus the ones the source needs (Spark's kafkaParamsForDriver/ForExecutors).
#pragma once

#include <map>
#include <memory>
#include <string>

#include <arrow/result.h>
#include <arrow/status.h>

#include <librdkafka/rdkafka.h>

namespace sluice::sources::kafka {

/// Owns an rd_kafka_t consumer that never joins a group, never commits and never resets an
/// offset by itself: the source assigns partitions and offsets explicitly. Its events (client
/// errors) are served by rd_kafka_consumer_poll; the records of its partitions come from
/// their own queues (KafkaPartitionConsumer). Thread-compatible: one thread uses it.
class KafkaConsumerHandle {
 public:
  /// A consumer with `client_config` (the kafka.* options without the prefix) over the
  /// source's settings: isolation.level read_uncommitted (Java's default, which Spark keeps)
  /// and a group.id of its own (`group_id_prefix`, a dash, random hex) unless the user set
  /// them; enable.auto.commit=false,
  /// auto.offset.reset=error and enable.partition.eof=true always. A setting librdkafka
  /// refuses fails naming the kafka.* option.
  static arrow::Result<std::unique_ptr<KafkaConsumerHandle>> Make(
      const std::map<std::string, std::string>& client_config,
      const std::string& group_id_prefix);

  ~KafkaConsumerHandle();
  KafkaConsumerHandle(const KafkaConsumerHandle&) = delete;
  KafkaConsumerHandle& operator=(const KafkaConsumerHandle&) = delete;

  rd_kafka_t* get() const { return handle_; }
  /// kafka.bootstrap.servers, for messages.
  const std::string& bootstrap_servers() const { return bootstrap_servers_; }
  /// The consumer's group.id (the user's or the generated one), for messages.
  const std::string& group_id() const { return group_id_; }

  /// A client-level error event: all brokers down, transport, authentication, ...
  struct ClientError {
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    std::string text;
  };
  /// Serves pending events without waiting; returns the last client-level error since the
  /// last ClearErrors() (code NO_ERROR when there was none). librdkafka reports a state such
  /// as "all brokers down" once, when it begins, so the error stays until cleared. Records
  /// never come this way: partitions are read from their own queues.
  ClientError DrainErrors();
  /// Forgets the errors so far: a request just succeeded.
  void ClearErrors() { *last_error_ = ClientError{}; }

 private:
  KafkaConsumerHandle(std::string bootstrap_servers, std::unique_ptr<ClientError> last_error)
      : bootstrap_servers_(std::move(bootstrap_servers)), last_error_(std::move(last_error)) {}

  rd_kafka_t* handle_ = nullptr;
  std::string bootstrap_servers_;
  std::string group_id_;
  // Written by librdkafka's error callback, which runs inside rd_kafka_consumer_poll on the
  // thread using the handle; boxed so that its address outlives moves.
  std::unique_ptr<ClientError> last_error_;
};

/// The text of a librdkafka error code.
std::string KafkaErrorText(rd_kafka_resp_err_t error);

}  // namespace sluice::sources::kafka
