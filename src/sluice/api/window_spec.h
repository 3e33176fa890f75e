#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "sluice/api/column.h"

namespace sluice {

/// A window specification, as PySpark's WindowSpec: PARTITION BY, ORDER BY and a frame, used
/// by Column::over(). Immutable: each method returns a new specification.
class WindowSpec {
 public:
  WindowSpec partitionBy(std::vector<Column> columns) const;
  WindowSpec orderBy(std::vector<Column> columns) const;
  /// ROWS BETWEEN start AND end, counted in rows from the current one (negative before it);
  /// Window::unboundedPreceding, Window::currentRow and Window::unboundedFollowing as in Spark.
  WindowSpec rowsBetween(int64_t start, int64_t end) const;
  /// RANGE BETWEEN start AND end, as distances in the single order key's values.
  WindowSpec rangeBetween(int64_t start, int64_t end) const;

  const std::vector<expr::ExprPtr>& partition_by() const { return partition_by_; }
  const std::vector<expr::ExprPtr>& order_by() const { return order_by_; }
  const std::optional<expr::WindowFrame>& frame() const { return frame_; }

 private:
  WindowSpec Between(expr::WindowFrame::Type type, int64_t start, int64_t end) const;

  std::vector<expr::ExprPtr> partition_by_;
  std::vector<expr::ExprPtr> order_by_;
  std::optional<expr::WindowFrame> frame_;
};

/// PySpark's Window: the starting points of window specifications.
struct Window {
  static constexpr int64_t unboundedPreceding = std::numeric_limits<int64_t>::min();
  static constexpr int64_t unboundedFollowing = std::numeric_limits<int64_t>::max();
  static constexpr int64_t currentRow = 0;

  static WindowSpec partitionBy(std::vector<Column> columns) {
    return WindowSpec().partitionBy(std::move(columns));
  }
  static WindowSpec orderBy(std::vector<Column> columns) {
    return WindowSpec().orderBy(std::move(columns));
  }
  static WindowSpec rowsBetween(int64_t start, int64_t end) {
    return WindowSpec().rowsBetween(start, end);
  }
  static WindowSpec rangeBetween(int64_t start, int64_t end) {
    return WindowSpec().rangeBetween(start, end);
  }
};

}  // namespace sluice
