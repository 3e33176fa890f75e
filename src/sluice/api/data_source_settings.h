// The builder calls PySpark's four I/O builders share (DataFrameReader, DataFrameWriter,
// DataStreamReader, DataStreamWriter): format(), option() for each primitive type and
// options(); for the readers schema() and the per-format shortcuts; for the writers
// partitionBy(). Each builder derives from these bases with itself as the template argument,
// so the calls chain on the builder's own type. The member functions are defined once, in
// data_source_settings.cc, for exactly the four builders.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include "sluice/api/dataframe.h"
#include "sluice/common/session_config.h"
#include "sluice/formats/file_format.h"
#include "sluice/formats/format_options.h"

namespace sluice {

/// What the builders hand a data source of the session's settings: its time zone and
/// spark.sql.caseSensitive.
formats::FormatContext FormatContextOf(const SessionConfig& config);

/// The data source name and its string options. Setters never fail: a value is checked when
/// the builder runs (load, save, start), which reports it with Spark's error class.
template <typename Builder>
class DataSourceSettings {
 public:
  /// The data source: a file format (json, csv, parquet, orc, text) or a streaming connector;
  /// case-insensitive. Each builder lists the ones it takes.
  Builder& format(const std::string& source);

  /// Sets an option. Keys are case-insensitive; a later set of the same key (in any case)
  /// replaces the earlier one; keys the source does not know are ignored, as in Spark.
  Builder& option(const std::string& key, const std::string& value);
  Builder& option(const std::string& key, const char* value);
  /// As Python's str() of the value would give it to Spark, lower-cased: "true" or "false".
  Builder& option(const std::string& key, bool value);
  Builder& option(const std::string& key, int64_t value);
  /// In decimal with at most six fractional digits, trailing zeros dropped down to one:
  /// 0.2 -> "0.2", 3.0 -> "3.0".
  Builder& option(const std::string& key, double value);
  /// option() for each pair.
  Builder& options(const std::map<std::string, std::string>& options);

 protected:
  explicit DataSourceSettings(std::string default_format) : format_(std::move(default_format)) {}

  Builder& self() { return static_cast<Builder&>(*this); }

  std::string format_;
  formats::OptionMap options_;
};

/// What the two readers add: the user's schema and the file-format shortcuts.
template <typename Reader>
class ReaderSettings : public DataSourceSettings<Reader> {
 public:
  /// The schema as a DDL string ("a INT, b STRING"); files are not inferred then. A DDL that
  /// does not parse fails the load() that follows.
  Reader& schema(const std::string& ddl);
  /// The schema as an Arrow schema of Spark's types.
  Reader& schema(std::shared_ptr<arrow::Schema> schema);

  /// format(name).load(path) for each file format.
  DataFrame json(const std::string& path);
  DataFrame csv(const std::string& path);
  DataFrame parquet(const std::string& path);
  DataFrame orc(const std::string& path);
  DataFrame text(const std::string& path);

 protected:
  ReaderSettings() : DataSourceSettings<Reader>("parquet") {}

  /// Null when the schema is inferred.
  std::shared_ptr<arrow::Schema> schema_;
  /// Why the last schema(ddl) did not parse; load() reports it.
  arrow::Status schema_error_;
};

/// What the two writers add: the partition columns.
template <typename Writer>
class WriterSettings : public DataSourceSettings<Writer> {
 public:
  /// Writes the rows under col=value folders of these columns, in this order (file formats).
  Writer& partitionBy(const std::vector<std::string>& columns);

 protected:
  explicit WriterSettings(std::string default_format)
      : DataSourceSettings<Writer>(std::move(default_format)) {}

  std::vector<std::string> partition_by_;
};

}  // namespace sluice
