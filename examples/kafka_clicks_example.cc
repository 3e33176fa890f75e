// The seeds' Kafka examples, end to end against a real broker.
//
// Seed 003 (Kafka clicks): JSON click events in topic "clicks"; a streaming query parses the
// value with from_json, counts clicks per page in five-minute event-time windows with a
// ten-minute watermark, and appends each window to Parquet once it is final. The query keeps
// running, as the seed's does; the example hands it two waves of clicks and waits for each
// with processAllAvailable():
//  - wave 1: clicks from 12:01 to 12:17. The latest event time is 12:17, so the watermark
//    becomes 12:07 and the window 12:00-12:05 is written; 12:05-12:10 stays open;
//  - wave 2: a late click stamped 12:08 (behind the newest event, ahead of the watermark:
//    counted), one stamped 12:03 (behind the watermark: dropped) and one at 12:21, which moves
//    the watermark to 12:11 so that 12:05-12:10 is written with the late click in it.
// After each wave the Parquet output is read back as a batch and checked against the seed.
// A wave may reach the query in more than one batch (its partitions' records arrive apart);
// the outcome stays the same as long as the 12:08 click comes no later than the batch after
// the 12:21 one, since Spark 4 drops late rows by the previous batch's watermark.
//
// Seed 000 (Kafka to a table): orders in topic "orders" are parsed with from_json and appended
// as they are. The seed writes a Delta table; this example writes Parquet instead (same rows,
// same append mode, no Delta log) and runs the query with availableNow, the seed's query as
// a scheduled incremental job.
//
// Usage: kafka_clicks_example [bootstrap]
//   With host:port the example uses that broker (the topics must not exist yet); without it,
//   it starts a broker of its own with scripts/kafka/broker.sh in a temp folder and stops it
//   at the end. Exits 0 when every result is the one the seeds expect.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <arrow/api.h>
#include <librdkafka/rdkafka.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"

#ifndef SLUICE_KAFKA_BROKER_SCRIPT
#error "SLUICE_KAFKA_BROKER_SCRIPT must name scripts/kafka/broker.sh"
#endif

namespace F = sluice::functions;
namespace fs = std::filesystem;

namespace {

constexpr std::chrono::seconds kPatience(30);

/// One Kafka record to write: key and JSON value.
struct Record {
  std::string key;
  std::string value;
};

// Seed 003's clicks. Wave 1 ends at 12:17 (watermark 12:07).
const std::vector<Record> kClicksWave1 = {
    {"u1", R"({"user_id":"u1","page":"/home","ts":"2026-06-10T12:01:00Z"})"},
    {"u2", R"({"user_id":"u2","page":"/pricing","ts":"2026-06-10T12:02:00Z"})"},
    {"u3", R"({"user_id":"u3","page":"/home","ts":"2026-06-10T12:04:00Z"})"},
    {"u1", R"({"user_id":"u1","page":"/home","ts":"2026-06-10T12:06:00Z"})"},
    {"u4", R"({"user_id":"u4","page":"/pricing","ts":"2026-06-10T12:09:00Z"})"},
    {"u2", R"({"user_id":"u2","page":"/docs","ts":"2026-06-10T12:12:00Z"})"},
    {"u5", R"({"user_id":"u5","page":"/home","ts":"2026-06-10T12:17:00Z"})"},
};
// Wave 2: late but counted (12:08), too late (12:03), and 12:21 (watermark 12:11).
const std::vector<Record> kClicksWave2 = {
    {"u6", R"({"user_id":"u6","page":"/pricing","ts":"2026-06-10T12:08:00Z"})"},
    {"u7", R"({"user_id":"u7","page":"/home","ts":"2026-06-10T12:03:00Z"})"},
    {"u3", R"({"user_id":"u3","page":"/docs","ts":"2026-06-10T12:21:00Z"})"},
};
// What the Parquet output holds after each wave: "start end page count".
const std::vector<std::string> kWindowsAfterWave1 = {"12:00 12:05 /home 2",
                                                     "12:00 12:05 /pricing 1"};
const std::vector<std::string> kWindowsAfterWave2 = {
    "12:00 12:05 /home 2", "12:00 12:05 /pricing 1", "12:05 12:10 /home 1",
    "12:05 12:10 /pricing 2"};

// Seed 000's orders (the seed leaves order_schema to the reader; this one is typical).
constexpr const char* kOrderSchema =
    "order_id STRING, customer_id STRING, amount DECIMAL(10,2), order_ts TIMESTAMP";
const std::vector<Record> kOrders = {
    {"c1",
     R"({"order_id":"o-1001","customer_id":"c1","amount":25.50)"
     R"(,"order_ts":"2026-06-10T09:00:05Z"})"},
    {"c2",
     R"({"order_id":"o-1002","customer_id":"c2","amount":99.00)"
     R"(,"order_ts":"2026-06-10T09:01:40Z"})"},
    {"c1",
     R"({"order_id":"o-1003","customer_id":"c1","amount":7.25)"
     R"(,"order_ts":"2026-06-10T09:02:13Z"})"},
    {"c3",
     R"({"order_id":"o-1004","customer_id":"c3","amount":310.00)"
     R"(,"order_ts":"2026-06-10T09:05:59Z"})"},
};
const std::vector<std::string> kOrderRows = {
    "o-1001 c1 25.50 2026-06-10 09:00:05", "o-1002 c2 99.00 2026-06-10 09:01:40",
    "o-1003 c1 7.25 2026-06-10 09:02:13", "o-1004 c3 310.00 2026-06-10 09:05:59"};

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// The broker the example talks to: one given on the command line, or one it started with
/// scripts/kafka/broker.sh and stops when this object goes.
class Broker {
 public:
  static arrow::Result<std::unique_ptr<Broker>> Use(std::string bootstrap) {
    return std::unique_ptr<Broker>(new Broker(std::move(bootstrap), fs::path()));
  }

