// How a stream-stream join takes expired rows out of the rows it keeps under one key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sluice::physical {

/// What taking a key's expired rows out of its kept rows (indexes 0 to count - 1) does.
struct KeyRowRemoval {
  /// A move: the row kept at index `from` goes to the hole at index `to`.
  struct Move {
    int64_t to;
    int64_t from;
  };
  /// Each takes the key's last row, whose index is given up: no move's `from` is an index
  /// another move goes `to`, so the rows that move may be taken out before any is put back.
  std::vector<Move> moves;
  /// The other indexes given up, in order: each an expired row that was the key's last.
  std::vector<int64_t> dropped_indexes;
  /// The expired rows, by their position in the `expired_indexes` given, in the order they go.
  std::vector<size_t> removed_rows;
  /// How many rows the key keeps.
  int64_t kept = 0;
};

/// Works out KeyRowRemovals, one key after another, reusing its memory.
class KeyRowRemover {
 public:
  /// Takes the rows at `expired_indexes` (distinct, each below `count`) out of a key's
  /// `count` kept rows as Spark does: each hole takes the key's last row, which is checked in
  /// turn, so the rows left sit at the indexes Spark's would. Valid until the next call.
  const KeyRowRemoval& Remove(int64_t count, std::span<const int64_t> expired_indexes);

 private:
  KeyRowRemoval removal_;
  /// Per position, the index its row was kept at before the removal.
  std::vector<int64_t> kept_at_;
  /// Per index kept before, the position of its row in `expired_indexes`, or -1.
  std::vector<int64_t> expired_row_;
};

}  // namespace sluice::physical
