// What the end-to-end streaming tests share: a scratch tree for input folders, outputs and
// checkpoints, files landed the way producers should land them (written aside, then renamed
// into place), one-shot kills of a query, and readers of the logs a query leaves behind.
#pragma once

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <arrow/status.h>
#include <gtest/gtest.h>

#include "sluice/api/data_stream_writer.h"
#include "sluice/checkpoint/file_sink_log.h"
#include "sluice/execution/crash_point.h"
#include "support/session_fixture.h"
#include "support/stream_test.h"

namespace sluice::testing {


/// The rows sorted, so that multisets compare with ==.
inline std::vector<std::string> SortedRows(std::vector<std::string> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// The rows a batch DataFrame yields, as canonical JSON arrays (see RowsOf), sorted; the
/// error text as the only row when reading fails, so that a comparison shows it.
inline std::vector<std::string> CollectRows(const DataFrame& df) {
  auto table = df.collect();
  if (!table.ok()) return {"error: " + table.status().ToString()};
  return SortedRows(RowsOf(**table));
}

/// The batch ids a log folder (offsets, commits, a sink's _spark_metadata, a source's log)
/// holds: its files named by a number, in order. Temporary and checksum files are skipped.
inline std::vector<int64_t> LoggedBatchIds(const std::string& folder) {
  std::vector<int64_t> ids;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    std::string name = entry.path().filename().string();
    if (name.empty() ||
        !std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isdigit(c); })) {
      continue;
    }
    ids.push_back(std::stoll(name));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

/// 0, 1, ..., last.
inline std::vector<int64_t> BatchIdsUpTo(int64_t last) {
  std::vector<int64_t> ids;
  for (int64_t id = 0; id <= last; ++id) ids.push_back(id);
  return ids;
}

inline std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Replaces `path` (creating its folders) with `content`, modified at `epoch_ms`, in one
/// rename: a reader sees the old file or the whole new one, never a partial file. The file is
/// first written under a hidden name, which file sources skip.
inline void LandFile(const std::string& path, const std::string& content, int64_t epoch_ms) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::create_directories(target.parent_path());
  std::string aside_name = ".";
  aside_name += target.filename().string();
  aside_name += ".landing";
  fs::path aside = target.parent_path() / aside_name;
  {
    std::ofstream out(aside, std::ios::binary | std::ios::trunc);
    out << content;
  }
  fs::last_write_time(aside, std::chrono::file_clock::from_sys(
                                 std::chrono::sys_time<std::chrono::milliseconds>(
                                     std::chrono::milliseconds(epoch_ms))));
  fs::rename(aside, target);
}

/// Sends what is written to `stream` (std::cout, std::cerr) to a string while it lives. The
/// console sink prints to std::cout and warnings go to std::cerr, from the query's thread:
/// make the capture before starting the query and read it once the query stopped.
class CapturedOutput {
 public:
  explicit CapturedOutput(std::ostream& stream)
      : stream_(stream), previous_(stream.rdbuf(captured_.rdbuf())) {}
  ~CapturedOutput() { stream_.rdbuf(previous_); }
  CapturedOutput(const CapturedOutput&) = delete;
  CapturedOutput& operator=(const CapturedOutput&) = delete;

  std::string text() const { return captured_.str(); }

 private:
  std::ostream& stream_;
  std::ostringstream captured_;
  std::streambuf* previous_;
};

/// A session test with a scratch tree of its own, removed after the test.
class EndToEndTest : public SessionTest {
 protected:
  void SetUp() override {
    SessionTest::SetUp();
    std::random_device random;
    root_ = std::filesystem::temp_directory_path() /
            ("sluice-end-to-end-" + std::to_string(random()) + "-" + std::to_string(random()));
    std::filesystem::create_directories(root_);
  }
  void TearDown() override {
    for (auto& query : spark_->streams()->active()) (void)query->stop();
    std::error_code error;
    std::filesystem::remove_all(root_, error);
  }

  /// The path of `relative` in the scratch tree (nothing is created).
  std::string Path(const std::string& relative) const { return (root_ / relative).string(); }

  /// Lands a JSON-lines file at `relative`, one line per element of `lines`.
  void LandJson(const std::string& relative, const std::vector<std::string>& lines,
                int64_t epoch_ms) {
    std::string content;
    for (const auto& line : lines) content += line + "\n";
    LandFile(Path(relative), content, epoch_ms);
  }

  /// Waits for a query that stops by itself (availableNow, once, a failure, a kill) and
  /// returns how it ended: its error, or the error of start(). A query still running after a
  /// minute is stopped and reported, so that a trigger that never ends fails the test instead
  /// of hanging it.
  static arrow::Status Finish(const arrow::Result<std::shared_ptr<StreamingQuery>>& started) {
    if (!started.ok()) return started.status();
    auto stopped = (*started)->awaitTermination(60'000);
    if (!stopped.ok()) return stopped.status();
    if (!*stopped) {
      (void)(*started)->stop();
      return arrow::Status::Invalid("the query did not stop by itself within 60 s");
    }
    return arrow::Status::OK();
  }

  std::filesystem::path root_;
};

/// The files a file sink's manifest commits in `folder`, in log order (empty without one).
inline std::vector<std::string> ManifestFiles(const std::string& folder) {
  auto files = checkpoint::CommittedSinkFiles(folder);
  EXPECT_TRUE(files.ok()) << files.status().ToString();
  if (!files.ok() || !files->has_value()) return {};
  return **files;
}

/// Every regular data file under a sink's output `folder` (its manifest folder and hidden
/// files skipped), as local paths, sorted.
inline std::vector<std::string> DataFilesIn(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(folder); it != fs::end(it); ++it) {
    std::string name = it->path().filename().string();
    if (name == checkpoint::kSinkMetadataFolder) {
      it.disable_recursion_pending();
    } else if (it->is_regular_file() && name[0] != '.' && name[0] != '_') {
      files.push_back(it->path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace sluice::testing
