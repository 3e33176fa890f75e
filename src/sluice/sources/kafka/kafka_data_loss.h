// Spark's KAFKA_DATA_LOSS errors and the failOnDataLoss choice between failing and warning.
#pragma once

#include <string_view>

#include <arrow/status.h>

#include "sluice/sources/kafka/kafka_offset_reader.h"

namespace sluice::sources::kafka {

/// KAFKA_DATA_LOSS.<subclass> with Spark's text and `reason` (the subclass's message).
arrow::Status KafkaDataLoss(std::string_view subclass, std::string_view reason);

/// failOnDataLoss true: a reporter that returns the loss as the error. false: one that writes
/// the loss to standard error as a warning, with Spark's advice for that case, and returns OK.
DataLossReporter MakeDataLossReporter(bool fail_on_data_loss);

}  // namespace sluice::sources::kafka
