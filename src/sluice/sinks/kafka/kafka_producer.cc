#include "sluice/sinks/kafka/kafka_producer.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include <librdkafka/rdkafka.h>

namespace sluice::sinks {

namespace {

using ConfPtr = std::unique_ptr<rd_kafka_conf_t, decltype(&rd_kafka_conf_destroy)>;

/// librdkafka's value of a setting of `conf`, as a number.
int64_t ConfNumber(rd_kafka_conf_t* conf, const char* name, int64_t fallback) {
  char value[64];
  size_t size = sizeof(value);
  if (rd_kafka_conf_get(conf, name, value, &size) != RD_KAFKA_CONF_OK) return fallback;
  return std::strtoll(value, nullptr, 10);
}

/// The producer configuration: Java-like defaults, then the user's kafka.* settings.
arrow::Result<ConfPtr> BuildConf(const KafkaSinkOptions& options,
                                 const std::optional<std::string>& transactional_id) {
  ConfPtr conf(rd_kafka_conf_new(), &rd_kafka_conf_destroy);
  char error[512];
  // What Spark's Java producer does by default, where librdkafka differs: idempotent
  // delivery, the murmur2 partitioner (so keyed records land where Java puts them) and a
  // 120 s delivery timeout. A transactional producer keeps librdkafka's delivery timeout,
  // which follows transaction.timeout.ms (60 s, as Java's) and may not exceed it.
  std::vector<std::pair<const char*, const char*>> defaults = {
      {"enable.idempotence", "true"}, {"partitioner", "murmur2_random"}};
  if (!transactional_id) defaults.emplace_back("message.timeout.ms", "120000");
  // A transaction's first write right after the previous commit is refused with "concurrent
  // transactions" while the broker still writes that commit's markers; librdkafka retries
  // after retry.backoff.ms, whose 100 ms default became the tail of the sink's latency.
  if (transactional_id) {
    defaults.emplace_back("retry.backoff.ms", "5");
    // Each micro-batch ends with a flush and a commit: waiting to fill producer batches
    // (librdkafka's 5 ms linger) only delays the end of the batch.
    defaults.emplace_back("linger.ms", "0");
  }
  for (const auto& [name, value] : defaults) {
    if (rd_kafka_conf_set(conf.get(), name, value, error, sizeof(error)) != RD_KAFKA_CONF_OK) {
      return arrow::Status::UnknownError("librdkafka refused ", name, "=", value, ": ", error);
    }
  }
  for (const auto& [name, value] : options.producer_settings) {
    if (rd_kafka_conf_set(conf.get(), name.c_str(), value.c_str(), error, sizeof(error)) !=
        RD_KAFKA_CONF_OK) {
      return arrow::Status::Invalid("Invalid Kafka producer option 'kafka.", name, "' = '",
                                    value, "': ", error);
    }
  }
  if (transactional_id) {
    if (rd_kafka_conf_set(conf.get(), "transactional.id", transactional_id->c_str(), error,
                          sizeof(error)) != RD_KAFKA_CONF_OK) {
      return arrow::Status::Invalid("Invalid Kafka transactional id '", *transactional_id,
                                    "': ", error);
    }
  }
  return conf;
}

/// Takes ownership of a librdkafka error object and returns its message.
std::string ErrorText(rd_kafka_error_t* error) {
  std::string text = rd_kafka_error_string(error);
  rd_kafka_error_destroy(error);
  return text;
}

int64_t RecordSize(const KafkaRecordBatchView& rows, int64_t row) {
  int64_t size = 0;
  if (auto key = rows.key(row)) size += static_cast<int64_t>(key->size());
  if (auto value = rows.value(row)) size += static_cast<int64_t>(value->size());
  return size;
}

/// A pointer librdkafka reads as "present": an empty but non-null key or value stays empty
/// instead of becoming null.
void* Bytes(std::string_view bytes) {
  static char empty[1] = {0};
  return bytes.data() == nullptr ? empty : const_cast<char*>(bytes.data());
}

}  // namespace

arrow::Status CheckKafkaProducerSettings(const KafkaSinkOptions& options) {
  return BuildConf(options, std::nullopt).status();
}

arrow::Result<std::unique_ptr<KafkaProducer>> KafkaProducer::Make(
    const KafkaSinkOptions& options, std::optional<std::string> transactional_id) {
  ARROW_ASSIGN_OR_RAISE(auto conf, BuildConf(options, transactional_id));
  std::unique_ptr<KafkaProducer> producer(new KafkaProducer());
  producer->options_ = options;
  producer->bootstrap_servers_ = options.bootstrap_servers;
  producer->transactional_id_ = std::move(transactional_id);
  producer->max_block_ms_ = options.max_block_ms;
  producer->delivery_timeout_ms_ = ConfNumber(conf.get(), "message.timeout.ms", 120'000);
  if (producer->transactional_id_) {
    // librdkafka lowers an unset delivery timeout to the transaction timeout.
    producer->delivery_timeout_ms_ =
        std::min(producer->delivery_timeout_ms_,
                 ConfNumber(conf.get(), "transaction.timeout.ms", 60'000));
  }
  producer->message_max_bytes_ = ConfNumber(conf.get(), "message.max.bytes", 1'000'000);
  rd_kafka_conf_set_dr_msg_cb(conf.get(), &KafkaProducer::OnDelivery);
  rd_kafka_conf_set_opaque(conf.get(), producer.get());
  char error[512];
  producer->handle_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), error, sizeof(error));
  if (producer->handle_ == nullptr) {
    return arrow::Status::Invalid("Cannot create a Kafka producer for bootstrap servers '",
                                  options.bootstrap_servers, "': ", error);
  }
  conf.release();  // Owned by the handle now.
  return producer;
}

KafkaProducer::~KafkaProducer() {
  if (handle_ == nullptr) return;
  for (auto& [name, topic] : topics_) rd_kafka_topic_destroy(topic);
  // Records still queued are dropped, as a crashed process would drop them; a clean stop
  // flushed them first. The batches they point into (in_flight_) are released only after
  // this body, once librdkafka has let go of every record.
  rd_kafka_destroy(handle_);
}

void KafkaProducer::OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  static_cast<KafkaProducer*>(opaque)->RecordDelivery(*message);
}

void KafkaProducer::RecordDelivery(const rd_kafka_message_t& message) {
  if (message.err == RD_KAFKA_RESP_ERR_NO_ERROR) {
    ++delivered_;
    return;
  }
  int64_t size = static_cast<int64_t>(message.len + message.key_len);
  // The first failure tells the story; except that the broker refuses a too large request
  // as a whole, failing the small records sent with the large one: the largest names it.
  if (!delivery_error_.ok() &&
      !(message.err == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE &&
        delivery_error_code_ == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE &&
        size > delivery_error_size_)) {
    return;
  }
  delivery_error_code_ = message.err;
  delivery_error_size_ = size;
  std::string topic = rd_kafka_topic_name(message.rkt);
  std::string reason = rd_kafka_err2str(message.err);
  if (message.err == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE) {
    reason += " (the record is larger than the topic's max.message.bytes or the broker's "
              "message.max.bytes allows)";
  }
  delivery_error_ = Failure("Failed to deliver a record of " + std::to_string(size) +
                                " bytes to Kafka topic '" + topic + "' partition " +
                                std::to_string(message.partition),
                            reason);
}

arrow::Status KafkaProducer::Failure(const std::string& what, const std::string& reason) const {
  std::string who = "bootstrap servers '" + bootstrap_servers_ + "'";
  if (transactional_id_) who += ", transactional id '" + *transactional_id_ + "'";
  return arrow::Status::IOError(what, " (", who, "): ", reason);
}

arrow::Status KafkaProducer::TakeDeliveryError() {
  arrow::Status error = std::move(delivery_error_);
  delivery_error_ = arrow::Status::OK();
  delivery_error_code_ = 0;
  return error;
}

arrow::Result<rd_kafka_topic_t*> KafkaProducer::Topic(std::string_view name) {
  std::string key(name);
  auto found = topics_.find(key);
  if (found != topics_.end()) return found->second;
  rd_kafka_topic_t* topic = rd_kafka_topic_new(handle_, key.c_str(), nullptr);
  if (topic == nullptr) {
    return Failure("Cannot write to Kafka topic '" + key + "'",
                   rd_kafka_err2str(rd_kafka_last_error()));
  }
  topics_.emplace(std::move(key), topic);
  return topic;
}

arrow::Status KafkaProducer::Send(const KafkaRecordBatchView& rows) {
  in_flight_.push_back(rows);
  for (int64_t row = 0; row < rows.num_rows(); ++row) {
    ARROW_RETURN_NOT_OK(SendRecord(rows, row));
  }
  // Serve delivery reports so that a failure stops the batch early.
  rd_kafka_poll(handle_, 0);
  return delivery_error_;
}

arrow::Status KafkaProducer::SendRecord(const KafkaRecordBatchView& rows, int64_t row) {
  auto topic_name = rows.topic(row);
  if (!topic_name) {
    return arrow::Status::Invalid(
        "null topic present in the data. Use the topic option for setting a default topic.");
  }
  ARROW_ASSIGN_OR_RAISE(rd_kafka_topic_t * topic, Topic(*topic_name));
  rd_kafka_vu_t parts[5];
  size_t count = 0;
  parts[count].vtype = RD_KAFKA_VTYPE_RKT;
  parts[count++].u.rkt = topic;
  parts[count].vtype = RD_KAFKA_VTYPE_PARTITION;
  parts[count++].u.i32 = rows.partition(row).value_or(RD_KAFKA_PARTITION_UA);
  parts[count].vtype = RD_KAFKA_VTYPE_VALUE;
  if (auto value = rows.value(row)) {
    parts[count++].u.mem = {Bytes(*value), value->size()};
  } else {
    parts[count++].u.mem = {nullptr, 0};
  }
  if (auto key = rows.key(row)) {
    parts[count].vtype = RD_KAFKA_VTYPE_KEY;
    parts[count++].u.mem = {Bytes(*key), key->size()};
  }
  rd_kafka_headers_t* headers = nullptr;
  if (int64_t num_headers = rows.num_headers(row); num_headers > 0) {
    headers = rd_kafka_headers_new(static_cast<size_t>(num_headers));
    for (int64_t i = 0; i < num_headers; ++i) {
      auto header = rows.header(row, i);
      if (!header.ok()) {
        rd_kafka_headers_destroy(headers);
        return header.status();
      }
      const void* value = header->value ? Bytes(*header->value) : nullptr;
      ssize_t size = header->value ? static_cast<ssize_t>(header->value->size()) : 0;
      rd_kafka_header_add(headers, header->key.data(), static_cast<ssize_t>(header->key.size()),
                          value, size);
    }
    parts[count].vtype = RD_KAFKA_VTYPE_HEADERS;
    parts[count++].u.headers = headers;
  }
  while (true) {
    rd_kafka_error_t* error = rd_kafka_produceva(handle_, parts, count);
    if (error == nullptr) return arrow::Status::OK();  // The headers belong to the record now.
    rd_kafka_resp_err_t code = rd_kafka_error_code(error);
    if (code == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      rd_kafka_error_destroy(error);
      // Deliveries free queue space; each record either succeeds or fails within the
      // delivery timeout, so this wait ends.
      rd_kafka_poll(handle_, 10);
      ARROW_RETURN_NOT_OK(delivery_error_);
      continue;
    }
    if (headers != nullptr) rd_kafka_headers_destroy(headers);
    std::string what = "Failed to send a record of " + std::to_string(RecordSize(rows, row)) +
                       " bytes to Kafka topic '" + std::string(*topic_name) + "'";
    if (auto partition = rows.partition(row)) what += " partition " + std::to_string(*partition);
    std::string reason = ErrorText(error);
    if (code == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE) {
      reason += " (larger than the producer's message.max.bytes of " +
                std::to_string(message_max_bytes_) +
                "; raise kafka.message.max.bytes and the topic's max.message.bytes, or write "
                "smaller records)";
    }
    return Failure(what, reason);
  }
}

arrow::Status KafkaProducer::Flush() {
  // librdkafka fails every record within the delivery timeout; the margin covers the
  // last requests in flight.
  int64_t bound_ms = delivery_timeout_ms_ + max_block_ms_;
  rd_kafka_resp_err_t result = rd_kafka_flush(handle_, static_cast<int>(bound_ms));
  // Records still queued point into the batches: those stay alive until the records are
  // done or the producer is destroyed.
  if (result == RD_KAFKA_RESP_ERR_NO_ERROR) in_flight_.clear();
  ARROW_RETURN_NOT_OK(TakeDeliveryError());
  if (result != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Failure("Timed out after " + std::to_string(bound_ms) + " ms waiting for " +
                       std::to_string(rd_kafka_outq_len(handle_)) +
                       " Kafka records to be acknowledged",
                   rd_kafka_err2str(result));
  }
  return arrow::Status::OK();
}

arrow::Status KafkaProducer::InitTransactions() {
  rd_kafka_error_t* error = rd_kafka_init_transactions(handle_, static_cast<int>(max_block_ms_));
  if (error == nullptr) return arrow::Status::OK();
  return Failure("Cannot start Kafka transactions within kafka.max.block.ms = " +
                     std::to_string(max_block_ms_) + " ms",
                 ErrorText(error));
}

arrow::Status KafkaProducer::BeginTransaction() {
  rd_kafka_error_t* error = rd_kafka_begin_transaction(handle_);
  if (error == nullptr) return arrow::Status::OK();
  return Failure("Cannot begin a Kafka transaction", ErrorText(error));
}

arrow::Status KafkaProducer::SendOffsetsToTransaction(const std::string& group,
                                                      const std::string& topic,
                                                      int32_t partition, int64_t offset) {
  rd_kafka_topic_partition_list_t* offsets = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(offsets, topic.c_str(), partition)->offset = offset;
  rd_kafka_consumer_group_metadata_t* metadata =
      rd_kafka_consumer_group_metadata_new(group.c_str());
  rd_kafka_error_t* error = rd_kafka_send_offsets_to_transaction(
      handle_, offsets, metadata, static_cast<int>(max_block_ms_));
  rd_kafka_consumer_group_metadata_destroy(metadata);
  rd_kafka_topic_partition_list_destroy(offsets);
  if (error == nullptr) return arrow::Status::OK();
  return Failure("Cannot record offset " + std::to_string(offset) + " of Kafka topic '" + topic +
                     "' partition " + std::to_string(partition) + " for group '" + group +
                     "' in the transaction",
                 ErrorText(error));
}

arrow::Status KafkaProducer::CommitTransaction() {
  ARROW_RETURN_NOT_OK(Flush());
  rd_kafka_error_t* error =
      rd_kafka_commit_transaction(handle_, static_cast<int>(max_block_ms_));
  if (error == nullptr) return arrow::Status::OK();
  return Failure("Cannot commit the Kafka transaction", ErrorText(error));
}

arrow::Status KafkaProducer::AbortTransaction() {
  rd_kafka_error_t* error =
      rd_kafka_abort_transaction(handle_, static_cast<int>(max_block_ms_));
  // A completed abort has purged every record of the transaction.
  if (error == nullptr) in_flight_.clear();
  // Deliveries failed by the abort are not the story: the reason of the abort is.
  delivery_error_ = arrow::Status::OK();
  delivery_error_code_ = 0;
  if (error == nullptr) return arrow::Status::OK();
  return Failure("Cannot abort the Kafka transaction", ErrorText(error));
}

arrow::Result<std::optional<int64_t>> KafkaProducer::LastCommittedOffset(
    const std::string& group) {
  // Asked through a client of its own: the transactional producer retries after 5 ms (see
  // BuildConf), which gives up on a coordinator that is still restarting.
  ARROW_ASSIGN_OR_RAISE(auto conf, BuildConf(options_, std::nullopt));
  char create_error[512];
  std::unique_ptr<rd_kafka_t, decltype(&rd_kafka_destroy)> admin(
      rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), create_error, sizeof(create_error)),
      &rd_kafka_destroy);
  if (admin == nullptr) {
    return Failure("Cannot create a Kafka client to read the offsets of consumer group '" +
                       group + "'",
                   create_error);
  }
  conf.release();  // Owned by the client now.
  rd_kafka_t* handle = admin.get();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(max_block_ms_);
  while (true) {
    rd_kafka_ListConsumerGroupOffsets_t* request =
        rd_kafka_ListConsumerGroupOffsets_new(group.c_str(), nullptr);
    rd_kafka_AdminOptions_t* admin_options =
        rd_kafka_AdminOptions_new(handle, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS);
    char text[512];
    rd_kafka_AdminOptions_set_request_timeout(admin_options, static_cast<int>(max_block_ms_),
                                              text, sizeof(text));
    // Count only offsets of committed transactions.
    if (rd_kafka_error_t* error =
            rd_kafka_AdminOptions_set_require_stable_offsets(admin_options, 1)) {
      rd_kafka_error_destroy(error);
    }
    rd_kafka_queue_t* queue = rd_kafka_queue_new(handle);
    rd_kafka_ListConsumerGroupOffsets(handle, &request, 1, admin_options, queue);
    rd_kafka_ListConsumerGroupOffsets_destroy(request);
    rd_kafka_AdminOptions_destroy(admin_options);
    rd_kafka_event_t* event = rd_kafka_queue_poll(queue, static_cast<int>(max_block_ms_) + 1000);
    rd_kafka_queue_destroy(queue);
    if (event == nullptr) {
      return Failure("Timed out reading the offsets of consumer group '" + group + "'",
                     "no answer within kafka.max.block.ms = " + std::to_string(max_block_ms_) +
                         " ms");
    }
    rd_kafka_resp_err_t code = rd_kafka_event_error(event);
    std::string reason = code ? rd_kafka_event_error_string(event) : "";
    std::optional<int64_t> last;
    if (code == RD_KAFKA_RESP_ERR_NO_ERROR) {
      size_t num_groups = 0;
      const rd_kafka_group_result_t** groups = rd_kafka_ListConsumerGroupOffsets_result_groups(
          rd_kafka_event_ListConsumerGroupOffsets_result(event), &num_groups);
      if (num_groups == 1) {
        if (const rd_kafka_error_t* error = rd_kafka_group_result_error(groups[0])) {
          code = rd_kafka_error_code(error);
          reason = rd_kafka_error_string(error);
        } else if (const auto* partitions = rd_kafka_group_result_partitions(groups[0])) {
          for (int i = 0; i < partitions->cnt; ++i) {
            const auto& partition = partitions->elems[i];
            if (partition.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
              code = partition.err;
              reason = rd_kafka_err2str(partition.err);
              break;
            }
            if (partition.offset >= 0 && (!last || partition.offset > *last)) {
              last = partition.offset;
            }
          }
        }
      }
    }
    rd_kafka_event_destroy(event);
    if (code == RD_KAFKA_RESP_ERR_NO_ERROR || code == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND) {
      return code == RD_KAFKA_RESP_ERR_NO_ERROR ? last : std::nullopt;
    }
    // An offset commit of a transaction still being completed: wait for its outcome.
    bool retriable = code == RD_KAFKA_RESP_ERR_UNSTABLE_OFFSET_COMMIT ||
                     code == RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS ||
                     code == RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE ||
                     code == RD_KAFKA_RESP_ERR_NOT_COORDINATOR;
    if (!retriable || std::chrono::steady_clock::now() >= deadline) {
      return Failure("Cannot read the offsets of consumer group '" + group + "'", reason);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace sluice::sinks
