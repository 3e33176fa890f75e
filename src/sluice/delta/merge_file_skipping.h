// Which files of a MERGE target can hold a row matching the source: the files whose statistics
// (minValues/maxValues) or partition values leave room for one of the source's key values on
// every equality of the merge condition. The others are neither read nor rewritten.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "sluice/delta/delta_actions.h"

namespace sluice::delta {

/// An equality `target column = source column` of a merge condition (a conjunct of it), with
/// the source's values of its column.
struct MergeKey {
  std::string target_column;
  std::shared_ptr<arrow::ChunkedArray> source_values;
};

/// Per file of `files`, false when the file provably holds no row whose value of some key's
/// target column equals one of that key's (non-null) source values. Keys of integer or string
/// columns on both sides are used; files without statistics for a key column, and keys of
/// other types, are kept.
std::vector<bool> FilesThatMayMatch(const std::vector<AddFile>& files,
                                    const std::vector<std::string>& partition_columns,
                                    const std::vector<MergeKey>& keys);

}  // namespace sluice::delta
