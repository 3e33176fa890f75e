// The Kafka source driven directly, as the micro-batch loop drives it, against a real broker:
// the starting-offset forms, assign / subscribe / subscribePattern (new topics picked up),
// maxOffsetsPerTrigger and minOffsetsPerTrigger with maxTriggerDelay, the columns and headers,
// transactions, the metrics, data loss with failOnDataLoss true and false, the initial offsets
// kept in the checkpoint, and an unreachable broker.
#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <arrow/array.h>
#include <arrow/table.h>
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include "sluice/common/clock.h"
#include "sluice/common/errors.h"
#include "sluice/sources/kafka/kafka_offset_json.h"
#include "sluice/sources/source_registry.h"
#include "support/kafka_broker.h"
#include "support/kafka_client.h"
#include "support/scratch_dir.h"

namespace sluice::sources {
namespace {

using testing::KafkaHeader;
using testing::KafkaIsolation;
using testing::KafkaRecord;
using testing::KafkaTestClient;
using testing::SharedKafkaBroker;
using testing::UniqueTopicName;
using testing::ValueRecords;

/// One row read by the source, its binary columns as strings.
struct Row {
  std::optional<std::string> key;
  std::optional<std::string> value;
  std::string topic;
  int32_t partition;
  int64_t offset;
  int64_t timestamp_us;
  int32_t timestamp_type;
  std::optional<std::vector<KafkaHeader>> headers;
};

std::optional<std::string> BinaryAt(const arrow::Array& column, int64_t i) {
  if (column.IsNull(i)) return std::nullopt;
  return static_cast<const arrow::BinaryArray&>(column).GetString(i);
}

std::vector<Row> RowsOf(const arrow::Table& table) {
  auto batch = table.CombineChunksToBatch().ValueOrDie();
  std::vector<Row> rows;
  for (int64_t i = 0; i < batch->num_rows(); ++i) {
    Row row;
    row.key = BinaryAt(*batch->column(0), i);
    row.value = BinaryAt(*batch->column(1), i);
    row.topic = static_cast<const arrow::StringArray&>(*batch->column(2)).GetString(i);
    row.partition = static_cast<const arrow::Int32Array&>(*batch->column(3)).Value(i);
    row.offset = static_cast<const arrow::Int64Array&>(*batch->column(4)).Value(i);
    row.timestamp_us = static_cast<const arrow::TimestampArray&>(*batch->column(5)).Value(i);
    row.timestamp_type = static_cast<const arrow::Int32Array&>(*batch->column(6)).Value(i);
    if (batch->num_columns() > 7 && !batch->column(7)->IsNull(i)) {
      const auto& list = static_cast<const arrow::ListArray&>(*batch->column(7));
      const auto& headers = static_cast<const arrow::StructArray&>(*list.values());
      const auto& keys = static_cast<const arrow::StringArray&>(*headers.field(0));
      std::vector<KafkaHeader> parsed;
      for (int64_t h = list.value_offset(i); h < list.value_offset(i + 1); ++h) {
        parsed.push_back({keys.GetString(h), BinaryAt(*headers.field(1), h)});
      }
      row.headers = std::move(parsed);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<std::string> ValuesOf(const std::vector<Row>& rows) {
  std::vector<std::string> values;
  for (const auto& row : rows) values.push_back(row.value.value_or("null"));
  return values;
}

/// A record to write: `value` into `partition`, with an optional key, CreateTime and headers.
KafkaRecord Record(std::optional<std::string> value, int32_t partition,
                   std::optional<std::string> key = std::nullopt, int64_t timestamp_ms = -1,
                   std::vector<KafkaHeader> headers = {}) {
  KafkaRecord record;
  record.key = std::move(key);
  record.value = std::move(value);
  record.headers = std::move(headers);
  record.partition = partition;
  record.timestamp_ms = timestamp_ms;
  return record;
}

// Grows `topic` to `total` partitions with librdkafka's admin API (the test client has no
// call for it); returns once the broker accepted the change.
arrow::Status AddPartitions(const std::string& bootstrap, const std::string& topic, int total) {
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), error, sizeof(error));
  rd_kafka_t* admin = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
  if (admin == nullptr) return arrow::Status::IOError(error);
  rd_kafka_NewPartitions_t* request =
      rd_kafka_NewPartitions_new(topic.c_str(), total, error, sizeof(error));
  rd_kafka_queue_t* queue = rd_kafka_queue_new(admin);
  rd_kafka_CreatePartitions(admin, &request, 1, nullptr, queue);
  rd_kafka_event_t* event = rd_kafka_queue_poll(queue, 30000);
  arrow::Status status = arrow::Status::IOError("CreatePartitions of ", topic, " timed out");
  if (event != nullptr) {
    const rd_kafka_CreatePartitions_result_t* result =
        rd_kafka_event_CreatePartitions_result(event);
    size_t count = 0;
    const rd_kafka_topic_result_t** topics =
        result == nullptr ? nullptr : rd_kafka_CreatePartitions_result_topics(result, &count);
    if (rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR) {
      status = arrow::Status::IOError(rd_kafka_event_error_string(event));
    } else if (count == 1 && rd_kafka_topic_result_error(topics[0]) != RD_KAFKA_RESP_ERR_NO_ERROR) {
      status = arrow::Status::IOError(rd_kafka_topic_result_error_string(topics[0]));
    } else {
      status = arrow::Status::OK();
    }
    rd_kafka_event_destroy(event);
  }
  rd_kafka_queue_destroy(queue);
  rd_kafka_NewPartitions_destroy(request);
  rd_kafka_destroy(admin);
  return status;
}

// Makes the broker drop the records of `topic`'s partition 0 before `offset`, as retention
// does (librdkafka's DeleteRecords; the test client has no call for it).
arrow::Status AgeOut(const std::string& bootstrap, const std::string& topic, int64_t offset) {
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), error, sizeof(error));
  rd_kafka_t* admin = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
  if (admin == nullptr) return arrow::Status::IOError(error);
  rd_kafka_topic_partition_list_t* before = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(before, topic.c_str(), 0)->offset = offset;
  rd_kafka_DeleteRecords_t* request = rd_kafka_DeleteRecords_new(before);
  rd_kafka_queue_t* queue = rd_kafka_queue_new(admin);
  rd_kafka_DeleteRecords(admin, &request, 1, nullptr, queue);
  rd_kafka_event_t* event = rd_kafka_queue_poll(queue, 30000);
  arrow::Status status = arrow::Status::IOError("DeleteRecords of ", topic, " timed out");
  if (event != nullptr) {
    const rd_kafka_DeleteRecords_result_t* result = rd_kafka_event_DeleteRecords_result(event);
    const rd_kafka_topic_partition_list_t* offsets =
        result == nullptr ? nullptr : rd_kafka_DeleteRecords_result_offsets(result);
    if (rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR) {
      status = arrow::Status::IOError(rd_kafka_event_error_string(event));
    } else if (offsets != nullptr && offsets->cnt == 1 &&
               offsets->elems[0].err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      status = arrow::Status::IOError(rd_kafka_err2str(offsets->elems[0].err));
    } else {
      status = arrow::Status::OK();
    }
    rd_kafka_event_destroy(event);
  }
  rd_kafka_queue_destroy(queue);
  rd_kafka_DeleteRecords_destroy(request);
  rd_kafka_topic_partition_list_destroy(before);
  rd_kafka_destroy(admin);
  return status;
}

class KafkaSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bootstrap_ = SharedKafkaBroker().bootstrap();
    kafka_ = std::make_unique<KafkaTestClient>(bootstrap_);
    topic_ = UniqueTopicName("source");
  }

  formats::OptionMap Options(formats::OptionMap options) const {
    options.emplace("kafka.bootstrap.servers", bootstrap_);
    return options;
  }

  // A running source; `metadata_path` empty: no checkpoint.
  std::unique_ptr<StreamSource> Start(const formats::OptionMap& options,
                                      const std::string& metadata_path = "") {
    SourceRequest request;
    request.format = "kafka";
    request.options = Options(options);
    auto provider = MakeStreamSourceProvider(request);
    EXPECT_TRUE(provider.ok()) << provider.status().ToString();
    if (!provider.ok()) return nullptr;
    SourceContext context;
    context.clock = &clock_;
    context.metadata_path = metadata_path;
    auto source = (*provider)->CreateSource(context);
    EXPECT_TRUE(source.ok()) << source.status().ToString();
    return source.ok() ? std::move(*source) : nullptr;
  }

  std::string Latest(StreamSource& source, const std::optional<std::string>& start,
                     ReadLimitMode mode = ReadLimitMode::kRespectLimits) {
    auto offset = source.LatestOffset(start, mode);
    EXPECT_TRUE(offset.ok()) << offset.status().ToString();
    return offset.ok() ? offset->value_or("null") : "error";
  }

  std::vector<Row> Read(StreamSource& source, const std::optional<std::string>& start,
                        const std::string& end) {
    auto reader = source.GetBatch(start, end);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return {};
    auto table = (*reader)->ToTable();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? RowsOf(**table) : std::vector<Row>{};
  }

  void Produce(const std::string& topic, const std::vector<KafkaRecord>& records) {
    auto written = kafka_->Produce(topic, records);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
  }

  std::string bootstrap_;
  std::unique_ptr<KafkaTestClient> kafka_;
  std::string topic_;
  ManualClock clock_{0};
};

