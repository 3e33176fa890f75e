// Kafka to a stateless query to Kafka against one broker, with the sink's exactly-once mode on
// (one Kafka transaction per micro-batch):
// - Throughput: 2M records (100-byte values, 10-byte keys) wait in a 4-partition input topic;
//   each iteration runs a new query over all of them with trigger availableNow: readStream
//   kafka -> key kept, value upper-cased -> writeStream kafka. Reports messages/s (wall time
//   of the query) and messages per CPU-second of this process (getrusage: the query's
//   threads and librdkafka's; the broker's CPU is not counted), and checks that a
//   read_committed reader finds every message once in the output topic. Variants: the
//   clients' defaults, a producer tuned for throughput (kTunedProducer), and the source and
//   projection alone (noop sink), to split the time.
// - Latency: a query with the default trigger runs while a producer thread writes 10K
//   messages/s for 20 s, each value carrying its sequence number and send time; a
//   read_committed consumer of the output topic measures each message's end-to-end latency.
//   Reports p50/p99/p99.9/max in milliseconds over the messages sent after a 2 s warm-up,
//   the same latency split at the moment the sink produced each message (to_sink_*: reading
//   and the batch; sink_to_reader_*: the transaction's commit and the reader's fetch),
//   duplicates and missing messages, and the mean and largest phase durations of the batches
//   started after the warm-up. The sink keeps its producer defaults, which under exactly-once
//   are already set for latency (no linger, a 5 ms retry backoff). The broker must be warm:
//   in its first minute of traffic its JIT is still compiling, and the p99 of a run against
//   a broker started just before is two to three times that of the next run. Run the
//   benchmark after the throughput ones (the order of a whole run) or twice.
//
// Needs a broker: SLUICE_KAFKA_BOOTSTRAP=host:port (e.g. the address scripts/kafka/broker.sh
// start <dir> writes to <dir>/bootstrap); the topics are created with random names.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <librdkafka/rdkafka.h>

#include "process_usage.h"

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/session.h"
#include "sluice/formats/partitioned_writer.h"

