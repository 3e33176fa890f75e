#include "support/kafka_client.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <thread>

namespace sluice::testing {
namespace {

using Clock = std::chrono::steady_clock;

struct HandleDeleter {
  void operator()(rd_kafka_t* handle) const { rd_kafka_destroy(handle); }
};
struct QueueDeleter {
  void operator()(rd_kafka_queue_t* queue) const { rd_kafka_queue_destroy(queue); }
};
struct EventDeleter {
  void operator()(rd_kafka_event_t* event) const { rd_kafka_event_destroy(event); }
};
struct MessageDeleter {
  void operator()(rd_kafka_message_t* message) const { rd_kafka_message_destroy(message); }
};
struct MetadataDeleter {
  void operator()(const rd_kafka_metadata_t* metadata) const {
    rd_kafka_metadata_destroy(metadata);
  }
};
struct ErrorDeleter {
  void operator()(rd_kafka_error_t* error) const { rd_kafka_error_destroy(error); }
};
using Handle = std::unique_ptr<rd_kafka_t, HandleDeleter>;
using Queue = std::unique_ptr<rd_kafka_queue_t, QueueDeleter>;
using Event = std::unique_ptr<rd_kafka_event_t, EventDeleter>;
using Message = std::unique_ptr<rd_kafka_message_t, MessageDeleter>;
using Metadata = std::unique_ptr<const rd_kafka_metadata_t, MetadataDeleter>;
using Error = std::unique_ptr<rd_kafka_error_t, ErrorDeleter>;

int TimeoutMs(std::chrono::milliseconds duration) { return static_cast<int>(duration.count()); }

/// A librdkafka handle of `type` with `settings`; `customize` may add callbacks to the
/// configuration before the handle takes it over.
arrow::Result<Handle> NewHandle(rd_kafka_type_t type,
                                const std::map<std::string, std::string>& settings,
                                const std::function<void(rd_kafka_conf_t*)>& customize = {}) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char error[512];
  for (const auto& [name, value] : settings) {
    if (rd_kafka_conf_set(conf, name.c_str(), value.c_str(), error, sizeof(error)) !=
        RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      return arrow::Status::Invalid("librdkafka setting ", name, "=", value, ": ", error);
    }
  }
  if (customize) customize(conf);
  rd_kafka_t* handle = rd_kafka_new(type, conf, error, sizeof(error));
  if (handle == nullptr) {
    rd_kafka_conf_destroy(conf);  // rd_kafka_new takes it over only on success.
    return arrow::Status::IOError("cannot create a librdkafka client: ", error);
  }
  return Handle(handle);
}

/// Every topic the broker knows (a request for all topics never creates one).
arrow::Result<Metadata> AllTopics(rd_kafka_t* handle, std::chrono::milliseconds patience) {
  const rd_kafka_metadata_t* metadata = nullptr;
  const rd_kafka_resp_err_t error =
      rd_kafka_metadata(handle, /*all_topics=*/1, nullptr, &metadata, TimeoutMs(patience));
  if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return arrow::Status::IOError("Kafka metadata request failed: ", rd_kafka_err2str(error));
  }
  return Metadata(metadata);
}

const rd_kafka_metadata_topic_t* FindTopic(const rd_kafka_metadata_t& metadata,
                                           const std::string& topic) {
  for (int i = 0; i < metadata.topic_cnt; ++i) {
    if (topic == metadata.topics[i].topic) return &metadata.topics[i];
  }
  return nullptr;
}

/// Whether the metadata shows `topic` with `partitions` partitions, each with a leader.
bool TopicReady(const rd_kafka_metadata_t& metadata, const std::string& topic, int partitions) {
  const rd_kafka_metadata_topic_t* found = FindTopic(metadata, topic);
  if (found == nullptr || found->err != RD_KAFKA_RESP_ERR_NO_ERROR ||
      found->partition_cnt != partitions) {
    return false;
  }
  return std::all_of(found->partitions, found->partitions + found->partition_cnt,
                     [](const rd_kafka_metadata_partition_t& p) { return p.leader >= 0; });
}

