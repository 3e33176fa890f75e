#include "sluice/sources/kafka/kafka_data_loss.h"

#include <iostream>
#include <string>

#include "sluice/common/errors.h"

namespace sluice::sources::kafka {

namespace {

constexpr std::string_view kFailInstruction =
    "Some data may have been lost because they are not available in Kafka any more; either the "
    "data was aged out by Kafka or the topic may have been deleted before all the data in the "
    "topic was processed. If you don't want your streaming query to fail on such cases, set "
    "the source option failOnDataLoss to false. Reason: ";

constexpr std::string_view kWarnInstruction =
    "Some data may have been lost because they are not available in Kafka any more; either the "
    "data was aged out by Kafka or the topic may have been deleted before all the data in the "
    "topic was processed. If you want your streaming query to fail on such cases, set the "
    "source option \"failOnDataLoss\" to \"true\".";

}  // namespace

arrow::Status KafkaDataLoss(std::string_view subclass, std::string_view reason) {
  return SparkError("KAFKA_DATA_LOSS." + std::string(subclass),
                    std::string(kFailInstruction) + std::string(reason));
}

DataLossReporter MakeDataLossReporter(bool fail_on_data_loss) {
  if (fail_on_data_loss) {
    return [](const arrow::Status& loss) { return loss; };
  }
  return [](const arrow::Status& loss) {
    // The reason is what follows Spark's advice in the error's message.
    const std::string& message = loss.message();
    const size_t start = message.find("Reason: ");
    std::string reason = start == std::string::npos ? message : message.substr(start + 8);
    if (!reason.empty() && reason.back() == '.') reason.pop_back();
    std::cerr << "WARN Kafka source: " << reason << ". " << kWarnInstruction << std::endl;
    return arrow::Status::OK();
  };
}

}  // namespace sluice::sources::kafka
