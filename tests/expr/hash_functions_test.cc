// Expected values computed by Apache Spark 4.0.1.
#include "expr/function_call_harness.h"

namespace sluice::testing {
namespace {

class HashFunctionsTest : public FunctionCallTest {
 protected:
  // X'0102FF'
  static std::shared_ptr<arrow::Array> Bytes() {
    arrow::BinaryBuilder builder;
    EXPECT_TRUE(builder.Append(std::string("\x01\x02\xff")).ok());
    return builder.Finish().ValueOrDie();
  }
};

TEST_F(HashFunctionsTest, MurmurOfAtomicValues) {
  ExpectCall("hash", {Col("int", "[1, 0, -1, 2147483647, null]")}, "int",
             "[-559580957, 933211791, -1604776387, 133916647, 42]");
  Reset();
  ExpectCall("hash", {Col("bigint", "[1, -5]")}, "int", "[-1712319331, 424949597]");
  Reset();
  ExpectCall("hash", {Col("double", "[1.5, -0.0, 0.0]")}, "int",
             "[1290763749, -1670924195, -1670924195]");
  Reset();
  ExpectCall("hash", {Col("float", "[1.5, 0.0]")}, "int", "[-221251528, 933211791]");
  Reset();
  ExpectCall("hash", {Col("tinyint", "[1]")}, "int", "[-559580957]");
  Reset();
  ExpectCall("hash", {Col("smallint", "[1]")}, "int", "[-559580957]");
  Reset();
  ExpectCall("hash", {Col("boolean", "[true, false]")}, "int", "[-559580957, 933211791]");
}

TEST_F(HashFunctionsTest, MurmurOfStrings) {
  ExpectCall("hash",
             {Col("string", R"(["", "a", "abc", "abcd", "abcde", "hello world", "ü",
                              "日本語テキスト", "0123456789abcdefghijklmnopqrstuvwxyz0123456789"])")},
             "int",
             "[142593372, 1485273170, 1322437556, -396302900, 814637928, -1528836094, "
             "-1098725648, -675756566, -762180863]");
  Reset();
  ExpectCall("hash", {Col("int", "[1, null]"), Col("string", R"(["a", null])")}, "int",
             "[-936062819, 42]");
  Reset();
  ExpectCall("hash", {ColArray(Bytes())}, "int", "[456895484]");
}

TEST_F(HashFunctionsTest, MurmurOfDecimalsDatesAndNested) {
  ExpectCall("hash", {Col("decimal(3,2)", R"(["1.50"])")}, "int", "[-2056712946]");
  Reset();
  ExpectCall("hash", {Col("decimal(38,2)", R"(["12345678901234567890.12"])")}, "int",
             "[-2030013727]");
  Reset();
  ExpectCall("hash", {Col("decimal(20,0)", R"(["-1"])")}, "int", "[1398487324]");
  Reset();
  ExpectCall("hash", {Col("decimal(38,0)", R"(["-128"])")}, "int", "[775851899]");
  Reset();
  ExpectCall("hash", {Col("decimal(30,2)", R"(["127.99"])")}, "int", "[-231003172]");
  Reset();
  ExpectCall("hash", {Col("date", "[19723]")}, "int", "[-456589419]");
  Reset();
  ExpectCall("hash", {Col("timestamp", "[1704067200000000]")}, "int", "[1545358984]");
  Reset();
  ExpectCall("hash", {Col("array<int>", "[[1, 2, 3], [1, null]]")}, "int",
             "[-912918097, -559580957]");
  Reset();
  ExpectCall("hash", {Col("struct<a:int,b:string>", R"([{"a": 1, "b": "x"}])")}, "int",
             "[-1305545736]");
  Reset();
  ExpectCall("hash", {Col("double", R"(["NaN"])")}, "int", "[-1281358385]");
  Reset();
  ExpectCall("hash", {Col("float", R"(["NaN"])")}, "int", "[-349261430]");
}

TEST_F(HashFunctionsTest, XxHash64) {
  ExpectCall("xxhash64", {Col("int", "[1, 0, null]")}, "bigint",
             "[-6698625589789238999, 3614696996920510707, 42]");
  Reset();
  ExpectCall("xxhash64", {Col("bigint", "[1]")}, "bigint", "[-7001672635703045582]");
  Reset();
  ExpectCall("xxhash64", {Col("double", R"([1.5, -0.0, "NaN"])")}, "bigint",
             "[7738255526519901366, -5252525462095825812, -3127944061524951246]");
  Reset();
  ExpectCall("xxhash64",
             {Col("string", R"(["", "a", "abc", "abcdefgh", "hello world",
                              "0123456789abcdefghijklmnopqrstuvwxyz0123456789"])")},
             "bigint",
             "[-7444071767201028348, -8582455328737087284, 1423657621850124518, "
             "2470326616177429180, 7620854247404556961, 5396364714218335326]");
  Reset();
  ExpectCall("xxhash64", {Col("int", "[1]"), Col("string", R"(["a"])")}, "bigint",
             "[8205864924878002737]");
  Reset();
  ExpectCall("xxhash64", {Col("decimal(3,2)", R"(["1.50"])")}, "bigint",
             "[-6873856301616164681]");
  Reset();
  ExpectCall("xxhash64", {Col("decimal(38,2)", R"(["12345678901234567890.12"])")}, "bigint",
             "[4252983850546716758]");
  Reset();
  ExpectCall("xxhash64", {Col("date", "[19723]")}, "bigint", "[3242891694566951137]");
  Reset();
  ExpectCall("xxhash64", {Col("array<int>", "[[1, 2]]")}, "bigint",
             "[-8133857028838179022]");
  Reset();
  ExpectCall("xxhash64", {Col("float", "[1.5]")}, "bigint", "[6163473420726370430]");
  Reset();
  ExpectCall("xxhash64", {ColArray(Bytes())}, "bigint",
             "[-7261190845588930587]");
  Reset();
  ExpectCall("xxhash64", {Col("boolean", "[true]")}, "bigint", "[-6698625589789238999]");
}

TEST_F(HashFunctionsTest, HashRejectsMaps) {
  auto result = Resolve("hash", {Col("map<string,int>", R"([[["a", 1]]])")});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(ErrorClassOf(result.status()).value_or(""), "DATATYPE_MISMATCH.HASH_MAP_TYPE");
}

TEST_F(HashFunctionsTest, Digests) {
  auto abc = [this] { return Col("string", R"(["abc", null])"); };
  ExpectCall("md5", {abc()}, "string", R"(["900150983cd24fb0d6963f7d28e17f72", null])");
  ExpectCall("sha1", {abc()}, "string",
             R"(["a9993e364706816aba3e25717850c26c9cd0d89d", null])");
  ExpectCall("sha", {abc()}, "string", R"(["a9993e364706816aba3e25717850c26c9cd0d89d", null])");
  ExpectCall("sha2", {abc(), Lit("int", "256")}, "string",
             R"(["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", null])");
  ExpectCall("sha2", {abc(), Lit("int", "0")}, "string",
             R"(["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", null])");
  ExpectCall("sha2", {abc(), Lit("int", "224")}, "string",
             R"(["23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7", null])");
  ExpectCall("sha2", {abc(), Lit("int", "384")}, "string",
             R"(["cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7", null])");
  ExpectCall("sha2", {abc(), Lit("int", "512")}, "string",
             R"(["ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f", null])");
  ExpectCall("sha2", {abc(), Lit("int", "1")}, "string", "[null, null]");
  ExpectCall("crc32", {abc()}, "bigint", "[891568578, null]");
  Reset();
  ExpectCall("md5", {Col("binary", R"(["\u0000"])")}, "string",
             R"(["93b885adfe0da089cdf634904fd59f71"])");
  Reset();
  ExpectCall("crc32", {Col("binary", R"([""])")}, "bigint", "[0]");
}

}  // namespace
}  // namespace sluice::testing
