#include "soak/crash_restart_harness.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <chrono>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "support/kafka_client.h"

extern char** environ;

namespace sluice::soak {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// How one child ended.
enum class Ending { kFinished, kKilledByHarness, kKilledItself };

struct Child {
  const SoakPipeline& pipeline;
  const SoakOptions& options;
  const SoakInput& input;
  fs::path log;

  /// Runs the pipeline on `run` in a child process. With `kill_at` (SLUICE_KILL_AT's value) the
  /// child kills itself there; with `deadline` the harness kills it then if it still runs.
  arrow::Result<Ending> Start(const SoakRun& run, const std::string& kill_at,
                              std::optional<Clock::duration> deadline,
                              Clock::duration* took) const {
    std::vector<std::string> args = {options.self,       "--child", std::string(pipeline.name()),
                                     "--input",          input.folder.string(),
                                     "--run",            run.folder.string()};
    if (pipeline.uses_kafka()) {
      args.insert(args.end(), {"--bootstrap", input.bootstrap, "--input-topic", input.topic,
                               "--output-topic", run.topic});
    }
    std::vector<std::string> env;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      if (std::string_view(*entry).starts_with("SLUICE_KILL_AT=")) continue;
      env.emplace_back(*entry);
    }
    if (!kill_at.empty()) env.push_back("SLUICE_KILL_AT=" + kill_at);
    std::vector<char*> argv, envp;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    for (auto& entry : env) envp.push_back(entry.data());
    envp.push_back(nullptr);

    {
      std::ofstream(log, std::ios::app) << "--- run " << run.folder.filename().string()
                                        << (kill_at.empty() ? "" : ", kill at " + kill_at)
                                        << std::endl;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_APPEND | O_CREAT, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid = 0;
    auto started = Clock::now();
    int spawned = posix_spawn(&pid, options.self.c_str(), &actions, nullptr, argv.data(),
                              envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
      return arrow::Status::IOError("Cannot start ", options.self, ": ", std::strerror(spawned));
    }
    bool killed = false;
    int status = 0;
    while (true) {
      pid_t done = ::waitpid(pid, &status, deadline ? WNOHANG : 0);
      if (done == pid) break;
      if (done < 0 && errno != EINTR) {
        return arrow::Status::IOError("waitpid failed: ", std::strerror(errno));
      }
      if (deadline && !killed && Clock::now() - started >= *deadline) {
        ::kill(pid, SIGKILL);
        killed = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    *took = Clock::now() - started;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Ending::kFinished;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
      return killed ? Ending::kKilledByHarness : Ending::kKilledItself;
    }
    return arrow::Status::Invalid("The ", pipeline.name(), " query on ", run.folder.string(),
                                  " failed (", WIFEXITED(status) ? "exit status " : "signal ",
                                  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                                  ") after a restart; its output:\n", Tail(log));
  }

  static std::string Tail(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::string all = text.str();
    return all.size() <= 4000 ? all : all.substr(all.size() - 4000);
  }
};

/// Counts of each row.
std::map<std::string, int64_t> Counts(const std::vector<std::string>& rows) {
  std::map<std::string, int64_t> counts;
  for (const auto& row : rows) ++counts[row];
  return counts;
}

}  // namespace

arrow::Result<SoakReport> RunSoak(const SoakPipeline& pipeline, const SoakOptions& options) {
  const fs::path root = options.work / std::string(pipeline.name());
  fs::remove_all(root);
  fs::create_directories(root);
  SoakInput input{root / "input", options.bootstrap, ""};
  SoakRun run{root / "run", ""};
  SoakRun reference{root / "reference", ""};
  if (pipeline.uses_kafka()) {
    const std::string prefix = "soak-" + std::string(pipeline.name());
    input.topic = testing::UniqueTopicName(prefix + "-in");
    run.topic = testing::UniqueTopicName(prefix + "-out");
    reference.topic = testing::UniqueTopicName(prefix + "-reference");
    testing::KafkaTestClient kafka(options.bootstrap);
    for (const auto* topic : {&input.topic, &run.topic, &reference.topic}) {
      ARROW_RETURN_NOT_OK(kafka.CreateTopic(*topic, 3));
    }
  }
  Child child{pipeline, options, input, root / "children.log"};
  const std::vector<KillTarget> targets = pipeline.kill_targets();
  std::mt19937_64 random(options.seed);
  SoakReport report;
  // A random instant falls within the time a run takes, learnt from the runs that finished.
  Clock::duration typical = std::chrono::milliseconds(1500);
  Clock::duration took{};
  // The kill point aimed at next; a target stays until it fired or was missed three times,
  // so that every target fires even where a run passes it only once or twice.
  size_t target = 0;
  int misses = 0;
  for (int cycle = 0; cycle < options.cycles; ++cycle) {
    // Two chunks, so that most runs pass each kill point more than once.
    for (int chunk : {2 * cycle, 2 * cycle + 1}) {
      ARROW_RETURN_NOT_OK(pipeline.AddInput(input, chunk));
    }
    std::string kill_at;
    std::optional<Clock::duration> deadline;
    std::string point;
    if (cycle % 2 == 0) {
      std::uniform_int_distribution<int64_t> instant(
          0, std::chrono::duration_cast<std::chrono::microseconds>(typical).count());
      deadline = std::chrono::microseconds(instant(random));
    } else {
      // At the target's first or second pass.
      const KillTarget& aim = targets[target % targets.size()];
      int hit = 1 + static_cast<int>(random() % 2);
      point = std::string(aim.point) + (aim.path_part.empty() ? "" : " (" + aim.path_part + ")");
      kill_at = std::string(aim.point) + "," + std::to_string(hit) +
                (aim.path_part.empty() ? "" : "," + aim.path_part);
    }
    ARROW_ASSIGN_OR_RAISE(Ending ending, child.Start(run, kill_at, deadline, &took));
    ++report.cycles;
    switch (ending) {
      case Ending::kFinished:
        ++report.finished;
        typical = (typical + took) / 2;
        if (!point.empty() && ++misses == 3) {
          ++target;
          misses = 0;
        }
        break;
      case Ending::kKilledByHarness:
        ++report.killed_at_random;
        break;
      case Ending::kKilledItself:
        ++report.killed_at_point[point];
        ++target;
        misses = 0;
        break;
    }
  }
  // The last restart runs to the end, then the reference reads the same input at one go.
  for (const SoakRun* last : {&run, &reference}) {
    ARROW_ASSIGN_OR_RAISE(Ending ending, child.Start(*last, "", std::nullopt, &took));
    if (ending != Ending::kFinished) {
      return arrow::Status::Invalid("The final run of ", pipeline.name(), " did not finish");
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto expected, pipeline.ReadOutput(input, reference));
  ARROW_ASSIGN_OR_RAISE(auto output, pipeline.ReadOutput(input, run));
  report.expected_rows = static_cast<int64_t>(expected.size());
  report.output_rows = static_cast<int64_t>(output.size());
  auto expected_counts = Counts(expected);
  auto output_counts = Counts(output);
  for (const auto& [row, count] : expected_counts) {
    auto found = output_counts.find(row);
    int64_t have = found == output_counts.end() ? 0 : found->second;
    report.lost += std::max<int64_t>(0, count - have);
  }
  for (const auto& [row, count] : output_counts) {
    auto found = expected_counts.find(row);
    int64_t want = found == expected_counts.end() ? 0 : found->second;
    report.duplicated += std::max<int64_t>(0, count - want);
  }
  return report;
}

}  // namespace sluice::soak