  /// Starts a broker in a fresh folder under `parent`. --owner makes the script's watcher stop
  /// it should this process die before the destructor runs.
  static arrow::Result<std::unique_ptr<Broker>> Start(const fs::path& parent) {
    fs::path state = parent / "broker";
    const std::string command = ShellQuote(SLUICE_KAFKA_BROKER_SCRIPT) + " start " +
                                ShellQuote(state.string()) + " --fresh --owner " +
                                std::to_string(getpid()) + " >/dev/null";
    std::cout << "Starting a Kafka broker (scripts/kafka/broker.sh) ..." << std::endl;
    if (std::system(command.c_str()) != 0) {
      return arrow::Status::IOError("scripts/kafka/broker.sh could not start a broker in ",
                                    state.string(), " (its log: ", (state / "broker.log").string(),
                                    ")");
    }
    std::string bootstrap;
    std::ifstream(state / "bootstrap") >> bootstrap;
    if (bootstrap.empty()) {
      return arrow::Status::IOError("the broker started in ", state.string(),
                                    " left no bootstrap file");
    }
    return std::unique_ptr<Broker>(new Broker(std::move(bootstrap), std::move(state)));
  }

  ~Broker() {
    if (state_.empty()) return;
    const std::string command = ShellQuote(SLUICE_KAFKA_BROKER_SCRIPT) + " stop " +
                                ShellQuote(state_.string());
    if (std::system(command.c_str()) != 0) {
      std::cerr << "kafka_clicks_example: could not stop the broker of " << state_ << std::endl;
    }
  }

  const std::string& bootstrap() const { return bootstrap_; }

