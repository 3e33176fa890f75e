#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <arrow/status.h>

namespace sluice {

/// What kind of failure a Status reports, deciding who can fix it: the user (bad query, option or
/// input), the engine (a bug), or the outside world (a broker or disk that may come back).
enum class ErrorCategory { kUser, kInternal, kExternalRetryable };

/// Detail attached to every Status that carries a Spark error class, so callers (tests, the Python
/// bindings) can branch on the class without parsing the message.
class SparkErrorDetail : public arrow::StatusDetail {
 public:
  SparkErrorDetail(std::string error_class, ErrorCategory category);

  const char* type_id() const override;
  std::string ToString() const override;

  const std::string& error_class() const { return error_class_; }
  ErrorCategory category() const { return category_; }

 private:
  std::string error_class_;
  ErrorCategory category_;
};

/// A user error in Spark's words: Status::Invalid("[ERROR_CLASS] message") with the class attached.
/// The message says what was wrong and what to do, runtime values at the end.
arrow::Status SparkError(std::string_view error_class, std::string_view message);

/// Like SparkError, for failures of the outside world that a retry may cure (I/O, brokers).
arrow::Status ExternalError(std::string_view error_class, std::string_view message);

/// The Spark error class carried by `status`, if any.
std::optional<std::string> ErrorClassOf(const arrow::Status& status);

/// Quotes an identifier the way Spark's messages do: `name`, with inner backticks doubled.
std::string QuoteIdentifier(std::string_view name);

}  // namespace sluice
