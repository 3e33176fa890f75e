#pragma once

#include <string>

#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/common/session_config.h"

namespace sluice {

/// Lays out rows as Spark's Dataset.showString does: `rows` holds the values already rendered as
/// strings (nulls print as NULL), possibly one row more than `n` (then the footer says "only
/// showing top n rows"). `truncate_to` > 0 cuts longer cells to that width with "..." and right-
/// aligns cells; 0 left-aligns without cutting. `vertical` prints one "-RECORD i" block per row.
arrow::Result<std::string> FormatShow(const arrow::Table& rows, int n, int truncate_to,
                                      bool vertical);

/// The values of `batches` (of `schema`) as show() renders them before laying them out: each
/// column as a string column by Spark's ToPrettyString (expr::CastKind::kPretty) in the
/// session's time zone, nulls kept as nulls.
arrow::Result<std::shared_ptr<arrow::Table>> RenderShowStrings(
    const arrow::Schema& schema, const arrow::RecordBatchVector& batches,
    const SessionConfig& config);

}  // namespace sluice