namespace {

namespace F = sluice::functions;
namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;

constexpr int kInputPartitions = 4;
constexpr int kOutputPartitions = 4;
constexpr int kValueBytes = 100;
constexpr int64_t kThroughputMessages = 2'000'000;
constexpr int kLatencyMessagesPerSecond = 10'000;
constexpr std::chrono::seconds kLatencyRun(20);
constexpr std::chrono::seconds kLatencyWarmUp(2);
constexpr int kPatienceMs = 30'000;

using KafkaHandle = std::unique_ptr<rd_kafka_t, decltype(&rd_kafka_destroy)>;

const char* Bootstrap() { return std::getenv("SLUICE_KAFKA_BOOTSTRAP"); }

/// A librdkafka client of `type` with `settings`; null with the reason in `error` on failure.
KafkaHandle NewClient(rd_kafka_type_t type,
                      const std::vector<std::pair<std::string, std::string>>& settings,
                      std::string* error) {
  char reason[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  for (const auto& [name, value] : settings) {
    if (rd_kafka_conf_set(conf, name.c_str(), value.c_str(), reason, sizeof(reason)) !=
        RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      *error = "librdkafka setting " + name + "=" + value + ": " + reason;
      return KafkaHandle(nullptr, &rd_kafka_destroy);
    }
  }
  rd_kafka_t* handle = rd_kafka_new(type, conf, reason, sizeof(reason));
  if (handle == nullptr) {
    rd_kafka_conf_destroy(conf);
    *error = std::string("cannot create a Kafka client: ") + reason;
  }
  return KafkaHandle(handle, &rd_kafka_destroy);
}

/// Creates `topic` with `partitions` partitions and waits until each has a leader. Returns
/// the reason on failure, empty on success.
std::string CreateTopic(const std::string& topic, int partitions) {
  std::string error;
  KafkaHandle admin = NewClient(RD_KAFKA_PRODUCER, {{"bootstrap.servers", Bootstrap()}}, &error);
  if (admin == nullptr) return error;
  char reason[512];
  rd_kafka_NewTopic_t* new_topic =
      rd_kafka_NewTopic_new(topic.c_str(), partitions, 1, reason, sizeof(reason));
  if (new_topic == nullptr) return "topic " + topic + ": " + reason;
  rd_kafka_queue_t* queue = rd_kafka_queue_new(admin.get());
  rd_kafka_CreateTopics(admin.get(), &new_topic, 1, nullptr, queue);
  rd_kafka_NewTopic_destroy(new_topic);
  rd_kafka_event_t* event = rd_kafka_queue_poll(queue, kPatienceMs);
  if (event == nullptr) {
    error = "no answer to creating topic " + topic;
  } else {
    size_t count = 0;
    const rd_kafka_topic_result_t** results = rd_kafka_CreateTopics_result_topics(
        rd_kafka_event_CreateTopics_result(event), &count);
    if (rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR) {
      error = "creating topic " + topic + ": " + rd_kafka_event_error_string(event);
    }
    for (size_t i = 0; i < count; ++i) {
      if (rd_kafka_topic_result_error(results[i]) != RD_KAFKA_RESP_ERR_NO_ERROR) {
        error = "creating topic " + topic + ": " + rd_kafka_topic_result_error_string(results[i]);
      }
    }
    rd_kafka_event_destroy(event);
  }
  rd_kafka_queue_destroy(queue);
  if (!error.empty()) return error;
  const auto deadline = SteadyClock::now() + std::chrono::milliseconds(kPatienceMs);
  while (SteadyClock::now() < deadline) {
    const rd_kafka_metadata_t* metadata = nullptr;
    if (rd_kafka_metadata(admin.get(), 1, nullptr, &metadata, 5000) ==
        RD_KAFKA_RESP_ERR_NO_ERROR) {
      int led = 0;
      for (int t = 0; t < metadata->topic_cnt; ++t) {
        const rd_kafka_metadata_topic_t& found = metadata->topics[t];
        if (topic != found.topic || found.err != RD_KAFKA_RESP_ERR_NO_ERROR) continue;
        for (int p = 0; p < found.partition_cnt; ++p) led += found.partitions[p].leader >= 0;
      }
      rd_kafka_metadata_destroy(metadata);
      if (led == partitions) return "";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "the partitions of topic " + topic + " have no leader";
}

void CountFailedDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    static_cast<std::atomic<int64_t>*>(opaque)->fetch_add(1);
  }
}

/// An idempotent producer writing as fast as the broker takes it, or (linger 1 ms) with low
/// delay; failed deliveries are counted in `failed`.
KafkaHandle NewProducer(bool low_delay, std::atomic<int64_t>* failed, std::string* error) {
  char reason[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  const std::vector<std::pair<std::string, std::string>> settings = {
      {"bootstrap.servers", Bootstrap()},
      {"enable.idempotence", "true"},
      {"partitioner", "murmur2_random"},
      {"linger.ms", low_delay ? "1" : "5"},
      {"batch.size", "1000000"},
      {"queue.buffering.max.messages", "1000000"}};
  for (const auto& [name, value] : settings) {
    rd_kafka_conf_set(conf, name.c_str(), value.c_str(), reason, sizeof(reason));
  }
  rd_kafka_conf_set_dr_msg_cb(conf, &CountFailedDelivery);
  rd_kafka_conf_set_opaque(conf, failed);
  rd_kafka_t* handle = rd_kafka_new(RD_KAFKA_PRODUCER, conf, reason, sizeof(reason));
  if (handle == nullptr) {
    rd_kafka_conf_destroy(conf);
    *error = std::string("cannot create a Kafka producer: ") + reason;
  }
  return KafkaHandle(handle, &rd_kafka_destroy);
}

/// Queues one record, waiting for queue space. Returns librdkafka's error.
rd_kafka_resp_err_t Send(rd_kafka_t* producer, const std::string& topic, const std::string& key,
                         const std::string& value) {
  while (true) {
    rd_kafka_resp_err_t error = rd_kafka_producev(
        producer, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_KEY(key.data(), key.size()),
        RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()),
        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
    if (error != RD_KAFKA_RESP_ERR__QUEUE_FULL) return error;
    rd_kafka_poll(producer, 1);
  }
}

/// A 10-byte key: spreads the messages over the partitions by hash, as keyed data does.
std::string KeyOf(int64_t sequence) {
  char key[16];
  std::snprintf(key, sizeof(key), "k%09lld", static_cast<long long>(sequence % 1'000'000'000));
  return key;
}

/// A 100-byte value: "<sequence> <send time in ns> " then lower-case padding.
std::string ValueOf(int64_t sequence, int64_t send_ns) {
  std::string value = std::to_string(sequence) + " " + std::to_string(send_ns) + " ";
  value.resize(kValueBytes, 'x');
  return value;
}

int64_t SystemMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t SteadyNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             SteadyClock::now().time_since_epoch())
      .count();
}

/// The input topic of the throughput benchmark, filled once per process.
struct ThroughputInput {
  std::string topic;
  std::string error;
  double produce_seconds = 0;
};

const ThroughputInput& FilledInputTopic() {
  static const ThroughputInput input = [] {
    ThroughputInput made;
    made.topic = "pipeline-bench-in-" + sluice::formats::RandomUuid();
    made.error = CreateTopic(made.topic, kInputPartitions);
    if (!made.error.empty()) return made;
    std::atomic<int64_t> failed{0};
    KafkaHandle producer = NewProducer(false, &failed, &made.error);
    if (producer == nullptr) return made;
    const auto start = SteadyClock::now();
    for (int64_t i = 0; i < kThroughputMessages; ++i) {
      rd_kafka_resp_err_t error = Send(producer.get(), made.topic, KeyOf(i), ValueOf(i, 0));
      if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
        made.error = std::string("producing the input: ") + rd_kafka_err2str(error);
        return made;
      }
    }
    rd_kafka_flush(producer.get(), kPatienceMs);
    made.produce_seconds = std::chrono::duration<double>(SteadyClock::now() - start).count();
    if (rd_kafka_outq_len(producer.get()) > 0 || failed > 0) {
      made.error = "the input records were not all delivered";
    }
    return made;
  }();
  return input;
}

/// The stateless query of both benchmarks: key kept, value upper-cased.
sluice::DataFrame Projection(const std::shared_ptr<sluice::SparkSession>& spark,
                             const std::string& input_topic) {
  auto reader = spark->readStream();
  reader.format("kafka")
      .option("kafka.bootstrap.servers", Bootstrap())
      .option("subscribe", input_topic)
      .option("startingOffsets", "earliest");
  return reader.load().select(
      {F::col("key"), F::upper(F::col("value").cast("string")).alias("value")});
}

/// Where the throughput benchmark's query writes.
enum class Output {
  /// The Kafka sink, exactly-once, librdkafka's producer defaults.
  kKafka,
  /// The same with a larger producer queue and batches (as bench/kafka_sink_bench.cc).
  kKafkaTuned,
  /// The noop sink: the source and the projection alone, to split the time.
  kNoop,
};

/// The producer settings of Output::kKafkaTuned: room for a whole micro-batch in the queue
/// (librdkafka's default of 100K records makes the sink wait for acknowledgements mid-batch).
const std::vector<std::pair<std::string, std::string>> kTunedProducer = {
    {"kafka.linger.ms", "5"},
    {"kafka.batch.size", "1000000"},
    {"kafka.queue.buffering.max.messages", "1000000"}};

arrow::Result<std::shared_ptr<sluice::StreamingQuery>> StartExactlyOnce(
    const sluice::DataFrame& query, const std::string& output_topic, const fs::path& checkpoint,
    sluice::Trigger trigger, Output output = Output::kKafka) {
  auto writer = query.writeStream();
  writer.option("checkpointLocation", checkpoint.string()).trigger(trigger);
  if (output == Output::kNoop) return writer.format("noop").start();
  writer.format("kafka")
      .option("kafka.bootstrap.servers", Bootstrap())
      .option("topic", output_topic)
      .option("exactlyOnce", "true");
  if (output == Output::kKafkaTuned) {
    for (const auto& [name, value] : kTunedProducer) writer.option(name, value);
  }
  return writer.start();
}

/// Adds the mean and the largest of each phase duration over `progress` as counters
/// "<phase>_ms" and "<phase>_max_ms".
void ReportPhases(benchmark::State& state,
                  const std::vector<sluice::execution::StreamingQueryProgress>& progress) {
  std::map<std::string, double> total;
  std::map<std::string, double> largest;
  for (const auto& report : progress) {
    for (const auto& [phase, ms] : report.duration_ms) {
      total[phase] += ms;
      largest[phase] = std::max<double>(largest[phase], ms);
    }
  }
  for (const auto& [phase, ms] : total) {
    state.counters[phase + "_ms"] = ms / std::max<size_t>(progress.size(), 1);
    state.counters[phase + "_max_ms"] = largest[phase];
  }
  state.counters["batches_seen"] = static_cast<double>(progress.size());
}

void BM_KafkaPipelineThroughput(benchmark::State& state, Output output) {
  if (Bootstrap() == nullptr) {
    state.SkipWithError("set SLUICE_KAFKA_BOOTSTRAP to the host:port of a Kafka broker");
    return;
  }
  const ThroughputInput& input = FilledInputTopic();
  if (!input.error.empty()) {
    state.SkipWithError(input.error.c_str());
    return;
  }
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  const sluice::DataFrame query = Projection(spark, input.topic);
  int64_t messages = 0;
  double cpu_seconds = 0;
  double wall_seconds = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const std::string output_topic = "pipeline-bench-out-" + sluice::formats::RandomUuid();
    std::string error =
        output == Output::kNoop ? "" : CreateTopic(output_topic, kOutputPartitions);
    if (!error.empty()) {
      state.SkipWithError(error.c_str());
      break;
    }
    const fs::path checkpoint =
        fs::temp_directory_path() / ("kafka-pipeline-bench-" + sluice::formats::RandomUuid());
    state.ResumeTiming();

    const double cpu_start = sluice::bench::ProcessCpuSeconds();
    const auto wall_start = SteadyClock::now();
    auto started = StartExactlyOnce(query, output_topic, checkpoint,
                                    sluice::Trigger::AvailableNow(), output);
    arrow::Status status = started.ok() ? (*started)->awaitTermination() : started.status();
    wall_seconds += std::chrono::duration<double>(SteadyClock::now() - wall_start).count();
    cpu_seconds += sluice::bench::ProcessCpuSeconds() - cpu_start;

    state.PauseTiming();
    if (!status.ok()) {
      state.SkipWithError(status.ToString().c_str());
      break;
    }
    ReportPhases(state, (*started)->recentProgress());
    // Every input message must be in the output once, as a read_committed reader sees it.
    auto written = output == Output::kNoop ? arrow::Result<int64_t>(kThroughputMessages)
                                           : spark->read()
                       .format("kafka")
                       .option("kafka.bootstrap.servers", Bootstrap())
                       .option("kafka.isolation.level", "read_committed")
                       .option("subscribe", output_topic)
                       .load()
                       .count();
    if (!written.ok() || *written != kThroughputMessages) {
      state.SkipWithError(written.ok() ? ("the output topic holds " + std::to_string(*written) +
                                          " messages, not " +
                                          std::to_string(kThroughputMessages))
                                             .c_str()
                                       : written.status().ToString().c_str());
      break;
    }
    messages += kThroughputMessages;
    fs::remove_all(checkpoint);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(messages);
  state.counters["messages_per_s"] = messages / std::max(wall_seconds, 1e-9);
  state.counters["messages_per_cpu_s"] = messages / std::max(cpu_seconds, 1e-9);
  state.counters["input_produce_messages_per_s"] = kThroughputMessages / input.produce_seconds;
}

/// Writes kLatencyMessagesPerSecond messages/s to `topic` for kLatencyRun, in bursts of ten
/// every millisecond, each value stamped with its send time.
void PacedProducer(const std::string& topic, std::atomic<int64_t>* sent, std::string* error) {
  std::atomic<int64_t> failed{0};
  KafkaHandle producer = NewProducer(true, &failed, error);
  if (producer == nullptr) return;
  constexpr int kPerTick = kLatencyMessagesPerSecond / 1000;
  const auto start = SteadyClock::now();
  auto tick = start;
  int64_t sequence = 0;
  while (tick - start < kLatencyRun) {
    std::this_thread::sleep_until(tick);
    for (int i = 0; i < kPerTick; ++i, ++sequence) {
      if (Send(producer.get(), topic, KeyOf(sequence), ValueOf(sequence, SteadyNanos())) !=
          RD_KAFKA_RESP_ERR_NO_ERROR) {
        *error = "cannot send to " + topic;
        return;
      }
    }
    sent->store(sequence);
    rd_kafka_poll(producer.get(), 0);
    tick += std::chrono::milliseconds(1);
  }
  rd_kafka_flush(producer.get(), kPatienceMs);
  if (failed > 0) *error = std::to_string(failed.load()) + " input messages failed";
}

double Percentile(const std::vector<double>& sorted, double fraction) {
  if (sorted.empty()) return 0;
  size_t index = static_cast<size_t>(fraction * (sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

void BM_KafkaPipelineLatency(benchmark::State& state, Output output) {
  if (Bootstrap() == nullptr) {
    state.SkipWithError("set SLUICE_KAFKA_BOOTSTRAP to the host:port of a Kafka broker");
    return;
  }
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  // Every batch's progress, so that the phase maxima cover the whole run: a single slow batch
  // decides p99.
  (void)spark->conf().set("spark.sql.streaming.numRecentProgressUpdates", "100000");
  for (auto _ : state) {
    const std::string id = sluice::formats::RandomUuid();
    const std::string input_topic = "pipeline-latency-in-" + id;
    const std::string output_topic = "pipeline-latency-out-" + id;
    std::string error = CreateTopic(input_topic, kInputPartitions);
    if (error.empty()) error = CreateTopic(output_topic, kOutputPartitions);
    KafkaHandle consumer(nullptr, &rd_kafka_destroy);
    if (error.empty()) {
      consumer = NewClient(RD_KAFKA_CONSUMER,
                           {{"bootstrap.servers", Bootstrap()},
                            {"group.id", "pipeline-latency-" + id},
                            {"isolation.level", "read_committed"},
                            {"auto.offset.reset", "earliest"},
                            {"enable.auto.commit", "false"},
                            // The broker answers a waiting read_committed fetch at this
                            // timeout rather than when a transaction commits: a short wait
                            // sees the output when it becomes visible (at 100 ms, p99 grew
                            // by 25 ms).
                            {"fetch.wait.max.ms", "10"}},
                           &error);
    }
    if (!error.empty()) {
      state.SkipWithError(error.c_str());
      break;
    }
    rd_kafka_poll_set_consumer(consumer.get());
    rd_kafka_topic_partition_list_t* assignment =
        rd_kafka_topic_partition_list_new(kOutputPartitions);
    for (int p = 0; p < kOutputPartitions; ++p) {
      rd_kafka_topic_partition_list_add(assignment, output_topic.c_str(), p)->offset =
          RD_KAFKA_OFFSET_BEGINNING;
    }
    rd_kafka_assign(consumer.get(), assignment);
    rd_kafka_topic_partition_list_destroy(assignment);

    const fs::path checkpoint =
        fs::temp_directory_path() / ("kafka-pipeline-latency-" + id);
    auto query = StartExactlyOnce(Projection(spark, input_topic), output_topic, checkpoint,
                                  sluice::Trigger::Default(), output);
    if (!query.ok()) {
      state.SkipWithError(query.status().ToString().c_str());
      break;
    }
    std::atomic<int64_t> sent{0};
    std::string producer_error;
    std::thread producer(PacedProducer, input_topic, &sent, &producer_error);

    const int64_t expected = kLatencyMessagesPerSecond * kLatencyRun.count();
    const int64_t warm_up = kLatencyMessagesPerSecond * kLatencyWarmUp.count();
    std::vector<double> latencies_ms;
    // Each latency in two parts: until the sink produced the message (its timestamp, set by
    // the sink's producer on the system clock), and from there until it was read.
    std::vector<double> to_sink_ms;
    std::vector<double> sink_to_reader_ms;
    const int64_t system_minus_steady_ms = SystemMillis() - SteadyNanos() / 1'000'000;
    const int64_t measured_from_ms = SystemMillis() + kLatencyWarmUp.count() * 1000;
    std::vector<bool> seen(expected, false);
    int64_t received = 0;
    int64_t duplicates = 0;
    auto last_message = SteadyClock::now();
    while (received < expected && SteadyClock::now() - last_message < std::chrono::seconds(10)) {
      rd_kafka_message_t* message = rd_kafka_consumer_poll(consumer.get(), 100);
      if (message == nullptr) continue;
      const int64_t now_ns = SteadyNanos();
      if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR && message->len > 0) {
        last_message = SteadyClock::now();
        long long sequence = -1;
        long long send_ns = 0;
        std::string text(static_cast<const char*>(message->payload), message->len);
        if (std::sscanf(text.c_str(), "%lld %lld", &sequence, &send_ns) == 2 && sequence >= 0 &&
            sequence < expected) {
          if (seen[sequence]) {
            ++duplicates;
          } else {
            seen[sequence] = true;
            ++received;
            if (sequence >= warm_up) {
              latencies_ms.push_back((now_ns - send_ns) / 1e6);
              rd_kafka_timestamp_type_t type;
              const int64_t produced_ms = rd_kafka_message_timestamp(message, &type);
              const double sent_ms = send_ns / 1e6 + system_minus_steady_ms;
              to_sink_ms.push_back(produced_ms - sent_ms);
              sink_to_reader_ms.push_back(now_ns / 1e6 + system_minus_steady_ms - produced_ms);
            }
          }
        }
      }
      rd_kafka_message_destroy(message);
    }
    producer.join();
    auto progress = (*query)->recentProgress();
    (void)(*query)->stop();
    rd_kafka_consumer_close(consumer.get());
    fs::remove_all(checkpoint);
    if (!producer_error.empty()) {
      state.SkipWithError(producer_error.c_str());
      break;
    }
    if (!(*query)->exception().ok()) {
      state.SkipWithError((*query)->exception().ToString().c_str());
      break;
    }
    std::sort(latencies_ms.begin(), latencies_ms.end());
    state.counters["p50_ms"] = Percentile(latencies_ms, 0.50);
    state.counters["p99_ms"] = Percentile(latencies_ms, 0.99);
    state.counters["p999_ms"] = Percentile(latencies_ms, 0.999);
    state.counters["max_ms"] = latencies_ms.empty() ? 0 : latencies_ms.back();
    std::sort(to_sink_ms.begin(), to_sink_ms.end());
    std::sort(sink_to_reader_ms.begin(), sink_to_reader_ms.end());
    state.counters["to_sink_p50_ms"] = Percentile(to_sink_ms, 0.50);
    state.counters["to_sink_p99_ms"] = Percentile(to_sink_ms, 0.99);
    state.counters["sink_to_reader_p50_ms"] = Percentile(sink_to_reader_ms, 0.50);
    state.counters["sink_to_reader_p99_ms"] = Percentile(sink_to_reader_ms, 0.99);
    state.counters["sent"] = static_cast<double>(sent.load());
    state.counters["missing"] = static_cast<double>(sent.load() - received);
    state.counters["duplicates"] = static_cast<double>(duplicates);
    // The batches that started after the warm-up.
    progress.erase(std::remove_if(progress.begin(), progress.end(),
                                  [&](const auto& report) {
                                    return report.timestamp_ms < measured_from_ms;
                                  }),
                   progress.end());
    ReportPhases(state, progress);
  }
}

BENCHMARK_CAPTURE(BM_KafkaPipelineThroughput, ExactlyOnce, Output::kKafka)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_KafkaPipelineThroughput, ExactlyOnceTunedProducer, Output::kKafkaTuned)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_KafkaPipelineThroughput, SourceAndProjectionOnly, Output::kNoop)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_KafkaPipelineLatency, ExactlyOnce, Output::kKafka)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
