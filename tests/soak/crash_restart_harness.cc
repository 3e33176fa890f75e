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

#include "sluice/common/fault_points.h"
#include "support/kafka_client.h"

extern char** environ;

namespace sluice::soak {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// How a run is to be disturbed.
struct Fault {
  /// "SLUICE_KILL_AT=..." or "SLUICE_FAIL_AT=...", or empty.
  std::string variable;
  /// When the harness kills the run, if it still runs.
  std::optional<Clock::duration> deadline;
  /// The target as the report names it, e.g. "fileSync (/commits/)".
  std::string label;
  /// The part of the path an injected failure must name in the run's error.
  std::string path_part;
  /// When the harness kills the Kafka broker and starts it again, if the run still runs.
  std::optional<Clock::duration> broker_crash;
};

/// A run taking longer is taken to hang: the harness kills it and fails.
constexpr auto kPatience = std::chrono::minutes(5);

/// How one child ended.
enum class Ending {
  kFinished,
  kKilledByHarness,
  kKilledItself,
  /// Failed with an error naming the file of the injected failure.
  kFailedCleanly,
  /// The broker was killed and restarted while it ran: it finished nonetheless, or failed with
  /// an error.
  kRodeOutBrokerCrash,
  kFailedAtBrokerCrash,
};

std::string Label(const FaultTarget& target) {
  return std::string(target.point) +
         (target.path_part.empty() ? "" : " (" + target.path_part + ")");
}

/// The targets in turn: one stays until it fired or was missed three times, so that every
/// target fires even where a run passes it only once or twice.
class Rotation {
 public:
  explicit Rotation(std::vector<FaultTarget> targets) : targets_(std::move(targets)) {}
  bool empty() const { return targets_.empty(); }
  const FaultTarget& current() const { return targets_[next_ % targets_.size()]; }
  void Fired() {
    ++next_;
    misses_ = 0;
  }
  void Missed() {
    if (++misses_ == 3) Fired();
  }

 private:
  std::vector<FaultTarget> targets_;
  size_t next_ = 0;
  int misses_ = 0;
};

/// The failures worth injecting: each file operation (write, fsync, rename, the folder's
/// fsync) on each kind of file the pipeline's kill points write.
std::vector<FaultTarget> FailTargets(const std::vector<FaultTarget>& kill_targets) {
  std::vector<FaultTarget> targets;
  std::vector<std::string> parts;
  for (const auto& target : kill_targets) {
    if (target.path_part.empty() ||
        std::find(parts.begin(), parts.end(), target.path_part) != parts.end()) {
      continue;
    }
    parts.push_back(target.path_part);
    for (auto operation : {fault_points::kFileWrite, fault_points::kFileSync,
                           fault_points::kFileRename, fault_points::kFolderSync}) {
      targets.push_back({operation, target.path_part});
    }
  }
  return targets;
}

struct Child {
  const SoakPipeline& pipeline;
  const SoakOptions& options;
  const SoakInput& input;
  fs::path log;

  /// Runs the pipeline on `run` in a child process, disturbed by `fault`.
  arrow::Result<Ending> Start(const SoakRun& run, const Fault& fault, Clock::duration* took) const {
    std::vector<std::string> args = {options.self,       "--child", std::string(pipeline.name()),
                                     "--input",          input.folder.string(),
                                     "--run",            run.folder.string()};
    if (pipeline.uses_kafka()) {
      args.insert(args.end(), {"--bootstrap", input.bootstrap, "--input-topic", input.topic,
                               "--output-topic", run.topic});
    }
    std::vector<std::string> env;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      std::string_view name(*entry);
      if (name.starts_with("SLUICE_KILL_AT=") || name.starts_with("SLUICE_FAIL_AT=")) continue;
      env.emplace_back(*entry);
    }
    if (!fault.variable.empty()) env.push_back(fault.variable);
    std::vector<char*> argv, envp;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    for (auto& entry : env) envp.push_back(entry.data());
    envp.push_back(nullptr);

