"""Spark's built-in functions under PySpark's names and signatures
(``pyspark.sql.functions``). Arguments named ``col`` take a Column or a column name; numbers and
strings given for other parameters (a position, a pattern, a format) are values."""

from typing import Any, Optional, Union

from sluice import _native
from sluice.sql.column import Column, _flatten, _literal, _to_java_column
from sluice.sql.types import DataType, StructType

ColumnOrName = Union[Column, str]


def _invoke(name: str, *cols: ColumnOrName) -> Column:
    """The SQL function `name` over column arguments (Columns or column names)."""
    return Column(_native.call_function(name, [_to_java_column(c) for c in cols]))


def _invoke_with(name: str, *args: Any) -> Column:
    """The SQL function `name` over already converted native columns."""
    return Column(_native.call_function(name, list(args)))


def _unary(name: str, sql_name: Optional[str] = None):
    def function(col: ColumnOrName) -> Column:
        return _invoke(sql_name or name, col)
    function.__name__ = name
    function.__qualname__ = name
    function.__doc__ = "Spark's %s(col)." % (sql_name or name)
    return function


def _binary(name: str, first: str = "col1", second: str = "col2", sql_name: Optional[str] = None):
    def function(a: Any, b: Any) -> Column:
        return _invoke_with(sql_name or name, _column_or_value(a), _column_or_value(b))
    function.__name__ = name
    function.__qualname__ = name
    function.__doc__ = "Spark's %s(%s, %s)." % (sql_name or name, first, second)
    return function


def _column_or_value(value: Any) -> Any:
    """A Column, a column name, or a number used as a literal (as PySpark's math functions
    take them)."""
    if isinstance(value, (Column, str)):
        return _to_java_column(value)
    return _literal(value)


def _variadic(name: str, sql_name: Optional[str] = None):
    def function(*cols: ColumnOrName) -> Column:
        return _invoke(sql_name or name, *_flatten(cols))
    function.__name__ = name
    function.__qualname__ = name
    function.__doc__ = "Spark's %s(*cols)." % (sql_name or name)
    return function


# ---- Columns, literals and expressions ----

def col(col: str) -> Column:
    """The column named `col` ("a", "t.a", "s.field", "*")."""
    return Column(_native.col(col))


column = col


def lit(col: Any) -> Column:
    """A literal value; a Column is returned as it is."""
    return col if isinstance(col, Column) else Column(_literal(col))


def expr(str: str) -> Column:
    """A Spark SQL expression, parsed: expr("a + 1 AS b")."""
    return Column(_native.expr(str))


def call_function(funcName: str, *cols: ColumnOrName) -> Column:
    """Calls a built-in function by its SQL name."""
    return _invoke(funcName, *cols)


def broadcast(df: Any) -> Any:
    """A join hint; Sluice plans joins itself, so the DataFrame is returned unchanged."""
    return df


def when(condition: Column, value: Any) -> Column:
    return Column(_native.when(condition._jc, _literal(value)))


coalesce = _variadic("coalesce")
greatest = _variadic("greatest")
least = _variadic("least")
concat = _variadic("concat")
array = _variadic("array")
struct = _variadic("struct")
create_map = _variadic("create_map", "map")
named_struct = _variadic("named_struct")
hash = _variadic("hash")
xxhash64 = _variadic("xxhash64")


def concat_ws(sep: str, *cols: ColumnOrName) -> Column:
    return _invoke_with("concat_ws", _literal(sep), *[_to_java_column(c) for c in _flatten(cols)])


def format_string(format: str, *cols: ColumnOrName) -> Column:
    return _invoke_with("format_string", _literal(format),
                        *[_to_java_column(c) for c in _flatten(cols)])


def printf(format: ColumnOrName, *cols: ColumnOrName) -> Column:
    return _invoke("printf", format, *cols)


# ---- Aggregates ----

count = _unary("count")
sum = _unary("sum")
avg = _unary("avg")
mean = _unary("mean", "avg")
min = _unary("min")
max = _unary("max")
count_if = _unary("count_if")


