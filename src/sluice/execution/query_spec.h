// Everything a streaming query needs to start, gathered by DataStreamWriter.start().
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "sluice/common/clock.h"
#include "sluice/common/session_config.h"
#include "sluice/execution/crash_point.h"
#include "sluice/execution/trigger.h"
#include "sluice/formats/file_format.h"
#include "sluice/plan/logical_plan.h"
#include "sluice/sinks/stream_sink.h"

namespace sluice::execution {

/// One start of a query. Moved into the query; not reused.
struct QuerySpec {
  /// The resolved plan; its streaming leaves are StreamSourceProviders.
  plan::PlanPtr plan;
  /// A copy of the session's settings at start; the checkpoint's pinned settings are
  /// restored over it.
  SessionConfig config;
  std::unique_ptr<sinks::StreamSink> sink;
  sinks::OutputMode output_mode = sinks::OutputMode::kAppend;
  Trigger trigger;
  /// The checkpoint folder.
  std::string checkpoint_root;
  /// True for a checkpoint made up for a sink that needs none (console, memory, noop): it is
  /// deleted when the query stops cleanly, as Spark does.
  bool temporary_checkpoint = false;
  std::optional<std::string> name;
  std::shared_ptr<Clock> clock;
  formats::FormatContext format_context;
  /// Tests only: kills the query at a chosen step.
  CrashHook crash_hook;
};

}  // namespace sluice::execution
