#include "support/kafka_broker.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace sluice::testing {
namespace {

/// scripts/kafka/broker.sh of the source tree, given by tests/CMakeLists.txt.
constexpr const char* kBrokerScript = SLUICE_KAFKA_BROKER_SCRIPT;

struct CommandOutcome {
  int exit_code = -1;
  /// stdout and stderr, interleaved.
  std::string output;
};

std::string ErrnoText(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

/// Runs `arguments` (the program first) and collects its output. No time bound of its own:
/// broker.sh bounds every wait it makes.
arrow::Result<CommandOutcome> RunCommand(const std::vector<std::string>& arguments) {
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0) return arrow::Status::IOError(ErrnoText("pipe2"));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDERR_FILENO);
  std::vector<char*> argv;
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  pid_t pid;
  const int spawn_error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_ends[1]);
  if (spawn_error != 0) {
    close(pipe_ends[0]);
    return arrow::Status::IOError("cannot run ", arguments[0], ": ", std::strerror(spawn_error));
  }
  CommandOutcome outcome;
  char buffer[4096];
  for (;;) {
    const ssize_t read_bytes = read(pipe_ends[0], buffer, sizeof(buffer));
    if (read_bytes > 0) {
      outcome.output.append(buffer, static_cast<size_t>(read_bytes));
    } else if (read_bytes == 0 || errno != EINTR) {
      break;
    }
  }
  close(pipe_ends[0]);
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0) {
    if (errno != EINTR) return arrow::Status::IOError(ErrnoText("waitpid"));
  }
  outcome.exit_code = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
  return outcome;
}

std::string FreshTempFolder() {
  std::random_device device;
  auto path = std::filesystem::temp_directory_path() /
              ("sluice-kafka-" + std::to_string(device()) + std::to_string(device()));
  std::filesystem::create_directories(path);
  return path.string();
}

}  // namespace

KafkaBroker::KafkaBroker(std::string state_dir, bool owned)
    : state_dir_(std::move(state_dir)), owned_(owned), owner_pid_(getpid()) {}

arrow::Result<std::unique_ptr<KafkaBroker>> KafkaBroker::Launch() {
  std::unique_ptr<KafkaBroker> broker(new KafkaBroker(FreshTempFolder(), /*owned=*/true));
  ARROW_RETURN_NOT_OK(broker->Start());
  return broker;
}

arrow::Result<std::unique_ptr<KafkaBroker>> KafkaBroker::Attach(const std::string& state_dir) {
  std::unique_ptr<KafkaBroker> broker(new KafkaBroker(state_dir, /*owned=*/false));
  ARROW_RETURN_NOT_OK(broker->ReadBootstrap());
  broker->running_ = true;
  return broker;
}

KafkaBroker::~KafkaBroker() {
  if (!owned_ || getpid() != owner_pid_) return;
  const arrow::Status stopped = running_ ? RunScript("stop") : arrow::Status::OK();
  if (!stopped.ok()) std::cerr << stopped.ToString() << std::endl;
  std::error_code error;
  std::filesystem::remove_all(state_dir_, error);
}

arrow::Status KafkaBroker::RunScript(const std::string& command) {
  std::vector<std::string> arguments = {kBrokerScript, command, state_dir_};
  if (command == "start") {
    // The script's watcher stops the broker if this process dies without stopping it.
    arguments.insert(arguments.end(), {"--owner", std::to_string(getpid())});
  }
  ARROW_ASSIGN_OR_RAISE(CommandOutcome outcome, RunCommand(arguments));
  if (outcome.exit_code != 0) {
    return arrow::Status::IOError("broker.sh ", command, " ", state_dir_, " failed (exit code ",
                                  outcome.exit_code, "):\n", outcome.output);
  }
  return arrow::Status::OK();
}

arrow::Status KafkaBroker::ReadBootstrap() {
  const std::string file = state_dir_ + "/bootstrap";
  std::ifstream in(file);
  std::string address;
  if (!(in >> address)) {
    return arrow::Status::IOError("no Kafka broker address in ", file,
                                  ": the broker of that state folder is not running");
  }
  bootstrap_ = address;
  return arrow::Status::OK();
}

arrow::Status KafkaBroker::CheckOwned() const {
  if (owned_ && !shared_) return arrow::Status::OK();
  return arrow::Status::Invalid("the Kafka broker of ", state_dir_,
                                " is shared with other test processes and must keep running; "
                                "stop or restart one from KafkaBroker::Launch() instead");
}

arrow::Status KafkaBroker::Stop() {
  ARROW_RETURN_NOT_OK(CheckOwned());
  if (!running_) return arrow::Status::OK();
  ARROW_RETURN_NOT_OK(RunScript("stop"));
  running_ = false;
  return arrow::Status::OK();
}

arrow::Status KafkaBroker::Kill() {
  ARROW_RETURN_NOT_OK(CheckOwned());
  if (!running_) return arrow::Status::OK();
  ARROW_RETURN_NOT_OK(RunScript("kill"));
  running_ = false;
  return arrow::Status::OK();
}

arrow::Status KafkaBroker::Start() {
  ARROW_RETURN_NOT_OK(CheckOwned());
  if (running_) return arrow::Status::OK();
  ARROW_RETURN_NOT_OK(RunScript("start"));
  running_ = true;
  return ReadBootstrap();
}

arrow::Status KafkaBroker::Restart() {
  ARROW_RETURN_NOT_OK(Stop());
  return Start();
}

KafkaBroker& SharedKafkaBroker() {
  static arrow::Result<std::unique_ptr<KafkaBroker>> broker =
      []() -> arrow::Result<std::unique_ptr<KafkaBroker>> {
    const char* state_dir = std::getenv("SLUICE_KAFKA_STATE_DIR");
    if (state_dir != nullptr && *state_dir != '\0') return KafkaBroker::Attach(state_dir);
    ARROW_ASSIGN_OR_RAISE(std::unique_ptr<KafkaBroker> launched, KafkaBroker::Launch());
    launched->shared_ = true;
    return launched;
  }();
  if (!broker.ok()) {
    throw std::runtime_error("no Kafka broker for the tests: " + broker.status().ToString());
  }
  return **broker;
}

}  // namespace sluice::testing