 private:
  Broker(std::string bootstrap, fs::path state)
      : bootstrap_(std::move(bootstrap)), state_(std::move(state)) {}
  std::string bootstrap_;
  fs::path state_;
};

/// A librdkafka producer handle with `settings`, destroyed with the pointer.
using KafkaHandle = std::unique_ptr<rd_kafka_t, decltype(&rd_kafka_destroy)>;

arrow::Result<KafkaHandle> NewProducer(
    const std::vector<std::pair<std::string, std::string>>& settings,
    void (*on_delivery)(rd_kafka_t*, const rd_kafka_message_t*, void*) = nullptr) {
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  for (const auto& [name, value] : settings) {
    if (rd_kafka_conf_set(conf, name.c_str(), value.c_str(), error, sizeof(error)) !=
        RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      return arrow::Status::Invalid("librdkafka setting ", name, "=", value, ": ", error);
    }
  }
  if (on_delivery != nullptr) rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
  rd_kafka_t* handle = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
  if (handle == nullptr) {
    rd_kafka_conf_destroy(conf);
    return arrow::Status::IOError("cannot create a Kafka producer: ", error);
  }
  return KafkaHandle(handle, &rd_kafka_destroy);
}

/// Creates `topic` with `partitions` partitions and waits until each has a leader, so that the
/// query's first offset requests find them all.
arrow::Status CreateTopic(const std::string& bootstrap, const std::string& topic,
                          int partitions) {
  const std::string what = "cannot create Kafka topic '" + topic + "'";
  ARROW_ASSIGN_OR_RAISE(KafkaHandle admin, NewProducer({{"bootstrap.servers", bootstrap}}));
  char error[512];
  rd_kafka_NewTopic_t* new_topic =
      rd_kafka_NewTopic_new(topic.c_str(), partitions, 1, error, sizeof(error));
  if (new_topic == nullptr) return arrow::Status::Invalid(what, ": ", error);
  rd_kafka_queue_t* queue = rd_kafka_queue_new(admin.get());
  rd_kafka_CreateTopics(admin.get(), &new_topic, 1, nullptr, queue);
  rd_kafka_NewTopic_destroy(new_topic);
  rd_kafka_event_t* event = rd_kafka_queue_poll(
      queue, static_cast<int>(std::chrono::milliseconds(kPatience).count()));
  arrow::Status status;
  if (event == nullptr) {
    status = arrow::Status::IOError(what, ": no answer from ", bootstrap, " within ",
                                    kPatience.count(), "s");
  } else if (rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    status = arrow::Status::IOError(what, ": ", rd_kafka_event_error_string(event));
  } else {
    size_t count = 0;
    const rd_kafka_topic_result_t** results = rd_kafka_CreateTopics_result_topics(
        rd_kafka_event_CreateTopics_result(event), &count);
    for (size_t i = 0; i < count; ++i) {
      if (rd_kafka_topic_result_error(results[i]) != RD_KAFKA_RESP_ERR_NO_ERROR) {
        status = arrow::Status::IOError(what, ": ", rd_kafka_topic_result_error_string(results[i]));
      }
    }
  }
  if (event != nullptr) rd_kafka_event_destroy(event);
  rd_kafka_queue_destroy(queue);
  ARROW_RETURN_NOT_OK(status);

  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (std::chrono::steady_clock::now() < deadline) {
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
      if (led == partitions) return arrow::Status::OK();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return arrow::Status::IOError(what, ": its partitions have no leader after ",
                                kPatience.count(), "s");
}

void CountFailedDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) ++*static_cast<int*>(opaque);
}

/// Writes `records` to `topic` (partitioned by key) and returns once the broker acknowledged
/// every one.
arrow::Status Produce(const std::string& bootstrap, const std::string& topic,
                      const std::vector<Record>& records) {
  ARROW_ASSIGN_OR_RAISE(KafkaHandle producer,
                        NewProducer({{"bootstrap.servers", bootstrap},
                                     {"enable.idempotence", "true"},
                                     {"partitioner", "murmur2_random"},
                                     // Errors only: a fresh broker's transient "coordinator
                                     // load in progress" retry is not worth a line.
                                     {"log_level", "3"}},
                                    &CountFailedDelivery));
  int failed = 0;
  for (const Record& record : records) {
    rd_kafka_resp_err_t error = rd_kafka_producev(
        producer.get(), RD_KAFKA_V_TOPIC(topic.c_str()),
        RD_KAFKA_V_KEY(record.key.data(), record.key.size()),
        RD_KAFKA_V_VALUE(const_cast<char*>(record.value.data()), record.value.size()),
        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_OPAQUE(&failed), RD_KAFKA_V_END);
    if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return arrow::Status::IOError("cannot send a record to Kafka topic '", topic,
                                    "': ", rd_kafka_err2str(error));
    }
  }
  rd_kafka_flush(producer.get(),
                 static_cast<int>(std::chrono::milliseconds(kPatience).count()));
  if (rd_kafka_outq_len(producer.get()) > 0 || failed > 0) {
    return arrow::Status::IOError("records to Kafka topic '", topic, "' were not delivered");
  }
  return arrow::Status::OK();
}

