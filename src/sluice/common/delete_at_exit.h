// Folders deleted when the process exits, as Spark deletes the temporary folders it makes
// (Utils.createTempDir) when the JVM shuts down.
#pragma once

#include <string>

namespace sluice {

/// Deletes the folder `path`, with everything in it, when the process exits normally (a
/// return from main or a call of exit, Python's interpreter exit included); a path already
/// gone by then is skipped. Best effort: a kill deletes nothing. Thread-safe.
void DeleteAtExit(std::string path);

}  // namespace sluice