TEST_F(KafkaSourceTest, ReadsEveryColumnFromEarliest) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 2).ok());
  auto written = kafka_->Produce(
      topic_, {Record("v1", 0, "k1", 1700000000123), Record(std::nullopt, 1),
               Record("v3", 0, "")});
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto source = Start({{"subscribe", topic_}, {"startingOffsets", "earliest"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->Describe(), "KafkaV2[Subscribe[" + topic_ + "]]");
  EXPECT_EQ(source->schema()->ToString(),
            "key: binary\nvalue: binary\ntopic: string\npartition: int32\noffset: int64\n"
            "timestamp: timestamp[us, tz=UTC]\ntimestampType: int32");
  const std::string end = Latest(*source, std::nullopt);
  EXPECT_EQ(end, "{\"" + topic_ + "\":{\"0\":2,\"1\":1}}");
  auto rows = Read(*source, std::nullopt, end);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].key, "k1");
  EXPECT_EQ(rows[0].value, "v1");
  EXPECT_EQ(rows[0].topic, topic_);
  EXPECT_EQ(rows[0].partition, 0);
  EXPECT_EQ(rows[0].offset, 0);
  EXPECT_EQ(rows[0].timestamp_us, 1700000000123000);
  EXPECT_EQ(rows[0].timestamp_type, 0);
  EXPECT_EQ(rows[1].key, "");
  EXPECT_EQ(rows[1].offset, 1);
  EXPECT_EQ(rows[2].partition, 1);
  EXPECT_EQ(rows[2].key, std::nullopt);
  EXPECT_EQ(rows[2].value, std::nullopt);
  EXPECT_FALSE(rows[0].headers.has_value());
  // Nothing new: the same offsets again.
  EXPECT_EQ(Latest(*source, end), end);
}

