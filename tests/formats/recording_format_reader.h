// A format reader for tests of file scans: the JSON reader (two rows a batch), recording which
// files it opens and at which priority of the opening thread, and able to make each batch slow.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sluice/formats/file_format.h"

namespace sluice::testing {

/// The priority of the calling thread; the test process's threads share it.
inline int ThisThreadsPriority() { return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())); }

/// How a slow batch takes its time: asleep, or busy on its core as decoding is.
enum class Slowness { kSleeping, kSpinning };

/// Slows each batch of `input` by `delay`: a file that decodes slower than it is read.
class SlowReader final : public arrow::RecordBatchReader {
 public:
  SlowReader(std::shared_ptr<arrow::RecordBatchReader> input, std::chrono::milliseconds delay,
             Slowness slowness)
      : input_(std::move(input)), delay_(delay), slowness_(slowness) {}
  std::shared_ptr<arrow::Schema> schema() const override { return input_->schema(); }
  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    if (slowness_ == Slowness::kSleeping) {
      std::this_thread::sleep_for(delay_);
    } else {
      const auto until = std::chrono::steady_clock::now() + delay_;
      while (std::chrono::steady_clock::now() < until) {
      }
    }
    return input_->ReadNext(batch);
  }

 private:
  std::shared_ptr<arrow::RecordBatchReader> input_;
  std::chrono::milliseconds delay_;
  Slowness slowness_;
};

/// The JSON reader (two rows a batch), recording which files it opens and at which priority
/// of the opening thread; with a delay, each batch is that slow.
class RecordingReader final : public formats::FormatReader {
 public:
  explicit RecordingReader(std::chrono::milliseconds delay = std::chrono::milliseconds(0),
                           Slowness slowness = Slowness::kSleeping)
      : delay_(delay), slowness_(slowness) {
    formats::FormatContext context;
    context.batch_rows = 2;
    json_ = formats::MakeFormatReader(formats::FileFormat::kJson, {}, context).ValueOrDie();
  }

  formats::FileFormat format() const override { return json_->format(); }
  const formats::FileSourceOptions& file_options() const override { return json_->file_options(); }
  arrow::Result<std::shared_ptr<arrow::Schema>> InferSchema(
      const std::vector<std::string>& files) const override {
    return json_->InferSchema(files);
  }
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenFile(
      const std::string& path, const std::shared_ptr<arrow::Schema>& schema) const override {
    {
      std::lock_guard lock(mutex_);
      opened_.emplace_back(std::filesystem::path(path).filename().string(),
                           ThisThreadsPriority());
      changed_.notify_all();
    }
    ARROW_ASSIGN_OR_RAISE(auto file, json_->OpenFile(path, schema));
    if (delay_.count() == 0) return file;
    return std::make_shared<SlowReader>(std::move(file), delay_, slowness_);
  }

  /// The files opened so far, in order, with the priority each was opened at.
  std::vector<std::pair<std::string, int>> opened() const {
    std::lock_guard lock(mutex_);
    return opened_;
  }
  /// Waits up to a few seconds until `name` is opened; false if it is not.
  bool WaitForOpen(const std::string& name) const {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(5), [&] {
      for (const auto& [file, priority] : opened_) {
        if (file == name) return true;
      }
      return false;
    });
  }

 private:
  std::shared_ptr<const formats::FormatReader> json_;
  std::chrono::milliseconds delay_;
  Slowness slowness_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  mutable std::vector<std::pair<std::string, int>> opened_;
};

}  // namespace sluice::testing
