// Equality of a string column with a literal, whose kernel reads each row's words whatever its
// length: against the values compared one by one, over sliced columns, nulls, rows at the end
// of the column's bytes (with fewer bytes after them than the literal has) and literals of
// every length a word path takes or leaves.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "expr/function_call_harness.h"

namespace sluice::testing {
namespace {

class StringEqualityTest : public FunctionCallTest {};

TEST_F(StringEqualityTest, ColumnEqualsLiteralAsValueByValue) {
  std::mt19937 random(7);
  const std::string word = "abcdefghijklmnopqrs";
  for (int trial = 0; trial < 200; ++trial) {
    // Prefixes of one word, so that rows often share a literal's first or last bytes, some
    // with a byte changed; a null now and then.
    arrow::StringBuilder builder;
    const int rows = 1 + static_cast<int>(random() % 150);
    for (int row = 0; row < rows; ++row) {
      if (random() % 11 == 0) {
        ASSERT_TRUE(builder.AppendNull().ok());
        continue;
      }
      std::string value = word.substr(0, random() % (word.size() + 1));
      if (!value.empty() && random() % 4 == 0) value[random() % value.size()] = 'Z';
      ASSERT_TRUE(builder.Append(value).ok());
    }
    std::shared_ptr<arrow::Array> whole = builder.Finish().ValueOrDie();
    // A slice without the first rows, ending at the last row (the end of the bytes).
    const int64_t skip = static_cast<int64_t>(random() % 3) % whole->length();
    const auto column = std::static_pointer_cast<arrow::StringArray>(whole->Slice(skip));
    for (size_t length = 0; length <= word.size(); ++length) {
      const std::string literal = word.substr(0, length);
      for (const char* name : {"=", "<>"}) {
        for (bool literal_first : {false, true}) {
          Reset();
          auto c = ColArray(column, "s");
          auto l = StringLit(literal);
          auto result = Call(name, literal_first ? std::vector{l, c} : std::vector{c, l});
          ASSERT_TRUE(result.ok()) << result.status().ToString();
          const auto& got = static_cast<const arrow::BooleanArray&>(**result);
          ASSERT_EQ(got.length(), column->length());
          for (int64_t row = 0; row < column->length(); ++row) {
            ASSERT_EQ(got.IsNull(row), column->IsNull(row)) << "row " << row;
            if (column->IsNull(row)) continue;
            const bool equal = column->GetView(row) == literal;
            ASSERT_EQ(got.Value(row), std::string(name) == "=" ? equal : !equal)
                << "'" << column->GetView(row) << "' " << name << " '" << literal << "'";
          }
        }
      }
    }
  }
}

TEST_F(StringEqualityTest, ReadsNoByteAfterTheColumnsBytes) {
  // The values' bytes in memory of their exact size, so that a read past their end is one a
  // memory checker sees (valgrind's memcheck names it): the last rows are shorter than the
  // literals, which must not be loaded a whole word at a time.
  const std::vector<std::string> values = {"facebook", "apple", "abc", "ab"};
  std::vector<int32_t> offsets = {0};
  std::string all;
  for (const std::string& value : values) {
    all += value;
    offsets.push_back(static_cast<int32_t>(all.size()));
  }
  const std::vector<uint8_t> bytes(all.begin(), all.end());  // of its exact size
  auto column = std::make_shared<arrow::StringArray>(
      static_cast<int64_t>(values.size()),
      std::make_shared<arrow::Buffer>(reinterpret_cast<const uint8_t*>(offsets.data()),
                                      static_cast<int64_t>(offsets.size() * sizeof(int32_t))),
      std::make_shared<arrow::Buffer>(bytes.data(), static_cast<int64_t>(bytes.size())));
  auto s = ColArray(column, "s");
  ExpectCall("=", {s, StringLit("abcdefgh")}, "boolean", "[false, false, false, false]");
  ExpectCall("=", {s, StringLit("abcd")}, "boolean", "[false, false, false, false]");
  ExpectCall("<>", {StringLit("apple"), s}, "boolean", "[true, false, true, true]");
}

TEST_F(StringEqualityTest, NullLiteralGivesNullRows) {
  auto s = Col("string", R"(["abcd", null, "abcdefgh"])");
  ExpectCall("=", {s, Lit("string", "null", "NULL")}, "boolean", "[null, null, null]");
}

}  // namespace
}  // namespace sluice::testing
