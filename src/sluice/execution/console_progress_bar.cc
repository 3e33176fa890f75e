#include "sluice/execution/console_progress_bar.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <simdjson.h>

namespace sluice::execution {

namespace {

/// The sum of the integer members of `element`, at any depth; nullopt when it has none.
std::optional<double> SumOfIntegers(simdjson::dom::element element) {
  switch (element.type()) {
    case simdjson::dom::element_type::INT64:
      return static_cast<double>(int64_t(element));
    case simdjson::dom::element_type::UINT64:
      return static_cast<double>(uint64_t(element));
    case simdjson::dom::element_type::OBJECT:
    case simdjson::dom::element_type::ARRAY: {
      std::optional<double> sum;
      auto add = [&sum](simdjson::dom::element child) {
        if (auto value = SumOfIntegers(child)) sum = sum.value_or(0) + *value;
      };
      if (element.is_object()) {
        for (auto field : simdjson::dom::object(element)) add(field.value);
      } else {
        for (auto child : simdjson::dom::array(element)) add(child);
      }
      return sum;
    }
    default:
      return std::nullopt;
  }
}

std::optional<double> Position(const std::optional<std::string>& offset,
                               simdjson::dom::parser* parser) {
  if (!offset) return std::nullopt;
  simdjson::dom::element element;
  if (parser->parse(*offset).get(element) != simdjson::SUCCESS) return std::nullopt;
  return SumOfIntegers(element);
}

/// "1,204,000".
std::string Grouped(int64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

}  // namespace

std::optional<double> BacklogFractionDone(const StreamingQueryProgress& run_start,
                                          const StreamingQueryProgress& latest) {
  simdjson::dom::parser parser;
  double done = 0, total = 0;
  for (size_t i = 0; i < latest.sources.size() && i < run_start.sources.size(); ++i) {
    const SourceProgress& source = latest.sources[i];
    if (source.backlog) {
      done += static_cast<double>(source.backlog->done);
      total += static_cast<double>(source.backlog->total);
      continue;
    }
    auto start = Position(run_start.sources[i].start_offset, &parser);
    auto end = Position(source.end_offset, &parser);
    auto target = Position(source.latest_offset, &parser);
    if (!end || !target) continue;
    double origin = start.value_or(0);
    done += std::max(0.0, *end - origin);
    total += std::max(0.0, *target - origin);
  }
  if (total <= 0 || done >= total) return std::nullopt;
  return done / total;
}

ConsoleProgressBar::ConsoleProgressBar(int fd, int width, std::chrono::milliseconds min_interval)
    : fd_(fd), width_(std::max(width, 40)), min_interval_(min_interval) {}

std::shared_ptr<ConsoleProgressBar> ConsoleProgressBar::ForStandardError() {
  if (!::isatty(STDERR_FILENO)) return nullptr;
  winsize size{};
  int width = ::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : 80;
  // One column short of the edge, so the cursor never wraps to the next line.
  return std::make_shared<ConsoleProgressBar>(STDERR_FILENO, width - 1);
}

void ConsoleProgressBar::onQueryStarted(const QueryStartedEvent& event) {
  std::lock_guard<std::mutex> lock(mutex_);
  runs_[event.run_id] = Run{};
}

void ConsoleProgressBar::onQueryProgress(const QueryProgressEvent& event) {
  std::lock_guard<std::mutex> lock(mutex_);
  const StreamingQueryProgress& progress = event.progress;
  Run& run = runs_[progress.run_id];
  if (!run.first) run.first = progress;
  run.rows += progress.num_input_rows();
  auto fraction = BacklogFractionDone(*run.first, progress);
  if (!fraction) {
    Clear();
    return;
  }
  // Offsets whose integers do not grow steadily (a table version with a file index) must not
  // make the bar step back.
  run.shown_fraction = std::max(run.shown_fraction, *fraction);
  auto now = std::chrono::steady_clock::now();
  if (line_shown_ && now - last_drawn_ < min_interval_) return;
  last_drawn_ = now;

  std::string label = "[" + progress.name.value_or(progress.id.substr(0, 8)) + ": batch " +
                      std::to_string(progress.batch_id) + " ";
  char figures[96];
  double rate = progress.processed_rows_per_second();
  std::snprintf(figures, sizeof(figures), " %3d%% %s rows %s rows/s]",
                static_cast<int>(std::floor(run.shown_fraction * 100)),
                Grouped(run.rows).c_str(),
                Grouped(std::isfinite(rate) ? static_cast<int64_t>(rate) : 0).c_str());
  int bar_width = width_ - static_cast<int>(label.size()) - static_cast<int>(std::strlen(figures));
  if (bar_width < 10) {
    label = "[";
    bar_width = std::max(10, width_ - 1 - static_cast<int>(std::strlen(figures)));
  }
  int filled = static_cast<int>(run.shown_fraction * bar_width);
  std::string bar(static_cast<size_t>(filled), '=');
  if (filled < bar_width) bar += '>';
  bar.resize(static_cast<size_t>(bar_width), ' ');
  Write("\r" + label + bar + figures);
  line_shown_ = true;
}

void ConsoleProgressBar::onQueryTerminated(const QueryTerminatedEvent& event) {
  std::lock_guard<std::mutex> lock(mutex_);
  runs_.erase(event.run_id);
  Clear();
}

void ConsoleProgressBar::Clear() {
  if (!line_shown_) return;
  Write("\r" + std::string(static_cast<size_t>(width_), ' ') + "\r");
  line_shown_ = false;
}

void ConsoleProgressBar::Write(const std::string& text) {
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd_, text.data() + written, text.size() - written);
    if (n <= 0) return;  // a terminal that went away loses the bar, never the query
    written += static_cast<size_t>(n);
  }
}

}  // namespace sluice::execution