def max_by(col: ColumnOrName, ord: ColumnOrName) -> Column:
    """Spark's max_by(col, ord): col's value in the row with the largest ord."""
    return _invoke("max_by", col, ord)


def min_by(col: ColumnOrName, ord: ColumnOrName) -> Column:
    """Spark's min_by(col, ord): col's value in the row with the smallest ord."""
    return _invoke("min_by", col, ord)
collect_list = _unary("collect_list")
collect_set = _unary("collect_set")
stddev = _unary("stddev")
std = _unary("std", "stddev")
stddev_samp = _unary("stddev_samp")
stddev_pop = _unary("stddev_pop")
variance = _unary("variance")
var_samp = _unary("var_samp")
var_pop = _unary("var_pop")


def first(col: ColumnOrName, ignorenulls: bool = False) -> Column:
    return Column(_native.first(_to_java_column(col), ignorenulls))


def last(col: ColumnOrName, ignorenulls: bool = False) -> Column:
    return Column(_native.last(_to_java_column(col), ignorenulls))


def first_value(col: ColumnOrName, ignoreNulls: Optional[Union[bool, Column]] = None) -> Column:
    if ignoreNulls is None:
        return _invoke("first_value", col)
    return _invoke_with("first_value", _to_java_column(col), _literal(ignoreNulls))


def last_value(col: ColumnOrName, ignoreNulls: Optional[Union[bool, Column]] = None) -> Column:
    if ignoreNulls is None:
        return _invoke("last_value", col)
    return _invoke_with("last_value", _to_java_column(col), _literal(ignoreNulls))


def count_distinct(col: ColumnOrName, *cols: ColumnOrName) -> Column:
    return Column(_native.count_distinct([_to_java_column(c) for c in (col,) + cols]))


countDistinct = count_distinct


def approx_count_distinct(col: ColumnOrName, rsd: Optional[float] = None) -> Column:
    return Column(_native.approx_count_distinct(_to_java_column(col),
                                                0.05 if rsd is None else rsd))


approxCountDistinct = approx_count_distinct

# ---- Arithmetic that gives null instead of failing ----

try_add = _binary("try_add", "left", "right")
try_subtract = _binary("try_subtract", "left", "right")
try_multiply = _binary("try_multiply", "left", "right")
try_divide = _binary("try_divide", "left", "right")


def typeof(col: ColumnOrName) -> Column:
    return _invoke("typeof", col)

# ---- Window functions, computed with Column.over(window) ----


def row_number() -> Column:
    return _invoke("row_number")


def rank() -> Column:
    return _invoke("rank")


def dense_rank() -> Column:
    return _invoke("dense_rank")


def percent_rank() -> Column:
    return _invoke("percent_rank")


def cume_dist() -> Column:
    return _invoke("cume_dist")


def ntile(n: int) -> Column:
    return _invoke_with("ntile", _literal(n))


def _offset_function(name: str, col: ColumnOrName, offset: int, default: Any,
                     ignoreNulls: bool) -> Column:
    args = [_to_java_column(col), _literal(offset), _literal(default)]
    if ignoreNulls:
        args.append(_literal(True))
    return _invoke_with(name, *args)


def lag(col: ColumnOrName, offset: int = 1, default: Optional[Any] = None,
        ignoreNulls: bool = False) -> Column:
    return _offset_function("lag", col, offset, default, ignoreNulls)


def lead(col: ColumnOrName, offset: int = 1, default: Optional[Any] = None,
         ignoreNulls: bool = False) -> Column:
    return _offset_function("lead", col, offset, default, ignoreNulls)


def nth_value(col: ColumnOrName, offset: int, ignoreNulls: Optional[bool] = False) -> Column:
    args = [_to_java_column(col), _literal(offset)]
    if ignoreNulls:
        args.append(_literal(True))
    return _invoke_with("nth_value", *args)

# ---- Sort keys ----


def asc(col: ColumnOrName) -> Column:
    return Column(_to_java_column(col).asc())


def desc(col: ColumnOrName) -> Column:
    return Column(_to_java_column(col).desc())


def asc_nulls_first(col: ColumnOrName) -> Column:
    return Column(_to_java_column(col).asc_nulls_first())