TEST_F(KafkaSourceTest, StartsAtLatestByDefault) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 1).ok());
  Produce(topic_, ValueRecords(0, {"old1", "old2"}));
  auto source = Start({{"subscribe", topic_}});
  ASSERT_NE(source, nullptr);
  const std::string first = Latest(*source, std::nullopt);
  EXPECT_EQ(first, "{\"" + topic_ + "\":{\"0\":2}}");
  EXPECT_TRUE(Read(*source, std::nullopt, first).empty());
  Produce(topic_, ValueRecords(0, {"new"}));
  const std::string second = Latest(*source, first);
  EXPECT_EQ(ValuesOf(Read(*source, first, second)), (std::vector<std::string>{"new"}));
}

TEST_F(KafkaSourceTest, StartsAtSpecificOffsetsAndTimestamps) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 2).ok());
  Produce(topic_, {Record("a0", 0, std::nullopt, 1000),
                   Record("a1", 0, std::nullopt, 2000),
                   Record("a2", 0, std::nullopt, 3000),
                   Record("b0", 1, std::nullopt, 1500)});
  {
    auto source = Start({{"subscribe", topic_},
                         {"startingOffsets", "{\"" + topic_ + "\":{\"0\":1,\"1\":-1}}"}});
    ASSERT_NE(source, nullptr);
    EXPECT_EQ(ValuesOf(Read(*source, std::nullopt, Latest(*source, std::nullopt))),
              (std::vector<std::string>{"a1", "a2"}));
  }
  {
    // A global timestamp wins over startingOffsets: partition 1 has nothing at or after 2000,
    // which startingOffsetsByTimestampStrategy=latest turns into its latest offset.
    auto source = Start({{"subscribe", topic_},
                         {"startingOffsets", "earliest"},
                         {"startingTimestamp", "2000"},
                         {"startingOffsetsByTimestampStrategy", "latest"}});
    ASSERT_NE(source, nullptr);
    EXPECT_EQ(ValuesOf(Read(*source, std::nullopt, Latest(*source, std::nullopt))),
              (std::vector<std::string>{"a1", "a2"}));
  }
  {
    auto source = Start(
        {{"subscribe", topic_},
         {"startingOffsetsByTimestamp", "{\"" + topic_ + "\":{\"0\":2500,\"1\":0}}"}});
    ASSERT_NE(source, nullptr);
    EXPECT_EQ(ValuesOf(Read(*source, std::nullopt, Latest(*source, std::nullopt))),
              (std::vector<std::string>{"a2", "b0"}));
  }
  {
    // Without the latest strategy a partition with no such offset fails the start.
    auto source = Start({{"subscribe", topic_}, {"startingTimestamp", "2000"}});
    ASSERT_NE(source, nullptr);
    auto offset = source->LatestOffset(std::nullopt, ReadLimitMode::kRespectLimits);
    ASSERT_FALSE(offset.ok());
    // Partition 1 is the one without a match.
    EXPECT_NE(offset.status().message().find("No offset matched from request of "
                                             "topic-partition " +
                                             topic_ + "-1 and timestamp 2000."),
              std::string::npos)
        << offset.status().ToString();
  }
}

