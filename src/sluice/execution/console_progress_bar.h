// A progress bar on the terminal for queries working through a backlog (an availableNow
// backfill, a stream that fell behind), as Spark's console progress bar does for stages.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "sluice/execution/query_listener.h"

namespace sluice::execution {

/// How far a query has got through its backlog, from its progress reports alone, summed over
/// its sources. A source that accounts for its backlog (SourceProgress::backlog, a file
/// source's availableNow files) counts its files; another counts its offsets: its position is
/// the sum of the integer members of an offset (the offsets of a Kafka topic's partitions), and
/// what is done is (end - start of the run) out of (latest - start of the run). Sources with
/// neither do not count. Returns nullopt when the query is not behind (nothing to show).
std::optional<double> BacklogFractionDone(const StreamingQueryProgress& run_start,
                                          const StreamingQueryProgress& latest);

/// Draws one line per update on a terminal file descriptor, "\r" to redraw in place:
///   [counts: batch 12 ===============>            45% 1,204,000 rows 350,000 rows/s]
/// while a query is behind, and clears it when the query caught up or ended. Enabled by
/// spark.ui.showConsoleProgress when standard error is a terminal. Thread-safe; queries draw in
/// turn on the one line.
class ConsoleProgressBar final : public StreamingQueryListener {
 public:
  /// `fd`: where to draw (not owned); `width`: the line's width in characters; updates closer
  /// than `min_interval` to the previous one are skipped, as a terminal cannot show them.
  ConsoleProgressBar(int fd, int width,
                     std::chrono::milliseconds min_interval = std::chrono::milliseconds(200));
  /// A bar on standard error as wide as the terminal, or null when standard error is not a
  /// terminal (a log file must not fill with redrawn lines).
  static std::shared_ptr<ConsoleProgressBar> ForStandardError();

  void onQueryStarted(const QueryStartedEvent& event) override;
  void onQueryProgress(const QueryProgressEvent& event) override;
  void onQueryTerminated(const QueryTerminatedEvent& event) override;

 private:
  struct Run {
    std::optional<StreamingQueryProgress> first;
    int64_t rows = 0;
    double shown_fraction = 0;
  };
  void Clear();
  void Write(const std::string& text);

  const int fd_;
  const int width_;
  const std::chrono::milliseconds min_interval_;
  std::mutex mutex_;
  std::map<std::string, Run> runs_;
  std::chrono::steady_clock::time_point last_drawn_{};
  bool line_shown_ = false;
};

}  // namespace sluice::execution