/// Polls the metadata until `done` holds for it or `patience` runs out.
arrow::Status AwaitMetadata(rd_kafka_t* handle, std::chrono::milliseconds patience,
                            const std::function<bool(const rd_kafka_metadata_t&)>& done,
                            const std::string& what) {
  const auto deadline = Clock::now() + patience;
  for (;;) {
    ARROW_ASSIGN_OR_RAISE(Metadata metadata, AllTopics(handle, patience));
    if (done(*metadata)) return arrow::Status::OK();
    if (Clock::now() >= deadline) {
      return arrow::Status::IOError("Kafka metadata did not show ", what, " within ",
                                    patience.count(), " ms");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

/// Runs one admin request whose result arrives on `queue`, and returns the topic results.
arrow::Result<Event> AwaitAdminResult(rd_kafka_queue_t* queue,
                                      std::chrono::milliseconds patience,
                                      const std::string& what) {
  // The request's own timeouts (set in its options) end it before this does.
  Event event(rd_kafka_queue_poll(queue, TimeoutMs(patience) + 5000));
  if (event == nullptr) return arrow::Status::IOError(what, ": no answer from Kafka");
  if (rd_kafka_event_error(event.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return arrow::Status::IOError(what, ": ", rd_kafka_event_error_string(event.get()));
  }
  return event;
}

arrow::Status CheckTopicResults(const rd_kafka_topic_result_t** results, size_t count,
                                const std::string& what) {
  for (size_t i = 0; i < count; ++i) {
    const rd_kafka_resp_err_t error = rd_kafka_topic_result_error(results[i]);
    if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
      const char* message = rd_kafka_topic_result_error_string(results[i]);
      return arrow::Status::IOError(what, ": ", message ? message : rd_kafka_err2str(error));
    }
  }
  return arrow::Status::OK();
}

rd_kafka_AdminOptions_t* NewAdminOptions(rd_kafka_t* handle, rd_kafka_admin_op_t operation,
                                         std::chrono::milliseconds patience) {
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(handle, operation);
  char error[256];
  rd_kafka_AdminOptions_set_request_timeout(options, TimeoutMs(patience), error, sizeof(error));
  rd_kafka_AdminOptions_set_operation_timeout(options, TimeoutMs(patience), error,
                                              sizeof(error));
  return options;
}

std::optional<std::string> Bytes(const void* data, size_t size) {
  if (data == nullptr) return std::nullopt;
  return std::string(static_cast<const char*>(data), size);
}

std::vector<KafkaHeader> HeadersOf(const rd_kafka_message_t* message) {
  std::vector<KafkaHeader> headers;
  rd_kafka_headers_t* all = nullptr;  // Owned by the message.
  if (rd_kafka_message_headers(message, &all) != RD_KAFKA_RESP_ERR_NO_ERROR) return headers;
  const char* name;
  const void* value;
  size_t size;
  for (size_t i = 0; rd_kafka_header_get_all(all, i, &name, &value, &size) ==
                     RD_KAFKA_RESP_ERR_NO_ERROR;
       ++i) {
    headers.push_back({name, Bytes(value, size)});
  }
  return headers;
}

/// A record as the broker keeps it, from a consumed or delivered message.
KafkaRecord RecordOf(const rd_kafka_message_t* message) {
  KafkaRecord record;
  record.key = Bytes(message->key, message->key_len);
  record.value = Bytes(message->payload, message->len);
  record.headers = HeadersOf(message);
  record.partition = message->partition;
  record.offset = message->offset;
  rd_kafka_timestamp_type_t type;
  record.timestamp_ms = rd_kafka_message_timestamp(message, &type);
  record.timestamp_type = type == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME ? 1 : 0;
  return record;
}

arrow::Status TransactionError(rd_kafka_error_t* raw, const std::string& what) {
  if (raw == nullptr) return arrow::Status::OK();
  Error error(raw);
  return arrow::Status::IOError(what, ": ", rd_kafka_error_string(error.get()));
}

/// The delivery reports of one Produce call, filled by librdkafka's callback on the thread
/// that polls or flushes.
struct Deliveries {
  std::vector<KafkaRecord> written;
  std::vector<rd_kafka_resp_err_t> errors;
};

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  auto* deliveries = static_cast<Deliveries*>(opaque);
  const auto index = reinterpret_cast<uintptr_t>(message->_private);
  deliveries->errors[index] = message->err;
  if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
    deliveries->written[index] = RecordOf(message);
  }
}

/// Queues one record for sending; headers go to librdkafka only when it accepts the record.
rd_kafka_resp_err_t Send(rd_kafka_t* producer, const std::string& topic,
                         const KafkaRecord& record, size_t index) {
  rd_kafka_headers_t* headers = rd_kafka_headers_new(record.headers.size());
  for (const KafkaHeader& header : record.headers) {
    rd_kafka_header_add(headers, header.key.data(), static_cast<ssize_t>(header.key.size()),
                        header.value ? header.value->data() : nullptr,
                        header.value ? static_cast<ssize_t>(header.value->size()) : 0);
  }
  // A null pointer makes a null key or value; a pointer with size 0 an empty one.
  const char* key = record.key ? record.key->data() : nullptr;
  const size_t key_size = record.key ? record.key->size() : 0;
  char* value = record.value ? const_cast<char*>(record.value->data()) : nullptr;
  const size_t value_size = record.value ? record.value->size() : 0;
  const int32_t partition = record.partition >= 0 ? record.partition : RD_KAFKA_PARTITION_UA;
  const int64_t timestamp_ms = record.timestamp_ms >= 0 ? record.timestamp_ms : 0;  // 0: now.
  void* opaque = reinterpret_cast<void*>(static_cast<uintptr_t>(index));
  const rd_kafka_resp_err_t error = rd_kafka_producev(
      producer, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(partition),
      RD_KAFKA_V_KEY(key, key_size), RD_KAFKA_V_VALUE(value, value_size),
      RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_TIMESTAMP(timestamp_ms),
      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_OPAQUE(opaque), RD_KAFKA_V_END);
  if (error != RD_KAFKA_RESP_ERR_NO_ERROR) rd_kafka_headers_destroy(headers);
  return error;
}

}  // namespace

