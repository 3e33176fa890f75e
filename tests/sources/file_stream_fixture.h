// A scratch folder with input files of chosen modification times, and a file stream source
// over it whose log lives in a checkpoint folder beside the input.
#pragma once

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/table.h>
#include <gtest/gtest.h>

#include "formats/format_test_support.h"
#include "sluice/common/clock.h"
#include "sluice/common/session_config.h"
#include "sluice/sources/file/file_stream_source.h"
#include "sluice/types/ddl_parser.h"

namespace sluice::sources::testing {

/// Sets the modification time of `path` to `epoch_ms`.
inline void SetModificationTime(const std::string& path, int64_t epoch_ms) {
  auto since_epoch = std::chrono::sys_time<std::chrono::milliseconds>(
      std::chrono::milliseconds(epoch_ms));
  std::filesystem::last_write_time(path, std::chrono::file_clock::from_sys(since_epoch));
}

class FileStreamTest : public ::testing::Test {
 protected:
  std::string In() const { return dir_ / "in"; }
  std::string MetadataPath() const { return dir_ / "ckpt/sources/0"; }

  /// Writes `relative` under the input folder, modified at `epoch_ms`.
  std::string Write(const std::string& relative, const std::string& content, int64_t epoch_ms) {
    std::string path = dir_.Write("in/" + relative, content);
    SetModificationTime(path, epoch_ms);
    return path;
  }

  /// A JSON line file {"a":<value>} named `relative`, modified at `epoch_ms`.
  std::string WriteRow(const std::string& relative, int value, int64_t epoch_ms) {
    return Write(relative, "{\"a\":" + std::to_string(value) + "}\n", epoch_ms);
  }

  arrow::Result<std::shared_ptr<const StreamSourceProvider>> Provider(
      formats::OptionMap options = {}, const std::string& ddl = "a INT",
      std::string path = "", formats::FileFormat format = formats::FileFormat::kJson,
      bool inference = false) {
    std::shared_ptr<arrow::Schema> schema;
    if (!ddl.empty()) {
      ARROW_ASSIGN_OR_RAISE(schema, types::ParseSchema(ddl));
    }
    return MakeFileStreamSourceProvider(format, options, path.empty() ? In() : path, schema,
                                        formats::FormatContext{}, inference);
  }

  arrow::Result<std::unique_ptr<StreamSource>> Start(const StreamSourceProvider& provider) {
    SourceContext context;
    context.metadata_path = MetadataPath();
    context.clock = &clock_;
    context.config = &config_;
    return provider.CreateSource(context);
  }

  /// A provider with `options` and a source started from it; fails the test on errors.
  std::unique_ptr<StreamSource> StartWith(formats::OptionMap options = {},
                                          const std::string& path = "") {
    auto provider = Provider(std::move(options), "a INT", path);
    EXPECT_TRUE(provider.ok()) << provider.status().ToString();
    if (!provider.ok()) return nullptr;
    auto source = Start(**provider);
    EXPECT_TRUE(source.ok()) << source.status().ToString();
    return source.ok() ? std::move(*source) : nullptr;
  }

  /// The rows of GetBatch(start, end), "|"-joined cells, in read order.
  std::vector<std::string> Read(StreamSource& source, std::optional<std::string> start,
                                const std::string& end) {
    auto reader = source.GetBatch(start, end);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    if (!reader.ok()) return {};
    auto table = (*reader)->ToTable();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    if (!table.ok()) return {};
    return sluice::testing::Rows(**table);
  }

  /// The offset LatestOffset returns now (respecting limits), "none" for nullopt.
  std::string Next(StreamSource& source,
                   ReadLimitMode mode = ReadLimitMode::kRespectLimits) {
    auto offset = source.LatestOffset(std::nullopt, mode);
    EXPECT_TRUE(offset.ok()) << offset.status().ToString();
    if (!offset.ok()) return "error";
    return offset->value_or("none");
  }

  /// The contents of the source log file `name`.
  std::string LogFile(const std::string& name) const {
    return sluice::testing::ReadText(MetadataPath() + "/" + name);
  }

  /// The names of the input files logged in log file `name`, in log order.
  std::vector<std::string> LoggedNames(const std::string& name) const {
    std::vector<std::string> names;
    std::string text = LogFile(name);
    size_t at = 0;
    while ((at = text.find("\"path\":\"", at)) != std::string::npos) {
      size_t end = text.find('"', at + 8);
      std::string uri = text.substr(at + 8, end - at - 8);
      names.push_back(uri.substr(uri.rfind('/') + 1));
      at = end;
    }
    return names;
  }

  sluice::testing::ScratchDir dir_;
  SessionConfig config_;
  ManualClock clock_;
};

}  // namespace sluice::sources::testing
