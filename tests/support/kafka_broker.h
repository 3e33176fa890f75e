// A real single-node Kafka broker for the tests in tests/kafka, run by scripts/kafka/broker.sh.
//
//   const std::string& bootstrap = SharedKafkaBroker().bootstrap();   // "127.0.0.1:port"
//
// Under ctest the shared broker is the one the kafka_broker fixture started (its state folder
// comes in SLUICE_KAFKA_STATE_DIR); a test binary run by hand starts a broker of its own on first
// use and stops it when the process exits. Tests that stop or restart a broker launch one of
// their own with KafkaBroker::Launch, since other test processes use the shared one meanwhile.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include <arrow/result.h>
#include <arrow/status.h>

namespace sluice::testing {

/// One broker of scripts/kafka/broker.sh and its state folder (configuration, data, logs).
/// Not thread-safe: one thread starts, stops and restarts it.
class KafkaBroker {
 public:
  /// Starts a broker of this object's own in a fresh temp folder; it is stopped and the folder
  /// removed when the object goes, or by the script's watcher when this process dies first.
  /// Takes a few seconds (the JVM and the storage format).
  static arrow::Result<std::unique_ptr<KafkaBroker>> Launch();

  /// The broker that another process runs from `state_dir` (the ctest fixture). Stop, Start and
  /// Restart refuse: other test processes share it.
  static arrow::Result<std::unique_ptr<KafkaBroker>> Attach(const std::string& state_dir);

  ~KafkaBroker();
  KafkaBroker(const KafkaBroker&) = delete;
  KafkaBroker& operator=(const KafkaBroker&) = delete;

  /// The address clients connect to, "127.0.0.1:<port>"; the same across Stop/Start/Restart.
  const std::string& bootstrap() const { return bootstrap_; }
  /// The folder holding the broker's configuration, data (data/) and logs (broker.log).
  const std::string& state_dir() const { return state_dir_; }
  /// Whether the broker process runs (as far as Stop/Start of this object know).
  bool running() const { return running_; }

  /// Stops the broker (SIGTERM, then SIGKILL after a bound); its data stays. No-op when stopped.
  /// Stop, Kill, Start and Restart fail with Invalid on a shared broker (Attach,
  /// SharedKafkaBroker).
  arrow::Status Stop();
  /// Kills the broker by SIGKILL, as a crash would; its data stays. No-op when stopped.
  arrow::Status Kill();
  /// Starts the broker again on the same ports with the same data and returns once it answers.
  /// No-op when running.
  arrow::Status Start();
  /// Stop, then Start: a broker restart that keeps every committed record.
  arrow::Status Restart();

 private:
  friend KafkaBroker& SharedKafkaBroker();
  KafkaBroker(std::string state_dir, bool owned);
  arrow::Status CheckOwned() const;
  arrow::Status RunScript(const std::string& command);
  arrow::Status ReadBootstrap();

  std::string state_dir_;
  std::string bootstrap_;
  /// Whether this object started the broker (and so stops it and removes its folder at the end).
  bool owned_;
  /// Whether tests share it (SharedKafkaBroker): then nobody may stop or restart it.
  bool shared_ = false;
  bool running_ = false;
  /// The process that launched the broker: a forked child leaving must not stop it.
  pid_t owner_pid_;
};

/// The broker every test in this process shares, started or attached on first call. When it
/// cannot be had, this throws std::runtime_error with the reason (GoogleTest reports it as the
/// calling test's failure), now and on every later call, without retrying. Its Stop, Start and
/// Restart refuse, since other tests use it meanwhile; tests use topic names of their own
/// (UniqueTopicName in kafka_client.h).
KafkaBroker& SharedKafkaBroker();

}  // namespace sluice::testing