std::ostream& operator<<(std::ostream& out, const KafkaRecord& record) {
  const auto text = [](const std::optional<std::string>& bytes) {
    return bytes ? "\"" + *bytes + "\"" : std::string("null");
  };
  out << "{partition " << record.partition << ", offset " << record.offset << ", key "
      << text(record.key) << ", value " << text(record.value) << ", timestamp "
      << record.timestamp_ms << " (type " << record.timestamp_type << "), headers [";
  for (size_t i = 0; i < record.headers.size(); ++i) {
    out << (i ? ", " : "") << record.headers[i].key << "=" << text(record.headers[i].value);
  }
  return out << "]}";
}

KafkaRecord KafkaRecord::WithKey(std::optional<std::string> new_key) const {
  KafkaRecord record = *this;
  record.key = std::move(new_key);
  return record;
}

KafkaRecord KafkaRecord::WithValue(std::optional<std::string> new_value) const {
  KafkaRecord record = *this;
  record.value = std::move(new_value);
  return record;
}

KafkaRecord KafkaRecord::WithHeader(std::string header_key,
                                    std::optional<std::string> header_value) const {
  KafkaRecord record = *this;
  record.headers.push_back({std::move(header_key), std::move(header_value)});
  return record;
}

KafkaRecord KafkaRecord::InPartition(int32_t new_partition) const {
  KafkaRecord record = *this;
  record.partition = new_partition;
  return record;
}

KafkaRecord KafkaRecord::At(int64_t new_timestamp_ms) const {
  KafkaRecord record = *this;
  record.timestamp_ms = new_timestamp_ms;
  return record;
}

std::string UniqueTopicName(const std::string& prefix) {
  std::random_device device;
  std::ostringstream name;
  name << prefix << "-" << std::hex << device() << device();
  return name.str();
}

KafkaTestClient::KafkaTestClient(std::string bootstrap, std::chrono::milliseconds patience)
    : bootstrap_(std::move(bootstrap)), patience_(patience) {}

arrow::Status KafkaTestClient::CreateTopic(const std::string& topic, int partitions,
                                           const std::map<std::string, std::string>& configs) {
  const std::string what = "cannot create Kafka topic '" + topic + "' with " +
                           std::to_string(partitions) + " partitions";
  ARROW_ASSIGN_OR_RAISE(Handle admin,
                        NewHandle(RD_KAFKA_PRODUCER, {{"bootstrap.servers", bootstrap_}}));
  char error[512];
  rd_kafka_NewTopic_t* new_topic =
      rd_kafka_NewTopic_new(topic.c_str(), partitions, /*replication_factor=*/1, error,
                            sizeof(error));
  if (new_topic == nullptr) return arrow::Status::Invalid(what, ": ", error);
  for (const auto& [name, value] : configs) {
    rd_kafka_NewTopic_set_config(new_topic, name.c_str(), value.c_str());
  }
  rd_kafka_AdminOptions_t* options =
      NewAdminOptions(admin.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS, patience_);
  Queue queue(rd_kafka_queue_new(admin.get()));
  rd_kafka_CreateTopics(admin.get(), &new_topic, 1, options, queue.get());
  rd_kafka_NewTopic_destroy(new_topic);
  rd_kafka_AdminOptions_destroy(options);

  ARROW_ASSIGN_OR_RAISE(Event event, AwaitAdminResult(queue.get(), patience_, what));
  size_t count = 0;
  const rd_kafka_topic_result_t** results = rd_kafka_CreateTopics_result_topics(
      rd_kafka_event_CreateTopics_result(event.get()), &count);
  ARROW_RETURN_NOT_OK(CheckTopicResults(results, count, what));
  return AwaitMetadata(
      admin.get(), patience_,
      [&](const rd_kafka_metadata_t& metadata) { return TopicReady(metadata, topic, partitions); },
      "topic '" + topic + "' with " + std::to_string(partitions) + " led partitions");
}