TEST_F(KafkaSourceTest, AssignReadsOnlyTheAssignedPartitions) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 3).ok());
  Produce(topic_, {Record("p0", 0),
                   Record("p1", 1),
                   Record("p2", 2)});
  auto source = Start({{"assign", "{\"" + topic_ + "\":[2,0]}"}, {"startingOffsets", "earliest"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->Describe(), "KafkaV2[Assign[" + topic_ + "-2, " + topic_ + "-0]]");
  EXPECT_EQ(ValuesOf(Read(*source, std::nullopt, Latest(*source, std::nullopt))),
            (std::vector<std::string>{"p0", "p2"}));
}

TEST_F(KafkaSourceTest, SubscribePatternPicksUpNewTopicsFromTheirStart) {
  const std::string prefix = UniqueTopicName("pattern");
  ASSERT_TRUE(kafka_->CreateTopic(prefix + "-a", 1).ok());
  Produce(prefix + "-a", ValueRecords(0, {"a-old"}));
  auto source = Start({{"subscribePattern", prefix + "-.*"}});
  ASSERT_NE(source, nullptr);
  const std::string first = Latest(*source, std::nullopt);
  ASSERT_TRUE(kafka_->CreateTopic(prefix + "-b", 2).ok());
  Produce(prefix + "-b", ValueRecords(1, {"b1", "b2"}));
  Produce(prefix + "-a", ValueRecords(0, {"a-new"}));
  const std::string second = Latest(*source, first);
  // The topics' order in the JSON is Spark's hash order: compare the offsets.
  auto offsets = kafka::ParsePartitionOffsets(second);
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
  EXPECT_EQ(*offsets, (kafka::PartitionOffsets{{{prefix + "-a", 0}, 2},
                                               {{prefix + "-b", 0}, 0},
                                               {{prefix + "-b", 1}, 2}}));
  EXPECT_EQ(ValuesOf(Read(*source, first, second)),
            (std::vector<std::string>{"a-new", "b1", "b2"}));
}

TEST_F(KafkaSourceTest, NewPartitionsOfASubscribedTopicStartAtTheirEarliestOffset) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 1).ok());
  Produce(topic_, ValueRecords(0, {"old"}));
  auto source = Start({{"subscribe", topic_}});
  ASSERT_NE(source, nullptr);
  const std::string first = Latest(*source, std::nullopt);
  ASSERT_TRUE(AddPartitions(bootstrap_, topic_, 2).ok());
  // The broker and the clients learn of the new partition by their metadata: wait for it.
  std::string second;
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto partitions = kafka_->Partitions(topic_);
    if (partitions.ok() && partitions->size() == 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  Produce(topic_, {Record("new-p1", 1), Record("new-p0", 0)});
  second = Latest(*source, first);
  EXPECT_EQ(second, "{\"" + topic_ + "\":{\"0\":2,\"1\":1}}");
  EXPECT_EQ(ValuesOf(Read(*source, first, second)),
            (std::vector<std::string>{"new-p0", "new-p1"}));
}