def asc_nulls_last(col: ColumnOrName) -> Column:
    return Column(_to_java_column(col).asc_nulls_last())


def desc_nulls_first(col: ColumnOrName) -> Column:
    return Column(_to_java_column(col).desc_nulls_first())


def desc_nulls_last(col: ColumnOrName) -> Column:
    return Column(_to_java_column(col).desc_nulls_last())


# ---- Math ----

abs = _unary("abs")
acos = _unary("acos")
acosh = _unary("acosh")
asin = _unary("asin")
asinh = _unary("asinh")
atan = _unary("atan")
atanh = _unary("atanh")
cbrt = _unary("cbrt")
cos = _unary("cos")
cosh = _unary("cosh")
cot = _unary("cot")
csc = _unary("csc")
sec = _unary("sec")
degrees = _unary("degrees")
exp = _unary("exp")
expm1 = _unary("expm1")
factorial = _unary("factorial")
ln = _unary("ln")
log10 = _unary("log10")
log1p = _unary("log1p")
log2 = _unary("log2")
radians = _unary("radians")
rint = _unary("rint")
signum = _unary("signum")
sign = _unary("sign")
sin = _unary("sin")
sinh = _unary("sinh")
sqrt = _unary("sqrt")
tan = _unary("tan")
tanh = _unary("tanh")
negative = _unary("negative")
positive = _unary("positive")
bin = _unary("bin")
hex = _unary("hex")
unhex = _unary("unhex")
isnan = _unary("isnan")
isnull = _unary("isnull")
isnotnull = _unary("isnotnull")
atan2 = _binary("atan2")
hypot = _binary("hypot")
pow = _binary("pow", sql_name="power")
power = pow
nanvl = _binary("nanvl")
pmod = _binary("pmod", "dividend", "divisor")


def e() -> Column:
    return _invoke("e")


def pi() -> Column:
    return _invoke("pi")


def round(col: ColumnOrName, scale: int = 0) -> Column:
    return _invoke_with("round", _to_java_column(col), _literal(scale))


def bround(col: ColumnOrName, scale: int = 0) -> Column:
    return _invoke_with("bround", _to_java_column(col), _literal(scale))


def ceil(col: ColumnOrName, scale: Optional[Any] = None) -> Column:
    if scale is None:
        return _invoke("ceil", col)
    return _invoke_with("ceil", _to_java_column(col), _column_or_value(scale))


ceiling = ceil


def floor(col: ColumnOrName, scale: Optional[Any] = None) -> Column:
    if scale is None:
        return _invoke("floor", col)
    return _invoke_with("floor", _to_java_column(col), _column_or_value(scale))


def log(arg1: Union[ColumnOrName, float], arg2: Optional[ColumnOrName] = None) -> Column:
    """log(col) is the natural logarithm; log(base, col) the logarithm in `base`."""
    if arg2 is None:
        return _invoke("ln", arg1)
    return _invoke_with("log", _literal(arg1), _to_java_column(arg2))


def shiftleft(col: ColumnOrName, numBits: int) -> Column:
    return _invoke_with("shiftleft", _to_java_column(col), _literal(numBits))


def shiftright(col: ColumnOrName, numBits: int) -> Column:
    return _invoke_with("shiftright", _to_java_column(col), _literal(numBits))


def shiftrightunsigned(col: ColumnOrName, numBits: int) -> Column:
    return _invoke_with("shiftrightunsigned", _to_java_column(col), _literal(numBits))


def conv(col: ColumnOrName, fromBase: int, toBase: int) -> Column:
    return _invoke_with("conv", _to_java_column(col), _literal(fromBase), _literal(toBase))


# ---- Strings ----

upper = _unary("upper")
lower = _unary("lower")
length = _unary("length")
char_length = _unary("char_length", "length")
octet_length = _unary("octet_length")
bit_length = _unary("bit_length")
initcap = _unary("initcap")
ascii = _unary("ascii")
base64 = _unary("base64")
unbase64 = _unary("unbase64")
reverse = _unary("reverse")
soundex = _unary("soundex")
md5 = _unary("md5")
sha1 = _unary("sha1")
crc32 = _unary("crc32")