arrow::Status KafkaTestClient::DeleteTopic(const std::string& topic) {
  const std::string what = "cannot delete Kafka topic '" + topic + "'";
  ARROW_ASSIGN_OR_RAISE(Handle admin,
                        NewHandle(RD_KAFKA_PRODUCER, {{"bootstrap.servers", bootstrap_}}));
  rd_kafka_DeleteTopic_t* delete_topic = rd_kafka_DeleteTopic_new(topic.c_str());
  rd_kafka_AdminOptions_t* options =
      NewAdminOptions(admin.get(), RD_KAFKA_ADMIN_OP_DELETETOPICS, patience_);
  Queue queue(rd_kafka_queue_new(admin.get()));
  rd_kafka_DeleteTopics(admin.get(), &delete_topic, 1, options, queue.get());
  rd_kafka_DeleteTopic_destroy(delete_topic);
  rd_kafka_AdminOptions_destroy(options);

  ARROW_ASSIGN_OR_RAISE(Event event, AwaitAdminResult(queue.get(), patience_, what));
  size_t count = 0;
  const rd_kafka_topic_result_t** results = rd_kafka_DeleteTopics_result_topics(
      rd_kafka_event_DeleteTopics_result(event.get()), &count);
  ARROW_RETURN_NOT_OK(CheckTopicResults(results, count, what));
  return AwaitMetadata(
      admin.get(), patience_,
      [&](const rd_kafka_metadata_t& metadata) { return FindTopic(metadata, topic) == nullptr; },
      "topic '" + topic + "' gone");
}

arrow::Result<std::vector<int32_t>> KafkaTestClient::Partitions(const std::string& topic) {
  ARROW_ASSIGN_OR_RAISE(Handle admin,
                        NewHandle(RD_KAFKA_PRODUCER, {{"bootstrap.servers", bootstrap_}}));
  auto metadata = AllTopics(admin.get(), patience_);
  if (!metadata.ok()) {
    return arrow::Status::IOError("cannot list the partitions of Kafka topic '", topic,
                                  "': ", metadata.status().message());
  }
  const rd_kafka_metadata_topic_t* found = FindTopic(**metadata, topic);
  if (found == nullptr) {
    return arrow::Status::IOError("Kafka topic '", topic, "' does not exist");
  }
  if (found->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return arrow::Status::IOError("Kafka topic '", topic, "': ", rd_kafka_err2str(found->err));
  }
  std::vector<int32_t> partitions;
  for (int i = 0; i < found->partition_cnt; ++i) partitions.push_back(found->partitions[i].id);
  std::sort(partitions.begin(), partitions.end());
  return partitions;
}

arrow::Result<std::vector<KafkaRecord>> KafkaTestClient::Produce(
    const std::string& topic, const std::vector<KafkaRecord>& records) {
  return ProduceWith(topic, records, std::nullopt, TransactionEnd::kCommit);
}

std::vector<KafkaRecord> ValueRecords(int32_t partition, const std::vector<std::string>& values) {
  std::vector<KafkaRecord> records;
  for (const auto& value : values) {
    KafkaRecord record;
    record.value = value;
    record.partition = partition;
    records.push_back(std::move(record));
  }
  return records;
}

arrow::Status KafkaTestClient::ProduceCommittedAbortedCommitted(
    const std::string& topic, const std::string& transactional_id) {
  ARROW_RETURN_NOT_OK(ProduceInTransaction(topic, ValueRecords(0, {"c1", "c2"}),
                                           TransactionEnd::kCommit, transactional_id)
                          .status());
  ARROW_RETURN_NOT_OK(ProduceInTransaction(topic, ValueRecords(0, {"aborted"}),
                                           TransactionEnd::kAbort, transactional_id)
                          .status());
  return ProduceInTransaction(topic, ValueRecords(0, {"c3"}), TransactionEnd::kCommit,
                              transactional_id)
      .status();
}