TEST_F(KafkaSourceTest, AvailableNowStopsAtWhatWasThereWhenItStarted) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 1).ok());
  Produce(topic_, ValueRecords(0, {"1", "2", "3"}));
  auto source = Start({{"subscribe", topic_},
                       {"startingOffsets", "earliest"},
                       {"maxOffsetsPerTrigger", "2"}});
  ASSERT_NE(source, nullptr);
  ASSERT_TRUE(source->PrepareForAvailableNow().ok());
  const std::string first = Latest(*source, std::nullopt);
  EXPECT_EQ(first, "{\"" + topic_ + "\":{\"0\":2}}");
  Produce(topic_, ValueRecords(0, {"4"}));
  const std::string second = Latest(*source, first);
  EXPECT_EQ(second, "{\"" + topic_ + "\":{\"0\":3}}");
  EXPECT_EQ(Latest(*source, second), second);
}

TEST_F(KafkaSourceTest, MaxOffsetsPerTriggerSplitsByBacklog) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 2).ok());
  std::vector<std::string> many(30, "x");
  Produce(topic_, ValueRecords(0, many));
  Produce(topic_, ValueRecords(1, {"y", "y", "y", "y", "y", "y", "y", "y", "y", "y"}));
  auto source = Start({{"subscribe", topic_},
                       {"startingOffsets", "earliest"},
                       {"maxOffsetsPerTrigger", "8"}});
  ASSERT_NE(source, nullptr);
  // 8 * 30/40 = 6 and 8 * 10/40 = 2.
  const std::string first = Latest(*source, std::nullopt);
  EXPECT_EQ(first, "{\"" + topic_ + "\":{\"0\":6,\"1\":2}}");
  EXPECT_EQ(Read(*source, std::nullopt, first).size(), 8u);
  EXPECT_EQ(source->ReportLatestOffset(), "{\"" + topic_ + "\":{\"0\":30,\"1\":10}}");
  EXPECT_EQ(source->Metrics(),
            (std::map<std::string, std::string>{{"avgOffsetsBehindLatest", "16.0"},
                                                {"maxOffsetsBehindLatest", "24"},
                                                {"minOffsetsBehindLatest", "8"}}));
  // Trigger.Once reads everything.
  EXPECT_EQ(Latest(*source, first, ReadLimitMode::kAll),
            "{\"" + topic_ + "\":{\"0\":30,\"1\":10}}");
}

TEST_F(KafkaSourceTest, MinOffsetsPerTriggerWaitsForRecordsOrTheDelay) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 1).ok());
  auto source = Start({{"subscribe", topic_},
                       {"minOffsetsPerTrigger", "5"},
                       {"maxTriggerDelay", "10s"}});
  ASSERT_NE(source, nullptr);
  clock_.SetTime(100000);
  // The first trigger is past the delay (counted from time 0).
  const std::string first = Latest(*source, std::nullopt);
  Produce(topic_, ValueRecords(0, {"1", "2", "3"}));
  clock_.Advance(1000);
  EXPECT_EQ(Latest(*source, first), first);
  Produce(topic_, ValueRecords(0, {"4", "5"}));
  clock_.Advance(1000);
  const std::string second = Latest(*source, first);
  EXPECT_EQ(second, "{\"" + topic_ + "\":{\"0\":5}}");
  Produce(topic_, ValueRecords(0, {"6"}));
  clock_.Advance(9999);
  EXPECT_EQ(Latest(*source, second), second);
  clock_.Advance(1);
  EXPECT_EQ(Latest(*source, second), "{\"" + topic_ + "\":{\"0\":6}}");
}