/// The rows of `table`, one string each: the columns' values separated by spaces.
std::vector<std::string> RowsOf(const arrow::Table& table) {
  std::vector<std::string> rows;
  for (int64_t row = 0; row < table.num_rows(); ++row) {
    std::string text;
    for (int column = 0; column < table.num_columns(); ++column) {
      auto value = table.column(column)->GetScalar(row);
      if (column > 0) text += " ";
      text += value.ok() ? (*value)->ToString() : value.status().ToString();
    }
    rows.push_back(std::move(text));
  }
  return rows;
}

/// Shows `rows` and checks them against `expected`, printing both on a difference.
arrow::Status Check(const sluice::DataFrame& rows, const std::vector<std::string>& expected,
                    const std::string& what) {
  ARROW_RETURN_NOT_OK(rows.show(50, false));
  ARROW_ASSIGN_OR_RAISE(auto table, rows.collect());
  std::vector<std::string> actual = RowsOf(*table);
  if (actual == expected) {
    std::cout << what << ": as the seed expects" << std::endl;
    return arrow::Status::OK();
  }
  std::string message = what + " differs from the seed's expectation.\nexpected:";
  for (const auto& row : expected) message += "\n  " + row;
  message += "\nactual:";
  for (const auto& row : actual) message += "\n  " + row;
  return arrow::Status::Invalid(message);
}

/// One line per batch run since `*printed`: rows in, watermark, rows dropped as too late.
void PrintNewBatches(const sluice::StreamingQuery& query, int64_t* printed) {
  for (const auto& progress : query.recentProgress()) {
    if (progress.batch_id <= *printed) continue;
    *printed = progress.batch_id;
    auto watermark = progress.event_time.find("watermark");
    int64_t dropped = 0;
    for (const auto& op : progress.state_operators) dropped += op.num_rows_dropped_by_watermark;
    std::cout << "  batch " << progress.batch_id << ": " << progress.num_input_rows()
              << " rows in, watermark "
              << (watermark == progress.event_time.end() ? "-" : watermark->second) << ", "
              << dropped << " dropped by the watermark" << std::endl;
  }
}

/// Seed 003: clicks per page in five-minute windows with a ten-minute watermark, appended to
/// Parquet, fed two waves of clicks while it runs.
arrow::Status RunClicks(const std::shared_ptr<sluice::SparkSession>& spark,
                        const std::string& bootstrap, const fs::path& work) {
  std::cout << "=== Seed 003: Kafka clicks, windowed count with a watermark" << std::endl;
  ARROW_RETURN_NOT_OK(CreateTopic(bootstrap, "clicks", 3));

  auto raw = spark->readStream()
                 .format("kafka")
                 .option("kafka.bootstrap.servers", bootstrap)
                 .option("subscribe", "clicks")
                 .option("startingOffsets", "latest")
                 .load();
  auto events =
      raw.select({F::from_json(F::col("value").cast("string"),
                               "user_id STRING, page STRING, ts TIMESTAMP")
                      .alias("e")})
          .select({F::col("e.*")});
  auto counts = events.withWatermark("ts", "10 minutes")
                    .groupBy({F::window(F::col("ts"), "5 minutes"), F::col("page")})
                    .count();
  const fs::path output = work / "clicks_per_page";
  // The seed triggers every minute; the default trigger (as soon as the previous batch ends)
  // gives the same results without the wait. "latest" is resolved when the query starts,
  // before any click is written, so it reads every click below.
  ARROW_ASSIGN_OR_RAISE(
      auto query,
      counts.writeStream()
          .outputMode("append")
          .format("parquet")
          .option("checkpointLocation", (work / "chk" / "clicks_per_page").string())
          .queryName("clicks_per_page")
          .start(output.string()));
  ARROW_RETURN_NOT_OK(query->processAllAvailable());

  auto windows = [&] {
    return spark->read()
        .parquet(output.string())
        .select({F::date_format(F::col("window").getField("start"), "HH:mm").alias("start"),
                 F::date_format(F::col("window").getField("end"), "HH:mm").alias("end"),
                 F::col("page"), F::col("count")})
        .orderBy({F::col("start"), F::col("page")});
  };
  int64_t printed = -1;
  auto wave = [&](const std::vector<Record>& clicks, const std::vector<std::string>& expected,
                  const std::string& name) -> arrow::Status {
    std::cout << "--- " << name << std::endl;
    ARROW_RETURN_NOT_OK(Produce(bootstrap, "clicks", clicks));
    ARROW_RETURN_NOT_OK(query->processAllAvailable());
    PrintNewBatches(*query, &printed);
    return Check(windows(), expected, "windows after " + name);
  };
  arrow::Status status =
      wave(kClicksWave1, kWindowsAfterWave1, "wave 1 (12:01 to 12:17, watermark 12:07)");
  if (status.ok()) {
    status = wave(kClicksWave2, kWindowsAfterWave2,
                  "wave 2 (late 12:08 counted, 12:03 dropped, 12:21 moves the watermark)");
  }
  ARROW_RETURN_NOT_OK(query->stop());
  ARROW_RETURN_NOT_OK(status);
  return query->exception();
}

