#include "sluice/sources/kafka/kafka_offset_reader.h"

#include <chrono>
#include <thread>

#include <re2/re2.h>

#include "sluice/common/errors.h"

namespace sluice::sources::kafka {

namespace {

// How long one blocking librdkafka call may wait before the reader looks at the client's
// error events (and gives up early when no broker is reachable).
constexpr int kSliceMs = 500;

int64_t SteadyNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// How long an attempt keeps trying while the client reports that no broker can be reached:
// long enough for a connection that merely dropped, short enough that a wrong address fails
// in seconds.
constexpr int64_t kUnreachableGraceMs = 2000;

// Errors saying that no broker can be reached (connection refused, unknown host, TLS or SASL
// failures): waiting out the whole attempt would not help.
bool IsUnreachable(rd_kafka_resp_err_t code) {
  return code == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || code == RD_KAFKA_RESP_ERR__TRANSPORT ||
         code == RD_KAFKA_RESP_ERR__RESOLVE || code == RD_KAFKA_RESP_ERR__AUTHENTICATION ||
         code == RD_KAFKA_RESP_ERR__SSL;
}

// Java's listTopics leaves out the broker's internal topics.
bool IsInternalTopic(std::string_view topic) {
  return topic == "__consumer_offsets" || topic == "__transaction_state" ||
         topic == "__share_group_state";
}

struct PartitionListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* list) const {
    rd_kafka_topic_partition_list_destroy(list);
  }
};
using PartitionList = std::unique_ptr<rd_kafka_topic_partition_list_t, PartitionListDeleter>;

struct MetadataDeleter {
  void operator()(const rd_kafka_metadata_t* metadata) const {
    rd_kafka_metadata_destroy(metadata);
  }
};

}  // namespace

KafkaOffsetReader::KafkaOffsetReader(const KafkaSourceOptions& options,
                                     std::unique_ptr<KafkaConsumerHandle> handle)
    : options_(options), handle_(std::move(handle)) {}

arrow::Result<std::unique_ptr<KafkaOffsetReader>> KafkaOffsetReader::Make(
    const KafkaSourceOptions& options) {
  ARROW_ASSIGN_OR_RAISE(auto handle, KafkaConsumerHandle::Make(options.client_config,
                                                              options.group_id_prefix));
  return std::unique_ptr<KafkaOffsetReader>(new KafkaOffsetReader(options, std::move(handle)));
}

arrow::Status KafkaOffsetReader::Unreachable(const std::string& what,
                                             const std::string& detail) const {
  return ExternalError("KAFKA_UNREACHABLE",
                       "Cannot " + what + " from the Kafka brokers of kafka.bootstrap.servers=" +
                           handle_->bootstrap_servers() + ": " + detail);
}

arrow::Result<PartitionSet> KafkaOffsetReader::AssignedPartitionsOnce() {
  const int64_t started = SteadyNowMs();
  const int64_t deadline = started + kAttemptTimeoutMs;
  const rd_kafka_metadata_t* raw = nullptr;
  while (true) {
    rd_kafka_resp_err_t error = rd_kafka_metadata(handle_->get(), /*all_topics=*/1, nullptr,
                                                  &raw, kSliceMs);
    if (error == RD_KAFKA_RESP_ERR_NO_ERROR) {
      handle_->ClearErrors();
      break;
    }
    KafkaConsumerHandle::ClientError client_error = handle_->DrainErrors();
    std::string detail = client_error.code != RD_KAFKA_RESP_ERR_NO_ERROR
                             ? client_error.text
                             : KafkaErrorText(error);
    const int64_t now = SteadyNowMs();
    if ((IsUnreachable(client_error.code) && now - started >= kUnreachableGraceMs) ||
        now >= deadline) {
      return Unreachable("list the topics", detail);
    }
  }
  std::unique_ptr<const rd_kafka_metadata_t, MetadataDeleter> metadata(raw);

  const ConsumerStrategy& strategy = options_.strategy;
  std::optional<RE2> pattern;
  if (strategy.kind == ConsumerStrategy::Kind::kSubscribePattern) {
    pattern.emplace(strategy.pattern);
    if (!pattern->ok()) {
      return arrow::Status::Invalid("Cannot compile the regular expression of option "
                                    "'subscribePattern' (",
                                    strategy.pattern, "): ", pattern->error());
    }
  }
  PartitionSet wanted_assigned(strategy.assigned.begin(), strategy.assigned.end());
  std::set<std::string> subscribed(strategy.topics.begin(), strategy.topics.end());
  std::set<std::string> found_topics;
  PartitionSet partitions;
  for (int t = 0; t < metadata->topic_cnt; ++t) {
    const rd_kafka_metadata_topic_t& topic = metadata->topics[t];
    const std::string name = topic.topic;
    if (topic.err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART || IsInternalTopic(name)) continue;
    bool wanted = false;
    switch (strategy.kind) {
      case ConsumerStrategy::Kind::kAssign:
        wanted = true;
        break;
      case ConsumerStrategy::Kind::kSubscribe:
        wanted = subscribed.count(name) > 0;
        break;
      case ConsumerStrategy::Kind::kSubscribePattern:
        wanted = RE2::PartialMatch(name, *pattern);
        break;
    }
    if (!wanted) continue;
    found_topics.insert(name);
    for (int p = 0; p < topic.partition_cnt; ++p) {
      TopicPartition partition{name, topic.partitions[p].id};
      if (strategy.kind == ConsumerStrategy::Kind::kAssign &&
          wanted_assigned.count(partition) == 0) {
        continue;
      }
      partitions.insert(std::move(partition));
    }
  }
  if (strategy.kind == ConsumerStrategy::Kind::kSubscribe) {
    for (const auto& topic : strategy.topics) {
      if (found_topics.count(topic) == 0) {
        return arrow::Status::Invalid(
            "UnknownTopicOrPartitionException: This server does not host this "
            "topic-partition. Topic '",
            topic, "' of option 'subscribe' does not exist on kafka.bootstrap.servers=",
            handle_->bootstrap_servers(), ".");
      }
    }
  }
  return partitions;
}

