// The options of the "kafka" streaming sink, parsed once from writeStream's strings: Spark's
// (topic, kafka.*) and Sluice's exactly-once switch.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"

namespace sluice::sinks {

/// The sink option that turns on exactly-once delivery (a Sluice extension; Spark's Kafka sink
/// is at-least-once only). "true" or "false", default false.
inline constexpr const char* kKafkaExactlyOnceOption = "exactlyOnce";

/// The Kafka sink's settings.
struct KafkaSinkOptions {
  /// The `topic` option, trimmed: every row goes there, overriding a `topic` column.
  std::optional<std::string> topic;
  /// The kafka.* options with the prefix stripped, in the user's spelling, for the producer.
  /// Holds bootstrap.servers.
  std::vector<std::pair<std::string, std::string>> producer_settings;
  /// kafka.bootstrap.servers, for error messages.
  std::string bootstrap_servers;
  /// exactlyOnce: each micro-batch is one Kafka transaction that also records its batch id, so
  /// that a batch re-run after a crash is never visible twice to a read_committed consumer.
  bool exactly_once = false;
  /// kafka.max.block.ms (Java's producer setting, 60000 as there): the longest a call to the
  /// broker that has no delivery timeout of its own (starting, committing or aborting a
  /// transaction, reading the last committed batch) may wait. Not passed to librdkafka.
  int64_t max_block_ms = 60'000;
};

/// Parses the sink's options. Fails with Spark's IllegalArgumentException texts for
/// kafka.key.serializer and kafka.value.serializer, and names the option for a missing
/// kafka.bootstrap.servers, a kafka.transactional.id (the exactly-once mode derives its own)
/// or a malformed exactlyOnce / kafka.max.block.ms. Unknown kafka.* settings are not checked
/// here: the producer refuses them when it is created, naming them.
arrow::Result<KafkaSinkOptions> ParseKafkaSinkOptions(const formats::OptionMap& options);

}  // namespace sluice::sinks
