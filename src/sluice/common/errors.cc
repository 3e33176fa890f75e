#include "sluice/common/errors.h"

#include <memory>

namespace sluice {

namespace {
constexpr char kSparkErrorTypeId[] = "sluice::SparkErrorDetail";

arrow::Status MakeError(arrow::StatusCode code, std::string_view error_class,
                        std::string_view message, ErrorCategory category) {
  std::string text;
  text.reserve(error_class.size() + message.size() + 3);
  text.append("[").append(error_class).append("] ").append(message);
  return arrow::Status(code, std::move(text),
                       std::make_shared<SparkErrorDetail>(std::string(error_class), category));
}
}  // namespace

SparkErrorDetail::SparkErrorDetail(std::string error_class, ErrorCategory category)
    : error_class_(std::move(error_class)), category_(category) {}

const char* SparkErrorDetail::type_id() const { return kSparkErrorTypeId; }

std::string SparkErrorDetail::ToString() const { return error_class_; }

arrow::Status SparkError(std::string_view error_class, std::string_view message) {
  return MakeError(arrow::StatusCode::Invalid, error_class, message, ErrorCategory::kUser);
}

arrow::Status ExternalError(std::string_view error_class, std::string_view message) {
  return MakeError(arrow::StatusCode::IOError, error_class, message,
                   ErrorCategory::kExternalRetryable);
}

std::optional<std::string> ErrorClassOf(const arrow::Status& status) {
  const auto& detail = status.detail();
  if (detail == nullptr || std::string_view(detail->type_id()) != kSparkErrorTypeId) {
    return std::nullopt;
  }
  return static_cast<const SparkErrorDetail&>(*detail).error_class();
}

std::string QuoteIdentifier(std::string_view name) {
  std::string quoted = "`";
  for (char c : name) {
    if (c == '`') quoted.push_back('`');
    quoted.push_back(c);
  }
  quoted.push_back('`');
  return quoted;
}

}  // namespace sluice
