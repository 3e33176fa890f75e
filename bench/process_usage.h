// What the benchmark process has used so far: CPU time over all its threads, and its peak
// resident memory.
#pragma once

#include <sys/resource.h>

namespace sluice::bench {

/// CPU seconds the process has used so far, user and system, over all its threads.
inline double ProcessCpuSeconds() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& time) {
    return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// The process's peak resident memory so far, in MiB.
inline double PeakResidentMegabytes() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace sluice::bench