TEST_F(KafkaSourceTest, IncludesHeadersWhenAsked) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 1).ok());
  Produce(topic_, {Record("h", 0, std::nullopt, -1, {{"a", "1"}, {"b", std::nullopt}, {"a", "2"}}),
                   Record("none", 0)});
  auto source = Start({{"subscribe", topic_}, {"startingOffsets", "earliest"},
                       {"includeHeaders", "true"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->schema()->field(7)->type()->ToString(),
            "list<element: struct<key: string, value: binary>>");
  auto rows = Read(*source, std::nullopt, Latest(*source, std::nullopt));
  ASSERT_EQ(rows.size(), 2u);
  ASSERT_TRUE(rows[0].headers.has_value());
  EXPECT_EQ(*rows[0].headers,
            (std::vector<KafkaHeader>{{"a", "1"}, {"b", std::nullopt}, {"a", "2"}}));
  EXPECT_FALSE(rows[1].headers.has_value());
}

TEST_F(KafkaSourceTest, TransactionsFollowTheIsolationLevel) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 1).ok());
  const std::string id = UniqueTopicName("txn");
  ASSERT_TRUE(kafka_->ProduceCommittedAbortedCommitted(topic_, id).ok());
  // Offsets: c1 0, c2 1, marker 2, aborted 3, marker 4, c3 5, marker 6.
  {
    // Spark's default, read_uncommitted, sees the aborted record too; the markers are skipped
    // and the range still ends at its end offset.
    auto source = Start({{"subscribe", topic_}, {"startingOffsets", "earliest"}});
    ASSERT_NE(source, nullptr);
    const std::string end = Latest(*source, std::nullopt);
    EXPECT_EQ(end, "{\"" + topic_ + "\":{\"0\":7}}");
    EXPECT_EQ(ValuesOf(Read(*source, std::nullopt, end)),
              (std::vector<std::string>{"c1", "c2", "aborted", "c3"}));
  }
  {
    auto source = Start({{"subscribe", topic_},
                         {"startingOffsets", "earliest"},
                         {"kafka.isolation.level", "read_committed"}});
    ASSERT_NE(source, nullptr);
    const std::string end = Latest(*source, std::nullopt);
    auto rows = Read(*source, std::nullopt, end);
    EXPECT_EQ(ValuesOf(rows), (std::vector<std::string>{"c1", "c2", "c3"}));
    // Deterministic: the same range read again gives the same rows.
    EXPECT_EQ(ValuesOf(Read(*source, std::nullopt, end)), ValuesOf(rows));
  }
}