def _trim(name: str):
    def function(col: ColumnOrName, trim: Optional[ColumnOrName] = None) -> Column:
        if trim is None:
            return _invoke(name, col)
        return _invoke_with(name, _to_java_column(col), _literal(trim)
                            if isinstance(trim, str) else _to_java_column(trim))
    function.__name__ = name
    function.__qualname__ = name
    return function


trim = _trim("trim")
ltrim = _trim("ltrim")
rtrim = _trim("rtrim")
btrim = _trim("btrim")


def instr(str: ColumnOrName, substr: Union[str, Column]) -> Column:
    return _invoke_with("instr", _to_java_column(str), _literal(substr))


def locate(substr: str, str: ColumnOrName, pos: int = 1) -> Column:
    return _invoke_with("locate", _literal(substr), _to_java_column(str), _literal(pos))


def repeat(col: ColumnOrName, n: Any) -> Column:
    return _invoke_with("repeat", _to_java_column(col), _literal(n))


def substring(str: ColumnOrName, pos: Any, len: Any) -> Column:
    return _invoke_with("substring", _to_java_column(str), _literal(pos), _literal(len))


def substr(str: ColumnOrName, pos: ColumnOrName, len: Optional[ColumnOrName] = None) -> Column:
    if len is None:
        return _invoke("substr", str, pos)
    return _invoke("substr", str, pos, len)


def left(str: ColumnOrName, len: ColumnOrName) -> Column:
    return _invoke("left", str, len)


def right(str: ColumnOrName, len: ColumnOrName) -> Column:
    return _invoke("right", str, len)


def split(str: ColumnOrName, pattern: str, limit: int = -1) -> Column:
    return _invoke_with("split", _to_java_column(str), _literal(pattern), _literal(limit))


def regexp_extract(str: ColumnOrName, pattern: str, idx: int) -> Column:
    return _invoke_with("regexp_extract", _to_java_column(str), _literal(pattern), _literal(idx))


def regexp_extract_all(str: ColumnOrName, regexp: ColumnOrName,
                       idx: Optional[Union[int, Column]] = None) -> Column:
    args = [_to_java_column(str), _to_java_column(regexp)]
    if idx is not None:
        args.append(_literal(idx))
    return _invoke_with("regexp_extract_all", *args)


def regexp_replace(string: ColumnOrName, pattern: Union[str, Column],
                   replacement: Union[str, Column]) -> Column:
    return _invoke_with("regexp_replace", _to_java_column(string), _literal(pattern),
                        _literal(replacement))


def rlike(str: ColumnOrName, regexp: ColumnOrName) -> Column:
    return _invoke("rlike", str, regexp)


def regexp_like(str: ColumnOrName, regexp: ColumnOrName) -> Column:
    return _invoke("regexp_like", str, regexp)


def regexp_count(str: ColumnOrName, regexp: ColumnOrName) -> Column:
    return _invoke("regexp_count", str, regexp)


def lpad(col: ColumnOrName, len: int, pad: str) -> Column:
    return _invoke_with("lpad", _to_java_column(col), _literal(len), _literal(pad))


def rpad(col: ColumnOrName, len: int, pad: str) -> Column:
    return _invoke_with("rpad", _to_java_column(col), _literal(len), _literal(pad))


def translate(srcCol: ColumnOrName, matching: str, replace: str) -> Column:
    return _invoke_with("translate", _to_java_column(srcCol), _literal(matching),
                        _literal(replace))


def levenshtein(left: ColumnOrName, right: ColumnOrName,
                threshold: Optional[int] = None) -> Column:
    if threshold is None:
        return _invoke("levenshtein", left, right)
    return _invoke_with("levenshtein", _to_java_column(left), _to_java_column(right),
                        _literal(threshold))


def startswith(str: ColumnOrName, prefix: ColumnOrName) -> Column:
    return _invoke("startswith", str, prefix)


def endswith(str: ColumnOrName, suffix: ColumnOrName) -> Column:
    return _invoke("endswith", str, suffix)


