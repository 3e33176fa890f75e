// A TCP connection whose incoming text a background thread splits into lines and buffers, as
// Spark's TextSocketMicroBatchStream does with BufferedReader.readLine: the socket source's
// transport, apart from its offsets and batches.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/common/clock.h"

namespace sluice::sources {

/// One received line: its text (valid UTF-8) and when it arrived, in microseconds.
struct ReceivedLine {
  std::string text;
  int64_t arrival_micros = 0;
};

/// Reads lines from a TCP server until the server closes the connection or Stop() is called.
/// Lines end at "\n", "\r" or "\r\n" (Java's readLine); a last line without an end counts when
/// the server closes the connection. Bytes that are not UTF-8 become U+FFFD, as Java's decoder
/// makes them. Lines are numbered from 0 in arrival order. Thread-safe.
class SocketLineReader {
 public:
  /// Connects to host:port (blocking until connected or refused) and starts the reading
  /// thread. A refused or unreachable server fails with the system's reason and the address.
  static arrow::Result<std::unique_ptr<SocketLineReader>> Connect(const std::string& host,
                                                                  int32_t port,
                                                                  const Clock* clock);
  ~SocketLineReader();

  SocketLineReader(const SocketLineReader&) = delete;
  SocketLineReader& operator=(const SocketLineReader&) = delete;

  /// How many lines have arrived so far (forgotten ones included).
  int64_t lines_received() const;
  /// Copies of the lines numbered [from, to) that are still buffered.
  std::vector<ReceivedLine> Lines(int64_t from, int64_t to) const;
  /// Forgets the lines numbered below `line_number`.
  void ForgetBefore(int64_t line_number);
  /// Closes the connection and waits for the reading thread to end. Idempotent.
  void Stop();

 private:
  SocketLineReader(int socket, const Clock* clock);
  void ReadUntilClosed();
  void Deliver(std::vector<std::string> lines);

  const int socket_;
  const Clock* clock_;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::deque<ReceivedLine> buffered_;
  /// The number of the first buffered line.
  int64_t first_buffered_ = 0;
  bool stopping_ = false;
  std::once_flag stopped_;
};

}  // namespace sluice::sources