arrow::Result<std::vector<KafkaRecord>> KafkaTestClient::ProduceInTransaction(
    const std::string& topic, const std::vector<KafkaRecord>& records, TransactionEnd end,
    const std::string& transactional_id) {
  return ProduceWith(topic, records, transactional_id, end);
}

arrow::Result<std::vector<KafkaRecord>> KafkaTestClient::ProduceWith(
    const std::string& topic, const std::vector<KafkaRecord>& records,
    const std::optional<std::string>& transactional_id, TransactionEnd end) {
  Deliveries deliveries;
  deliveries.written.resize(records.size());
  deliveries.errors.resize(records.size(), RD_KAFKA_RESP_ERR_NO_ERROR);
  std::map<std::string, std::string> settings = {
      {"bootstrap.servers", bootstrap_},
      {"enable.idempotence", "true"},
      {"linger.ms", "0"},
      {"message.timeout.ms", std::to_string(patience_.count())},
  };
  if (transactional_id) {
    settings["transactional.id"] = *transactional_id;
    settings["transaction.timeout.ms"] = std::to_string(std::max<int64_t>(patience_.count(), 1000));
  }
  ARROW_ASSIGN_OR_RAISE(Handle producer,
                        NewHandle(RD_KAFKA_PRODUCER, settings, [&](rd_kafka_conf_t* conf) {
                          rd_kafka_conf_set_dr_msg_cb(conf, OnDelivery);
                          rd_kafka_conf_set_opaque(conf, &deliveries);
                        }));
  const std::string where = "Kafka topic '" + topic + "'";
  if (transactional_id) {
    ARROW_RETURN_NOT_OK(
        TransactionError(rd_kafka_init_transactions(producer.get(), TimeoutMs(patience_)),
                         "cannot start transactions of '" + *transactional_id + "'"));
    ARROW_RETURN_NOT_OK(TransactionError(rd_kafka_begin_transaction(producer.get()),
                                         "cannot begin a transaction"));
  }
  const auto deadline = Clock::now() + patience_;
  for (size_t i = 0; i < records.size(); ++i) {
    rd_kafka_resp_err_t error;
    // A full local queue drains as deliveries are reported; wait for room, within bounds.
    while ((error = Send(producer.get(), topic, records[i], i)) == RD_KAFKA_RESP_ERR__QUEUE_FULL &&
           Clock::now() < deadline) {
      rd_kafka_poll(producer.get(), 10);
    }
    if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return arrow::Status::IOError("cannot write record ", i, " to ", where, " partition ",
                                    records[i].partition, ": ", rd_kafka_err2str(error));
    }
  }
  // Aborting drops what is still unsent: everything goes to the broker before either end.
  const rd_kafka_resp_err_t flushed = rd_kafka_flush(producer.get(), TimeoutMs(patience_));
  if (flushed != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return arrow::Status::IOError("writing ", records.size(), " records to ", where,
                                  " did not finish within ", patience_.count(),
                                  " ms: ", rd_kafka_err2str(flushed));
  }
  for (size_t i = 0; i < records.size(); ++i) {
    if (deliveries.errors[i] != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return arrow::Status::IOError("record ", i, " was not written to ", where, " partition ",
                                    records[i].partition, ": ",
                                    rd_kafka_err2str(deliveries.errors[i]));
    }
  }
  if (transactional_id) {
    rd_kafka_error_t* ended =
        end == TransactionEnd::kCommit
            ? rd_kafka_commit_transaction(producer.get(), TimeoutMs(patience_))
            : rd_kafka_abort_transaction(producer.get(), TimeoutMs(patience_));
    ARROW_RETURN_NOT_OK(TransactionError(
        ended, std::string("cannot ") + (end == TransactionEnd::kCommit ? "commit" : "abort") +
                   " the transaction of '" + *transactional_id + "' on " + where));
  }
  producer.reset();  // No delivery report may arrive once the results move out.
  std::map<int32_t, int64_t>& written_ends = written_ends_[topic];
  for (const KafkaRecord& record : deliveries.written) {
    int64_t& end = written_ends[record.partition];
    end = std::max(end, record.offset + 1);
  }
  return std::move(deliveries.written);
}

