#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <arrow/result.h>
#include <arrow/status.h>

namespace sluice {

/// The settings of a session (`spark.sql.*` keys), parsed once into typed fields. Keys and defaults
/// are declared in one table in session_config.cc; unknown `spark.*` keys are kept as strings so a
/// later layer can read them, and read back by `Get`. Not thread-safe: a session sets its
/// configuration before running queries, and each query takes a copy.
class SessionConfig {
 public:
  SessionConfig();

  /// Sets `key` to `value`, validating keys this engine interprets (an error names the key and
  /// the allowed values).
  arrow::Status Set(std::string_view key, std::string_view value);

  /// The string value of `key`, or its default when it has one.
  std::optional<std::string> Get(std::string_view key) const;

  /// Removes an explicit setting, restoring the default.
  void Unset(std::string_view key);
  /// The settings made explicitly (by Set), by key.
  const std::map<std::string, std::string, std::less<>>& explicit_values() const {
    return values_;
  }

  /// `spark.sql.session.timeZone`: an IANA zone name or a fixed offset; "UTC" by default.
  const std::string& session_time_zone() const { return session_time_zone_; }
  /// `spark.sql.ansi.enabled`: true by default, as in Spark 4.
  bool ansi_enabled() const { return ansi_enabled_; }
  /// `spark.sql.caseSensitive`: false by default.
  bool case_sensitive() const { return case_sensitive_; }
  /// `spark.sql.shuffle.partitions`: 200 by default.
  int32_t shuffle_partitions() const { return shuffle_partitions_; }
  /// `spark.sql.warehouse.dir`: the folder of named tables; "spark-warehouse" (in the working
  /// folder) by default.
  const std::string& warehouse_dir() const { return warehouse_dir_; }
  /// `spark.sql.files.ignoreMissingFiles`: a file deleted after it was listed is skipped.
  bool ignore_missing_files() const { return ignore_missing_files_; }
  /// `spark.sql.files.ignoreCorruptFiles`: the rest of a file that cannot be read is skipped.
  bool ignore_corrupt_files() const { return ignore_corrupt_files_; }

 private:
  std::map<std::string, std::string, std::less<>> values_;
  std::string session_time_zone_;
  bool ansi_enabled_;
  bool case_sensitive_;
  int32_t shuffle_partitions_;
  std::string warehouse_dir_;
  bool ignore_missing_files_;
  bool ignore_corrupt_files_;
};

}  // namespace sluice
