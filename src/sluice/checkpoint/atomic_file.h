// Durable, all-or-nothing file writes for checkpoint logs and sink manifests.
#pragma once

#include <string>
#include <string_view>

#include <arrow/result.h>
#include <arrow/status.h>

namespace sluice::checkpoint {

/// Writes `contents` to `path` so that readers see either no file or the whole file, and the
/// file survives a power loss once this returns: a hidden temp file in the same folder is
/// written and fsynced, renamed into place, then the folder is fsynced. Creates missing parent
/// folders. Unless `overwrite`, an existing `path` is left alone and the call fails with
/// AlreadyExists (the rename refuses to replace it, so two writers cannot both win).
arrow::Status WriteFileAtomically(const std::string& path, std::string_view contents,
                                  bool overwrite = false);

/// True if the status is WriteFileAtomically's "the file already exists".
bool IsAlreadyExists(const arrow::Status& status);

/// True if the status is a WriteFileAtomically failure that left the file in place: it was
/// renamed into `path`, then the fsync of its folder failed, so readers may see it though it
/// may not survive a power loss. What the file refers to must then be kept (a Delta commit's
/// data files, for one).
bool IsInPlace(const arrow::Status& status);

/// The whole contents of `path`; IOError naming the file when it cannot be read.
arrow::Result<std::string> ReadWholeFile(const std::string& path);

}  // namespace sluice::checkpoint
