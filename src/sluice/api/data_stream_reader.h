#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include "sluice/api/dataframe.h"
#include "sluice/formats/format_options.h"
#include "sluice/sources/stream_source.h"

namespace sluice {

/// Streaming reads, as PySpark's DataStreamReader:
/// spark.readStream().format("json").schema("a INT").option("maxFilesPerTrigger", 1).load(dir).
/// Builder calls never fail: a bad format, schema or option is reported by the DataFrame that
/// load() returns (its status()). The DataFrame is streaming: it runs only through
/// writeStream().start(). A value object; each call returns *this.
class DataStreamReader {
 public:
  explicit DataStreamReader(std::shared_ptr<SessionState> state);

  /// json, csv, parquet (the default), orc, text, rate, rate-micro-batch, socket.
  DataStreamReader& format(const std::string& source);
  DataStreamReader& schema(const std::string& ddl);
  DataStreamReader& schema(std::shared_ptr<arrow::Schema> schema);
  DataStreamReader& option(const std::string& key, const std::string& value);
  DataStreamReader& option(const std::string& key, const char* value);
  DataStreamReader& option(const std::string& key, bool value);
  DataStreamReader& option(const std::string& key, int64_t value);
  DataStreamReader& options(const std::map<std::string, std::string>& options);

  /// A source without a path (rate, socket) or with the "path" option.
  DataFrame load() const;
  DataFrame load(const std::string& path) const;
  /// A source object made by the caller, e.g. a sources::MemoryStream in tests.
  DataFrame load(std::shared_ptr<const sources::StreamSourceProvider> source) const;
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

}  // namespace sluice
