#pragma once

#include <memory>
#include <string>

#include "sluice/api/data_source_settings.h"
#include "sluice/api/dataframe.h"
#include "sluice/sources/stream_source.h"

namespace sluice {

/// Streaming reads, as PySpark's DataStreamReader:
/// spark.readStream().format("json").schema("a INT").option("maxFilesPerTrigger", 1).load(dir).
/// Formats: json, csv, parquet (the default), orc, text, rate, rate-micro-batch, socket,
/// kafka, delta.
/// Builder calls never fail: a bad format, schema or option is reported by the DataFrame that
/// load() returns (its status()). The DataFrame is streaming: it runs only through
/// writeStream().start(). A value object; each call returns *this.
class DataStreamReader : public ReaderSettings<DataStreamReader> {
 public:
  explicit DataStreamReader(std::shared_ptr<SessionState> state);

  /// A source without a path (rate, socket) or with the "path" option.
  DataFrame load() const;
  DataFrame load(const std::string& path) const;
  /// The named Delta table of the warehouse as a stream (the delta source, with this
  /// reader's options); TABLE_OR_VIEW_NOT_FOUND when it does not exist.
  DataFrame table(const std::string& name) const;
  /// A source object made by the caller, e.g. a sources::MemoryStream in tests.
  DataFrame load(std::shared_ptr<const sources::StreamSourceProvider> source) const;

 private:
  std::shared_ptr<SessionState> state_;
};

}  // namespace sluice
