// MERGE of 10K changed keys into a 10M-row Delta table of 100 files of 100K rows (id BIGINT,
// value BIGINT, name STRING; each file holds one contiguous id range), whenMatchedUpdateAll:
// keys clustered in one file's range, then keys spread over every file. Prints, per run, the
// files and bytes rewritten against the table, the seconds (and the CPU seconds of all threads:
// more than the seconds when files are rewritten in parallel), and the seconds per 100 MB
// rewritten; then, for comparison, a plain read and write of the whole table. A driver:
// delta_merge_bench [folder] (default: a fresh temporary folder, removed at the end).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>

#include "sluice/api/dataframe_reader.h"
#include "sluice/api/delta_table.h"
#include "sluice/api/session.h"
#include "sluice/common/read_ahead.h"
#include "sluice/delta/delta_log.h"

namespace {

namespace fs = std::filesystem;
using sluice::DataFrame;

constexpr int64_t kFiles = 100;
constexpr int64_t kRowsPerFile = 100'000;
constexpr int64_t kChangedKeys = 10'000;
constexpr int kRuns = 3;

std::string Row(const std::string& id) {
  return "concat('user-', cast(" + id + " as string), '-', cast(" + id +
         " * 2654435761 % 1000003 as string)) as name";
}

void Check(const arrow::Status& status, const char* what) {
  if (status.ok()) return;
  std::fprintf(stderr, "%s failed: %s\n", what, status.ToString().c_str());
  sluice::WaitForPoolsIdle();
  std::exit(1);
}

int64_t TableBytes(const std::string& table) {
  auto snapshot = sluice::delta::DeltaLog(table).Load();
  Check(snapshot.status(), "load");
  int64_t bytes = 0;
  for (const auto& file : snapshot->files) bytes += file.size;
  return bytes;
}

/// The commitInfo metric `name` of the table's latest version.
int64_t LastMetric(const std::string& table, const std::string& name) {
  sluice::delta::DeltaLog log(table);
  auto actions = log.ReadCommit(log.LatestVersion().ValueOrDie().value());
  Check(actions.status(), "read commit");
  for (const auto& action : *actions) {
    if (const auto* info = std::get_if<sluice::delta::CommitInfo>(&action)) {
      auto found = info->operation_metrics.find(name);
      if (found != info->operation_metrics.end()) return std::stoll(found->second);
    }
  }
  return -1;
}

void Merge(sluice::SparkSession& spark, const std::string& table, const char* layout,
           const std::string& key_expression) {
  for (int run = 1; run <= kRuns; ++run) {
    DataFrame source = spark.range(0, kChangedKeys)
                           .selectExpr({key_expression + " as id",
                                        "cast(-" + std::to_string(run) + " as bigint) as value",
                                        Row(key_expression)});
    const int64_t table_bytes = TableBytes(table);
    auto target = sluice::DeltaTable::forPath(spark, table);
    Check(target.status(), "forPath");
    const std::clock_t cpu_start = std::clock();
    const auto start = std::chrono::steady_clock::now();
    auto result = target->alias("t")
                      .merge(source.alias("s"), "t.id = s.id")
                      .whenMatchedUpdateAll()
                      .whenNotMatchedInsertAll()
                      .execute();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    Check(result.status(), "merge");
    const int64_t rewritten = LastMetric(table, "numTargetBytesRemoved");
    const double rewritten_mb = static_cast<double>(rewritten) / 1e6;
    std::printf(
        "%-9s run %d: updated %lld rows; rewrote %lld of %lld files, %.1f MB of %.1f MB "
        "(%.1f%%); %.3f s (%.3f s CPU; scan %lld ms, rewrite %lld ms); %.3f s per 100 MB "
        "rewritten\n",
        layout, run, static_cast<long long>(LastMetric(table, "numTargetRowsUpdated")),
        static_cast<long long>(LastMetric(table, "numTargetFilesRemoved")),
        static_cast<long long>(kFiles), rewritten_mb, static_cast<double>(table_bytes) / 1e6,
        100.0 * static_cast<double>(rewritten) / static_cast<double>(table_bytes), seconds,
        cpu_seconds,
        static_cast<long long>(LastMetric(table, "scanTimeMs")),
        static_cast<long long>(LastMetric(table, "rewriteTimeMs")),
        rewritten > 0 ? seconds / (rewritten_mb / 100.0) : 0.0);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path folder = argc > 1 ? fs::path(argv[1])
                                   : fs::temp_directory_path() /
                                         ("sluice-delta-merge-bench-" + std::to_string(getpid()));
  fs::remove_all(folder);
  const std::string table = (folder / "table").string();
  auto spark = sluice::SparkSession::builder().appName("delta_merge_bench").getOrCreate();
  Check(spark.status(), "session");

  const auto start = std::chrono::steady_clock::now();
  for (int64_t f = 0; f < kFiles; ++f) {
    DataFrame rows = (*spark)->range(f * kRowsPerFile, (f + 1) * kRowsPerFile)
                         .selectExpr({"id", "id * 7 % 1000 as value", Row("id")});
    Check(rows.write().format("delta").mode("append").save(table), "write");
  }
  std::printf("table: %lld rows in %lld files, %.1f MB, written in %.1f s\n",
              static_cast<long long>(kFiles * kRowsPerFile), static_cast<long long>(kFiles),
              static_cast<double>(TableBytes(table)) / 1e6,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());

  // Clustered: 10K consecutive keys, all in the 51st file's range.
  Merge(**spark, table, "clustered",
        "(id + " + std::to_string(50 * kRowsPerFile + 1000) + ")");
  // Spread: every 1000th key, 100 in each file.
  Merge(**spark, table, "spread", "(id * 1000 + 7)");
  // The floor of a rewrite with this Parquet writer: the whole table read and written again.
  for (int run = 1; run <= kRuns; ++run) {
    const std::string copy = (folder / ("copy" + std::to_string(run))).string();
    const auto copy_start = std::chrono::steady_clock::now();
    Check((*spark)->read().format("delta").load(table).write().format("delta").save(copy),
          "copy");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - copy_start).count();
    const double mb = static_cast<double>(TableBytes(copy)) / 1e6;
    std::printf("plain read + write of the table, run %d: %.1f MB in %.3f s; %.3f s per 100 MB\n",
                run, mb, seconds, seconds / (mb / 100.0));
    std::fflush(stdout);
  }
  fs::remove_all(folder);
  // The pools' threads must be done with their tasks before the process exits.
  sluice::WaitForPoolsIdle();
  return 0;
}
