#pragma once

#include <memory>
#include <string>

#include <arrow/status.h>

#include "sluice/api/data_source_settings.h"
#include "sluice/api/dataframe.h"

namespace sluice {

/// Batch reads of files, as PySpark's DataFrameReader:
/// spark.read().format("json").schema("a INT").option("mode", "FAILFAST").load(path).
/// Formats: json, csv, parquet (the default), orc, text. Builder calls never fail: a bad
/// format, schema string or option value is reported by the DataFrame that load() returns (its
/// status()), with Spark's error class. A value object; each call returns *this for chaining.
class DataFrameReader : public ReaderSettings<DataFrameReader> {
 public:
  explicit DataFrameReader(std::shared_ptr<SessionState> state);

  /// Reads the path given by the "path" option.
  DataFrame load() const;
  /// Reads a file, a folder (recursively; `key=value` folders become partition columns) or
  /// a glob. The files are listed and the schema settled now; the rows are read when the
  /// DataFrame runs.
  DataFrame load(const std::string& path) const;
  /// The temporary view `name`, else the named Delta table of the warehouse, read with this
  /// reader's options (versionAsOf, timestampAsOf); TABLE_OR_VIEW_NOT_FOUND when there is
  /// neither.
  DataFrame table(const std::string& name) const;

 private:
  std::shared_ptr<SessionState> state_;
};

/// Batch writes, as PySpark's DataFrameWriter:
/// df.write().format("parquet").mode("overwrite").partitionBy({"day"}).save(path).
/// Formats: json, csv, parquet (the default), orc, text, whose output is a folder of part
/// files plus an empty _SUCCESS (files appear only complete); and kafka, written with save()
/// as the streaming Kafka sink writes a micro-batch (options, columns, at-least-once).
class DataFrameWriter : public WriterSettings<DataFrameWriter> {
 public:
  explicit DataFrameWriter(DataFrame df);

  /// errorifexists/error/default (fail if the path exists), overwrite (replace it), append
  /// (add files), ignore (do nothing if it exists). Case-insensitive; a bad value fails save()
  /// with INVALID_SAVE_MODE.
  DataFrameWriter& mode(const std::string& save_mode);

  /// Runs the query and writes its rows under `path`. Errors: PATH_ALREADY_EXISTS (mode
  /// errorifexists), INVALID_SAVE_MODE, COLUMN_NOT_FOUND for partitionBy, the query's errors.
  /// A failed write leaves no new visible file behind.
  arrow::Status save(const std::string& path) const;
  /// save() to the "path" option; for format kafka, the rows to Kafka (modes append and
  /// errorifexists; overwrite and ignore fail with Spark's _LEGACY_ERROR_TEMP_3081).
  arrow::Status save() const;
  /// Writes the rows as the named Delta table of the warehouse (named tables are Delta tables;
  /// another format is refused), with the save mode's rules: errorifexists (the default)
  /// fails with TABLE_OR_VIEW_ALREADY_EXISTS when the table exists, ignore leaves it, append
  /// adds rows, overwrite replaces them.
  arrow::Status saveAsTable(const std::string& name) const;
  /// format(name).save(path) for each file format.
  arrow::Status json(const std::string& path);
  arrow::Status csv(const std::string& path);
  arrow::Status parquet(const std::string& path);
  arrow::Status orc(const std::string& path);
  arrow::Status text(const std::string& path);

 private:
  /// The format to write: format()'s, else spark.sql.sources.default (parquet).
  std::string Format() const;
  arrow::Status SaveToKafka() const;
  arrow::Status SaveToDelta(const std::string& path) const;

  DataFrame df_;
  std::string mode_ = "errorifexists";
};

}  // namespace sluice
