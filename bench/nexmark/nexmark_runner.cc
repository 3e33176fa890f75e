// The Nexmark runner (`make bench-nexmark`): runs each query over the "nexmark" source with
// Trigger.AvailableNow into the noop sink, with a durable checkpoint every batch, and prints
// for each: events, seconds, events/s, events/s per core used (events per CPU-second of the
// whole process, generator included), peak resident memory, batches and checkpoint bytes.
// Stateful queries run once per state store provider. Each run is a child process of its own,
// so its peak memory is its own.
//
//   nexmark_runner [--events N] [--per-batch N] [--rate N] [--queries q0,q1,...] [--sql]
//                  [--files DIR] [--warm]
//   nexmark_runner --write-events DIR [--events N] [--per-batch N] [--rate N]
//
// --rate is the events' rate in event time (events per second, 10000).
//
// --sql runs the queries' SQL texts instead of their DataFrame versions. --write-events writes
// the events to Parquet files in DIR (a file sink, one file per batch of --per-batch events),
// so that another engine reads the very same events; --files reads them from there (the file
// source, a file per micro-batch) instead of generating them. --warm times each query's second
// run in its process, as the side-by-side run with Spark's warm JVM does.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <arrow/compute/initialize.h>

#include "nexmark_queries.h"

#include "../batch_times.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/session.h"
#include "sluice/common/read_ahead.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/sources/nexmark/nexmark_generator.h"

namespace {

namespace fs = std::filesystem;
using sluice::bench::nexmark::Queries;
using sluice::bench::nexmark::Query;

constexpr const char* kProviders[][2] = {
    {"memory", "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"},
    {"rocksdb", "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"},
};

struct Settings {
  int64_t events = 10'000'000;
  int64_t per_batch = 1'000'000;
  int64_t rate = 10'000;  // events per second of event time
  std::vector<std::string> queries;
  bool sql = false;
  std::string files;         // read the events from Parquet files here
  std::string write_events;  // write the events to Parquet files here
  bool warm = false;         // run each query once untimed first, in the same process
};

/// The events: generated, or read from the Parquet files --write-events wrote.
sluice::DataFrame Events(const std::shared_ptr<sluice::SparkSession>& spark,
                         const Settings& settings) {
  if (!settings.files.empty()) {
    return spark->readStream()
        .format("parquet")
        .schema(sluice::sources::nexmark::NexmarkSchema())
        .option("maxFilesPerTrigger", int64_t{1})
        .load(settings.files);
  }
  return spark->readStream()
      .format("nexmark")
      .option("numEvents", settings.events)
      .option("maxEventsPerTrigger", settings.per_batch)
      .option("eventsPerSecond", settings.rate)
      .load();
}

/// Writes the events to Parquet files in settings.write_events.
int WriteEvents(const Settings& settings) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  const fs::path folder = settings.write_events;
  Settings generated = settings;
  generated.files.clear();
  auto query = Events(spark, generated)
                   .writeStream()
                   .format("parquet")
                   .option("checkpointLocation", (folder / "_checkpoint").string())
                   .trigger(sluice::Trigger::AvailableNow())
                   .start(folder.string());
  arrow::Status status = query.ok() ? (*query)->awaitTermination() : query.status();
  if (!status.ok()) {
    std::cerr << "writing the events: " << status.ToString() << "\n";
    return 1;
  }
  std::printf("%lld events written to %s\n", static_cast<long long>(settings.events),
              folder.string().c_str());
  return 0;
}

int64_t FolderBytes(const fs::path& folder) {
  int64_t bytes = 0;
  std::error_code error;
  for (const auto& entry : fs::recursive_directory_iterator(folder, error)) {
    if (entry.is_regular_file(error)) bytes += static_cast<int64_t>(entry.file_size(error));
  }
  return bytes;
}

/// The figures of one run of a query.
struct Run {
  double seconds = 0;
  double cpu = 0;
  size_t batches = 0;
  int64_t checkpoint_bytes = 0;
};

/// Runs `df` from a checkpoint of its own to the end of its input.
arrow::Result<Run> RunOnce(const std::shared_ptr<sluice::SparkSession>& spark,
                           const sluice::DataFrame& df, const Query& query) {
  const fs::path checkpoint =
      fs::temp_directory_path() / ("nexmark-checkpoint-" + sluice::formats::RandomUuid());
  auto batches = std::make_shared<sluice::bench::BatchTimes>();
  spark->streams()->addListener(batches);
  const double cpu_before = sluice::bench::ProcessCpuSeconds();
  const auto wall_before = std::chrono::steady_clock::now();
  auto query_run = df.writeStream()
                       .format("noop")
                       .outputMode(query.output_mode)
                       .option("checkpointLocation", checkpoint.string())
                       .trigger(sluice::Trigger::AvailableNow())
                       .start();
  arrow::Status status = query_run.ok() ? (*query_run)->awaitTermination() : query_run.status();
  Run run;
  run.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_before).count();
  run.cpu = sluice::bench::ProcessCpuSeconds() - cpu_before;
  spark->streams()->removeListener(batches);
  run.batches = batches->times().size();
  if (status.ok()) run.checkpoint_bytes = FolderBytes(checkpoint);
  fs::remove_all(checkpoint);
  ARROW_RETURN_NOT_OK(status);
  return run;
}