arrow::Result<PartitionSet> KafkaOffsetReader::AssignedPartitions() {
  PartitionSet assigned;
  ARROW_RETURN_NOT_OK(WithRetries([&]() -> arrow::Result<PartitionOffsets> {
                        ARROW_ASSIGN_OR_RAISE(assigned, AssignedPartitionsOnce());
                        return PartitionOffsets{};
                      }).status());
  return assigned;
}

arrow::Result<PartitionOffsets> KafkaOffsetReader::ListOffsets(const PartitionOffsets& queries) {
  if (queries.empty()) return PartitionOffsets{};
  const int64_t started = SteadyNowMs();
  const int64_t deadline = started + kAttemptTimeoutMs;
  while (true) {
    PartitionList list(rd_kafka_topic_partition_list_new(static_cast<int>(queries.size())));
    for (const auto& [partition, query] : queries) {
      rd_kafka_topic_partition_list_add(list.get(), partition.topic.c_str(), partition.partition)
          ->offset = query;
    }
    rd_kafka_resp_err_t error = rd_kafka_offsets_for_times(handle_->get(), list.get(), kSliceMs);
    if (error == RD_KAFKA_RESP_ERR_NO_ERROR) {
      handle_->ClearErrors();
      PartitionOffsets offsets;
      for (int i = 0; i < list->cnt; ++i) {
        const rd_kafka_topic_partition_t& element = list->elems[i];
        TopicPartition partition{element.topic, element.partition};
        if (element.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
          return arrow::Status::IOError("Cannot list the offsets of ", partition.ToString(),
                                        " on kafka.bootstrap.servers=",
                                        handle_->bootstrap_servers(), ": ",
                                        KafkaErrorText(element.err));
        }
        offsets[partition] = element.offset;
      }
      return offsets;
    }
    KafkaConsumerHandle::ClientError client_error = handle_->DrainErrors();
    std::string detail = client_error.code != RD_KAFKA_RESP_ERR_NO_ERROR
                             ? client_error.text
                             : KafkaErrorText(error);
    const int64_t now = SteadyNowMs();
    if ((IsUnreachable(client_error.code) && now - started >= kUnreachableGraceMs) ||
        now >= deadline) {
      return Unreachable("list offsets", detail);
    }
  }
}

arrow::Result<PartitionOffsets> KafkaOffsetReader::WithRetries(
    const std::function<arrow::Result<PartitionOffsets>()>& attempt) {
  arrow::Status last;
  const int attempts = std::max(1, options_.fetch_offset_num_retries);
  for (int i = 1; i <= attempts; ++i) {
    auto result = attempt();
    if (result.ok()) return result;
    last = result.status();
    if (i < attempts) {
      std::this_thread::sleep_for(
          std::chrono::milliseconds(options_.fetch_offset_retry_interval_ms));
    }
  }
  return last;
}

