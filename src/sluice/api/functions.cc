#include "sluice/api/functions.h"

#include <arrow/scalar.h>

#include "sluice/sql/expression_parser.h"
#include "sluice/types/ddl_parser.h"

namespace sluice::functions {

namespace {

Column Call(std::string name, std::vector<Column> args) {
  std::vector<expr::ExprPtr> exprs;
  exprs.reserve(args.size());
  for (const auto& arg : args) exprs.push_back(arg.expr());
  return Column(expr::CallFunction(std::move(name), std::move(exprs)));
}

Column Aggregate(std::string name, std::vector<Column> args, bool distinct = false) {
  std::vector<expr::ExprPtr> exprs;
  for (const auto& arg : args) exprs.push_back(arg.expr());
  return Column(expr::CallFunction(std::move(name), std::move(exprs), distinct));
}

}  // namespace

Column col(const std::string& name) { return Column(name); }
Column column(const std::string& name) { return Column(name); }
Column lit(const char* value) { return lit(std::string(value)); }
Column lit(const std::string& value) {
  return Column(expr::Lit(std::make_shared<arrow::StringScalar>(value)));
}
Column lit(int value) { return Column(value); }
Column lit(int64_t value) { return Column(value); }
Column lit(double value) { return Column(value); }
Column lit(bool value) { return Column(value); }

Column lit_null(const std::string& type_name) {
  auto type = types::ParseDataType(type_name);
  if (!type.ok()) return Column(std::make_shared<expr::InvalidExpr>(type.status(), "NULL"));
  return Column(expr::Lit(arrow::MakeNullScalar(*type)));
}

Column expr(const std::string& text) {
  auto parsed = sql::ParseExpression(text);
  if (!parsed.ok()) return Column(std::make_shared<expr::InvalidExpr>(parsed.status(), text));
  return Column(*parsed);
}

Column call_function(const std::string& name, std::vector<Column> args) {
  return Call(name, std::move(args));
}

Column when(const Column& condition, const Column& value) {
  return Column(std::make_shared<expr::CaseWhen>(
      std::vector<std::pair<expr::ExprPtr, expr::ExprPtr>>{{condition.expr(), value.expr()}},
      nullptr));
}
Column nvl(const Column& value, const Column& replacement) {
  return Call("nvl", {value, replacement});
}
Column ifnull(const Column& value, const Column& replacement) {
  return Call("ifnull", {value, replacement});
}
Column concat_ws(const std::string& separator, std::vector<Column> columns) {
  columns.insert(columns.begin(), lit(separator));
  return Call("concat_ws", std::move(columns));
}
Column substring(const Column& str, int position, int length) {
  return Call("substring", {str, lit(position), lit(length)});
}
Column split(const Column& str, const std::string& pattern, int limit) {
  return Call("split", {str, lit(pattern), lit(limit)});
}
Column regexp_extract(const Column& str, const std::string& pattern, int index) {
  return Call("regexp_extract", {str, lit(pattern), lit(index)});
}
Column regexp_replace(const Column& str, const std::string& pattern,
                      const std::string& replacement) {
  return Call("regexp_replace", {str, lit(pattern), lit(replacement)});
}
Column lpad(const Column& str, int length, const std::string& pad) {
  return Call("lpad", {str, lit(length), lit(pad)});
}
Column rpad(const Column& str, int length, const std::string& pad) {
  return Call("rpad", {str, lit(length), lit(pad)});
}
Column format_string(const std::string& format, std::vector<Column> columns) {
  columns.insert(columns.begin(), lit(format));
  return Call("format_string", std::move(columns));
}
Column current_timestamp() { return Call("current_timestamp", {}); }
Column window(const Column& time, const std::string& window_duration) {
  return Call("window", {time, lit(window_duration)});
}
Column window(const Column& time, const std::string& window_duration,
              const std::string& slide_duration, const std::string& start_time) {
  return Call("window", {time, lit(window_duration), lit(slide_duration), lit(start_time)});
}
Column window_time(const Column& window_column) { return Call("window_time", {window_column}); }
Column session_window(const Column& time, const std::string& gap_duration) {
  return Call("session_window", {time, lit(gap_duration)});
}
Column session_window(const Column& time, const char* gap_duration) {
  return session_window(time, std::string(gap_duration));
}
Column session_window(const Column& time, const Column& gap_duration) {
  return Call("session_window", {time, gap_duration});
}
Column current_date() { return Call("current_date", {}); }
Column to_timestamp(const Column& value) { return Call("to_timestamp", {value}); }
Column to_timestamp(const Column& value, const std::string& format) {
  return Call("to_timestamp", {value, lit(format)});
}
Column to_date(const Column& value) { return Call("to_date", {value}); }
Column to_date(const Column& value, const std::string& format) {
  return Call("to_date", {value, lit(format)});
}
Column date_format(const Column& value, const std::string& format) {
  return Call("date_format", {value, lit(format)});
}
Column date_trunc(const std::string& unit, const Column& value) {
  return Call("date_trunc", {lit(unit), value});
}
Column unix_timestamp() { return Call("unix_timestamp", {}); }
Column unix_timestamp(const Column& value) { return Call("unix_timestamp", {value}); }
Column unix_timestamp(const Column& value, const std::string& format) {
  return Call("unix_timestamp", {value, lit(format)});
}
Column from_unixtime(const Column& seconds, const std::string& format) {
  return Call("from_unixtime", {seconds, lit(format)});
}
Column from_json(const Column& json, const std::string& schema) {
  return Call("from_json", {json, lit(schema)});
}
Column get_json_object(const Column& json, const std::string& path) {
  return Call("get_json_object", {json, lit(path)});
}
Column sha2(const Column& value, int bits) { return Call("sha2", {value, lit(bits)}); }
Column round(const Column& value, int scale) { return Call("round", {value, lit(scale)}); }
Column bround(const Column& value, int scale) { return Call("bround", {value, lit(scale)}); }
Column pow(const Column& base, const Column& exponent) {
  return Call("power", {base, exponent});
}
Column log(const Column& value) { return Call("ln", {value}); }
Column log(double base, const Column& value) { return Call("log", {lit(base), value}); }

Column count(const Column& value) { return Aggregate("count", {value}); }
Column sum(const Column& value) { return Aggregate("sum", {value}); }
Column avg(const Column& value) { return Aggregate("avg", {value}); }
Column mean(const Column& value) { return Aggregate("avg", {value}); }
Column min(const Column& value) { return Aggregate("min", {value}); }
Column max(const Column& value) { return Aggregate("max", {value}); }
// The flag is passed only when set, so the column is named first(a) as in Spark.
Column first(const Column& value, bool ignore_nulls) {
  return ignore_nulls ? Aggregate("first", {value, lit(true)}) : Aggregate("first", {value});
}
Column last(const Column& value, bool ignore_nulls) {
  return ignore_nulls ? Aggregate("last", {value, lit(true)}) : Aggregate("last", {value});
}
Column count_if(const Column& condition) { return Aggregate("count_if", {condition}); }
Column max_by(const Column& value, const Column& ordering) {
  return Aggregate("max_by", {value, ordering});
}
Column min_by(const Column& value, const Column& ordering) {
  return Aggregate("min_by", {value, ordering});
}
Column row_number() { return Call("row_number", {}); }
Column rank() { return Call("rank", {}); }
Column dense_rank() { return Call("dense_rank", {}); }
Column percent_rank() { return Call("percent_rank", {}); }
Column cume_dist() { return Call("cume_dist", {}); }
Column ntile(int buckets) { return Call("ntile", {lit(buckets)}); }

Column lag(const Column& value, int offset) { return Call("lag", {value, lit(offset)}); }
Column lag(const Column& value, int offset, const Column& default_value, bool ignore_nulls) {
  if (!ignore_nulls) return Call("lag", {value, lit(offset), default_value});
  return Call("lag", {value, lit(offset), default_value, lit(true)});
}
Column lead(const Column& value, int offset) { return Call("lead", {value, lit(offset)}); }
Column lead(const Column& value, int offset, const Column& default_value, bool ignore_nulls) {
  if (!ignore_nulls) return Call("lead", {value, lit(offset), default_value});
  return Call("lead", {value, lit(offset), default_value, lit(true)});
}

Column nth_value(const Column& value, int64_t offset, bool ignore_nulls) {
  if (!ignore_nulls) return Call("nth_value", {value, lit(offset)});
  return Call("nth_value", {value, lit(offset), lit(true)});
}

Column collect_list(const Column& value) { return Aggregate("collect_list", {value}); }
Column collect_set(const Column& value) { return Aggregate("collect_set", {value}); }
Column stddev(const Column& value) { return Aggregate("stddev", {value}); }
Column stddev_samp(const Column& value) { return Aggregate("stddev_samp", {value}); }
Column stddev_pop(const Column& value) { return Aggregate("stddev_pop", {value}); }
Column variance(const Column& value) { return Aggregate("variance", {value}); }
Column var_samp(const Column& value) { return Aggregate("var_samp", {value}); }
Column var_pop(const Column& value) { return Aggregate("var_pop", {value}); }
Column countDistinct(std::vector<Column> columns) {
  return Aggregate("count", std::move(columns), true);
}
Column count_distinct(std::vector<Column> columns) {
  return Aggregate("count", std::move(columns), true);
}
Column approx_count_distinct(const Column& value, double relative_sd) {
  if (relative_sd == 0.05) return Aggregate("approx_count_distinct", {value});
  return Aggregate("approx_count_distinct", {value, lit(relative_sd)});
}

Column asc(const std::string& name) { return Column(name).asc(); }
Column desc(const std::string& name) { return Column(name).desc(); }

Column upper(const Column& e) { return Call("upper", {e}); }
Column lower(const Column& e) { return Call("lower", {e}); }
Column trim(const Column& e) { return Call("trim", {e}); }
Column ltrim(const Column& e) { return Call("ltrim", {e}); }
Column rtrim(const Column& e) { return Call("rtrim", {e}); }
Column length(const Column& e) { return Call("length", {e}); }
Column isnull(const Column& e) { return Call("isnull", {e}); }
Column isnotnull(const Column& e) { return Call("isnotnull", {e}); }
Column isnan(const Column& e) { return Call("isnan", {e}); }
Column year(const Column& e) { return Call("year", {e}); }
Column month(const Column& e) { return Call("month", {e}); }
Column dayofmonth(const Column& e) { return Call("dayofmonth", {e}); }
Column hour(const Column& e) { return Call("hour", {e}); }
Column minute(const Column& e) { return Call("minute", {e}); }
Column second(const Column& e) { return Call("second", {e}); }
Column dayofweek(const Column& e) { return Call("dayofweek", {e}); }
Column dayofyear(const Column& e) { return Call("dayofyear", {e}); }
Column weekofyear(const Column& e) { return Call("weekofyear", {e}); }
Column quarter(const Column& e) { return Call("quarter", {e}); }
Column to_json(const Column& e) { return Call("to_json", {e}); }
Column explode(const Column& e) { return Call("explode", {e}); }
Column explode_outer(const Column& e) { return Call("explode_outer", {e}); }
Column size(const Column& e) { return Call("size", {e}); }
Column map_keys(const Column& e) { return Call("map_keys", {e}); }
Column map_values(const Column& e) { return Call("map_values", {e}); }
Column md5(const Column& e) { return Call("md5", {e}); }
Column sha1(const Column& e) { return Call("sha1", {e}); }
Column crc32(const Column& e) { return Call("crc32", {e}); }
Column abs(const Column& e) { return Call("abs", {e}); }
Column floor(const Column& e) { return Call("floor", {e}); }
Column ceil(const Column& e) { return Call("ceil", {e}); }
Column sqrt(const Column& e) { return Call("sqrt", {e}); }
Column log10(const Column& e) { return Call("log10", {e}); }
Column log2(const Column& e) { return Call("log2", {e}); }
Column exp(const Column& e) { return Call("exp", {e}); }
Column ln(const Column& e) { return Call("ln", {e}); }
Column timestamp_seconds(const Column& e) { return Call("timestamp_seconds", {e}); }
Column reverse(const Column& e) { return Call("reverse", {e}); }
Column initcap(const Column& e) { return Call("initcap", {e}); }
Column ascii(const Column& e) { return Call("ascii", {e}); }
Column base64(const Column& e) { return Call("base64", {e}); }
Column unbase64(const Column& e) { return Call("unbase64", {e}); }
Column hex(const Column& e) { return Call("hex", {e}); }
Column unhex(const Column& e) { return Call("unhex", {e}); }
Column signum(const Column& e) { return Call("signum", {e}); }
Column sin(const Column& e) { return Call("sin", {e}); }
Column cos(const Column& e) { return Call("cos", {e}); }
Column tan(const Column& e) { return Call("tan", {e}); }
Column asin(const Column& e) { return Call("asin", {e}); }
Column acos(const Column& e) { return Call("acos", {e}); }
Column atan(const Column& e) { return Call("atan", {e}); }
Column degrees(const Column& e) { return Call("degrees", {e}); }
Column radians(const Column& e) { return Call("radians", {e}); }
Column posexplode(const Column& e) { return Call("posexplode", {e}); }
Column nanvl(const Column& a, const Column& b) { return Call("nanvl", {a, b}); }
Column instr(const Column& a, const Column& b) { return Call("instr", {a, b}); }
Column datediff(const Column& a, const Column& b) { return Call("datediff", {a, b}); }
Column date_add(const Column& a, const Column& b) { return Call("date_add", {a, b}); }
Column date_sub(const Column& a, const Column& b) { return Call("date_sub", {a, b}); }
Column pmod(const Column& a, const Column& b) { return Call("pmod", {a, b}); }
Column array_contains(const Column& a, const Column& b) { return Call("array_contains", {a, b}); }
Column element_at(const Column& a, const Column& b) { return Call("element_at", {a, b}); }
Column months_between(const Column& a, const Column& b) { return Call("months_between", {a, b}); }
Column add_months(const Column& a, const Column& b) { return Call("add_months", {a, b}); }
Column concat(std::vector<Column> columns) { return Call("concat", std::move(columns)); }
Column array(std::vector<Column> columns) { return Call("array", std::move(columns)); }
Column struct_(std::vector<Column> columns) { return Call("struct", std::move(columns)); }
Column create_map(std::vector<Column> columns) { return Call("map", std::move(columns)); }
Column greatest(std::vector<Column> columns) { return Call("greatest", std::move(columns)); }
Column least(std::vector<Column> columns) { return Call("least", std::move(columns)); }
Column hash(std::vector<Column> columns) { return Call("hash", std::move(columns)); }
Column xxhash64(std::vector<Column> columns) { return Call("xxhash64", std::move(columns)); }
Column coalesce(std::vector<Column> columns) { return Call("coalesce", std::move(columns)); }
}  // namespace sluice::functions
