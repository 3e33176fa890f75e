// Expected values computed by Apache Spark 4.0.1 (tests/golden/cases/json.py holds more).
#include "expr/function_call_harness.h"

namespace sluice::testing {
namespace {

class JsonFunctionsTest : public FunctionCallTest {};

TEST_F(JsonFunctionsTest, FromJsonStruct) {
  auto j = Col("string", R"([
      "{\"a\": 1, \"b\": \"x\"}", "{\"a\": \"not a number\", \"b\": \"y\"}",
      "{\"a\": 1.5, \"b\": 2}", "{\"a\": 1, \"a\": 2}", "{\"a\": 1, \"b\": \"x\"",
      "not json", "", "[1, 2]", "null", null])");
  ExpectCall("from_json", {j, Lit("string", R"("a INT, b STRING")")}, "struct<a:int,b:string>",
             R"([{"a": 1, "b": "x"}, {"a": null, "b": "y"}, {"a": null, "b": "2"},
                 {"a": 2, "b": null}, {"a": null, "b": null}, {"a": null, "b": null}, null,
                 {"a": null, "b": null}, {"a": null, "b": null}, null])");
}

TEST_F(JsonFunctionsTest, FromJsonCollections) {
  auto j = Col("string", R"(["[1, 2, null]", "[]", "{\"a\": 1, \"b\": 2}", "[1, \"x\"]", "bad"])");
  ExpectCall("from_json", {j, Lit("string", R"("ARRAY<INT>")")}, "array<int>",
             "[[1, 2, null], [], null, null, null]");
  ExpectCall("from_json", {j, Lit("string", R"("MAP<STRING, INT>")")}, "map<string,int>",
             R"([null, null, [["a", 1], ["b", 2]], null, null])");
}

TEST_F(JsonFunctionsTest, FromJsonNumbersAndBooleans) {
  auto j = Col("string", R"(["{\"b\": true, \"i\": 7, \"d\": 1e3}",
                            "{\"b\": \"true\", \"i\": \"7\", \"d\": \"1.5\"}",
                            "{\"b\": 1, \"i\": 7.0, \"d\": NaN}"])");
  ExpectCall("from_json", {j, Lit("string", R"("b BOOLEAN, i INT, d DOUBLE")")},
             "struct<b:boolean,i:int,d:double>",
             R"([{"b": true, "i": 7, "d": 1000.0}, {"b": null, "i": null, "d": null},
                 {"b": null, "i": null, "d": "NaN"}])");
}

TEST_F(JsonFunctionsTest, GetJsonObject) {
  auto j = Col("string", R"(["{\"a\": 1, \"b\": {\"c\": \"deep\", \"d\": [10, 20, 30]}, \"arr\": [{\"x\": 1}, {\"x\": 2}], \"f\": 1.50, \"n\": null}"])");
  auto get = [&](const std::string& path, const std::string& expected) {
    ExpectCall("get_json_object", {j, Lit("string", "\"" + path + "\"")}, "string", expected);
  };
  get("$.a", R"(["1"])");
  get("$.b.c", R"(["deep"])");
  get("$.b.d[1]", R"(["20"])");
  get("$.b.d", R"(["[10,20,30]"])");
  get("$.arr[*].x", R"(["[1,2]"])");
  get("$.arr[0].x", R"(["1"])");
  get("$.f", R"(["1.5"])");
  get("$.n", "[null]");
  get("$.missing", "[null]");
  get("a", "[null]");
  get("$..a", "[null]");
}

TEST_F(JsonFunctionsTest, ToJson) {
  auto i = Col("int", "[1, null]", "i");
  auto s = Col("string", R"(["x", null])", "s");
  auto st = Resolve("named_struct", {Lit("string", R"("i")"), i, Lit("string", R"("s")"), s});
  ASSERT_TRUE(st.ok());
  ExpectCall("to_json", {*st}, "string", R"(["{\"i\":1,\"s\":\"x\"}", "{}"])");
  auto arr = Resolve("array", {i, Lit("int", "2"), Lit("int", "null")});
  ASSERT_TRUE(arr.ok());
  ExpectCall("to_json", {*arr}, "string", R"(["[1,2,null]", "[null,2,null]"])");
  Reset();
  auto d = Col("double", R"(["NaN", -0.0, 1e-7, 123456789.0, 1e20])", "d");
  auto ds = Resolve("array", {d});
  ASSERT_TRUE(ds.ok());
  ExpectCall("to_json", {*ds}, "string",
             R"(["[\"NaN\"]", "[-0.0]", "[1.0E-7]", "[1.23456789E8]", "[1.0E20]"])");
}

TEST_F(JsonFunctionsTest, ToJsonTimestampsInSessionZone) {
  auto ts = Col("timestamp", "[1704103200123456]", "ts");
  auto st = Resolve("named_struct", {Lit("string", R"("ts")"), ts});
  ASSERT_TRUE(st.ok());
  ExpectCall("to_json", {*st}, "string", R"(["{\"ts\":\"2024-01-01T10:00:00.123Z\"}"])");
  ASSERT_TRUE(config_.Set("spark.sql.session.timeZone", "America/Los_Angeles").ok());
  st = Resolve("named_struct", {Lit("string", R"("ts")"), ts});
  ASSERT_TRUE(st.ok());
  ExpectCall("to_json", {*st}, "string", R"(["{\"ts\":\"2024-01-01T02:00:00.123-08:00\"}"])");
}

}  // namespace
}  // namespace sluice::testing
