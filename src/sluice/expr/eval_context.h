#pragma once

#include <cstdint>

#include <arrow/memory_pool.h>

#include "sluice/common/recycling_memory_pool.h"
#include "sluice/common/session_config.h"

namespace sluice::expr {

class CallMemos;

/// What an expression may read besides its input batch. Owned by the caller and valid for the
/// duration of the evaluation; read-only, so one context may serve several threads, except
/// for `memos`.
struct EvalContext {
  /// The session settings in force for the query (time zone, ANSI mode).
  const SessionConfig* config = nullptr;
  /// current_timestamp() for this query or micro-batch, in microseconds since the epoch: fixed for
  /// the whole batch so every row and every re-run of the batch sees the same value.
  int64_t batch_timestamp_us = 0;
  /// Where the arrays an evaluation makes are allocated.
  arrow::MemoryPool* pool = BatchMemoryPool();
  /// Where costly calls keep their results per distinct input value (call_memos.h): set only
  /// in a context of one operator's own, which evaluates on one thread at a time.
  CallMemos* memos = nullptr;
};

}  // namespace sluice::expr
