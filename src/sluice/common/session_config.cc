#include "sluice/common/session_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

#include "sluice/common/errors.h"

namespace sluice {

namespace {

enum class Key {
  kTimeZone,
  kAnsi,
  kCaseSensitive,
  kShufflePartitions,
  kWarehouseDir,
  kIgnoreMissingFiles,
  kIgnoreCorruptFiles
};

struct KeySpec {
  Key key;
  const char* name;
  const char* default_value;
};

// The settings this engine interprets, with Spark's defaults (ANSI on, as in Spark 4).
constexpr KeySpec kKeys[] = {
    {Key::kTimeZone, "spark.sql.session.timeZone", "UTC"},
    {Key::kAnsi, "spark.sql.ansi.enabled", "true"},
    {Key::kCaseSensitive, "spark.sql.caseSensitive", "false"},
    {Key::kShufflePartitions, "spark.sql.shuffle.partitions", "200"},
    {Key::kWarehouseDir, "spark.sql.warehouse.dir", "spark-warehouse"},
    {Key::kIgnoreMissingFiles, "spark.sql.files.ignoreMissingFiles", "false"},
    {Key::kIgnoreCorruptFiles, "spark.sql.files.ignoreCorruptFiles", "false"},
};

const KeySpec* FindKey(std::string_view name) {
  for (const auto& spec : kKeys) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

arrow::Result<bool> ParseBool(std::string_view key, std::string_view value) {
  std::string lower(value);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (lower == "true") return true;
  if (lower == "false") return false;
  return SparkError("INVALID_CONF_VALUE.TYPE_MISMATCH",
                    "The value '" + std::string(value) + "' in the config \"" + std::string(key) +
                        "\" is invalid. It should be a boolean: true or false.");
}

}  // namespace

SessionConfig::SessionConfig()
    : session_time_zone_("UTC"),
      ansi_enabled_(true),
      case_sensitive_(false),
      shuffle_partitions_(200),
      warehouse_dir_("spark-warehouse"),
      ignore_missing_files_(false),
      ignore_corrupt_files_(false) {}

arrow::Status SessionConfig::Set(std::string_view key, std::string_view value) {
  if (const KeySpec* spec = FindKey(key)) {
    switch (spec->key) {
      case Key::kTimeZone:
        if (value.empty()) {
          return SparkError("INVALID_CONF_VALUE.TIME_ZONE",
                            "The value '' in the config \"spark.sql.session.timeZone\" is "
                            "invalid. Use a region-based zone id such as 'America/Los_Angeles' "
                            "or an offset such as '+01:00'.");
        }
        session_time_zone_ = std::string(value);
        break;
      case Key::kAnsi: {
        ARROW_ASSIGN_OR_RAISE(ansi_enabled_, ParseBool(key, value));
        break;
      }
      case Key::kCaseSensitive: {
        ARROW_ASSIGN_OR_RAISE(case_sensitive_, ParseBool(key, value));
        break;
      }
      case Key::kShufflePartitions: {
        int32_t parsed = 0;
        auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
        if (error != std::errc() || end != value.data() + value.size() || parsed <= 0) {
          return SparkError("INVALID_CONF_VALUE.TYPE_MISMATCH",
                            "The value '" + std::string(value) +
                                "' in the config \"spark.sql.shuffle.partitions\" is invalid. "
                                "It should be a positive integer.");
        }
        shuffle_partitions_ = parsed;
        break;
      }
      case Key::kWarehouseDir:
        if (value.empty()) {
          return SparkError("INVALID_CONF_VALUE.TYPE_MISMATCH",
                            "The value '' in the config \"spark.sql.warehouse.dir\" is invalid. "
                            "It should be the folder of the named tables.");
        }
        warehouse_dir_ = std::string(value);
        break;
      case Key::kIgnoreMissingFiles: {
        ARROW_ASSIGN_OR_RAISE(ignore_missing_files_, ParseBool(key, value));
        break;
      }
      case Key::kIgnoreCorruptFiles: {
        ARROW_ASSIGN_OR_RAISE(ignore_corrupt_files_, ParseBool(key, value));
        break;
      }
    }
  }
  values_[std::string(key)] = std::string(value);
  return arrow::Status::OK();
}

std::optional<std::string> SessionConfig::Get(std::string_view key) const {
  auto it = values_.find(key);
  if (it != values_.end()) return it->second;
  if (const KeySpec* spec = FindKey(key)) return std::string(spec->default_value);
  return std::nullopt;
}

void SessionConfig::Unset(std::string_view key) {
  auto it = values_.find(key);
  if (it != values_.end()) values_.erase(it);
  if (const KeySpec* spec = FindKey(key)) {
    // Restoring the default cannot fail: defaults are valid by construction.
    (void)Set(key, spec->default_value);
    values_.erase(std::string(key));
  }
}

}  // namespace sluice