arrow::Result<PartitionOffsets> KafkaOffsetReader::FetchLatestOffsets() {
  return WithRetries([&]() -> arrow::Result<PartitionOffsets> {
    ARROW_ASSIGN_OR_RAISE(PartitionSet partitions, AssignedPartitionsOnce());
    PartitionOffsets queries;
    for (const auto& partition : partitions) queries[partition] = kLatestOffset;
    return ListOffsets(queries);
  });
}

arrow::Result<PartitionOffsets> KafkaOffsetReader::FetchEarliestOffsets() {
  return WithRetries([&]() -> arrow::Result<PartitionOffsets> {
    ARROW_ASSIGN_OR_RAISE(PartitionSet partitions, AssignedPartitionsOnce());
    PartitionOffsets queries;
    for (const auto& partition : partitions) queries[partition] = kEarliestOffset;
    return ListOffsets(queries);
  });
}

arrow::Result<PartitionOffsets> KafkaOffsetReader::FetchEarliestOffsets(
    const PartitionSet& wanted) {
  if (wanted.empty()) return PartitionOffsets{};
  return WithRetries([&]() -> arrow::Result<PartitionOffsets> {
    ARROW_ASSIGN_OR_RAISE(PartitionSet partitions, AssignedPartitionsOnce());
    PartitionOffsets queries;
    // Partitions deleted meanwhile are left out.
    for (const auto& partition : wanted) {
      if (partitions.count(partition) > 0) queries[partition] = kEarliestOffset;
    }
    return ListOffsets(queries);
  });
}

arrow::Result<PartitionOffsets> KafkaOffsetReader::Resolve(const OffsetRangeLimit& limit,
                                                           bool is_starting) {
  if (std::holds_alternative<EarliestLimit>(limit)) return FetchEarliestOffsets();
  if (std::holds_alternative<LatestLimit>(limit)) return FetchLatestOffsets();
  return WithRetries([&]() -> arrow::Result<PartitionOffsets> {
    ARROW_ASSIGN_OR_RAISE(PartitionSet partitions, AssignedPartitionsOnce());
    PartitionOffsets resolved;
    if (const auto* specific = std::get_if<SpecificOffsetsLimit>(&limit)) {
      if (KeysOf(specific->offsets) != partitions) {
        return SparkError("KAFKA_START_OFFSET_DOES_NOT_MATCH_ASSIGNED",
                          "Partitions specified for Kafka start offsets don't match what are "
                          "assigned. Maybe topic partitions are created or deleted while the "
                          "query is running. Use -1 for latest, -2 for earliest. Specified: " +
                              SetText(KeysOf(specific->offsets)) +
                              " Assigned: " + SetText(partitions));
      }
      resolved = specific->offsets;
    } else {
      const auto& timestamps = std::get<TimestampLimit>(limit);
      PartitionOffsets queries;
      if (timestamps.global_timestamp_ms) {
        for (const auto& partition : partitions) {
          queries[partition] = *timestamps.global_timestamp_ms;
        }
      } else {
        if (KeysOf(timestamps.partition_timestamps) != partitions) {
          return SparkError(
              "KAFKA_TIMESTAMP_OFFSET_DOES_NOT_MATCH_ASSIGNED",
              std::string("Partitions specified for Kafka timestamp based ") +
                  (is_starting ? "start" : "end") +
                  " offsets don't match what are assigned. Maybe topic partitions are created "
                  "or deleted while the query is running, or you didn't specify all the "
                  "partitions. Specified: " +
                  SetText(KeysOf(timestamps.partition_timestamps)) +
                  " Assigned: " + SetText(partitions));
        }
        queries = timestamps.partition_timestamps;
      }
      ARROW_ASSIGN_OR_RAISE(PartitionOffsets found, ListOffsets(queries));
      for (const auto& [partition, offset] : found) {
        if (offset >= 0) {
          resolved[partition] = offset;
        } else if (is_starting && !timestamps.no_match_starts_at_latest) {
          return arrow::Status::Invalid("No offset matched from request of topic-partition ",
                                        partition.ToString(), " and timestamp ",
                                        queries.at(partition), ".");
        } else {
          resolved[partition] = kLatestOffset;
        }
      }
    }
    // The -1 / -2 sentinels become the partitions' latest / earliest offsets.
    PartitionOffsets queries;
    for (const auto& [partition, offset] : resolved) {
      if (offset == kLatestOffset || offset == kEarliestOffset) queries[partition] = offset;
    }
    ARROW_ASSIGN_OR_RAISE(PartitionOffsets sentinels, ListOffsets(queries));
    for (const auto& [partition, offset] : sentinels) resolved[partition] = offset;
    return resolved;
  });
}

}  // namespace sluice::sources::kafka
