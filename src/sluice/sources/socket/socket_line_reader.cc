#include "sluice/sources/socket/socket_line_reader.h"

#include <netdb.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace sluice::sources {

namespace {

// The length of the well-formed UTF-8 sequence at text[i], or 0 with *bad_length set to the
// bytes of its maximal ill-formed prefix (Unicode's "maximal subpart", which is also what
// Java's decoder replaces by one U+FFFD).
size_t SequenceLength(const std::string& text, size_t i, size_t* bad_length) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    *bad_length = 1;
    return 0;
  }
  for (size_t k = 1; k < length; ++k) {
    const bool in_range = i + k < text.size() && byte(i + k) >= (k == 1 ? low : 0x80) &&
                          byte(i + k) <= (k == 1 ? high : 0xBF);
    if (!in_range) {
      *bad_length = k;
      return 0;
    }
  }
  return length;
}

// `line` with every ill-formed UTF-8 sequence replaced by U+FFFD.
std::string AsValidUtf8(std::string line) {
  std::string repaired;
  bool repairing = false;
  for (size_t i = 0; i < line.size();) {
    size_t length = 1, bad_length = 0;
    if (static_cast<unsigned char>(line[i]) >= 0x80) length = SequenceLength(line, i, &bad_length);
    if (length == 0 && !repairing) {
      repaired.assign(line, 0, i);
      repairing = true;
    }
    if (length == 0) {
      repaired += "\xEF\xBF\xBD";
      i += bad_length;
      continue;
    }
    if (repairing) repaired.append(line, i, length);
    i += length;
  }
  return repairing ? repaired : line;
}

}  // namespace

arrow::Result<std::unique_ptr<SocketLineReader>> SocketLineReader::Connect(
    const std::string& host, int32_t port, const Clock* clock) {
  if (port < 0 || port > 65535) {
    return arrow::Status::Invalid("port out of range:", port, " (option 'port')");
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* addresses = nullptr;
  const std::string service = std::to_string(port);
  if (int error = getaddrinfo(host.c_str(), service.c_str(), &hints, &addresses); error != 0) {
    return arrow::Status::IOError("Unknown host ", host, ": ", gai_strerror(error),
                                  " (socket source option 'host')");
  }
  int last_error = 0;
  for (addrinfo* address = addresses; address != nullptr; address = address->ai_next) {
    int fd = socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC,
                    address->ai_protocol);
    if (fd < 0) {
      last_error = errno;
      continue;
    }
    if (connect(fd, address->ai_addr, address->ai_addrlen) == 0) {
      freeaddrinfo(addresses);
      std::unique_ptr<SocketLineReader> reader(new SocketLineReader(fd, clock));
      reader->thread_ = std::thread([raw = reader.get()] { raw->ReadUntilClosed(); });
      return reader;
    }
    last_error = errno;
    close(fd);
  }
  freeaddrinfo(addresses);
  return arrow::Status::IOError(std::strerror(last_error), ": cannot connect the socket source to ",
                                host, ":", port);
}

SocketLineReader::SocketLineReader(int socket, const Clock* clock)
    : socket_(socket), clock_(clock) {}

SocketLineReader::~SocketLineReader() { Stop(); }

void SocketLineReader::Stop() {
  std::call_once(stopped_, [this] {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    // recv() cannot be interrupted otherwise: shutting the socket down makes it return.
    shutdown(socket_, SHUT_RDWR);
    if (thread_.joinable()) thread_.join();
    close(socket_);
  });
}

void SocketLineReader::ReadUntilClosed() {
  std::vector<char> chunk(64 * 1024);
  std::string partial;
  bool after_carriage_return = false;
  while (true) {
    const ssize_t received = recv(socket_, chunk.data(), chunk.size(), 0);
    if (received < 0 && errno == EINTR) continue;
    if (received <= 0) break;
    std::vector<std::string> lines;
    for (ssize_t i = 0; i < received; ++i) {
      const char c = chunk[i];
      // "\r\n" is one line end, so a "\n" right after a "\r" ends nothing.
      if (after_carriage_return && c == '\n') {
        after_carriage_return = false;
        continue;
      }
      after_carriage_return = c == '\r';
      if (c == '\n' || c == '\r') {
        lines.push_back(AsValidUtf8(std::move(partial)));
        partial.clear();
      } else {
        partial.push_back(c);
      }
    }
    Deliver(std::move(lines));
  }
  // The server closed the connection: an unterminated last line still counts, as readLine
  // returns it. Not so when the query stopped the source.
  if (!partial.empty()) Deliver({AsValidUtf8(std::move(partial))});
}

void SocketLineReader::Deliver(std::vector<std::string> lines) {
  if (lines.empty()) return;
  const int64_t now_micros = clock_->NowMillis() * 1000;
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  for (auto& line : lines) buffered_.push_back(ReceivedLine{std::move(line), now_micros});
}

int64_t SocketLineReader::lines_received() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return first_buffered_ + static_cast<int64_t>(buffered_.size());
}

std::vector<ReceivedLine> SocketLineReader::Lines(int64_t from, int64_t to) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const int64_t end = first_buffered_ + static_cast<int64_t>(buffered_.size());
  from = std::max(from, first_buffered_);
  to = std::min(to, end);
  if (from >= to) return {};
  return std::vector<ReceivedLine>(buffered_.begin() + (from - first_buffered_),
                                   buffered_.begin() + (to - first_buffered_));
}

void SocketLineReader::ForgetBefore(int64_t line_number) {
  std::lock_guard<std::mutex> lock(mutex_);
  while (!buffered_.empty() && first_buffered_ < line_number) {
    buffered_.pop_front();
    ++first_buffered_;
  }
}

}  // namespace sluice::sources
