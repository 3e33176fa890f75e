// A source's own account of how far it is through a fixed backlog.
#pragma once

#include <cstdint>

namespace sluice::sources {

/// How far a source is through a backlog fixed at the start of a run (an availableNow run's
/// files), for sources whose offsets cannot tell (a file source's offsets count log entries,
/// not files, and Spark reports no latest offset for it). Not part of Spark's progress JSON.
struct SourceBacklog {
  int64_t done = 0;
  int64_t total = 0;
};

}  // namespace sluice::sources
