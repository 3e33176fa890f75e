import pytest

from sluice.errors import PySparkValueError
from sluice.sql import Row
from sluice.sql import functions as F
from sluice.sql.types import IntegerType


@pytest.fixture
def nums(spark):
    return spark.createDataFrame([(1, 2.0, "ab"), (4, 0.5, "cd"), (None, None, None)],
                                 "a INT, b DOUBLE, s STRING")


def values(df):
    return [tuple(r) for r in df.collect()]


def test_arithmetic_operators(nums):
    a, b = F.col("a"), F.col("b")
    df = nums.select(a + 1, 1 + a, a - 1, 10 - a, a * 2, 2 * a, a / 2, 8 / a, a % 3, -a)
    assert values(df)[0] == (2, 2, 0, 9, 2, 2, 0.5, 8.0, 1, -1)
    assert values(df)[2] == (None,) * 10
    assert values(nums.select(b ** 2))[0] == (4.0,)


def test_comparison_and_logic(nums):
    a = F.col("a")
    df = nums.select(a == 1, a != 1, a < 2, a <= 1, a > 1, a >= 4, (a > 0) & (a < 2),
                     (a < 0) | (a > 3), ~(a > 1))
    assert values(df)[0] == (True, False, True, True, False, False, True, False, True)
    assert values(df)[1] == (False, True, False, False, True, True, False, True, False)


def test_strings_are_literals_in_operators(nums):
    assert values(nums.filter(F.col("s") == "cd").select("a")) == [(4,)]


def test_predicates(nums):
    a, s = F.col("a"), F.col("s")
    df = nums.select(a.isNull(), a.isNotNull(), a.isin(1, 2), a.isin([4]), a.between(0, 2),
                     s.like("a%"), s.rlike("^c"), s.startswith("a"), s.endswith("d"),
                     s.contains("b"))
    assert values(df)[0] == (False, True, True, False, True, True, False, True, False, True)
    assert values(df)[2][0] is True


def test_alias_cast_and_names(nums):
    df = nums.select(F.col("a").alias("x"), F.col("b").cast("int").alias("bi"),
                     F.col("a").cast(IntegerType()).name("y"))
    assert df.columns == ["x", "bi", "y"]
    assert values(df)[0] == (1, 2, 1)
    assert str(F.col("a") + 1) == "(a + 1)"
    assert repr(F.col("a")) == "Column<'a'>"


def test_when_otherwise(nums):
    a = F.col("a")
    df = nums.select(F.when(a > 2, "big").when(a > 0, "small").otherwise("none").alias("size"))
    assert values(df) == [("small",), ("big",), ("none",)]


def test_items_and_fields(spark):
    df = spark.createDataFrame([([1, 2], {"k": "v"}, Row(f=3))],
                               "arr ARRAY<INT>, m MAP<STRING,STRING>, st STRUCT<f: INT>")
    row = df.select(F.col("arr").getItem(1), F.col("arr")[0], F.col("m")["k"],
                    F.col("st").getField("f"), F.col("st").f).collect()[0]
    assert tuple(row) == (2, 1, "v", 3, 3)


def test_sort_keys(nums):
    assert values(nums.orderBy(F.col("a").desc()).select("a")) == [(4,), (1,), (None,)]
    assert values(nums.orderBy(F.col("a").asc_nulls_last()).select("a")) == [(1,), (4,), (None,)]


def test_column_has_no_truth_value():
    with pytest.raises(PySparkValueError):
        bool(F.col("a") > 1)
    with pytest.raises(PySparkValueError):
        F.col("a") > 1 and F.col("b") > 1