def contains(left: ColumnOrName, right: ColumnOrName) -> Column:
    return _invoke("contains", left, right)


def sha2(col: ColumnOrName, numBits: int) -> Column:
    return _invoke_with("sha2", _to_java_column(col), _literal(numBits))


# ---- Dates and times ----

year = _unary("year")
month = _unary("month")
day = _unary("day")
dayofmonth = _unary("dayofmonth")
dayofweek = _unary("dayofweek")
dayofyear = _unary("dayofyear")
weekofyear = _unary("weekofyear")
weekday = _unary("weekday")
quarter = _unary("quarter")
hour = _unary("hour")
minute = _unary("minute")
second = _unary("second")
last_day = _unary("last_day")
timestamp_seconds = _unary("timestamp_seconds")
timestamp_millis = _unary("timestamp_millis")
timestamp_micros = _unary("timestamp_micros")
unix_seconds = _unary("unix_seconds")
unix_millis = _unary("unix_millis")
unix_micros = _unary("unix_micros")
unix_date = _unary("unix_date")
date_from_unix_date = _unary("date_from_unix_date")
datediff = _binary("datediff", "end", "start")
date_diff = _binary("date_diff", "end", "start")


def current_date() -> Column:
    return _invoke("current_date")


def current_timestamp() -> Column:
    return _invoke("current_timestamp")


def now() -> Column:
    return _invoke("now")


def localtimestamp() -> Column:
    return _invoke("localtimestamp")


def to_timestamp(col: ColumnOrName, format: Optional[str] = None) -> Column:
    if format is None:
        return _invoke("to_timestamp", col)
    return _invoke_with("to_timestamp", _to_java_column(col), _literal(format))


def to_date(col: ColumnOrName, format: Optional[str] = None) -> Column:
    if format is None:
        return _invoke("to_date", col)
    return _invoke_with("to_date", _to_java_column(col), _literal(format))


def date_format(date: ColumnOrName, format: str) -> Column:
    return _invoke_with("date_format", _to_java_column(date), _literal(format))


def date_trunc(format: str, timestamp: ColumnOrName) -> Column:
    return _invoke_with("date_trunc", _literal(format), _to_java_column(timestamp))


def trunc(date: ColumnOrName, format: str) -> Column:
    return _invoke_with("trunc", _to_java_column(date), _literal(format))


def unix_timestamp(timestamp: Optional[ColumnOrName] = None,
                   format: str = "yyyy-MM-dd HH:mm:ss") -> Column:
    if timestamp is None:
        return _invoke("unix_timestamp")
    return _invoke_with("unix_timestamp", _to_java_column(timestamp), _literal(format))


def from_unixtime(timestamp: ColumnOrName, format: str = "yyyy-MM-dd HH:mm:ss") -> Column:
    return _invoke_with("from_unixtime", _to_java_column(timestamp), _literal(format))


def next_day(date: ColumnOrName, dayOfWeek: str) -> Column:
    return _invoke_with("next_day", _to_java_column(date), _literal(dayOfWeek))


def add_months(start: ColumnOrName, months: Union[ColumnOrName, int]) -> Column:
    return _invoke_with("add_months", _to_java_column(start), _column_or_value(months))


def date_add(start: ColumnOrName, days: Union[ColumnOrName, int]) -> Column:
    return _invoke_with("date_add", _to_java_column(start), _column_or_value(days))


def date_sub(start: ColumnOrName, days: Union[ColumnOrName, int]) -> Column:
    return _invoke_with("date_sub", _to_java_column(start), _column_or_value(days))


def months_between(date1: ColumnOrName, date2: ColumnOrName, roundOff: bool = True) -> Column:
    return _invoke_with("months_between", _to_java_column(date1), _to_java_column(date2),
                        _literal(roundOff))


def make_date(year: ColumnOrName, month: ColumnOrName, day: ColumnOrName) -> Column:
    return _invoke("make_date", year, month, day)


def from_utc_timestamp(timestamp: ColumnOrName, tz: ColumnOrName) -> Column:
    return _invoke_with("from_utc_timestamp", _to_java_column(timestamp),
                        _literal(tz) if isinstance(tz, str) else _to_java_column(tz))