arrow::Result<std::vector<KafkaRecord>> KafkaTestClient::ConsumeAll(const std::string& topic,
                                                                    KafkaIsolation isolation) {
  // The ends are fixed first: an end-of-partition event counts only once it is at or past its
  // partition's end, since librdkafka may report one early for a topic that was just written.
  ARROW_ASSIGN_OR_RAISE(auto ends, EndOffsets(topic, isolation));
  for (const auto& [partition, written_end] : written_ends_[topic]) {
    ends[partition] = std::max(ends[partition], written_end);
  }
  std::vector<int32_t> partitions;
  for (const auto& [partition, end] : ends) partitions.push_back(partition);
  ARROW_ASSIGN_OR_RAISE(
      Handle consumer,
      NewHandle(RD_KAFKA_CONSUMER,
                {{"bootstrap.servers", bootstrap_},
                 {"group.id", UniqueTopicName("sluice-test-reader")},
                 {"enable.auto.commit", "false"},
                 // The end of each partition is reported as an event: reading stops there.
                 {"enable.partition.eof", "true"},
                 // Reading starts at offset 0, or at the log's start once records aged out.
                 {"auto.offset.reset", "earliest"},
                 {"isolation.level", isolation == KafkaIsolation::kReadCommitted
                                         ? "read_committed"
                                         : "read_uncommitted"}}));
  rd_kafka_poll_set_consumer(consumer.get());
  rd_kafka_topic_partition_list_t* assignment =
      rd_kafka_topic_partition_list_new(static_cast<int>(partitions.size()));
  for (int32_t partition : partitions) {
    rd_kafka_topic_partition_list_add(assignment, topic.c_str(), partition)->offset = 0;
  }
  const rd_kafka_resp_err_t assigned = rd_kafka_assign(consumer.get(), assignment);
  rd_kafka_topic_partition_list_destroy(assignment);
  if (assigned != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return arrow::Status::IOError("cannot read Kafka topic '", topic,
                                  "': ", rd_kafka_err2str(assigned));
  }

  std::vector<KafkaRecord> records;
  std::set<int32_t> unfinished(partitions.begin(), partitions.end());
  const auto deadline = Clock::now() + patience_;
  while (!unfinished.empty()) {
    if (Clock::now() >= deadline) {
      std::ostringstream missing;
      for (int32_t partition : unfinished) missing << " " << partition;
      return arrow::Status::IOError("reading Kafka topic '", topic, "' did not reach the end of",
                                    " partitions", missing.str(), " within ", patience_.count(),
                                    " ms");
    }
    Message message(rd_kafka_consumer_poll(consumer.get(), 100));
    if (message == nullptr) continue;
    if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      if (message->offset >= ends[message->partition]) unfinished.erase(message->partition);
    } else if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return arrow::Status::IOError("reading Kafka topic '", topic, "' partition ",
                                    message->partition, " at offset ", message->offset,
                                    " failed: ", rd_kafka_message_errstr(message.get()));
    } else {
      records.push_back(RecordOf(message.get()));
    }
  }
  rd_kafka_consumer_close(consumer.get());
  std::sort(records.begin(), records.end(), [](const KafkaRecord& a, const KafkaRecord& b) {
    return std::tie(a.partition, a.offset) < std::tie(b.partition, b.offset);
  });
  return records;
}

arrow::Result<std::map<int32_t, int64_t>> KafkaTestClient::EndOffsets(const std::string& topic,
                                                                      KafkaIsolation isolation) {
  ARROW_ASSIGN_OR_RAISE(std::vector<int32_t> partitions, Partitions(topic));
  // The offsets request carries the isolation level of the handle asking.
  ARROW_ASSIGN_OR_RAISE(
      Handle consumer,
      NewHandle(RD_KAFKA_CONSUMER, {{"bootstrap.servers", bootstrap_},
                                    {"isolation.level", isolation == KafkaIsolation::kReadCommitted
                                                            ? "read_committed"
                                                            : "read_uncommitted"}}));
  std::map<int32_t, int64_t> ends;
  for (int32_t partition : partitions) {
    int64_t low = 0;
    int64_t high = 0;
    const rd_kafka_resp_err_t error = rd_kafka_query_watermark_offsets(
        consumer.get(), topic.c_str(), partition, &low, &high, TimeoutMs(patience_));
    if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return arrow::Status::IOError("cannot get the end offset of Kafka topic '", topic,
                                    "' partition ", partition, ": ", rd_kafka_err2str(error));
    }
    ends[partition] = high;
  }
  return ends;
}

}  // namespace sluice::testing