TEST_F(KafkaSourceTest, KeepsTheInitialOffsetsInTheCheckpoint) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 1).ok());
  Produce(topic_, ValueRecords(0, {"before"}));
  testing::ScratchDir dir;
  const std::string metadata = dir / "sources/0";
  std::string first;
  {
    auto source = Start({{"subscribe", topic_}}, metadata);
    ASSERT_NE(source, nullptr);
    first = Latest(*source, std::nullopt);
    EXPECT_EQ(first, "{\"" + topic_ + "\":{\"0\":1}}");
  }
  Produce(topic_, ValueRecords(0, {"after"}));
  // A restart before batch 0 committed starts from the recorded offsets, not from latest.
  auto source = Start({{"subscribe", topic_}}, metadata);
  ASSERT_NE(source, nullptr);
  const std::string end = Latest(*source, std::nullopt);
  EXPECT_EQ(ValuesOf(Read(*source, std::nullopt, end)), (std::vector<std::string>{"after"}));
  std::ifstream file(metadata + "/0", std::ios::binary);
  std::string contents((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT_EQ(contents, std::string("\0v1\n", 4) + first);
}

TEST_F(KafkaSourceTest, DeletedTopicFailsOrWarnsPerFailOnDataLoss) {
  for (const bool fail : {true, false}) {
    SCOPED_TRACE(fail ? "failOnDataLoss=true" : "failOnDataLoss=false");
    const std::string prefix = UniqueTopicName("deleted");
    ASSERT_TRUE(kafka_->CreateTopic(prefix + "-gone", 1).ok());
    ASSERT_TRUE(kafka_->CreateTopic(prefix + "-kept", 1).ok());
    auto source = Start({{"subscribePattern", prefix + "-.*"},
                         {"startingOffsets", "earliest"},
                         {"failOnDataLoss", fail ? "true" : "false"}});
    ASSERT_NE(source, nullptr);
    const std::string first = Latest(*source, std::nullopt);
    ASSERT_TRUE(kafka_->DeleteTopic(prefix + "-gone").ok());
    Produce(prefix + "-kept", ValueRecords(0, {"k"}));
    const std::string second = Latest(*source, first);
    EXPECT_EQ(second, "{\"" + prefix + "-kept\":{\"0\":1}}");
    auto batch = source->GetBatch(first, second);
    if (fail) {
      ASSERT_FALSE(batch.ok());
      EXPECT_EQ(ErrorClassOf(batch.status()), "KAFKA_DATA_LOSS.PARTITIONS_DELETED");
      EXPECT_NE(batch.status().message().find("Partitions Set(" + prefix +
                                              "-gone-0) have been deleted."),
                std::string::npos)
          << batch.status().ToString();
    } else {
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      auto table = (*batch)->ToTable();
      ASSERT_TRUE(table.ok());
      EXPECT_EQ(ValuesOf(RowsOf(**table)), (std::vector<std::string>{"k"}));
    }
  }
}

TEST_F(KafkaSourceTest, AgedOutRecordsFailOrAreSkippedPerFailOnDataLoss) {
  for (const bool fail : {true, false}) {
    SCOPED_TRACE(fail ? "failOnDataLoss=true" : "failOnDataLoss=false");
    const std::string topic = UniqueTopicName("aged");
    ASSERT_TRUE(kafka_->CreateTopic(topic, 1).ok());
    Produce(topic, ValueRecords(0, {"0", "1", "2", "3", "4"}));
    auto source = Start({{"subscribe", topic},
                         {"startingOffsets", "earliest"},
                         {"failOnDataLoss", fail ? "true" : "false"}});
    ASSERT_NE(source, nullptr);
    const std::string end = Latest(*source, std::nullopt);
    ASSERT_TRUE(AgeOut(bootstrap_, topic, 3).ok());
    auto batch = source->GetBatch(std::nullopt, end);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    auto table = (*batch)->ToTable();
    if (fail) {
      ASSERT_FALSE(table.ok());
      EXPECT_NE(table.status().message().find("[KAFKA_DATA_LOSS.COULD_NOT_READ_OFFSET_RANGE]"),
                std::string::npos)
          << table.status().ToString();
      EXPECT_NE(table.status().message().find("Could not read records in offset [0, 5) for "
                                              "topic partition " +
                                              topic + "-0"),
                std::string::npos)
          << table.status().ToString();
    } else {
      ASSERT_TRUE(table.ok()) << table.status().ToString();
      EXPECT_EQ(ValuesOf(RowsOf(**table)), (std::vector<std::string>{"3", "4"}));
    }
  }
}

TEST_F(KafkaSourceTest, SubscribingToAMissingTopicFailsNamingIt) {
  auto source = Start({{"subscribe", topic_}, {"fetchOffset.retryIntervalMs", "10"}});
  ASSERT_NE(source, nullptr);
  auto offset = source->LatestOffset(std::nullopt, ReadLimitMode::kRespectLimits);
  ASSERT_FALSE(offset.ok());
  EXPECT_NE(offset.status().message().find("Topic '" + topic_ + "'"), std::string::npos)
      << offset.status().ToString();
}

TEST_F(KafkaSourceTest, UnreachableBrokerFailsWithinABoundedTime) {
  SourceRequest request;
  request.format = "kafka";
  request.options = {{"subscribe", "t"}, {"kafka.bootstrap.servers", "127.0.0.1:1"}};
  auto provider = MakeStreamSourceProvider(request);
  ASSERT_TRUE(provider.ok()) << provider.status().ToString();
  SourceContext context;
  context.clock = &clock_;
  auto source = (*provider)->CreateSource(context);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  const auto started = std::chrono::steady_clock::now();
  auto offset = (*source)->LatestOffset(std::nullopt, ReadLimitMode::kRespectLimits);
  const auto waited = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(offset.ok());
  EXPECT_NE(offset.status().message().find("kafka.bootstrap.servers=127.0.0.1:1"),
            std::string::npos)
      << offset.status().ToString();
  EXPECT_LT(waited, std::chrono::seconds(20)) << offset.status().ToString();
}

TEST_F(KafkaSourceTest, RefusesAUserSchemaAndBadSettings) {
  SourceRequest request;
  request.format = "kafka";
  request.options = Options({{"subscribe", "t"}});
  request.schema = arrow::schema({arrow::field("a", arrow::int32())});
  auto provider = MakeStreamSourceProvider(request);
  ASSERT_FALSE(provider.ok());
  EXPECT_EQ(provider.status().message(),
            "requirement failed: Kafka source has a fixed schema and cannot be set with a "
            "custom one");
  request.schema = nullptr;
  request.options = Options({{"subscribe", "t"}, {"kafka.no.such.setting", "1"}});
  provider = MakeStreamSourceProvider(request);
  ASSERT_TRUE(provider.ok());
  SourceContext context;
  context.clock = &clock_;
  auto source = (*provider)->CreateSource(context);
  ASSERT_FALSE(source.ok());
  EXPECT_NE(source.status().message().find("'kafka.no.such.setting'"), std::string::npos)
      << source.status().ToString();
}

}  // namespace
}  // namespace sluice::sources
