// sluice_soak: the crash-restart soak of the exactly-once promise (crash_restart_harness.h).
//
//   sluice_soak [--cycles N] [--pipelines a,b] [--seed S] [--work DIR] [--keep]
//
// runs each pipeline (all six by default) for N kill-restart cycles and prints, per pipeline,
// how its children ended and how many rows were lost or duplicated; it exits non-zero if any
// row was, or a restart failed. For pipelines that use Kafka it starts a broker of its own,
// which it kills and restarts now and then. The harness starts this program again as
//
//   sluice_soak --child <pipeline> --input DIR --run DIR [--bootstrap B --input-topic T
//               --output-topic T]
//
// for each run of a query.
#include <unistd.h>

#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <arrow/compute/initialize.h>

#include "soak/crash_restart_harness.h"
#include "sluice/common/read_ahead.h"
#include "support/kafka_broker.h"

namespace {

namespace fs = std::filesystem;
using sluice::soak::SoakPipeline;

int Usage(const std::string& why) {
  std::cerr << "sluice_soak: " << why
            << "\nusage: sluice_soak [--cycles N] [--pipelines a,b] [--seed S] [--work DIR] "
               "[--keep]"
            << std::endl;
  return 2;
}

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

/// The program's own path, for starting children.
std::string SelfPath() {
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? std::string() : self.string();
}

int RunChild(const SoakPipeline& pipeline, const std::map<std::string, std::string>& flags) {
  auto flag = [&](const std::string& name) {
    auto found = flags.find(name);
    return found == flags.end() ? std::string() : found->second;
  };
  sluice::soak::SoakInput input{flag("input"), flag("bootstrap"), flag("input-topic")};
  sluice::soak::SoakRun run{flag("run"), flag("output-topic")};
  arrow::Status status = pipeline.Run(input, run);
  // The process exits next: its pools' threads must be done with their tasks first (a child
  // crashed in libparquet once at exit, as the test binaries did before they waited).
  sluice::WaitForPoolsIdle();
  if (!status.ok()) {
    std::cerr << "sluice_soak --child " << pipeline.name() << ": " << status.ToString()
              << std::endl;
    return 1;
  }
  return 0;
}

void Print(const SoakPipeline& pipeline, const sluice::soak::SoakReport& report) {
  int at_points = 0, failed = 0;
  for (const auto& [point, count] : report.killed_at_point) at_points += count;
  for (const auto& [point, count] : report.failed_at) failed += count;
  std::cout << std::left << std::setw(24) << pipeline.name() << std::right << " cycles "
            << std::setw(4) << report.cycles << "  killed: at random " << std::setw(3)
            << report.killed_at_random << ", at kill points " << std::setw(3) << at_points
            << "  failed writes " << std::setw(3) << failed
            << "  finished " << std::setw(3) << report.finished << "  rows " << std::setw(6)
            << report.output_rows << " of " << std::setw(6) << report.expected_rows
            << "  lost " << report.lost << "  duplicated " << report.duplicated << std::endl;
  if (pipeline.uses_kafka()) {
    std::cout << "    broker killed and restarted: the query rode it out "
              << report.rode_out_broker_crash << ", failed and recovered "
              << report.failed_at_broker_crash << std::endl;
  }
  for (const auto* counts : {&report.killed_at_point, &report.failed_at}) {
    for (const auto& [point, count] : *counts) {
      std::cout << "    " << std::left << std::setw(36) << point << std::right
                << (counts == &report.failed_at ? " failed cleanly " : " killed ") << count
                << std::endl;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> flags;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--keep") {
      keep = true;
    } else if (arg.starts_with("--") && i + 1 < argc) {
      flags[arg.substr(2)] = argv[++i];
    } else {
      return Usage("unexpected argument " + arg);
    }
  }
  if (auto status = arrow::compute::Initialize(); !status.ok()) {
    std::cerr << "sluice_soak: " << status.ToString() << std::endl;
    return 1;
  }
  auto pipelines = sluice::soak::AllPipelines();
  auto named = [&](const std::string& name) -> const SoakPipeline* {
    for (const auto& pipeline : pipelines) {
      if (pipeline->name() == name) return pipeline.get();
    }
    return nullptr;
  };
  if (flags.contains("child")) {
    const SoakPipeline* pipeline = named(flags["child"]);
    if (pipeline == nullptr) return Usage("no pipeline " + flags["child"]);
    return RunChild(*pipeline, flags);
  }

  sluice::soak::SoakOptions options;
  std::vector<const SoakPipeline*> chosen;
  try {
    if (flags.contains("cycles")) options.cycles = std::stoi(flags["cycles"]);
    if (flags.contains("seed")) options.seed = std::stoull(flags["seed"]);
  } catch (const std::exception&) {
    return Usage("--cycles and --seed take numbers");
  }
  if (options.cycles < 1) return Usage("--cycles must be at least 1");
  if (flags.contains("pipelines")) {
    for (const auto& name : SplitCommas(flags["pipelines"])) {
      const SoakPipeline* pipeline = named(name);
      if (pipeline == nullptr) return Usage("no pipeline " + name);
      chosen.push_back(pipeline);
    }
  } else {
    for (const auto& pipeline : pipelines) chosen.push_back(pipeline.get());
  }
  options.self = SelfPath();
  if (options.self.empty()) return Usage("cannot find this program's path");
  options.work = flags.contains("work")
                     ? fs::path(flags["work"])
                     : fs::temp_directory_path() / ("sluice-soak-" + std::to_string(getpid()));
  // A broker of the harness's own, which it kills and restarts.
  std::unique_ptr<sluice::testing::KafkaBroker> broker;
  for (const auto* pipeline : chosen) {
    if (!pipeline->uses_kafka() || broker != nullptr) continue;
    auto launched = sluice::testing::KafkaBroker::Launch();
    if (!launched.ok()) {
      std::cerr << "sluice_soak: no Kafka broker: " << launched.status().ToString() << std::endl;
      return 1;
    }
    broker = std::move(*launched);
    options.broker = broker.get();
  }

  bool failed = false;
  for (const auto* pipeline : chosen) {
    auto report = sluice::soak::RunSoak(*pipeline, options);
    if (!report.ok()) {
      std::cout << pipeline->name() << " FAILED: " << report.status().ToString() << std::endl;
      failed = true;
      continue;
    }
    Print(*pipeline, *report);
    if (report->lost != 0 || report->duplicated != 0 || report->expected_rows == 0) {
      failed = true;
    }
  }
  if (!keep && !failed) {
    // Other harnesses may share the work folder: remove only what this one wrote.
    for (const auto* pipeline : chosen) fs::remove_all(options.work / std::string(pipeline->name()));
    std::error_code ignored;
    fs::remove(options.work, ignored);  // only if empty
  }
  if (failed) std::cout << "work folder kept: " << options.work.string() << std::endl;
  return failed ? 1 : 0;
}
