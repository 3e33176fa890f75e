import pickle

import pytest

from sluice.errors import PySparkValueError
from sluice.sql import Row
from sluice.sql.types import (ArrayType, DecimalType, IntegerType, LongType, MapType, StringType,
                              StructField, StructType, TimestampType, _parse_datatype_string)


def test_struct_type_building_and_access():
    schema = StructType().add("a", IntegerType()).add("b", "string", False)
    assert schema.names == ["a", "b"]
    assert schema["b"] == StructField("b", StringType(), False)
    assert schema[0].dataType == IntegerType()
    assert len(schema) == 2
    assert schema.simpleString() == "struct<a:int,b:string>"
    assert repr(schema) == ("StructType([StructField('a', IntegerType(), True), "
                            "StructField('b', StringType(), False)])")


def test_ddl_strings():
    assert _parse_datatype_string("a INT, b ARRAY<STRING>") == StructType(
        [StructField("a", IntegerType()), StructField("b", ArrayType(StringType()))])
    assert _parse_datatype_string("map<string,bigint>") == MapType(StringType(), LongType())
    assert _parse_datatype_string("decimal(10,2)") == DecimalType(10, 2)
    assert TimestampType().simpleString() == "timestamp"


def test_tree_string():
    schema = StructType([StructField("a", ArrayType(IntegerType(), False))])
    assert schema.treeString() == ("root\n |-- a: array (nullable = true)\n"
                                   " |    |-- element: integer (containsNull = false)\n")


def test_row_behaves_like_pyspark():
    row = Row(name="ann", age=3)
    assert row.name == "ann" and row["age"] == 3 and row[0] == "ann"
    assert "name" in row
    assert row == ("ann", 3)
    assert repr(row) == "Row(name='ann', age=3)"
    assert row.asDict() == {"name": "ann", "age": 3}
    Person = Row("name", "age")
    assert Person("bob", 5).age == 5
    assert pickle.loads(pickle.dumps(row)).asDict() == row.asDict()
    with pytest.raises(AttributeError):
        row.missing
    with pytest.raises(PySparkValueError):
        Row(1, a=2)