def to_utc_timestamp(timestamp: ColumnOrName, tz: ColumnOrName) -> Column:
    return _invoke_with("to_utc_timestamp", _to_java_column(timestamp),
                        _literal(tz) if isinstance(tz, str) else _to_java_column(tz))


def window(timeColumn: ColumnOrName, windowDuration: str, slideDuration: Optional[str] = None,
           startTime: Optional[str] = None) -> Column:
    """The time window [start, end) of each row, as a struct<start, end> column named window:
    tumbling, or sliding when slideDuration is given."""
    args = [_to_java_column(timeColumn), _literal(windowDuration)]
    if slideDuration is not None or startTime is not None:
        args.append(_literal(slideDuration or windowDuration))
        args.append(_literal(startTime or "0 seconds"))
    return _invoke_with("window", *args)


def window_time(windowColumn: ColumnOrName) -> Column:
    return _invoke("window_time", windowColumn)


def session_window(timeColumn: ColumnOrName, gapDuration: Union[Column, str]) -> Column:
    gap = _literal(gapDuration) if isinstance(gapDuration, str) else gapDuration._jc
    return _invoke_with("session_window", _to_java_column(timeColumn), gap)


# ---- Collections ----

size = _unary("size")
cardinality = _unary("cardinality")
explode = _unary("explode")
explode_outer = _unary("explode_outer")
posexplode = _unary("posexplode")
map_keys = _unary("map_keys")
map_values = _unary("map_values")
array_distinct = _unary("array_distinct")
array_max = _unary("array_max")
array_min = _unary("array_min")
flatten = _unary("flatten")
map_from_arrays = _binary("map_from_arrays")


def array_contains(col: ColumnOrName, value: Any) -> Column:
    return _invoke_with("array_contains", _to_java_column(col), _literal(value))


def element_at(col: ColumnOrName, extraction: Any) -> Column:
    return _invoke_with("element_at", _to_java_column(col), _literal(extraction))


def try_element_at(col: ColumnOrName, extraction: ColumnOrName) -> Column:
    return _invoke("try_element_at", col, extraction)


def get(col: ColumnOrName, index: Union[ColumnOrName, int]) -> Column:
    return _invoke_with("get", _to_java_column(col), _column_or_value(index))


def sort_array(col: ColumnOrName, asc: bool = True) -> Column:
    return _invoke_with("sort_array", _to_java_column(col), _literal(asc))


def array_join(col: ColumnOrName, delimiter: str, null_replacement: Optional[str] = None) -> Column:
    args = [_to_java_column(col), _literal(delimiter)]
    if null_replacement is not None:
        args.append(_literal(null_replacement))
    return _invoke_with("array_join", *args)


def slice(x: ColumnOrName, start: Union[ColumnOrName, int],
          length: Union[ColumnOrName, int]) -> Column:
    return _invoke_with("slice", _to_java_column(x), _column_or_value(start),
                        _column_or_value(length))


# ---- JSON ----

def _schema_text(schema: Union[DataType, str, Column]) -> Any:
    if isinstance(schema, Column):
        return schema._jc
    if isinstance(schema, DataType):
        return _literal(schema.simpleString())
    return _literal(schema)


def _options_map(options: Optional[dict]) -> list:
    if not options:
        return []
    return [_native.call_function("map", [_literal(x) for kv in options.items()
                                          for x in (kv[0], str(kv[1]))])]


def from_json(col: ColumnOrName, schema: Union[DataType, str, Column],
              options: Optional[dict] = None) -> Column:
    """Parses JSON text with a schema (a StructType, a DDL string or a type string)."""
    return _invoke_with("from_json", _to_java_column(col), _schema_text(schema),
                        *_options_map(options))


def to_json(col: ColumnOrName, options: Optional[dict] = None) -> Column:
    return _invoke_with("to_json", _to_java_column(col), *_options_map(options))


def get_json_object(col: ColumnOrName, path: str) -> Column:
    return _invoke_with("get_json_object", _to_java_column(col), _literal(path))
