// Expected values computed by Apache Spark 4.0.1 (ANSI mode on).
#include "expr/function_call_harness.h"

namespace sluice::testing {
namespace {

class CollectionFunctionsTest : public FunctionCallTest {};

TEST_F(CollectionFunctionsTest, ArrayConstructor) {
  auto a = Col("int", "[1, 3, null]", "a");
  auto b = Col("int", "[2, null, null]", "b");
  ExpectCall("array", {a, b}, "array<int>", "[[1, 2], [3, null], [null, null]]");
  ExpectCall("array", {a, Lit("int", "1"), Lit("int", "null")}, "array<int>",
             "[[1, 1, null], [3, 1, null], [null, 1, null]]");
  ExpectCall("array", {a, Lit("decimal(2,1)", R"("2.5")")}, "array<decimal(11,1)>",
             R"([["1.0", "2.5"], ["3.0", "2.5"], [null, "2.5"]])");
}

TEST_F(CollectionFunctionsTest, StructConstructors) {
  auto a = Col("int", "[1, null]", "a");
  auto s = Col("string", R"(["x", null])", "s");
  auto result = Call("struct", {a, s});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ((*result)->type()->ToString(), "struct<a: int32, s: string>");
  auto literals = Resolve("struct", {Lit("int", "1"), Lit("string", R"("a")")});
  ASSERT_TRUE(literals.ok());
  EXPECT_EQ((*literals)->type()->field(0)->name(), "col1");
  EXPECT_EQ((*literals)->type()->field(1)->name(), "col2");
  ExpectCall("named_struct", {Lit("string", R"("x")"), a, Lit("string", R"("y")"), s},
             "struct<x:int,y:string>", R"([{"x": 1, "y": "x"}, {"x": null, "y": null}])");
}

TEST_F(CollectionFunctionsTest, MapConstructorChecksKeys) {
  auto a = Col("int", "[1, null]", "a");
  ExpectCall("map", {Lit("string", R"("a")"), a, Lit("string", R"("b")"), Lit("int", "null")},
             "map<string,int>", R"([[["a", 1], ["b", null]], [["a", null], ["b", null]]])");
  ExpectError("map", {Lit("string", R"("k")"), a, Lit("string", R"("k")"), a},
              "DUPLICATED_MAP_KEY");
  ExpectError("map", {Col("string", R"(["x", null])"), a}, "NULL_MAP_KEY");
  ExpectError("map_from_arrays",
              {Lit("array<int>", "[1, 1]"), Lit("array<string>", R"(["a", "b"])")},
              "DUPLICATED_MAP_KEY");
}

TEST_F(CollectionFunctionsTest, SizeAndMapParts) {
  auto arr = Col("array<string>", R"([["1", "2", "3"], [""], null])");
  ExpectCall("size", {arr}, "int", "[3, 1, null]");
  ExpectCall("cardinality", {arr}, "int", "[3, 1, null]");
  Reset();
  auto m = Col("map<string,int>", R"([[["a", 1], ["b", null]], [], null])");
  ExpectCall("map_keys", {m}, "array<string>", R"([["a", "b"], [], null])");
  ExpectCall("map_values", {m}, "array<int>", "[[1, null], [], null]");
  ExpectCall("element_at", {m, Lit("string", R"("b")")}, "int", "[null, null, null]");
  ExpectCall("element_at", {m, Lit("string", R"("a")")}, "int", "[1, null, null]");
  ExpectCall("[]", {m, Lit("string", R"("z")")}, "int", "[null, null, null]");
}

TEST_F(CollectionFunctionsTest, ElementAtAndSubscript) {
  auto arr = Col("array<string>", R"([["1", "2", "3"], ["7", "", "9"], null])");
  ExpectCall("element_at", {arr, Lit("int", "1")}, "string", R"(["1", "7", null])");
  ExpectCall("element_at", {arr, Lit("int", "-1")}, "string", R"(["3", "9", null])");
  ExpectCall("element_at", {arr, Lit("int", "-3")}, "string", R"(["1", "7", null])");
  ExpectCall("[]", {arr, Lit("int", "2")}, "string", R"(["3", "9", null])");
  ExpectError("element_at", {arr, Lit("int", "4")}, "INVALID_ARRAY_INDEX_IN_ELEMENT_AT");
  ExpectError("element_at", {arr, Lit("int", "-4")}, "INVALID_ARRAY_INDEX_IN_ELEMENT_AT");
  ExpectError("element_at", {arr, Lit("int", "0")}, "INVALID_INDEX_OF_ZERO");
  ExpectError("[]", {arr, Lit("int", "3")}, "INVALID_ARRAY_INDEX");
  ExpectError("[]", {arr, Lit("int", "-1")}, "INVALID_ARRAY_INDEX");
  ExpectCall("element_at", {arr, Lit("int", "null")}, "string", "[null, null, null]");
}

TEST_F(CollectionFunctionsTest, OnePartOfASplitIsCutFromTheText) {
  auto s = Col("string", R"(["a/b//c/", "x", "", null])", "s");
  auto split = Resolve("split", {s, Lit("string", R"("/")")});
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  // With a plain-text separator and a literal index, the call reads the text itself: the
  // array of every part is never made.
  auto part = Resolve("get", {*split, Lit("int", "3")});
  ASSERT_TRUE(part.ok()) << part.status().ToString();
  ASSERT_EQ((*part)->children().size(), 1u);
  EXPECT_EQ((*part)->children()[0], s);
  ExpectCall("get", {*split, Lit("int", "0")}, "string", R"(["a", "x", "", null])");
  ExpectCall("get", {*split, Lit("int", "2")}, "string", R"(["", null, null, null])");
  ExpectCall("get", {*split, Lit("int", "4")}, "string", R"(["", null, null, null])");
  ExpectCall("get", {*split, Lit("int", "5")}, "string", "[null, null, null, null]");
  ExpectCall("get", {*split, Lit("int", "-1")}, "string", "[null, null, null, null]");
  ExpectCall("try_element_at", {*split, Lit("int", "-2")}, "string", R"(["c", null, null, null])");
  ExpectCall("try_element_at", {*split, Lit("int", "-5")}, "string",
             R"(["a", null, null, null])");
  ExpectError("[]", {*split, Lit("int", "1")}, "INVALID_ARRAY_INDEX");
  ExpectError("element_at", {*split, Lit("int", "-6")}, "INVALID_ARRAY_INDEX_IN_ELEMENT_AT");
  ExpectError("try_element_at", {*split, Lit("int", "0")}, "INVALID_INDEX_OF_ZERO");
  auto limited = Resolve("split", {s, Lit("string", R"("/")"), Lit("int", "2")});
  ASSERT_TRUE(limited.ok());
  ExpectCall("get", {*limited, Lit("int", "1")}, "string", R"(["b//c/", null, null, null])");
  // A regex separator is split as written: the array, then its element.
  auto regex = Resolve("split", {s, Lit("string", R"("/+")")});
  ASSERT_TRUE(regex.ok());
  auto regex_part = Resolve("get", {*regex, Lit("int", "2")});
  ASSERT_TRUE(regex_part.ok());
  EXPECT_EQ((*regex_part)->children().size(), 2u);
  ExpectCall("get", {*regex, Lit("int", "2")}, "string", R"(["c", null, null, null])");
}

TEST_F(CollectionFunctionsTest, OnePartOfASplitOfLongTexts) {
  // Texts with 64 bytes after their start are cut by their first 64 bytes' separators
  // (PartWithinFirst64); a part whose bounds lie past them, or a text near the end of its
  // buffer, is cut byte by byte: both give the parts a split gives.
  auto s = Col("string", R"([
      "https://www.nexmark.com/abcde/fghij/klmno/item.htm?query=1",
      "https://www.nexmark.com/a/b/c/item.htm?query=1&channel_id=1234567890123456789/x/y",
      "no-separator-at-all-in-this-text-that-is-longer-than-sixty-four-bytes",
      null,
      "a/b"])",
                "s");
  auto split = Resolve("split", {s, Lit("string", R"("/")")});
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  ExpectCall("get", {*split, Lit("int", "0")}, "string",
             R"(["https:", "https:",
                 "no-separator-at-all-in-this-text-that-is-longer-than-sixty-four-bytes",
                 null, "a"])");
  ExpectCall("get", {*split, Lit("int", "3")}, "string", R"(["abcde", "a", null, null, null])");
  ExpectCall("get", {*split, Lit("int", "6")}, "string",
             R"(["item.htm?query=1", "item.htm?query=1&channel_id=1234567890123456789", null,
                 null, null])");
  ExpectCall("get", {*split, Lit("int", "7")}, "string", R"([null, "x", null, null, null])");
  ExpectCall("get", {*split, Lit("int", "9")}, "string", "[null, null, null, null, null]");
  ExpectError("[]", {*split, Lit("int", "7")}, "INVALID_ARRAY_INDEX");
}

