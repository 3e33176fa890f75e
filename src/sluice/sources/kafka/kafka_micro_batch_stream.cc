#include "sluice/sources/kafka/kafka_micro_batch_stream.h"

#include <optional>

#include "sluice/common/errors.h"
#include "sluice/sources/kafka/kafka_admission.h"
#include "sluice/sources/kafka/kafka_data_loss.h"
#include "sluice/sources/kafka/kafka_initial_offsets.h"
#include "sluice/sources/kafka/kafka_offset_json.h"
#include "sluice/sources/kafka/kafka_offset_reader.h"
#include "sluice/sources/kafka/kafka_range_reader.h"
#include "sluice/sources/kafka/kafka_record_columns.h"

namespace sluice::sources::kafka {

namespace {

class KafkaMicroBatchStream final : public StreamSource {
 public:
  KafkaMicroBatchStream(const KafkaSourceOptions& options, const SourceContext& context,
                        std::unique_ptr<KafkaOffsetReader> reader)
      : options_(options),
        context_(context),
        reader_(std::move(reader)),
        report_data_loss_(MakeDataLossReporter(options.fail_on_data_loss)) {
    if (options_.min_offsets_per_trigger) {
      trigger_delay_.emplace(*options_.min_offsets_per_trigger, options_.max_trigger_delay_ms);
    }
  }

  std::shared_ptr<arrow::Schema> schema() const override {
    return KafkaSchema(options_.include_headers);
  }

  std::string Describe() const override {
    return "KafkaV2[" + options_.strategy.ToString() + "]";
  }

  arrow::Result<std::optional<std::string>> LatestOffset(const std::optional<std::string>& start,
                                                         ReadLimitMode mode) override {
    ARROW_ASSIGN_OR_RAISE(PartitionOffsets start_offsets, StartOffsets(start));
    if (available_now_) {
      if (!available_now_offsets_) {
        ARROW_ASSIGN_OR_RAISE(available_now_offsets_, reader_->FetchLatestOffsets());
      }
      latest_ = *available_now_offsets_;
    } else {
      ARROW_ASSIGN_OR_RAISE(latest_, reader_->FetchLatestOffsets());
    }
    PartitionOffsets offsets = latest_;
    if (mode == ReadLimitMode::kRespectLimits) {
      if (trigger_delay_ &&
          trigger_delay_->ShouldSkip(latest_, start_offsets, context_.clock->NowMillis())) {
        offsets = start_offsets;
      } else if (options_.max_offsets_per_trigger) {
        PartitionSet new_partitions;
        for (const auto& [partition, offset] : latest_) {
          if (start_offsets.count(partition) == 0) new_partitions.insert(partition);
        }
        ARROW_ASSIGN_OR_RAISE(PartitionOffsets earliest_of_new,
                              reader_->FetchEarliestOffsets(new_partitions));
        offsets = RateLimit(*options_.max_offsets_per_trigger, start_offsets, latest_,
                            earliest_of_new);
      }
    }
    if (offsets.empty()) return start;
    return PartitionOffsetsJson(offsets);
  }

