// Driving a streaming source directly, as the micro-batch loop would, in the connector tests:
// make it from its options, start it, ask its latest offset, read a batch.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <gtest/gtest.h>

#include "sluice/sources/stream_source.h"

namespace sluice::sources::testing {

using ProviderResult = arrow::Result<std::shared_ptr<const StreamSourceProvider>>;

/// The message making a provider failed with, or "no error".
inline std::string ErrorMessageOf(const ProviderResult& provider) {
  return provider.ok() ? "no error" : provider.status().message();
}

/// The running source `provider` makes with `context`; fails the test (and returns null) when
/// either step failed.
inline std::unique_ptr<StreamSource> StartSource(const ProviderResult& provider,
                                                 const SourceContext& context = {}) {
  EXPECT_TRUE(provider.ok()) << provider.status().ToString();
  if (!provider.ok()) return nullptr;
  auto source = (*provider)->CreateSource(context);
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  return source.ok() ? std::move(*source) : nullptr;
}

/// LatestOffset(start, mode) as its JSON text, "null" when the source has none; fails the test
/// on an error.
inline std::string LatestOffsetText(StreamSource& source, const std::optional<std::string>& start,
                                    ReadLimitMode mode = ReadLimitMode::kRespectLimits) {
  auto offset = source.LatestOffset(start, mode);
  EXPECT_TRUE(offset.ok()) << offset.status().ToString();
  return offset.ok() ? offset->value_or("null") : "error";
}

/// GetBatch(start, end); fails the test (and returns an empty reader) on an error.
inline std::shared_ptr<arrow::RecordBatchReader> BatchReader(
    StreamSource& source, const std::optional<std::string>& start, const std::string& end) {
  auto reader = source.GetBatch(start, end);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (reader.ok()) return *reader;
  return arrow::RecordBatchReader::Make({}, source.schema()).ValueOrDie();
}

}  // namespace sluice::sources::testing
