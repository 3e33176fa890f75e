// to_json(struct | array | map[, options]) with Spark's JacksonGenerator formatting: compact,
// null struct fields left out (unless ignoreNullFields is false), doubles as Java prints them
// with NaN/Infinity quoted, timestamps as yyyy-MM-dd'T'HH:mm:ss.SSSXXX in the session zone,
// dates as yyyy-MM-dd, binary as base64.
#include <cmath>

#include <arrow/builder.h>
#include <arrow/type.h>

#include "sluice/common/base64.h"
#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/pattern.h"
#include "sluice/datetime/print.h"
#include "sluice/datetime/zone.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast_format.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/json_function_groups.h"
#include "sluice/expr/functions/json_text.h"

namespace sluice::expr {

namespace {

struct JsonWriter {
  bool ignore_null_fields = true;
  std::shared_ptr<const datetime::TimeZone> zone;
  datetime::DateTimePattern timestamp_pattern;
  std::optional<datetime::DateTimePattern> date_pattern;

  void Floating(double value, bool is_float, std::string* out) const {
    if (std::isnan(value)) {
      out->append("\"NaN\"");
    } else if (std::isinf(value)) {
      out->append(value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    } else if (is_float) {
      AppendJavaFloat(static_cast<float>(value), out);
    } else {
      AppendJavaDouble(value, out);
    }
  }

  // Appends value `i` of `array` (known to be valid).
  void Value(const arrow::Array& array, int64_t i, std::string* out) const {
    switch (array.type_id()) {
      case arrow::Type::BOOL:
        out->append(static_cast<const arrow::BooleanArray&>(array).Value(i) ? "true" : "false");
        return;
      case arrow::Type::INT8:
        out->append(std::to_string(static_cast<const arrow::Int8Array&>(array).Value(i)));
        return;
      case arrow::Type::INT16:
        out->append(std::to_string(static_cast<const arrow::Int16Array&>(array).Value(i)));
        return;
      case arrow::Type::INT32:
        out->append(std::to_string(static_cast<const arrow::Int32Array&>(array).Value(i)));
        return;
      case arrow::Type::INT64:
        out->append(std::to_string(static_cast<const arrow::Int64Array&>(array).Value(i)));
        return;
      case arrow::Type::FLOAT:
        Floating(static_cast<const arrow::FloatArray&>(array).Value(i), true, out);
        return;
      case arrow::Type::DOUBLE:
        Floating(static_cast<const arrow::DoubleArray&>(array).Value(i), false, out);
        return;
      case arrow::Type::DECIMAL128: {
        const auto& type = static_cast<const arrow::Decimal128Type&>(*array.type());
        AppendDecimal(arrow::Decimal128(static_cast<const arrow::Decimal128Array&>(array)
                                            .GetValue(i)),
                      type.scale(), out);
        return;
      }
      case arrow::Type::STRING:
        AppendJsonString(static_cast<const arrow::StringArray&>(array).GetView(i), out);
        return;
      case arrow::Type::BINARY: {
        std::string encoded;
        AppendBase64(static_cast<const arrow::BinaryArray&>(array).GetView(i), &encoded);
        AppendJsonString(encoded, out);
        return;
      }
      case arrow::Type::DATE32: {
        const int32_t days = static_cast<const arrow::Date32Array&>(array).Value(i);
        std::string text;
        if (date_pattern) {
          date_pattern->Format(days * datetime::kMicrosPerDay, datetime::ZoneFacts{}, &text);
        } else {
          datetime::AppendDate(days, &text);
        }
        AppendJsonString(text, out);
        return;
      }
      case arrow::Type::TIMESTAMP: {
        const int64_t micros = static_cast<const arrow::TimestampArray&>(array).Value(i);
        const bool ntz = static_cast<const arrow::TimestampType&>(*array.type()).timezone().empty();
        const datetime::ZoneFacts facts =
            ntz ? datetime::ZoneFacts{} : datetime::ZoneFactsAt(*zone, micros);
        std::string text;
        const int64_t local = micros + int64_t{facts.offset_seconds} * datetime::kMicrosPerSecond;
        timestamp_pattern.Format(local, facts, &text);
        AppendJsonString(text, out);
        return;
      }
      case arrow::Type::LIST: {
        const auto& list = static_cast<const arrow::ListArray&>(array);
        const auto& values = *list.values();
        out->push_back('[');
        for (int32_t j = list.value_offset(i); j < list.value_offset(i + 1); ++j) {
          if (j > list.value_offset(i)) out->push_back(',');
          if (values.IsNull(j)) {
            out->append("null");
          } else {
            Value(values, j, out);
          }
        }
        out->push_back(']');
        return;
      }
      case arrow::Type::MAP: {
        const auto& map = static_cast<const arrow::MapArray&>(array);
        const auto& keys = *map.keys();
        const auto& items = *map.items();
        out->push_back('{');
        for (int32_t j = map.value_offset(i); j < map.value_offset(i + 1); ++j) {
          if (j > map.value_offset(i)) out->push_back(',');
          if (keys.type_id() == arrow::Type::STRING) {
            AppendJsonString(static_cast<const arrow::StringArray&>(keys).GetView(j), out);
          } else {
            std::string key;
            Value(keys, j, &key);
            if (!key.empty() && key.front() == '"') {
              out->append(key);
            } else {
              AppendJsonString(key, out);
            }
          }
          out->push_back(':');
          if (items.IsNull(j)) {
            out->append("null");
          } else {
            Value(items, j, out);
          }
        }
        out->push_back('}');
        return;
      }
      case arrow::Type::STRUCT: {
        const auto& structure = static_cast<const arrow::StructArray&>(array);
        const auto& type = *structure.type();
        out->push_back('{');
        bool first = true;
        for (int f = 0; f < type.num_fields(); ++f) {
          const auto& field = *structure.field(f);
          const bool is_null = field.IsNull(i);
          if (is_null && ignore_null_fields) continue;
          if (!first) out->push_back(',');
          first = false;
          AppendJsonString(type.field(f)->name(), out);
          out->push_back(':');
          if (is_null) {
            out->append("null");
          } else {
            Value(field, i, out);
          }
        }
        out->push_back('}');
        return;
      }
      default:
        out->append("null");
    }
  }
};

std::string Lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

arrow::Result<ResolvedCall> ResolveToJson(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2, "[1, 2]"));
  const auto id = call.args[0]->type()->id();
  if (id != arrow::Type::STRUCT && id != arrow::Type::LIST && id != arrow::Type::MAP) {
    return DataTypeMismatch(call, "INVALID_JSON_SCHEMA",
                            "Input schema \"" + SqlTypeName(*call.args[0]->type()) +
                                "\" must be a struct, an array, a map or a variant.");
  }
  std::map<std::string, std::string> options;
  if (call.args.size() == 2) {
    ARROW_ASSIGN_OR_RAISE(options, JsonOptionsArgument(call, 1));
  }
  auto writer = std::make_shared<JsonWriter>();
  std::string timestamp_format = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";
  for (const auto& [key, value] : options) {
    const std::string name = Lower(key);
    if (name == "ignorenullfields") writer->ignore_null_fields = Lower(value) == "true";
    if (name == "timestampformat") timestamp_format = value;
    if (name == "dateformat") {
      ARROW_ASSIGN_OR_RAISE(auto pattern, datetime::DateTimePattern::Compile(value));
      writer->date_pattern = pattern;
    }
  }
  ARROW_ASSIGN_OR_RAISE(writer->timestamp_pattern,
                        datetime::DateTimePattern::Compile(timestamp_format));
  ARROW_ASSIGN_OR_RAISE(writer->zone, datetime::TimeZone::Find(call.config->session_time_zone()));
  ResolvedCall resolved;
  resolved.args = {call.args[0]};
  resolved.return_type = arrow::utf8();
  resolved.nullable = call.args[0]->nullable();
  resolved.kernel = [writer](const std::vector<arrow::Datum>& args, const EvalContext& context,
                             int64_t num_rows) -> arrow::Result<arrow::Datum> {
    std::shared_ptr<arrow::Array> input;
    if (args[0].is_array()) {
      input = args[0].make_array();
    } else {
      ARROW_ASSIGN_OR_RAISE(input, arrow::MakeArrayFromScalar(*args[0].scalar(), num_rows,
                                                              context.pool));
    }
    arrow::StringBuilder out(context.pool);
    ARROW_RETURN_NOT_OK(out.Reserve(num_rows));
    std::string text;
    for (int64_t row = 0; row < num_rows; ++row) {
      if (input->IsNull(row)) {
        ARROW_RETURN_NOT_OK(out.AppendNull());
        continue;
      }
      text.clear();
      writer->Value(*input, row, &text);
      ARROW_RETURN_NOT_OK(out.Append(text));
    }
    ARROW_ASSIGN_OR_RAISE(auto result, out.Finish());
    return arrow::Datum(result);
  };
  return resolved;
}

}  // namespace

void RegisterToJson(FunctionRegistry& registry) {
  registry.RegisterScalar("to_json", ResolveToJson);
}

}  // namespace sluice::expr
