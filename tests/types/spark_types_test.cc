#include "sluice/types/spark_types.h"

#include <gtest/gtest.h>

#include <arrow/extension/uuid.h>
#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include "sluice/common/errors.h"

namespace sluice::types {
namespace {

std::shared_ptr<arrow::DataType> Normalized(const std::shared_ptr<arrow::DataType>& type) {
  auto result = ToSparkArrowType(type);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? *result : nullptr;
}

TEST(SparkTypesTest, FixedMappingConstructors) {
  EXPECT_TRUE(TimestampLtzType()->Equals(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")));
  EXPECT_TRUE(TimestampNtzType()->Equals(arrow::timestamp(arrow::TimeUnit::MICRO)));
  auto array = MakeArrayType(arrow::int32(), false);
  EXPECT_TRUE(array->Equals(arrow::list(arrow::field("element", arrow::int32(), false))));
  auto map = MakeMapType(arrow::utf8(), arrow::int64(), true);
  EXPECT_TRUE(map->Equals(arrow::map(arrow::utf8(), arrow::int64())));
  EXPECT_FALSE(map->field(0)->type()->field(0)->nullable());
}

TEST(SparkTypesTest, DecimalLimitsFollowSpark) {
  ASSERT_TRUE(MakeDecimalType(38, 38).ok());
  EXPECT_TRUE((*MakeDecimalType(10, 2))->Equals(arrow::decimal128(10, 2)));
  auto too_wide = MakeDecimalType(39, 0);
  EXPECT_EQ(ErrorClassOf(too_wide.status()), "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION");
  EXPECT_EQ(too_wide.status().message(),
            "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision 39 exceeds max "
            "precision 38.");
  auto bad_scale = MakeDecimalType(5, 6);
  EXPECT_EQ(ErrorClassOf(bad_scale.status()), "_LEGACY_ERROR_TEMP_1228");
  EXPECT_EQ(bad_scale.status().message(),
            "[_LEGACY_ERROR_TEMP_1228] Decimal scale (6) cannot be greater than precision (5).");
  EXPECT_EQ(ErrorClassOf(MakeDecimalType(5, -1).status()), "NEGATIVE_SCALE_DISALLOWED");
}

TEST(SparkTypesTest, NormalizesFileTypes) {
  EXPECT_TRUE(Normalized(arrow::large_utf8())->Equals(arrow::utf8()));
  EXPECT_TRUE(Normalized(arrow::utf8_view())->Equals(arrow::utf8()));
  EXPECT_TRUE(Normalized(arrow::large_binary())->Equals(arrow::binary()));
  EXPECT_TRUE(Normalized(arrow::fixed_size_binary(16))->Equals(arrow::binary()));
  EXPECT_TRUE(Normalized(arrow::uint8())->Equals(arrow::int16()));
  EXPECT_TRUE(Normalized(arrow::uint16())->Equals(arrow::int32()));
  EXPECT_TRUE(Normalized(arrow::uint32())->Equals(arrow::int64()));
  EXPECT_TRUE(Normalized(arrow::uint64())->Equals(arrow::decimal128(20, 0)));
  EXPECT_TRUE(Normalized(arrow::float16())->Equals(arrow::float32()));
  EXPECT_TRUE(Normalized(arrow::date64())->Equals(arrow::date32()));
  EXPECT_TRUE(Normalized(arrow::decimal64(12, 3))->Equals(arrow::decimal128(12, 3)));
  EXPECT_TRUE(Normalized(arrow::decimal256(38, 0))->Equals(arrow::decimal128(38, 0)));
  EXPECT_TRUE(Normalized(arrow::timestamp(arrow::TimeUnit::NANO, "Europe/Paris"))
                  ->Equals(TimestampLtzType()));
  EXPECT_TRUE(Normalized(arrow::timestamp(arrow::TimeUnit::MILLI))->Equals(TimestampNtzType()));
  EXPECT_TRUE(Normalized(arrow::dictionary(arrow::int32(), arrow::large_utf8()))
                  ->Equals(arrow::utf8()));
  EXPECT_TRUE(Normalized(arrow::extension::uuid())->Equals(arrow::binary()));
}

TEST(SparkTypesTest, NormalizesNestedTypesKeepingFieldProperties) {
  auto list = arrow::large_list(arrow::field("item", arrow::large_utf8(), false));
  EXPECT_TRUE(Normalized(list)->Equals(MakeArrayType(arrow::utf8(), false)));

  auto map = arrow::map(arrow::large_utf8(), arrow::field("value", arrow::uint32(), false));
  EXPECT_TRUE(Normalized(map)->Equals(MakeMapType(arrow::utf8(), arrow::int64(), false)));

  auto comment = arrow::key_value_metadata({"comment"}, {"c"});
  auto nested = arrow::struct_({arrow::field("a", arrow::uint16(), false, comment),
                                arrow::field("b", arrow::fixed_size_list(arrow::int8(), 2))});
  auto expected = arrow::struct_({arrow::field("a", arrow::int32(), false, comment),
                                  arrow::field("b", MakeArrayType(arrow::int8()))});
  auto normalized = Normalized(nested);
  EXPECT_TRUE(normalized->Equals(*expected, /*check_metadata=*/true))
      << normalized->ToString();
}

TEST(SparkTypesTest, SparkTypesAreUnchanged) {
  auto type = arrow::struct_({arrow::field("a", MakeArrayType(TimestampLtzType()))});
  EXPECT_TRUE(IsSparkArrowType(*type));
  EXPECT_EQ(Normalized(type), type);
  EXPECT_FALSE(IsSparkArrowType(*arrow::list(arrow::int32())));  // child named "item"
  EXPECT_FALSE(IsSparkArrowType(*arrow::timestamp(arrow::TimeUnit::NANO)));
  EXPECT_FALSE(IsSparkArrowType(*arrow::large_utf8()));
}

TEST(SparkTypesTest, UnsupportedTypesNameTheTypeAndColumn) {
  auto result = ToSparkArrowType(arrow::time32(arrow::TimeUnit::MILLI));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(ErrorClassOf(result.status()), "UNSUPPORTED_ARROWTYPE");
  EXPECT_NE(result.status().message().find("Unsupported arrow type time32[ms]."),
            std::string::npos)
      << result.status().message();

  arrow::Schema schema({arrow::field("ok", arrow::int32()),
                        arrow::field("s", arrow::struct_({arrow::field(
                                              "d", arrow::duration(arrow::TimeUnit::SECOND))}))});
  auto schema_result = ToSparkArrowSchema(schema);
  ASSERT_FALSE(schema_result.ok());
  EXPECT_NE(schema_result.status().message().find("`s.d`"), std::string::npos)
      << schema_result.status().message();
  EXPECT_NE(schema_result.status().message().find("duration[s]"), std::string::npos);
}

TEST(SparkTypesTest, Predicates) {
  EXPECT_TRUE(IsIntegral(*arrow::int8()));
  EXPECT_TRUE(IsIntegral(*arrow::int64()));
  EXPECT_FALSE(IsIntegral(*arrow::float64()));
  EXPECT_TRUE(IsFractional(*arrow::float32()));
  EXPECT_TRUE(IsFractional(*arrow::decimal128(10, 2)));
  EXPECT_FALSE(IsFloatingPoint(*arrow::decimal128(10, 2)));
  EXPECT_TRUE(IsNumeric(*arrow::int16()));
  EXPECT_TRUE(IsNumeric(*arrow::decimal128(10, 2)));
  EXPECT_FALSE(IsNumeric(*arrow::utf8()));
  EXPECT_FALSE(IsNumeric(*arrow::boolean()));
  EXPECT_TRUE(IsString(*arrow::utf8()));
  EXPECT_TRUE(IsBinary(*arrow::binary()));
  EXPECT_TRUE(IsBoolean(*arrow::boolean()));
  EXPECT_TRUE(IsDate(*arrow::date32()));
  EXPECT_TRUE(IsTimestamp(*TimestampLtzType()));
  EXPECT_FALSE(IsTimestamp(*TimestampNtzType()));
  EXPECT_TRUE(IsTimestampNtz(*TimestampNtzType()));
  EXPECT_TRUE(IsDatetime(*arrow::date32()));
  EXPECT_TRUE(IsDatetime(*TimestampNtzType()));
  EXPECT_TRUE(IsVoid(*arrow::null()));
  EXPECT_TRUE(IsArray(*MakeArrayType(arrow::int32())));
  EXPECT_FALSE(IsArray(*MakeMapType(arrow::int32(), arrow::int32())));
  EXPECT_TRUE(IsMap(*MakeMapType(arrow::int32(), arrow::int32())));
  EXPECT_TRUE(IsStruct(*arrow::struct_({})));
  EXPECT_TRUE(IsComplex(*MakeMapType(arrow::int32(), arrow::int32())));
  EXPECT_FALSE(IsComplex(*arrow::utf8()));
}

}  // namespace
}  // namespace sluice::types
