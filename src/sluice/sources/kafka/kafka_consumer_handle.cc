#include "sluice/sources/kafka/kafka_consumer_handle.h"

#include <random>

namespace sluice::sources::kafka {

namespace {

// A group id no other consumer uses, as Spark's streamingUniqueGroupId / batchUniqueGroupId.
std::string UniqueGroupId(const std::string& prefix) {
  std::random_device device;
  std::mt19937_64 random(device());
  constexpr char kHex[] = "0123456789abcdef";
  std::string id = prefix + "-";
  for (int i = 0; i < 32; ++i) id += kHex[random() % 16];
  return id;
}

// librdkafka's own log lines go nowhere: the errors that matter reach the source as events
// and end up in its error messages.
void DropLog(const rd_kafka_t*, int, const char*, const char*) {}

// Without an error callback librdkafka only logs client errors; with it they arrive as calls
// during rd_kafka_consumer_poll.
void RecordError(rd_kafka_t*, int code, const char* reason, void* opaque) {
  auto* last = static_cast<KafkaConsumerHandle::ClientError*>(opaque);
  last->code = static_cast<rd_kafka_resp_err_t>(code);
  last->text = std::string(rd_kafka_err2name(last->code)) + ": " + reason;
}

}  // namespace

arrow::Result<std::unique_ptr<KafkaConsumerHandle>> KafkaConsumerHandle::Make(
    const std::map<std::string, std::string>& client_config,
    const std::string& group_id_prefix) {
  std::map<std::string, std::string> settings = {
      {"isolation.level", "read_uncommitted"},
      {"group.id", UniqueGroupId(group_id_prefix)},
      // When the broker waits at the end of a partition (control records last), answer soon.
      {"fetch.wait.max.ms", "100"},
      // librdkafka stops prefetching a partition once this many records wait in its queue
      // (100000 by default), which held a batch's read to about 300K records/s; the queue
      // stays bounded by queued.max.messages.kbytes (64 MiB a partition).
      {"queued.min.messages", "1000000"},
  };
  for (const auto& [key, value] : client_config) settings[key] = value;
  settings["enable.auto.commit"] = "false";
  settings["enable.auto.offset.store"] = "false";
  settings["auto.offset.reset"] = "error";
  settings["enable.partition.eof"] = "true";

  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char error[512];
  for (const auto& [key, value] : settings) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), error, sizeof(error)) !=
        RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      return arrow::Status::Invalid("Kafka option 'kafka.", key,
                                    "' is not accepted by the Kafka client: ", error);
    }
  }
  auto last_error = std::make_unique<ClientError>();
  rd_kafka_conf_set_log_cb(conf, DropLog);
  rd_kafka_conf_set_error_cb(conf, RecordError);
  rd_kafka_conf_set_opaque(conf, last_error.get());
  std::unique_ptr<KafkaConsumerHandle> consumer(
      new KafkaConsumerHandle(settings["bootstrap.servers"], std::move(last_error)));
  consumer->handle_ = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof(error));
  if (consumer->handle_ == nullptr) {
    rd_kafka_conf_destroy(conf);
    return arrow::Status::Invalid("Cannot create a Kafka consumer for kafka.bootstrap.servers=",
                                  settings["bootstrap.servers"], ": ", error);
  }
  rd_kafka_poll_set_consumer(consumer->handle_);
  consumer->group_id_ = settings["group.id"];
  return consumer;
}

KafkaConsumerHandle::~KafkaConsumerHandle() {
  if (handle_ == nullptr) return;
  rd_kafka_consumer_close(handle_);
  rd_kafka_destroy(handle_);
}

KafkaConsumerHandle::ClientError KafkaConsumerHandle::DrainErrors() {
  ClientError last;
  while (rd_kafka_message_t* message = rd_kafka_consumer_poll(handle_, 0)) {
    if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR &&
        message->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      last.code = message->err;
      last.text = rd_kafka_message_errstr(message);
    }
    rd_kafka_message_destroy(message);
  }
  if (last_error_->code != RD_KAFKA_RESP_ERR_NO_ERROR) return *last_error_;
  return last;
}

std::string KafkaErrorText(rd_kafka_resp_err_t error) {
  return std::string(rd_kafka_err2name(error)) + ": " + rd_kafka_err2str(error);
}

}  // namespace sluice::sources::kafka