    std::error_code ignored;
    const uintmax_t log_start = fs::exists(log) ? fs::file_size(log, ignored) : 0;
    {
      std::ofstream(log, std::ios::app) << "--- run " << run.folder.filename().string() << " "
                                        << fault.variable << std::endl;
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
    bool hung = false;
    bool broker_crashed = false;
    int status = 0;
    while (true) {
      pid_t done = ::waitpid(pid, &status, WNOHANG);
      if (done == pid) break;
      if (done < 0 && errno != EINTR) {
        return arrow::Status::IOError("waitpid failed: ", std::strerror(errno));
      }
      auto elapsed = Clock::now() - started;
      if (!killed && ((fault.deadline && elapsed >= *fault.deadline) || elapsed >= kPatience)) {
        ::kill(pid, SIGKILL);
        killed = true;
        hung = elapsed >= kPatience;
      }
      if (fault.broker_crash && !broker_crashed && elapsed >= *fault.broker_crash) {
        // The query runs on meanwhile, for the seconds the broker takes to start.
        broker_crashed = true;
        ARROW_RETURN_NOT_OK(options.broker->Kill());
        ARROW_RETURN_NOT_OK(options.broker->Start());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (hung) {
      return arrow::Status::Invalid("The ", pipeline.name(), " query on ", run.folder.string(),
                                    " still ran after ", kPatience.count(), " minutes (",
                                    fault.variable, "); its output:\n", Read(log, log_start));
    }
    *took = Clock::now() - started;
    if (broker_crashed && WIFEXITED(status)) {
      return WEXITSTATUS(status) == 0 ? Ending::kRodeOutBrokerCrash : Ending::kFailedAtBrokerCrash;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Ending::kFinished;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
      return killed ? Ending::kKilledByHarness : Ending::kKilledItself;
    }
    std::string output = Read(log, log_start);
    if (fault.variable.starts_with("SLUICE_FAIL_AT=") && WIFEXITED(status) &&
        output.find(fault.path_part) != std::string::npos &&
        (output.find("Cannot write") != std::string::npos ||
         output.find("Cannot fsync") != std::string::npos ||
         output.find("Cannot rename") != std::string::npos)) {
      return Ending::kFailedCleanly;
    }
    return arrow::Status::Invalid(
        "The ", pipeline.name(), " query on ", run.folder.string(), " failed (",
        WIFEXITED(status) ? "exit status " : "signal ",
        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), ")",
        fault.variable.empty() ? std::string(" after a restart")
                               : " with " + fault.variable + " without naming the file",
        "; its output:\n", output.size() <= 4000 ? output : output.substr(output.size() - 4000));
  }

  /// `path` from byte `offset` on.
  static std::string Read(const fs::path& path, uintmax_t offset) {
    std::ifstream in(path);
    in.seekg(static_cast<std::streamoff>(offset));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
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
  SoakInput input{root / "input", options.broker ? options.broker->bootstrap() : "", ""};
  SoakRun run{root / "run", ""};
  SoakRun reference{root / "reference", ""};
  if (pipeline.uses_kafka()) {
    const std::string prefix = "soak-" + std::string(pipeline.name());
    input.topic = testing::UniqueTopicName(prefix + "-in");
    run.topic = testing::UniqueTopicName(prefix + "-out");
    reference.topic = testing::UniqueTopicName(prefix + "-reference");
    if (options.broker == nullptr) {
      return arrow::Status::Invalid(pipeline.name(), " needs a Kafka broker");
    }
    testing::KafkaTestClient kafka(input.bootstrap);
    for (const auto* topic : {&input.topic, &run.topic, &reference.topic}) {
      ARROW_RETURN_NOT_OK(kafka.CreateTopic(*topic, 3));
    }
  }
  Child child{pipeline, options, input, root / "children.log"};
  Rotation kill_targets(pipeline.kill_targets());
  Rotation fail_targets(FailTargets(pipeline.kill_targets()));
  std::mt19937_64 random(options.seed);
  SoakReport report;
  // A random instant falls within the time a run takes, learnt from the runs that finished.
  Clock::duration typical = std::chrono::milliseconds(1500);
  Clock::duration took{};
  for (int cycle = 0; cycle < options.cycles; ++cycle) {
    // Two chunks, so that most runs pass each fault point more than once.
    for (int chunk : {2 * cycle, 2 * cycle + 1}) {
      ARROW_RETURN_NOT_OK(pipeline.AddInput(input, chunk));
    }
    // In turn: a kill at a random instant, at a kill point, a failing file operation; and
    // every tenth cycle of a Kafka pipeline, the broker killed and restarted.
    Fault fault;
    const bool broker_crash = pipeline.uses_kafka() && cycle % 10 == 9;
    Rotation* rotation = cycle % 3 == 1 ? &kill_targets : cycle % 3 == 2 ? &fail_targets : nullptr;
    if (rotation != nullptr && rotation->empty()) rotation = nullptr;
    std::uniform_int_distribution<int64_t> instant(
        0, std::chrono::duration_cast<std::chrono::microseconds>(typical).count());
    if (broker_crash) {
      rotation = nullptr;
      fault.label = "broker killed and restarted";
      fault.broker_crash = std::chrono::microseconds(instant(random) / 2);
    } else if (rotation == nullptr) {
      fault.deadline = std::chrono::microseconds(instant(random));
    } else {
      // At the target's first or second pass.
      const FaultTarget& aim = rotation->current();
      fault.label = Label(aim);
      fault.path_part = aim.path_part;
      fault.variable = std::string(rotation == &kill_targets ? "SLUICE_KILL_AT=" : "SLUICE_FAIL_AT=") +
                       std::string(aim.point) + "," + std::to_string(1 + random() % 2) +
                       (aim.path_part.empty() ? "" : "," + aim.path_part);
    }
    ARROW_ASSIGN_OR_RAISE(Ending ending, child.Start(run, fault, &took));
    ++report.cycles;
    switch (ending) {
      case Ending::kFinished:
        ++report.finished;
        typical = (typical + took) / 2;
        if (rotation != nullptr) rotation->Missed();
        break;
      case Ending::kKilledByHarness:
        ++report.killed_at_random;
        break;
      case Ending::kKilledItself:
        ++report.killed_at_point[fault.label];
        rotation->Fired();
        break;
      case Ending::kFailedCleanly:
        ++report.failed_at[fault.label];
        rotation->Fired();
        break;
      case Ending::kRodeOutBrokerCrash:
        ++report.rode_out_broker_crash;
        break;
      case Ending::kFailedAtBrokerCrash:
        ++report.failed_at_broker_crash;
        break;
    }
  }
  // The last restart runs to the end, then the reference reads the same input at one go.
  for (const SoakRun* last : {&run, &reference}) {
    ARROW_ASSIGN_OR_RAISE(Ending ending, child.Start(*last, Fault{}, &took));
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