  arrow::Status PrepareForAvailableNow() override {
    available_now_ = true;
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatch(
      const std::optional<std::string>& start, const std::string& end) override {
    ARROW_ASSIGN_OR_RAISE(PartitionOffsets from, StartOffsets(start));
    ARROW_ASSIGN_OR_RAISE(PartitionOffsets until, ParseOffsets(end));
    ARROW_ASSIGN_OR_RAISE(std::vector<KafkaOffsetRange> ranges, PlanRanges(from, until));
    consumed_ = until;
    return ReadKafkaRanges(options_, std::move(ranges), report_data_loss_, consumers_);
  }

  std::optional<std::string> ReportLatestOffset() const override {
    if (latest_.empty()) return std::nullopt;
    return PartitionOffsetsJson(latest_);
  }

  std::map<std::string, std::string> Metrics() const override {
    if (!consumed_) return {};
    return OffsetsBehindLatestMetrics(*consumed_, latest_);
  }

  void Stop() override {
    reader_.reset();
    consumers_->Close();
  }

 private:
  arrow::Result<PartitionOffsets> ParseOffsets(const std::string& json) const {
    auto offsets = ParsePartitionOffsets(json);
    if (!offsets.ok()) {
      return SparkError("INTERNAL_ERROR", "Cannot read the offsets of " + Describe() + ": " +
                                              offsets.status().message());
    }
    return offsets;
  }

  // The offsets after `start`, or the initial offsets for the first batch.
  arrow::Result<PartitionOffsets> StartOffsets(const std::optional<std::string>& start) {
    if (start) return ParseOffsets(*start);
    if (!initial_offsets_) {
      ARROW_ASSIGN_OR_RAISE(initial_offsets_,
                            LoadOrRecordInitialOffsets(context_.metadata_path, [&] {
                              return reader_->Resolve(options_.starting, /*is_starting=*/true);
                            }));
    }
    return *initial_offsets_;
  }

  // Spark's getOffsetRangesFromResolvedOffsets: new partitions start at their earliest
  // offsets; partitions gone, new partitions not starting at 0 and offsets moving backwards
  // are data losses.
  arrow::Result<std::vector<KafkaOffsetRange>> PlanRanges(const PartitionOffsets& from,
                                                          const PartitionOffsets& until) {
    PartitionSet new_partitions;
    for (const auto& [partition, offset] : until) {
      if (from.count(partition) == 0) new_partitions.insert(partition);
    }
    ARROW_ASSIGN_OR_RAISE(PartitionOffsets earliest_of_new,
                          reader_->FetchEarliestOffsets(new_partitions));
    if (KeysOf(earliest_of_new) != new_partitions) {
      PartitionSet missing;
      for (const auto& partition : new_partitions) {
        if (earliest_of_new.count(partition) == 0) missing.insert(partition);
      }
      ARROW_RETURN_NOT_OK(report_data_loss_(
          KafkaDataLoss("INITIAL_OFFSET_NOT_FOUND_FOR_PARTITIONS",
                        "Cannot find initial offsets for partitions " + SetText(missing) +
                            ". They may have been deleted.")));
    }
    for (const auto& [partition, offset] : earliest_of_new) {
      if (offset != 0) {
        ARROW_RETURN_NOT_OK(report_data_loss_(
            KafkaDataLoss("ADDED_PARTITION_DOES_NOT_START_FROM_OFFSET_ZERO",
                          "Added partition " + partition.ToString() + " starts from " +
                              std::to_string(offset) + " instead of 0.")));
      }
    }
    PartitionSet deleted;
    for (const auto& [partition, offset] : from) {
      if (until.count(partition) == 0) deleted.insert(partition);
    }
    if (!deleted.empty()) {
      if (options_.custom_group_id) {
        ARROW_RETURN_NOT_OK(report_data_loss_(KafkaDataLoss(
            "PARTITIONS_DELETED_AND_GROUP_ID_CONFIG_PRESENT",
            "Partitions " + SetText(deleted) +
                " have been deleted. Kafka option 'kafka.group.id' has been set on this query, "
                "it is not recommended to set this option. This option is unsafe to use since "
                "multiple concurrent queries or sources using the same group id will interfere "
                "with each other as they are part of the same consumer group. Restarted queries "
                "may also suffer interference from the previous run having the same group id. "
                "The user should have only one query per group id, and/or set the option "
                "'kafka.session.timeout.ms' to be very small so that the Kafka consumers from "
                "the previous query are marked dead by the Kafka group coordinator before the "
                "restarted query starts running.")));
      } else {
        ARROW_RETURN_NOT_OK(report_data_loss_(KafkaDataLoss(
            "PARTITIONS_DELETED", "Partitions " + SetText(deleted) + " have been deleted.")));
      }
    }
    std::vector<KafkaOffsetRange> ranges;
    for (const auto& [partition, until_offset] : until) {
      int64_t from_offset = 0;
      if (auto it = from.find(partition); it != from.end()) {
        from_offset = it->second;
      } else if (auto it = earliest_of_new.find(partition); it != earliest_of_new.end()) {
        from_offset = it->second;
      } else {
        continue;
      }
      if (until_offset < from_offset) {
        ARROW_RETURN_NOT_OK(report_data_loss_(KafkaDataLoss(
            "PARTITION_OFFSET_CHANGED",
            "Partition " + partition.ToString() + " offset was changed from " +
                std::to_string(from_offset) + " to " + std::to_string(until_offset) +
                ". This could either be a user error that the start offset is set too high "
                "and this is the first batch, or the kafka topic-partition is broken, and some "
                "data may have been missed.")));
      }
      ranges.push_back({partition, from_offset, until_offset});
    }
    return ranges;
  }

  const KafkaSourceOptions options_;
  const SourceContext context_;
  std::unique_ptr<KafkaOffsetReader> reader_;
  // The consumer that reads the batches' records, kept from one batch to the next.
  std::shared_ptr<KafkaConsumerCache> consumers_ = std::make_shared<KafkaConsumerCache>();
  DataLossReporter report_data_loss_;
  std::optional<TriggerDelay> trigger_delay_;
  std::optional<PartitionOffsets> initial_offsets_;
  PartitionOffsets latest_;
  std::optional<PartitionOffsets> consumed_;
  bool available_now_ = false;
  std::optional<PartitionOffsets> available_now_offsets_;
};

}  // namespace

arrow::Result<std::unique_ptr<StreamSource>> MakeKafkaMicroBatchStream(
    const KafkaSourceOptions& options, const SourceContext& context) {
  if (context.clock == nullptr) {
    return SparkError("INTERNAL_ERROR", "The Kafka source needs the query's clock.");
  }
  ARROW_ASSIGN_OR_RAISE(auto reader, KafkaOffsetReader::Make(options));
  return std::make_unique<KafkaMicroBatchStream>(options, context, std::move(reader));
}

}  // namespace sluice::sources::kafka
