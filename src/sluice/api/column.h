#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "sluice/expr/expression.h"

namespace sluice {

class WindowSpec;

/// The public C++ API (this folder) uses PySpark's names verbatim (withColumn, isNull, groupBy),
/// so a PySpark user reads it without a manual; everything below api/ follows the style guide.
///
/// A column expression, as PySpark's Column: built with col(), lit() and the functions, combined
/// with operators, and resolved when a DataFrame uses it. Cheap to copy; immutable.
class Column {
 public:
  explicit Column(expr::ExprPtr expr) : expr_(std::move(expr)) {}
  /// A column by name, like col(name): "a", "t.a", "s.field", "*", "t.*".
  Column(const char* name);         // NOLINT: implicit, as PySpark accepts names for columns
  Column(const std::string& name);  // NOLINT
  /// Numbers and booleans become literals, so `col("a") + 1` reads as in PySpark. Strings are
  /// column names; use lit("text") for a string literal.
  Column(int value);      // NOLINT
  Column(int64_t value);  // NOLINT
  Column(double value);   // NOLINT
  Column(bool value);     // NOLINT

  const expr::ExprPtr& expr() const { return expr_; }
  /// Spark's name for the column when it has no alias, e.g. "(a + 1)".
  std::string ToString() const { return expr_->ToString(); }

  Column alias(const std::string& name) const;
  Column as(const std::string& name) const { return alias(name); }
  Column name(const std::string& name) const { return alias(name); }
  /// CAST to a Spark type given by name ("bigint", "decimal(10,2)", "array<string>").
  Column cast(const std::string& type_name) const;
  Column cast(std::shared_ptr<arrow::DataType> type) const;
  Column try_cast(const std::string& type_name) const;

  Column isNull() const;
  Column isNotNull() const;
  Column isNaN() const;
  Column isin(std::vector<Column> values) const;
  Column between(const Column& low, const Column& high) const;
  Column like(const std::string& pattern) const;
  Column ilike(const std::string& pattern) const;
  Column rlike(const std::string& pattern) const;
  Column startswith(const Column& prefix) const;
  Column endswith(const Column& suffix) const;
  Column contains(const Column& other) const;
  Column substr(const Column& position, const Column& length) const;
  Column eqNullSafe(const Column& other) const;
  /// `array[index]` (0-based) or `map[key]`.
  Column getItem(const Column& key) const;
  Column getField(const std::string& name) const;
  Column operator[](const Column& key) const { return getItem(key); }

  /// CASE WHEN chained on a column made by functions::When.
  Column when(const Column& condition, const Column& value) const;
  Column otherwise(const Column& value) const;

  Column asc() const;
  Column asc_nulls_first() const;
  Column asc_nulls_last() const;
  Column desc() const;
  Column desc_nulls_first() const;
  Column desc_nulls_last() const;

  /// This ranking, offset or aggregate function computed over a window (PySpark's over()).
  Column over(const WindowSpec& window) const;
  /// Over the whole input as one partition.
  Column over() const;

  Column bitwiseAND(const Column& other) const;
  Column bitwiseOR(const Column& other) const;
  Column bitwiseXOR(const Column& other) const;

 private:
  expr::ExprPtr expr_;
};

Column operator+(const Column& a, const Column& b);
Column operator-(const Column& a, const Column& b);
Column operator*(const Column& a, const Column& b);
Column operator/(const Column& a, const Column& b);
Column operator%(const Column& a, const Column& b);
Column operator-(const Column& a);
Column operator==(const Column& a, const Column& b);
Column operator!=(const Column& a, const Column& b);
Column operator<(const Column& a, const Column& b);
Column operator<=(const Column& a, const Column& b);
Column operator>(const Column& a, const Column& b);
Column operator>=(const Column& a, const Column& b);
/// AND / OR / NOT with Spark's three-valued logic (PySpark's &, |, ~).
Column operator&&(const Column& a, const Column& b);
Column operator||(const Column& a, const Column& b);
Column operator!(const Column& a);

}  // namespace sluice