/// Seed 000's Kafka-to-table part, into Parquet instead of Delta.
arrow::Status RunOrders(const std::shared_ptr<sluice::SparkSession>& spark,
                        const std::string& bootstrap, const fs::path& work) {
  std::cout << "=== Seed 000: Kafka orders to a table (Parquet in place of Delta)" << std::endl;
  ARROW_RETURN_NOT_OK(CreateTopic(bootstrap, "orders", 2));
  ARROW_RETURN_NOT_OK(Produce(bootstrap, "orders", kOrders));

  auto raw = spark->readStream()
                 .format("kafka")
                 .option("kafka.bootstrap.servers", bootstrap)
                 .option("subscribe", "orders")
                 .option("startingOffsets", "earliest")
                 .load();
  auto orders = raw.select({F::from_json(F::col("value").cast("string"), kOrderSchema).alias("o")})
                    .select({F::col("o.*")});
  const fs::path table = work / "bronze_orders";
  // Delta's toTable("bronze.orders") becomes a Parquet folder; the seed's one-minute trigger
  // becomes availableNow: everything in the topic now, then stop.
  ARROW_ASSIGN_OR_RAISE(
      auto query, orders.writeStream()
                      .format("parquet")
                      .outputMode("append")
                      .option("checkpointLocation", (work / "chk" / "orders").string())
                      .trigger(sluice::Trigger::AvailableNow())
                      .start(table.string()));
  ARROW_RETURN_NOT_OK(query->awaitTermination());
  auto rows = spark->read()
                  .parquet(table.string())
                  .select({F::col("order_id"), F::col("customer_id"), F::col("amount"),
                           F::date_format(F::col("order_ts"), "yyyy-MM-dd HH:mm:ss")})
                  .orderBy({F::col("order_id")});
  return Check(rows, kOrderRows, "bronze orders");
}

arrow::Status Run(int argc, char** argv) {
  const fs::path work = fs::temp_directory_path() /
                        ("kafka-clicks-example-" + std::to_string(getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  arrow::Status status = [&]() -> arrow::Status {
    ARROW_ASSIGN_OR_RAISE(auto broker,
                          argc > 1 ? Broker::Use(argv[1]) : Broker::Start(work));
    std::cout << "Kafka broker: " << broker->bootstrap() << std::endl;
    ARROW_ASSIGN_OR_RAISE(auto spark, sluice::SparkSession::builder()
                                          .appName("clicks")
                                          .config("spark.sql.session.timeZone", "UTC")
                                          .config("spark.sql.shuffle.partitions", "4")
                                          .getOrCreate());
    ARROW_RETURN_NOT_OK(RunClicks(spark, broker->bootstrap(), work));
    return RunOrders(spark, broker->bootstrap(), work);
  }();
  fs::remove_all(work);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  arrow::Status status = Run(argc, argv);
  if (!status.ok()) {
    std::cerr << "kafka_clicks_example: " << status.ToString() << std::endl;
    return 1;
  }
  return 0;
}
