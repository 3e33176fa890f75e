#include "sluice/sinks/kafka/kafka_sink_options.h"

#include "sluice/common/ascii.h"
#include "sluice/sources/typed_options.h"

namespace sluice::sinks {

namespace {

constexpr std::string_view kKafkaPrefix = "kafka.";

std::string Trim(const std::string& text) {
  size_t begin = text.find_first_not_of(" \t\n\r");
  if (begin == std::string::npos) return "";
  size_t end = text.find_last_not_of(" \t\n\r");
  return text.substr(begin, end - begin + 1);
}

}  // namespace

arrow::Result<KafkaSinkOptions> ParseKafkaSinkOptions(const formats::OptionMap& options) {
  // Spark's KafkaSourceProvider.kafkaParamsForProducer: the serializers are fixed to bytes.
  if (options.count("kafka.key.serializer")) {
    return arrow::Status::Invalid(
        "Kafka option 'key.serializer' is not supported as keys are serialized with "
        "ByteArraySerializer.");
  }
  if (options.count("kafka.value.serializer")) {
    return arrow::Status::Invalid(
        "Kafka option 'value.serializer' is not supported as value are serialized with "
        "ByteArraySerializer.");
  }
  if (options.count("kafka.transactional.id")) {
    return arrow::Status::Invalid(
        "Kafka option 'transactional.id' is not supported: the sink runs transactions only "
        "with the option '",
        kKafkaExactlyOnceOption,
        "' set to true, and then derives the transactional id from the query id so that a "
        "restarted query fences its previous run.");
  }
  KafkaSinkOptions parsed;
  auto topic = options.find("topic");
  if (topic != options.end()) parsed.topic = Trim(topic->second);
  ARROW_ASSIGN_OR_RAISE(parsed.exactly_once,
                        sources::BooleanOption(options, kKafkaExactlyOnceOption, false));
  ARROW_ASSIGN_OR_RAISE(parsed.max_block_ms,
                        sources::LongOption(options, "kafka.max.block.ms", 60'000));
  if (parsed.max_block_ms < 0) {
    return arrow::Status::Invalid("Invalid value '", parsed.max_block_ms,
                                  "' for the option 'kafka.max.block.ms': it must be >= 0.");
  }
  for (const auto& [key, value] : options) {
    if (key.size() <= kKafkaPrefix.size() ||
        AsciiLower(key.substr(0, kKafkaPrefix.size())) != kKafkaPrefix) {
      continue;
    }
    std::string setting = key.substr(kKafkaPrefix.size());
    // Java's producer setting with no librdkafka counterpart: the sink applies it itself.
    if (setting == "max.block.ms") continue;
    if (setting == "bootstrap.servers") parsed.bootstrap_servers = value;
    parsed.producer_settings.emplace_back(std::move(setting), value);
  }
  if (parsed.bootstrap_servers.empty()) {
    return arrow::Status::Invalid(
        "Option 'kafka.bootstrap.servers' must be specified for configuring Kafka producer");
  }
  return parsed;
}

}  // namespace sluice::sinks
