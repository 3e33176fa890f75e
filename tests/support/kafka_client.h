// A small Kafka client for tests, over librdkafka's C API: it creates and deletes topics,
// writes records (plain or in a transaction) and reads a whole topic back, so that tests check
// what Sluice reads and writes against the broker itself.
//
//   KafkaTestClient kafka(SharedKafkaBroker().bootstrap());
//   const std::string topic = UniqueTopicName("clicks");
//   ASSERT_TRUE(kafka.CreateTopic(topic, 3).ok());
//   ASSERT_TRUE(kafka.Produce(topic, {KafkaRecord().WithKey("k").WithValue("v")}).ok());
//   auto records = kafka.ConsumeAll(topic, KafkaIsolation::kReadCommitted);
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

namespace sluice::testing {

/// One header of a record; Kafka allows several with the same key, and a null value.
struct KafkaHeader {
  std::string key;
  std::optional<std::string> value;

  bool operator==(const KafkaHeader&) const = default;
};

/// A record to write, or one written or read back.
struct KafkaRecord {
  /// Null (nullopt) and empty differ in Kafka, and stay apart here.
  std::optional<std::string> key;
  std::optional<std::string> value;
  /// In order; duplicate keys kept.
  std::vector<KafkaHeader> headers;
  /// To write: the partition, or -1 to let the default partitioner pick (by key hash, keyless
  /// records spread). Written or read: the partition it is in.
  int32_t partition = -1;
  /// Written or read: its offset in the partition. Ignored when writing.
  int64_t offset = -1;
  /// To write: the record's CreateTime in milliseconds since the epoch, or -1 for now.
  /// Written or read: its timestamp as the broker keeps it.
  int64_t timestamp_ms = -1;
  /// Read: 0 for CreateTime, 1 for LogAppendTime (Spark's `timestampType` column).
  int32_t timestamp_type = 0;

  /// Copies with one field changed, to write records in one expression:
  /// KafkaRecord().WithKey("k").WithValue("v").WithHeader("h", "1").InPartition(2).At(1000).
  KafkaRecord WithKey(std::optional<std::string> new_key) const;
  KafkaRecord WithValue(std::optional<std::string> new_value) const;
  /// Appends one header.
  KafkaRecord WithHeader(std::string header_key, std::optional<std::string> header_value) const;
  KafkaRecord InPartition(int32_t new_partition) const;
  /// With CreateTime `new_timestamp_ms`.
  KafkaRecord At(int64_t new_timestamp_ms) const;

  bool operator==(const KafkaRecord&) const = default;
};

/// Prints a record in test failure messages.
std::ostream& operator<<(std::ostream& out, const KafkaRecord& record);

/// Which records a reader sees: read_committed hides records of aborted or still open
/// transactions (and everything after the first open one); read_uncommitted sees them all.
enum class KafkaIsolation { kReadCommitted, kReadUncommitted };

/// Records of partition `partition` holding `values`, nothing else set.
std::vector<KafkaRecord> ValueRecords(int32_t partition, const std::vector<std::string>& values);

/// How a transaction of ProduceInTransaction ends.
enum class TransactionEnd { kCommit, kAbort };

/// A topic name no other test uses: `prefix` and a random suffix.
std::string UniqueTopicName(const std::string& prefix);

/// Talks to the broker at `bootstrap` ("host:port"). Each call opens and closes its own
/// librdkafka handles, so calls are independent and the object may be used from any thread.
/// Every call waits at most `patience` for each thing it waits for and then fails with an
/// IOError naming the topic (and partition) and the broker's error; it never hangs.
class KafkaTestClient {
 public:
  explicit KafkaTestClient(std::string bootstrap,
                           std::chrono::milliseconds patience = std::chrono::seconds(30));

  /// Creates `topic` with `partitions` partitions (one replica), with topic-level settings
  /// `configs` (e.g. retention.ms), and returns once the metadata shows every partition with a
  /// leader.
  arrow::Status CreateTopic(const std::string& topic, int partitions,
                            const std::map<std::string, std::string>& configs = {});
  /// Deletes `topic` and returns once the metadata no longer lists it.
  arrow::Status DeleteTopic(const std::string& topic);
  /// The partition ids of `topic`, ascending; an error when the broker does not know it.
  arrow::Result<std::vector<int32_t>> Partitions(const std::string& topic);

  /// Writes `records` to `topic` with an idempotent producer (in order per partition, no
  /// duplicates) and returns once all are acknowledged by the broker: the records as written,
  /// with their partition, offset and timestamp.
  arrow::Result<std::vector<KafkaRecord>> Produce(const std::string& topic,
                                                  const std::vector<KafkaRecord>& records);
  /// Writes `records` in one transaction of a producer with `transactional_id`, all of them
  /// sent to the broker before the transaction ends as `end`; returns the records as written.
  /// Aborted records stay in the log, visible to read_uncommitted readers only.
  arrow::Result<std::vector<KafkaRecord>> ProduceInTransaction(
      const std::string& topic, const std::vector<KafkaRecord>& records, TransactionEnd end,
      const std::string& transactional_id);

  /// Writes the transactions the isolation tests read to partition 0 of `topic`, with one
  /// transactional id: "c1", "c2" committed, "aborted" aborted, "c3" committed. Offsets: c1 0,
  /// c2 1, marker 2, aborted 3, marker 4, c3 5, marker 6.
  arrow::Status ProduceCommittedAbortedCommitted(const std::string& topic,
                                                 const std::string& transactional_id);

  /// Every record of `topic` that a reader with `isolation` sees, from the start of each
  /// partition to its end at the call (EndOffsets with the same isolation), ordered by
  /// partition and offset.
  arrow::Result<std::vector<KafkaRecord>> ConsumeAll(const std::string& topic,
                                                     KafkaIsolation isolation);
  /// The end offset of each partition of `topic`: the high watermark for read_uncommitted
  /// (what Spark's "latest" means by default), the last stable offset for read_committed.
  arrow::Result<std::map<int32_t, int64_t>> EndOffsets(
      const std::string& topic, KafkaIsolation isolation = KafkaIsolation::kReadUncommitted);

 private:
  arrow::Result<std::vector<KafkaRecord>> ProduceWith(
      const std::string& topic, const std::vector<KafkaRecord>& records,
      const std::optional<std::string>& transactional_id, TransactionEnd end);

  std::string bootstrap_;
  std::chrono::milliseconds patience_;
  /// Per topic and partition, the offset after the last record this client wrote: the end
  /// ConsumeAll reads to at least. The broker's answer to an end-offsets request just after a
  /// write was seen to lag behind it under load.
  std::map<std::string, std::map<int32_t, int64_t>> written_ends_;
};

}  // namespace sluice::testing
