#include "sluice/sql/expression_parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/sql/sql_lexer.h"
#include "sluice/types/spark_types.h"
#include "support/text_mutation.h"

// Expected trees follow Spark 4's AstBuilder for the same text; names are Spark's pretty names.

namespace sluice::sql {
namespace {

using expr::ExprKind;
using expr::ExprPtr;

ExprPtr Parse(std::string_view text) {
  auto result = ParseExpression(text);
  EXPECT_TRUE(result.ok()) << text << ": " << result.status().ToString();
  return result.ok() ? *result : expr::Col("<error>");
}

std::string Str(std::string_view text) { return Parse(text)->ToString(); }

/// The call's name and its arguments' names, independent of how the call itself is named.
std::string CallShape(std::string_view text) {
  auto parsed = Parse(text);
  if (parsed->kind() != ExprKind::kCall) return "not a call: " + parsed->ToString();
  const auto& call = static_cast<const expr::Call&>(*parsed);
  std::string shape = call.name() + (call.distinct() ? "(DISTINCT " : "(");
  for (size_t i = 0; i < call.children().size(); ++i) {
    shape += (i > 0 ? ", " : "") + call.children()[i]->ToString();
  }
  return shape + ")";
}

arrow::Status Error(std::string_view text) {
  auto result = ParseExpression(text);
  EXPECT_FALSE(result.ok()) << text << " parsed as " << (*result)->ToString();
  return result.status();
}

bool StartsWith(const std::string& text, std::string_view prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

std::shared_ptr<arrow::Scalar> LiteralOf(std::string_view text) {
  auto parsed = Parse(text);
  EXPECT_EQ(parsed->kind(), ExprKind::kLiteral) << text;
  if (parsed->kind() != ExprKind::kLiteral) return std::make_shared<arrow::NullScalar>();
  return static_cast<const expr::Literal&>(*parsed).value();
}

void ExpectLiteral(std::string_view text, const arrow::Scalar& expected) {
  auto value = LiteralOf(text);
  EXPECT_TRUE(value->Equals(expected)) << text << " gave " << value->type->ToString() << " "
                                       << value->ToString() << ", expected "
                                       << expected.type->ToString() << " " << expected.ToString();
}

std::shared_ptr<arrow::Scalar> Decimal(const std::string& digits, int32_t precision,
                                       int32_t scale) {
  return std::make_shared<arrow::Decimal128Scalar>(arrow::Decimal128(digits),
                                                   arrow::decimal128(precision, scale));
}

TEST(ExpressionParserTest, IntegerLiteralsTakeTheSmallestSparkType) {
  ExpectLiteral("1", arrow::Int32Scalar(1));
  ExpectLiteral("2147483647", arrow::Int32Scalar(2147483647));
  ExpectLiteral("-2147483648", arrow::Int32Scalar(INT32_MIN));
  ExpectLiteral("2147483648", arrow::Int64Scalar(2147483648LL));
  ExpectLiteral("-9223372036854775808", arrow::Int64Scalar(INT64_MIN));
  ExpectLiteral("9223372036854775808", *Decimal("9223372036854775808", 19, 0));
  ExpectLiteral("10L", arrow::Int64Scalar(10));
  ExpectLiteral("10s", arrow::Int16Scalar(10));
  ExpectLiteral("-128Y", arrow::Int8Scalar(-128));
  ExpectLiteral("- 5", arrow::Int32Scalar(-5));
  EXPECT_EQ(Str("-1"), "-1");
}

TEST(ExpressionParserTest, FractionalLiterals) {
  ExpectLiteral("1.5", *Decimal("15", 2, 1));
  ExpectLiteral("0.5", *Decimal("5", 1, 1));
  ExpectLiteral(".5", *Decimal("5", 1, 1));
  ExpectLiteral("1.", *Decimal("1", 1, 0));
  ExpectLiteral("0.00", *Decimal("0", 2, 2));
  ExpectLiteral("123.450", *Decimal("123450", 6, 3));
  ExpectLiteral("-1.5", *Decimal("-15", 2, 1));
  ExpectLiteral("1.5BD", *Decimal("15", 2, 1));
  ExpectLiteral("1e3BD", *Decimal("1000", 4, 0));
  ExpectLiteral("1.5E2", arrow::DoubleScalar(150.0));
  ExpectLiteral("1e3", arrow::DoubleScalar(1000.0));
  ExpectLiteral("1.5D", arrow::DoubleScalar(1.5));
  ExpectLiteral("-2d", arrow::DoubleScalar(-2.0));
  ExpectLiteral("2F", arrow::FloatScalar(2.0f));
  EXPECT_EQ(Str("1.5"), "1.5");
}

TEST(ExpressionParserTest, NumericLiteralsOutOfRange) {
  auto status = Error("128Y");
  EXPECT_EQ(ErrorClassOf(status), "INVALID_NUMERIC_LITERAL_RANGE");
  EXPECT_TRUE(StartsWith(status.message(),
                         "[INVALID_NUMERIC_LITERAL_RANGE] Numeric literal 128 is outside the "
                         "valid range for tinyint with minimum value of -128 and maximum value "
                         "of 127. Please adjust the value accordingly. (line 1, pos 0)"))
      << status.message();
  EXPECT_EQ(ErrorClassOf(Error("40000S")), "INVALID_NUMERIC_LITERAL_RANGE");
  EXPECT_EQ(ErrorClassOf(Error("9223372036854775808L")), "INVALID_NUMERIC_LITERAL_RANGE");
  EXPECT_EQ(ErrorClassOf(Error("1e400")), "INVALID_NUMERIC_LITERAL_RANGE");
  EXPECT_EQ(ErrorClassOf(Error("1e39F")), "INVALID_NUMERIC_LITERAL_RANGE");
  EXPECT_EQ(ErrorClassOf(Error("123456789012345678901234567890123456789")),
            "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION");
}

TEST(ExpressionParserTest, StringBooleanAndNullLiterals) {
  ExpectLiteral("'abc'", arrow::StringScalar("abc"));
  ExpectLiteral("\"abc\"", arrow::StringScalar("abc"));
  // A doubled quote is two adjacent strings, joined (Spark 4.0).
  ExpectLiteral("'it''s'", arrow::StringScalar("its"));
  ExpectLiteral("'it\\'s'", arrow::StringScalar("it's"));
  ExpectLiteral("'a\\nb\\tc'", arrow::StringScalar("a\nb\tc"));
  ExpectLiteral("'\\u0041\\101'", arrow::StringScalar("AA"));
  ExpectLiteral("'a' 'b' \"c\"", arrow::StringScalar("abc"));
  ExpectLiteral("r'\\n'", arrow::StringScalar("\\n"));
  ExpectLiteral("TRUE", arrow::BooleanScalar(true));
  ExpectLiteral("false", arrow::BooleanScalar(false));
  ExpectLiteral("NULL", arrow::NullScalar());
  EXPECT_EQ(Str("'x'"), "x");
}

TEST(ExpressionParserTest, TypedLiterals) {
  ExpectLiteral("DATE '2024-01-01'", arrow::Date32Scalar(19723));
  ExpectLiteral("date '2024-2-9'", arrow::Date32Scalar(19762));
  EXPECT_EQ(Str("DATE '2024-01-01'"), "DATE '2024-01-01'");
  const int64_t ten_o_clock = (19723LL * 86400 + 36000) * 1000000;
  ExpectLiteral("TIMESTAMP_NTZ '2024-01-01 10:00:00.5'",
                arrow::TimestampScalar(ten_o_clock + 500000, types::TimestampNtzType()));
  ExpectLiteral("TIMESTAMP_NTZ '2024-01-01T10:00'",
                arrow::TimestampScalar(ten_o_clock, types::TimestampNtzType()));
  ExpectLiteral("X'0A0b'", arrow::BinaryScalar(std::string("\x0A\x0B")));
  ExpectLiteral("x'ABC'", arrow::BinaryScalar(std::string("\x0A\xBC")));

  // A timestamp in the session zone is bound later, as a cast of its text.
  auto timestamp = Parse("TIMESTAMP '2024-01-01 10:00:00'");
  ASSERT_EQ(timestamp->kind(), ExprKind::kCast);
  const auto& cast = static_cast<const expr::Cast&>(*timestamp);
  EXPECT_TRUE(cast.type()->Equals(*types::TimestampLtzType()));
  EXPECT_EQ(cast.child()->ToString(), "2024-01-01 10:00:00");
  EXPECT_EQ(Parse("TIMESTAMP_LTZ '2024-01-01 10:00:00+02:00'")->kind(), ExprKind::kCast);

  auto status = Error("DATE '2024-13-01'");
  EXPECT_EQ(ErrorClassOf(status), "INVALID_TYPED_LITERAL");
  EXPECT_TRUE(StartsWith(status.message(),
                         "[INVALID_TYPED_LITERAL] The value of the typed literal \"DATE\" is "
                         "invalid: '2024-13-01'."))
      << status.message();
  EXPECT_EQ(ErrorClassOf(Error("DATE '2023-02-29'")), "INVALID_TYPED_LITERAL");
  EXPECT_EQ(ErrorClassOf(Error("TIMESTAMP_NTZ '2024-01-01 10:00:00 UTC'")),
            "INVALID_TYPED_LITERAL");
  EXPECT_EQ(ErrorClassOf(Error("X'0G'")), "INVALID_TYPED_LITERAL");
  EXPECT_EQ(ErrorClassOf(Error("FOO 'x'")), "UNSUPPORTED_TYPED_LITERAL");
  // A year whose microseconds overflow 64 bits (found by the fuzzer).
  EXPECT_EQ(ErrorClassOf(Error("TIMESTAMP '2024610:0:00:00'")), "INVALID_TYPED_LITERAL");
  EXPECT_EQ(ErrorClassOf(Error("TIMESTAMP_NTZ '9999999-01-01'")), "INVALID_TYPED_LITERAL");
}

TEST(ExpressionParserTest, ColumnsStarsAndExtraction) {
  auto column = Parse("a.b.c");
  ASSERT_EQ(column->kind(), ExprKind::kColumn);
  EXPECT_EQ(static_cast<const expr::ColumnRef&>(*column).name_parts(),
            (std::vector<std::string>{"a", "b", "c"}));
  column = Parse("`a.b`.`c``d`.end");
  EXPECT_EQ(static_cast<const expr::ColumnRef&>(*column).name_parts(),
            (std::vector<std::string>{"a.b", "c`d", "end"}));
  EXPECT_EQ(Str("CamelCase"), "CamelCase");

  auto star = Parse("*");
  ASSERT_EQ(star->kind(), ExprKind::kStar);
  EXPECT_TRUE(static_cast<const expr::Star&>(*star).target().empty());
  star = Parse("t.s.*");
  ASSERT_EQ(star->kind(), ExprKind::kStar);
  EXPECT_EQ(static_cast<const expr::Star&>(*star).target(), (std::vector<std::string>{"t", "s"}));

  auto index = Parse("a[0]");
  ASSERT_EQ(index->kind(), ExprKind::kExtract);
  EXPECT_EQ(index->ToString(), "a[0]");
  EXPECT_EQ(Str("m['k']"), "m[k]");
  EXPECT_EQ(Str("a[1][2]"), "a[1][2]");

  auto field = Parse("(a + b).c");
  ASSERT_EQ(field->kind(), ExprKind::kExtract);
  const auto& key = static_cast<const expr::Extract&>(*field).key();
  ASSERT_EQ(key->kind(), ExprKind::kLiteral);
  EXPECT_EQ(static_cast<const expr::Literal&>(*key).value()->type->id(), arrow::Type::STRING);
  EXPECT_EQ(field->ToString(), "(a + b)[c]");
  EXPECT_EQ(Str("f(x).y[0]"), "f(x)[y][0]");
  // A parenthesized column stays a column path, as in Spark.
  EXPECT_EQ(Parse("(a).b")->kind(), ExprKind::kColumn);
}

TEST(ExpressionParserTest, OperatorsAndSparkNames) {
  EXPECT_EQ(Str("a + 1"), "(a + 1)");
  EXPECT_EQ(Str("a - b"), "(a - b)");
  EXPECT_EQ(Str("a * b / c % d"), "(((a * b) / c) % d)");
  EXPECT_EQ(Str("a DIV b"), "(a div b)");
  EXPECT_EQ(Str("a == b"), "(a = b)");
  EXPECT_EQ(Str("a != b"), "(NOT (a = b))");
  EXPECT_EQ(Str("a <> b"), "(NOT (a = b))");
  EXPECT_EQ(static_cast<const expr::Call&>(*Parse("a <> b")).name(), "!=");
  EXPECT_EQ(static_cast<const expr::Call&>(*Parse("a == b")).name(), "=");
  EXPECT_EQ(Str("a <=> b"), "(a <=> b)");
  EXPECT_EQ(Str("a < b"), "(a < b)");
  EXPECT_EQ(Str("a<=b"), "(a <= b)");
  EXPECT_EQ(Str("a>=-1"), "(a >= -1)");
  EXPECT_EQ(Str("a & b | c"), "((a & b) | c)");
  EXPECT_EQ(Str("a ^ b"), "(a ^ b)");
  EXPECT_EQ(Str("~a"), "~a");
  EXPECT_EQ(Str("- a"), "(- a)");
  EXPECT_EQ(CallShape("+a"), "positive(a)");
  EXPECT_EQ(Str("a || b"), "concat(a, b)");
  EXPECT_EQ(CallShape("a << 2"), "shiftleft(a, 2)");
  EXPECT_EQ(Str("a AND b"), "(a AND b)");
  EXPECT_EQ(Str("a or b"), "(a OR b)");
  EXPECT_EQ(Str("NOT a"), "(NOT a)");
  EXPECT_EQ(Str("!a"), "(NOT a)");
  EXPECT_EQ(Str("a IS NULL"), "(a IS NULL)");
  EXPECT_EQ(Str("a is not null"), "(a IS NOT NULL)");
  EXPECT_EQ(Str("a IN (1, 2)"), "(a IN (1, 2))");
  EXPECT_EQ(Str("a NOT IN (1)"), "(NOT (a IN (1)))");
  EXPECT_EQ(Str("a BETWEEN 1 AND 2"), "between(a, 1, 2)");
  EXPECT_EQ(Str("a NOT BETWEEN 1 AND 2"), "(NOT between(a, 1, 2))");
  EXPECT_EQ(Str("a LIKE 'x%'"), "a LIKE x%");
  EXPECT_EQ(Str("a NOT LIKE 'x%'"), "(NOT a LIKE x%)");
  EXPECT_EQ(CallShape("a LIKE 'x!%' ESCAPE '!'"), "like(a, x!%, !)");
  EXPECT_EQ(Str("a ILIKE 'x'"), "ilike(a, x)");
  EXPECT_EQ(Str("a RLIKE '^x'"), "RLIKE(a, ^x)");
  EXPECT_EQ(Str("a REGEXP '^x'"), "RLIKE(a, ^x)");
  EXPECT_EQ(Str("a IS DISTINCT FROM b"), "(NOT (a <=> b))");
  EXPECT_EQ(Str("a IS NOT DISTINCT FROM b"), "(a <=> b)");
  EXPECT_EQ(Str("a IS TRUE"), "(a <=> true)");
  EXPECT_EQ(Str("a IS NOT FALSE"), "(NOT (a <=> false))");
  EXPECT_EQ(Str("a IS UNKNOWN"), "(a IS NULL)");
}

TEST(ExpressionParserTest, Precedence) {
  EXPECT_EQ(Str("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(Str("(a + b) * c"), "((a + b) * c)");
  EXPECT_EQ(Str("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(Str("a = 1 AND b = 2 OR c"), "(((a = 1) AND (b = 2)) OR c)");
  EXPECT_EQ(Str("a OR b AND c"), "(a OR (b AND c))");
  EXPECT_EQ(Str("NOT a = b"), "(NOT (a = b))");
  EXPECT_EQ(Str("NOT a AND b"), "((NOT a) AND b)");
  EXPECT_EQ(Str("a | b ^ c & d"), "(a | (b ^ (c & d)))");
  EXPECT_EQ(Str("a & b = c"), "((a & b) = c)");
  EXPECT_EQ(Str("a + 1 > b * 2"), "((a + 1) > (b * 2))");
  EXPECT_EQ(Str("a || b + c"), "(concat(a, b) + c)");
  EXPECT_EQ(Str("-a * b"), "((- a) * b)");
  EXPECT_EQ(Str("-1 * b"), "(-1 * b)");
  EXPECT_EQ(Str("a - -1"), "(a - -1)");
  EXPECT_EQ(Str("- -1"), "(- -1)");
  EXPECT_EQ(Str("-a[0]"), "(- a[0])");
  EXPECT_EQ(Str("a = b IS NULL"), "((a = b) IS NULL)");
  EXPECT_EQ(Str("a BETWEEN 1 AND 2 AND b"), "(between(a, 1, 2) AND b)");
  EXPECT_EQ(Str("a + 1 IN (2, 3)"), "((a + 1) IN (2, 3))");
  EXPECT_EQ(Str("NOT a IS NULL"), "(NOT (a IS NULL))");
  EXPECT_EQ(Str("a < b < c"), "((a < b) < c)");
  EXPECT_EQ(Str("x::int + 1"), "(CAST(x AS INT) + 1)");
  EXPECT_EQ(Str("-1::string"), "CAST(-1 AS STRING)");
}

TEST(ExpressionParserTest, FunctionCalls) {
  EXPECT_EQ(Str("UPPER(b)"), "upper(b)");
  EXPECT_EQ(Str("f()"), "f()");
  EXPECT_EQ(Str("if(a > 1, 'x', 'y')"), "if((a > 1), x, y)");
  EXPECT_EQ(Str("coalesce(a, b, 0)"), "coalesce(a, b, 0)");
  EXPECT_EQ(Str("db.MyFunc(a)"), "db.myfunc(a)");
  EXPECT_EQ(Str("`My Func`(a)"), "my func(a)");

  auto count = Parse("count(*)");
  ASSERT_EQ(count->kind(), ExprKind::kCall);
  EXPECT_EQ(static_cast<const expr::Call&>(*count).name(), "count");
  ASSERT_EQ(count->children().size(), 1u);
  EXPECT_EQ(count->children()[0]->kind(), ExprKind::kStar);
  EXPECT_EQ(count->ToString(), "count(*)");

  auto distinct = Parse("COUNT(DISTINCT a, b)");
  EXPECT_TRUE(static_cast<const expr::Call&>(*distinct).distinct());
  EXPECT_EQ(distinct->ToString(), "count(DISTINCT a, b)");
  EXPECT_EQ(Str("sum(ALL a)"), "sum(a)");
  EXPECT_EQ(CallShape("first(a IGNORE NULLS)"), "first(a, true)");
  EXPECT_EQ(CallShape("last(a) ignore nulls"), "last(a, true)");
  EXPECT_EQ(CallShape("struct(a AS x, b)"), "struct(x, b)");
  EXPECT_EQ(CallShape("(a, b + 1)"), "struct(a, (b + 1))");
  EXPECT_EQ(CallShape("extract(YEAR FROM ts)"), "extract(YEAR, ts)");
  EXPECT_EQ(CallShape("substring(s FROM 2 FOR 3)"), "substring(s, 2, 3)");
  EXPECT_EQ(CallShape("substr(s, 2)"), "substr(s, 2)");
  EXPECT_EQ(CallShape("position('a' IN s)"), "locate(a, s)");
  EXPECT_EQ(CallShape("position('a', s)"), "position(a, s)");
  // The two-argument trim functions take the characters to remove first, as in Spark.
  EXPECT_EQ(CallShape("trim(BOTH 'x' FROM s)"), "trim(x, s)");
  EXPECT_EQ(CallShape("trim(LEADING FROM s)"), "ltrim(s)");
  EXPECT_EQ(CallShape("trim(trailing 'x' FROM s)"), "rtrim(x, s)");
  EXPECT_EQ(CallShape("trim(s)"), "trim(s)");
  auto add = Parse("timestampadd(HOUR, 1, ts)");
  EXPECT_EQ(add->children()[0]->kind(), ExprKind::kLiteral);
}

TEST(ExpressionParserTest, CastsAndCase) {
  auto cast = Parse("CAST(a AS bigint)");
  ASSERT_EQ(cast->kind(), ExprKind::kCast);
  EXPECT_FALSE(static_cast<const expr::Cast&>(*cast).is_try());
  EXPECT_EQ(cast->ToString(), "CAST(a AS BIGINT)");
  EXPECT_EQ(Str("try_cast(a AS decimal(10, 2))"), "TRY_CAST(a AS DECIMAL(10,2))");
  EXPECT_TRUE(static_cast<const expr::Cast&>(*Parse("try_cast(a as int)")).is_try());
  auto nested = Parse("cast(a as map<string, array<struct<x: int>>>)");
  ASSERT_EQ(nested->kind(), ExprKind::kCast);
  EXPECT_TRUE(static_cast<const expr::Cast&>(*nested).type()->Equals(*types::MakeMapType(
      arrow::utf8(),
      types::MakeArrayType(arrow::struct_({arrow::field("x", arrow::int32())})))));
  auto shorthand = Parse("a::array<array<int>>");
  ASSERT_EQ(shorthand->kind(), ExprKind::kCast);
  EXPECT_TRUE(static_cast<const expr::Cast&>(*shorthand).type()->Equals(
      *types::MakeArrayType(types::MakeArrayType(arrow::int32()))));
  EXPECT_EQ(Str("a::decimal(5,1) * 2"), "(CAST(a AS DECIMAL(5,1)) * 2)");
  auto status = Error("CAST(a AS foo)");
  EXPECT_EQ(ErrorClassOf(status), "UNSUPPORTED_DATATYPE");
  EXPECT_NE(status.message().find("(line 1, pos 10)\n\n== SQL ==\nCAST(a AS foo)\n----------^^^"),
            std::string::npos)
      << status.message();

  EXPECT_EQ(Str("CASE WHEN a > 1 THEN x END"), "CASE WHEN (a > 1) THEN x END");
  EXPECT_EQ(Str("case when a then 1 when b then 2 else 3 end"),
            "CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END");
  auto simple = Parse("CASE a WHEN 1 THEN 'one' ELSE 'other' END");
  ASSERT_EQ(simple->kind(), ExprKind::kCaseWhen);
  EXPECT_EQ(simple->ToString(), "CASE WHEN (a = 1) THEN one ELSE other END");
}

TEST(ExpressionParserTest, Aliases) {
  auto alias = Parse("a + 1 AS x");
  ASSERT_EQ(alias->kind(), ExprKind::kAlias);
  EXPECT_EQ(static_cast<const expr::Alias&>(*alias).name(), "x");
  EXPECT_EQ(static_cast<const expr::Alias&>(*alias).child()->ToString(), "(a + 1)");
  alias = Parse("count(*) Total");
  ASSERT_EQ(alias->kind(), ExprKind::kAlias);
  EXPECT_EQ(static_cast<const expr::Alias&>(*alias).name(), "Total");
  alias = Parse("a AS `my col`");
  EXPECT_EQ(static_cast<const expr::Alias&>(*alias).name(), "my col");
  alias = Parse("a `b`");
  EXPECT_EQ(static_cast<const expr::Alias&>(*alias).name(), "b");
  // Spark reads a word after an expression as its alias; clause words are not aliases.
  EXPECT_EQ(Parse("a desc")->kind(), ExprKind::kAlias);
  EXPECT_FALSE(ParseExpression("a FROM").ok());
}

TEST(ExpressionParserTest, SortOrders) {
  auto order = ParseSortOrder("a");
  ASSERT_TRUE(order.ok()) << order.status().ToString();
  ASSERT_EQ((*order)->kind(), ExprKind::kSortOrder);
  EXPECT_EQ((*order)->ToString(), "a ASC NULLS FIRST");
  EXPECT_EQ((*ParseSortOrder("a DESC"))->ToString(), "a DESC NULLS LAST");
  EXPECT_EQ((*ParseSortOrder("a asc nulls last"))->ToString(), "a ASC NULLS LAST");
  EXPECT_EQ((*ParseSortOrder("a + 1 desc NULLS FIRST"))->ToString(), "(a + 1) DESC NULLS FIRST");
  EXPECT_FALSE(ParseSortOrder("a DESC x").ok());
  EXPECT_FALSE(ParseSortOrder("a AS b").ok());
  EXPECT_FALSE(ParseSortOrder("a NULLS").ok());
}

TEST(ExpressionParserTest, SyntaxErrorsShowThePosition) {
  EXPECT_EQ(Error("a +").message(),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near end of input. (line 1, pos 3)\n\n"
            "== SQL ==\n"
            "a +\n"
            "---^^^");
  auto status = Error("a b c");
  EXPECT_EQ(ErrorClassOf(status), "PARSE_SYNTAX_ERROR");
  EXPECT_TRUE(StartsWith(status.message(),
                         "[PARSE_SYNTAX_ERROR] Syntax error at or near 'c': extra input 'c'. "
                         "(line 1, pos 4)"))
      << status.message();
  EXPECT_TRUE(StartsWith(Error("f(a").message(),
                         "[PARSE_SYNTAX_ERROR] Syntax error at or near end of input: missing "
                         "')'."));
  EXPECT_TRUE(StartsWith(Error("").message(),
                         "[PARSE_SYNTAX_ERROR] Syntax error at or near end of input."));
  EXPECT_TRUE(StartsWith(Error("a = = b").message(),
                         "[PARSE_SYNTAX_ERROR] Syntax error at or near '='."));
  EXPECT_TRUE(StartsWith(Error("CASE WHEN a THEN b").message(),
                         "[PARSE_SYNTAX_ERROR] Syntax error at or near end of input: missing "
                         "'END'."));
  EXPECT_EQ(Error("a +\n  )").message(),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near ')'. (line 2, pos 2)\n\n"
            "== SQL ==\n"
            "a +\n"
            "  )\n"
            "--^^^");
  EXPECT_TRUE(StartsWith(Error("'abc").message(),
                         "[PARSE_SYNTAX_ERROR] Syntax error at or near '''."));
  EXPECT_EQ(ErrorClassOf(Error("a /* open")), "UNCLOSED_BRACKETED_COMMENT");
  EXPECT_EQ(ErrorClassOf(Error("a LIKE 'x' ESCAPE 'ab'")), "INVALID_ESC");
  for (const char* text : {"a IN ()", "(a AS b)", "CASE END", "a.", "1 .* 2", "a[1", "t.*.b",
                           "cast(a as)", "x -> x + 1", "count(a) OVER (PARTITION b)",
                           "sum(a) OVER (ROWS BETWEEN 1 AND 2)", "rank() OVER (ORDER BY a ROWS)",
                           "lag(a) OVER", "sum(a) OVER (w ORDER BY a)",
                           "a IS 1", "a::", "AND", "a NOT", "f(a =>1)", "(SELECT 1)"}) {
    EXPECT_EQ(ErrorClassOf(Error(text)), "PARSE_SYNTAX_ERROR") << text;
  }
}

TEST(ExpressionParserTest, WindowSpecifications) {
  EXPECT_EQ(Str("sum(a) OVER (PARTITION BY b, c ORDER BY d DESC ROWS BETWEEN 1 PRECEDING AND "
                "CURRENT ROW)"),
            "sum(a) OVER (PARTITION BY b, c ORDER BY d DESC NULLS LAST ROWS BETWEEN 1 PRECEDING "
            "AND CURRENT ROW)");
  EXPECT_EQ(Str("row_number() over (distribute by b sort by c)"),
            "row_number() OVER (PARTITION BY b ORDER BY c ASC NULLS FIRST)");
  EXPECT_EQ(Str("count(*) OVER ()"), "count(*) OVER ()");
  // A single bound ends at the current row.
  EXPECT_EQ(Str("max(a) OVER (ORDER BY a RANGE UNBOUNDED PRECEDING)"),
            "max(a) OVER (ORDER BY a ASC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND "
            "CURRENT ROW)");
  EXPECT_EQ(Str("avg(a) OVER (ORDER BY a RANGE BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING)"),
            "avg(a) OVER (ORDER BY a ASC NULLS FIRST RANGE BETWEEN 2 FOLLOWING AND UNBOUNDED "
            "FOLLOWING)");
  EXPECT_EQ(Str("rank() OVER w"), "rank() OVER w");
  // IGNORE NULLS of lag and lead is their fourth argument, after the defaults.
  EXPECT_EQ(Str("lag(a) IGNORE NULLS OVER (ORDER BY b)"),
            "lag(a, 1, NULL, true) OVER (ORDER BY b ASC NULLS FIRST)");
}

TEST(ExpressionParserTest, CommentsAndWhitespace) {
  EXPECT_EQ(Str("a /* c /* nested */ */ + -- rest\n 1"), "(a + 1)");
  EXPECT_EQ(Str("\n\ta\n+\n1\n"), "(a + 1)");
}

std::string Repeat(std::string_view text, int times) {
  std::string result;
  for (int i = 0; i < times; ++i) result.append(text);
  return result;
}

TEST(ExpressionParserTest, DeepInputIsAnErrorNotACrash) {
  EXPECT_EQ(ErrorClassOf(Error(Repeat("(", 5000) + "1" + Repeat(")", 5000))),
            "PARSE_SYNTAX_ERROR");
  EXPECT_EQ(ErrorClassOf(Error(Repeat("-", 5000) + "a")), "PARSE_SYNTAX_ERROR");
  EXPECT_EQ(ErrorClassOf(Error(Repeat("~", 5000) + "a")), "PARSE_SYNTAX_ERROR");
  EXPECT_EQ(ErrorClassOf(Error(Repeat("NOT ", 5000) + "a")), "PARSE_SYNTAX_ERROR");
  EXPECT_EQ(ErrorClassOf(Error(Repeat("a[", 5000) + "1" + Repeat("]", 5000))),
            "PARSE_SYNTAX_ERROR");

  std::string chain = "a";
  for (int i = 0; i < 1000; ++i) chain += " OR a = " + std::to_string(i);
  EXPECT_EQ(Parse(chain)->kind(), ExprKind::kCall);
  EXPECT_EQ(ErrorClassOf(Error("1" + Repeat("+1", 20000))), "PARSE_SYNTAX_ERROR");
  const int nesting = ExpressionParser::kMaxNesting - 1;
  EXPECT_EQ(Parse(Repeat("f(", nesting) + "1" + Repeat(")", nesting))->kind(), ExprKind::kCall);
  EXPECT_EQ(Parse(Repeat("(", 150) + "1" + Repeat(")", 150))->ToString(), "1");
}

TEST(SqlLexerTest, SplitsLikeSparksLexer) {
  auto tokens = TokenizeSql("a<=>1.5e3 `x``y` 'it''s' 12abc 1.5x >>> t.* ::");
  std::vector<std::string> texts;
  for (const auto& token : tokens) texts.push_back(token.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"a", "<=>", "1.5e3", "`x``y`", "'it'", "'s'",
                                             "12abc", "1", ".", "5x", ">>>", "t", ".", "*", "::",
                                             ""}));
  EXPECT_EQ(tokens[2].kind, SqlToken::Kind::kNumber);
  EXPECT_EQ(tokens[3].value, "x`y");
  EXPECT_EQ(tokens[4].value, "it");
  EXPECT_EQ(tokens[5].value, "s");
  EXPECT_EQ(tokens[6].kind, SqlToken::Kind::kWord);
  EXPECT_EQ(tokens[7].kind, SqlToken::Kind::kInteger);
  EXPECT_EQ(tokens.back().kind, SqlToken::Kind::kEnd);
  EXPECT_EQ(TokenizeSql("'open").front().kind, SqlToken::Kind::kInvalid);
}

// Random bytes and mutations of valid expressions, with a fixed seed: the parser must return
// (a tree or an error) for every input without crashing or hanging.
TEST(ExpressionParserFuzzTest, NeverCrashesOrHangs) {
  std::mt19937 random(20240601);
  const std::vector<std::string> seeds = {
      "a + 1 AS x",
      "CASE a WHEN 1 THEN 'one' ELSE NULL END",
      "cast(a as map<string, array<int>>) IS NOT NULL",
      "count(DISTINCT a, b) FILTER",
      "x::decimal(10,2) BETWEEN -1.5 AND 2e3",
      "a.b[0]['k'].c LIKE 'x%' ESCAPE '!'",
      "NOT a IN (1, 2L, 3S) OR b <=> X'0A' AND DATE '2024-01-01' < c",
      "trim(BOTH 'x' FROM s) || substring(s FROM 1 FOR 2) || position('a' IN s)",
      "f(g(h(1, 2), *), t.*) IS DISTINCT FROM (a, b)",
      "/* c */ `q``x` -- tail",
  };
  const std::string alphabet = "ab1.5eE'\"`()[]{},;:*+-/%<>=!~&|^ \n\\xXLSYDFB_";
  const std::vector<std::string> fragments = {"(", ")", "CASE", "WHEN", "END", "CAST", "AS", "::",
                                              "'", "`", "/*", "--", "NOT", "IN", "IS", "-", ".",
                                              "[", "]", ",", "AND", "BETWEEN", "DATE", "1e", "*",
                                              "a[", "f(", ".g(", "::int"};
  auto check = [](const std::string& text) {
    auto parsed = ParseExpression(text);
    if (parsed.ok()) {
      (void)(*parsed)->ToString();
    } else {
      EXPECT_TRUE(ErrorClassOf(parsed.status()).has_value()) << text << ": "
                                                             << parsed.status().ToString();
    }
    auto order = ParseSortOrder(text);
    if (order.ok()) (void)(*order)->ToString();
  };
  for (int i = 0; i < 3000; ++i) {
    std::string text;
    const size_t length = random() % 48;
    for (size_t k = 0; k < length; ++k) {
      text.push_back(random() % 4 == 0 ? static_cast<char>(random() % 256)
                                       : alphabet[random() % alphabet.size()]);
    }
    check(text);
  }
  for (int i = 0; i < 5000; ++i) {
    const std::string text = ::sluice::testing::MutateText(
        random, seeds[random() % seeds.size()], fragments, alphabet, 3);
    check(text);
  }
}

}  // namespace
}  // namespace sluice::sql
