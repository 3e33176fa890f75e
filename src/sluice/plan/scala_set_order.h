// The order in which Scala 2.13 iterates an immutable Set of strings. Spark turns some name
// lists into a Set and back (dropDuplicates: `colNames.toSet.toSeq`), and the order that comes
// out is recorded in checkpoints: it is the column order of a deduplication's state key.
#pragma once

#include <string>
#include <vector>

namespace sluice::plan {

/// `names` without repeats, in the order `names.toSet.toSeq` gives in Scala 2.13: the order
/// of first appearance for up to four names (Set1 to Set4), else the order of the hash trie
/// (HashSet) holding them, which depends on Java's String.hashCode of each name.
std::vector<std::string> ScalaSetOrder(const std::vector<std::string>& names);

}  // namespace sluice::plan