/// One run, in this process (after one untimed run with --warm): prints "RESULT <seconds>
/// <cpu seconds> <peak rss kB> <batches> <checkpoint bytes>" or fails.
int RunChild(const Settings& settings, const Query& query, const std::string& provider_class) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  (void)spark->conf().set("spark.sql.shuffle.partitions", "1");
  (void)spark->conf().set("spark.sql.streaming.stateStore.providerClass", provider_class);
  sluice::DataFrame events = Events(spark, settings);
  sluice::DataFrame df = query.dataframe(events);
  if (settings.sql) {
    auto status = sluice::bench::nexmark::RegisterViews(events);
    if (!status.ok()) {
      std::cerr << query.name << ": " << status.ToString() << "\n";
      return 1;
    }
    df = spark->sql(query.sql);
  }
  arrow::Result<Run> run;
  for (int round = settings.warm ? 0 : 1; round < 2; ++round) {
    run = RunOnce(spark, df, query);
    if (!run.ok()) break;
  }
  // The process exits next: the pools' threads must be done with their tasks first (a pool
  // thread ending a task's tracing scope after exit began crashed the test binaries once).
  sluice::WaitForPoolsIdle();
  if (!run.ok()) {
    std::cerr << query.name << ": " << run.status().ToString() << "\n";
    return 1;
  }
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  std::cout << "RESULT " << run->seconds << " " << run->cpu << " " << usage.ru_maxrss << " "
            << run->batches << " " << run->checkpoint_bytes << std::endl;
  return 0;
}

/// Runs this program again as a child for one query and provider; its RESULT line's figures.
std::optional<std::vector<double>> RunInChild(const std::string& self, const Settings& settings,
                                              const std::string& query, int provider) {
  std::string command = self + " --child " + query + " --provider " + std::to_string(provider) +
                        " --events " + std::to_string(settings.events) + " --per-batch " +
                        std::to_string(settings.per_batch) + " --rate " +
                        std::to_string(settings.rate) + (settings.sql ? " --sql" : "") +
                        (settings.warm ? " --warm" : "") +
                        (settings.files.empty() ? "" : " --files " + settings.files);
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string output;
  char buffer[4096];
  while (fgets(buffer, sizeof(buffer), pipe) != nullptr) output += buffer;
  if (pclose(pipe) != 0) return std::nullopt;
  const size_t at = output.rfind("RESULT ");
  if (at == std::string::npos) return std::nullopt;
  std::istringstream line(output.substr(at + 7));
  std::vector<double> figures(5);
  for (double& figure : figures) line >> figure;
  return figures;
}

Settings Parse(int argc, char** argv, std::string* child_query, int* provider) {
  Settings settings;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (arg == "--events") {
      settings.events = std::stoll(next());
    } else if (arg == "--per-batch") {
      settings.per_batch = std::stoll(next());
    } else if (arg == "--rate") {
      settings.rate = std::stoll(next());
    } else if (arg == "--queries") {
      std::stringstream list(next());
      for (std::string name; std::getline(list, name, ',');) settings.queries.push_back(name);
    } else if (arg == "--sql") {
      settings.sql = true;
    } else if (arg == "--files") {
      settings.files = fs::absolute(next()).string();
    } else if (arg == "--warm") {
      settings.warm = true;
    } else if (arg == "--write-events") {
      settings.write_events = next();
    } else if (arg == "--child") {
      *child_query = next();
    } else if (arg == "--provider") {
      *provider = std::stoi(next());
    } else {
      std::cerr << "unknown argument " << arg << "\n";
      std::exit(2);
    }
  }
  return settings;
}

}  // namespace

int main(int argc, char** argv) {
  if (!arrow::compute::Initialize().ok()) return 1;
  std::string child_query;
  int provider = 0;
  Settings settings = Parse(argc, argv, &child_query, &provider);
  if (!settings.write_events.empty()) return WriteEvents(settings);
  if (!child_query.empty()) {
    for (const auto& query : Queries()) {
      if (query.name == child_query) return RunChild(settings, query, kProviders[provider][1]);
    }
    std::cerr << "no query " << child_query << "\n";
    return 2;
  }

  const std::string self = fs::canonical("/proc/self/exe").string();
  std::printf("Nexmark: %lld events %s, at most %lld per batch, %s, a durable checkpoint per "
              "batch, noop sink\n",
              static_cast<long long>(settings.events),
              settings.files.empty() ? "generated" : ("read from " + settings.files).c_str(),
              static_cast<long long>(settings.per_batch), settings.sql ? "SQL" : "DataFrame API");
  std::printf("%-5s %-8s %10s %8s %12s %14s %9s %8s %12s\n", "query", "state", "events",
              "seconds", "events/s", "events/s/core", "peak MB", "batches", "ckpt bytes");
  int failures = 0;
  for (const auto& query : Queries()) {
    if (!settings.queries.empty() &&
        std::find(settings.queries.begin(), settings.queries.end(), query.name) ==
            settings.queries.end()) {
      continue;
    }
    for (int p = 0; p < (query.stateful ? 2 : 1); ++p) {
      auto figures = RunInChild(self, settings, query.name, p);
      if (!figures) {
        std::printf("%-5s %-8s failed\n", query.name.c_str(), kProviders[p][0]);
        ++failures;
        continue;
      }
      const double seconds = (*figures)[0], cpu = (*figures)[1];
      const double events = static_cast<double>(settings.events);
      std::printf("%-5s %-8s %10lld %8.2f %12.0f %14.0f %9.0f %8.0f %12.0f\n",
                  query.name.c_str(), query.stateful ? kProviders[p][0] : "-",
                  static_cast<long long>(settings.events), seconds, events / seconds,
                  events / cpu, (*figures)[2] / 1024, (*figures)[3], (*figures)[4]);
      std::fflush(stdout);
    }
  }
  return failures == 0 ? 0 : 1;
}
