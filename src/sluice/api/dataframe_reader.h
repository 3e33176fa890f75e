#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include "sluice/api/dataframe.h"
#include "sluice/formats/format_options.h"

namespace sluice {

/// Batch reads of files, as PySpark's DataFrameReader:
/// spark.read().format("json").schema("a INT").option("mode", "FAILFAST").load(path).
/// Builder calls never fail: a bad format, schema string or option value is reported by the
/// DataFrame that load() returns (its status()), with Spark's error class. A value object;
/// each call returns *this for chaining.
class DataFrameReader {
 public:
  explicit DataFrameReader(std::shared_ptr<SessionState> state);

  /// json, csv, parquet (the default), orc or text (case-insensitive).
  DataFrameReader& format(const std::string& source);
  /// The schema as a DDL string ("a INT, b STRING"); files are not inferred then.
  DataFrameReader& schema(const std::string& ddl);
  /// The schema as an Arrow schema of Spark's types.
  DataFrameReader& schema(std::shared_ptr<arrow::Schema> schema);
  /// Sets an option (keys are case-insensitive; unknown keys are ignored, as in Spark).
  DataFrameReader& option(const std::string& key, const std::string& value);
  DataFrameReader& option(const std::string& key, const char* value);
  DataFrameReader& option(const std::string& key, bool value);
  DataFrameReader& option(const std::string& key, int64_t value);
  DataFrameReader& option(const std::string& key, double value);
  DataFrameReader& options(const std::map<std::string, std::string>& options);

  /// Reads the path given by the "path" option.
  DataFrame load() const;
  /// Reads a file, a folder (recursively; `key=value` folders become partition columns) or
  /// a glob. The files are listed and the schema settled now; the rows are read when the
  /// DataFrame runs.
  DataFrame load(const std::string& path) const;
  DataFrame json(const std::string& path);
  DataFrame csv(const std::string& path);
  DataFrame parquet(const std::string& path);
  DataFrame orc(const std::string& path);
  DataFrame text(const std::string& path);

 private:
  std::shared_ptr<SessionState> state_;
  std::string format_ = "parquet";
  std::shared_ptr<arrow::Schema> schema_;
  arrow::Status schema_error_;
  formats::OptionMap options_;
};

/// Batch writes of files, as PySpark's DataFrameWriter:
/// df.write().format("parquet").mode("overwrite").partitionBy({"day"}).save(path).
/// The output is a folder of part files plus an empty _SUCCESS; files appear only complete.
class DataFrameWriter {
 public:
  explicit DataFrameWriter(DataFrame df);

  /// json, csv, parquet (the default), orc or text.
  DataFrameWriter& format(const std::string& source);
  /// errorifexists/error/default (fail if the path exists), overwrite (replace it), append
  /// (add files), ignore (do nothing if it exists). Case-insensitive; a bad value fails save()
  /// with INVALID_SAVE_MODE.
  DataFrameWriter& mode(const std::string& save_mode);
  DataFrameWriter& partitionBy(const std::vector<std::string>& columns);
  DataFrameWriter& option(const std::string& key, const std::string& value);
  DataFrameWriter& option(const std::string& key, const char* value);
  DataFrameWriter& option(const std::string& key, bool value);
  DataFrameWriter& option(const std::string& key, int64_t value);
  DataFrameWriter& options(const std::map<std::string, std::string>& options);

  /// Runs the query and writes its rows under `path`. Errors: PATH_ALREADY_EXISTS (mode
  /// errorifexists), INVALID_SAVE_MODE, COLUMN_NOT_FOUND for partitionBy, the query's errors.
  /// A failed write leaves no new visible file behind.
  arrow::Status save(const std::string& path) const;
  /// save() to the "path" option.
  arrow::Status save() const;
  arrow::Status json(const std::string& path);
  arrow::Status csv(const std::string& path);
  arrow::Status parquet(const std::string& path);
  arrow::Status orc(const std::string& path);
  arrow::Status text(const std::string& path);

 private:
  DataFrame df_;
  std::string format_ = "parquet";
  std::string mode_ = "errorifexists";
  std::vector<std::string> partition_by_;
  formats::OptionMap options_;
};

}  // namespace sluice
