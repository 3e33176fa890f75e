// Independent tasks of one Delta operation (a MERGE's scans and rewrites), run on the cores.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include <arrow/status.h>

namespace sluice::delta {

/// The number of cores, at least 1.
size_t Cores();

/// Runs `tasks` on up to one thread per core (the calling thread among them); each task runs
/// once. Returns the error of the first task, in order, that failed; once one failed, tasks
/// not yet started are skipped.
arrow::Status RunInParallel(const std::vector<std::function<arrow::Status()>>& tasks);

}  // namespace sluice::delta