TEST_F(CollectionFunctionsTest, ArrayContains) {
  auto a = Col("int", "[1, 1, 1, 1, null]");
  auto b = Col("int", "[2, 2, null, null, null]");
  auto x = Col("int", "[2, 4, 4, 1, null]");
  auto arr_ab = Resolve("array", {a, b});
  ASSERT_TRUE(arr_ab.ok());
  ExpectCall("array_contains", {*arr_ab, x}, "boolean", "[true, false, null, true, null]");
  ExpectCall("array_contains", {*arr_ab, Lit("int", "5")}, "boolean",
             "[false, false, null, null, null]");
}

TEST_F(CollectionFunctionsTest, ArrayTransformations) {
  ExpectCall("array_distinct", {Lit("array<int>", "[1, 2, 1, null, null]")}, "array<int>",
             "[[1, 2, null]]");
  ExpectCall("sort_array", {Lit("array<int>", "[3, null, 1]")}, "array<int>", "[[null, 1, 3]]");
  ExpectCall("sort_array", {Lit("array<int>", "[3, null, 1]"), Lit("boolean", "false")},
             "array<int>", "[[3, 1, null]]");
  ExpectCall("array_sort", {Lit("array<int>", "[3, null, 1]")}, "array<int>", "[[1, 3, null]]");
  ExpectCall("array_join", {Lit("array<string>", R"(["a", null, "b"])"), Lit("string", R"(",")")},
             "string", R"(["a,b"])");
  ExpectCall("array_join",
             {Lit("array<string>", R"(["a", null, "b"])"), Lit("string", R"(",")"),
              Lit("string", R"("N")")},
             "string", R"(["a,N,b"])");
  ExpectCall("array_max", {Lit("array<int>", "[1, 3, null]")}, "int", "[3]");
  ExpectCall("array_min", {Lit("array<int>", "[1, 3, null]")}, "int", "[1]");
  ExpectCall("slice", {Lit("array<int>", "[1, 2, 3, 4]"), Lit("int", "2"), Lit("int", "2")},
             "array<int>", "[[2, 3]]");
  ExpectCall("slice", {Lit("array<int>", "[1, 2, 3, 4]"), Lit("int", "-2"), Lit("int", "5")},
             "array<int>", "[[3, 4]]");
  ExpectError("slice", {Lit("array<int>", "[1, 2, 3]"), Lit("int", "0"), Lit("int", "1")},
              "INVALID_PARAMETER_VALUE.START");
  ExpectCall("flatten", {Lit("array<array<int>>", "[[1, 2], [3]]")}, "array<int>",
             "[[1, 2, 3]]");
  ExpectCall("flatten", {Lit("array<array<int>>", "[[1], null]")}, "array<int>", "[null]");
}

}  // namespace
}  // namespace sluice::testing
