#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sluice/api/column.h"

/// Spark's built-in functions under PySpark's names (pyspark.sql.functions), each building a
/// Column; resolution and type checks happen when a DataFrame uses the column. Strings passed
/// where PySpark takes a column are column names; use lit() for a string value.
namespace sluice::functions {

Column col(const std::string& name);
Column column(const std::string& name);
Column lit(const char* value);
Column lit(const std::string& value);
Column lit(int value);
Column lit(int64_t value);
Column lit(double value);
Column lit(bool value);
/// A typed null, e.g. lit_null("string").
Column lit_null(const std::string& type_name);
/// A Spark SQL expression, parsed: expr("a + 1 AS b").
Column expr(const std::string& text);
/// Calls a built-in function by its SQL name, for functions without a wrapper here.
Column call_function(const std::string& name, std::vector<Column> args);

Column when(const Column& condition, const Column& value);
Column nvl(const Column& value, const Column& replacement);
Column ifnull(const Column& value, const Column& replacement);
Column concat_ws(const std::string& separator, std::vector<Column> columns);
Column substring(const Column& str, int position, int length);
Column split(const Column& str, const std::string& pattern, int limit = -1);
Column regexp_extract(const Column& str, const std::string& pattern, int index);
Column regexp_replace(const Column& str, const std::string& pattern, const std::string& replacement);
Column lpad(const Column& str, int length, const std::string& pad);
Column rpad(const Column& str, int length, const std::string& pad);
Column format_string(const std::string& format, std::vector<Column> columns);
Column current_timestamp();
/// The time window [start, end) containing each row's `time` (timestamp or timestamp_ntz), as a
/// struct<start, end> column named `window`. Durations are interval strings ("10 minutes");
/// windows start at multiples of `slide_duration` (default: the window duration, tumbling
/// windows) shifted by `start_time`. A sliding window (slide shorter than the window) puts each
/// row into every window containing its time; rows with a null time are dropped. Usable in
/// select / withColumn and as a groupBy key, as in Spark.
Column window(const Column& time, const std::string& window_duration);
Column window(const Column& time, const std::string& window_duration,
              const std::string& slide_duration, const std::string& start_time = "0 seconds");
/// The event time of a window column produced by window(): its end minus one microsecond.
Column window_time(const Column& window_column);
/// The session window of each row's `time` (timestamp, timestamp_ntz, or a window column, whose
/// window_time is used), as a struct<start, end> column named `session_window`: [time,
/// time + gap) for a row alone. As a groupBy key, the sessions of a key that overlap or touch
/// merge into one [earliest start, latest end). The gap is an interval string ("5 minutes"), or
/// a string column for a gap per row; rows with a null time or a gap that is null, unparsable
/// or not positive are dropped. As in Spark, usable in select / withColumn and groupBy.
Column session_window(const Column& time, const std::string& gap_duration);
Column session_window(const Column& time, const char* gap_duration);  // the string, not a column
Column session_window(const Column& time, const Column& gap_duration);
Column current_date();
Column to_timestamp(const Column& value);
Column to_timestamp(const Column& value, const std::string& format);
Column to_date(const Column& value);
Column to_date(const Column& value, const std::string& format);
Column date_format(const Column& value, const std::string& format);
Column date_trunc(const std::string& unit, const Column& value);
Column unix_timestamp();
Column unix_timestamp(const Column& value);
Column unix_timestamp(const Column& value, const std::string& format);
Column from_unixtime(const Column& seconds, const std::string& format = "yyyy-MM-dd HH:mm:ss");
/// Parses JSON text with a schema given in DDL form ("a INT, b STRING") or as a type.
Column from_json(const Column& json, const std::string& schema);
Column get_json_object(const Column& json, const std::string& path);
Column sha2(const Column& value, int bits);
Column round(const Column& value, int scale = 0);
Column bround(const Column& value, int scale = 0);
Column pow(const Column& base, const Column& exponent);
Column log(const Column& value);
Column log(double base, const Column& value);

// Aggregates.
Column count(const Column& value);
Column sum(const Column& value);
Column avg(const Column& value);
Column mean(const Column& value);
Column min(const Column& value);
Column max(const Column& value);
Column first(const Column& value, bool ignore_nulls = false);
Column last(const Column& value, bool ignore_nulls = false);
Column count_if(const Column& condition);
/// The value of `value` in the row with the largest (smallest) `ordering`; null orderings are
/// skipped.
Column max_by(const Column& value, const Column& ordering);
Column min_by(const Column& value, const Column& ordering);
Column collect_list(const Column& value);
Column collect_set(const Column& value);
Column stddev(const Column& value);
Column stddev_samp(const Column& value);
Column stddev_pop(const Column& value);
Column variance(const Column& value);
Column var_samp(const Column& value);
Column var_pop(const Column& value);
Column countDistinct(std::vector<Column> columns);
Column count_distinct(std::vector<Column> columns);
Column approx_count_distinct(const Column& value, double relative_sd = 0.05);

// Window functions, computed with over().
Column row_number();
Column rank();
Column dense_rank();
Column percent_rank();
Column cume_dist();
Column ntile(int buckets);
/// The value `offset` rows before (lag) or after (lead) the current row in its partition, or
/// `default_value` where there is none.
Column lag(const Column& value, int offset = 1);
Column lag(const Column& value, int offset, const Column& default_value, bool ignore_nulls = false);
Column lead(const Column& value, int offset = 1);
Column lead(const Column& value, int offset, const Column& default_value,
            bool ignore_nulls = false);
Column nth_value(const Column& value, int64_t offset, bool ignore_nulls = false);

// Sort keys.
Column asc(const std::string& name);
Column desc(const std::string& name);

// Functions that take columns only.
Column upper(const Column& e);
Column lower(const Column& e);
Column trim(const Column& e);
Column ltrim(const Column& e);
Column rtrim(const Column& e);
Column length(const Column& e);
Column isnull(const Column& e);
Column isnotnull(const Column& e);
Column isnan(const Column& e);
Column year(const Column& e);
Column month(const Column& e);
Column dayofmonth(const Column& e);
Column hour(const Column& e);
Column minute(const Column& e);
Column second(const Column& e);
Column dayofweek(const Column& e);
Column dayofyear(const Column& e);
Column weekofyear(const Column& e);
Column quarter(const Column& e);
Column to_json(const Column& e);
Column explode(const Column& e);
Column explode_outer(const Column& e);
Column size(const Column& e);
Column map_keys(const Column& e);
Column map_values(const Column& e);
Column md5(const Column& e);
Column sha1(const Column& e);
Column crc32(const Column& e);
Column abs(const Column& e);
Column floor(const Column& e);
Column ceil(const Column& e);
Column sqrt(const Column& e);
Column log10(const Column& e);
Column log2(const Column& e);
Column exp(const Column& e);
Column ln(const Column& e);
Column timestamp_seconds(const Column& e);
Column reverse(const Column& e);
Column initcap(const Column& e);
Column ascii(const Column& e);
Column base64(const Column& e);
Column unbase64(const Column& e);
Column hex(const Column& e);
Column unhex(const Column& e);
Column signum(const Column& e);
Column sin(const Column& e);
Column cos(const Column& e);
Column tan(const Column& e);
Column asin(const Column& e);
Column acos(const Column& e);
Column atan(const Column& e);
Column degrees(const Column& e);
Column radians(const Column& e);
Column posexplode(const Column& e);
Column nanvl(const Column& a, const Column& b);
Column instr(const Column& a, const Column& b);
Column datediff(const Column& a, const Column& b);
Column date_add(const Column& a, const Column& b);
Column date_sub(const Column& a, const Column& b);
Column pmod(const Column& a, const Column& b);
Column array_contains(const Column& a, const Column& b);
Column element_at(const Column& a, const Column& b);
Column months_between(const Column& a, const Column& b);
Column add_months(const Column& a, const Column& b);
Column concat(std::vector<Column> columns);
Column array(std::vector<Column> columns);
Column struct_(std::vector<Column> columns);
Column create_map(std::vector<Column> columns);
Column greatest(std::vector<Column> columns);
Column least(std::vector<Column> columns);
Column hash(std::vector<Column> columns);
Column xxhash64(std::vector<Column> columns);
Column coalesce(std::vector<Column> columns);
}  // namespace sluice::functions
