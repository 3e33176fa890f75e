// Spark's JSON functions from_json and get_json_object (to_json lives in json_to_json.cc), with
// the conversion rules of Spark's JacksonParser: numbers into string fields keep their text,
// values that do not convert become null (a struct keeps its other fields), malformed text is a
// struct of nulls (PERMISSIVE) or an error (FAILFAST).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include <arrow/builder.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/parse.h"
#include "sluice/datetime/pattern.h"
#include "sluice/datetime/zone.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/expr/functions/json_function_groups.h"
#include "sluice/expr/functions/json_text.h"
#include "sluice/types/ddl_parser.h"
#include "sluice/types/json_schema.h"

namespace sluice::expr {

namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::shared_ptr<arrow::Array> InputArray(const arrow::Datum& datum, int64_t num_rows,
                                         arrow::MemoryPool* pool) {
  if (datum.is_array()) return datum.make_array();
  return arrow::MakeArrayFromScalar(*datum.scalar(), num_rows, pool).ValueOr(nullptr);
}

// How from_json converts parsed values into one Spark type.
struct Converter {
  std::shared_ptr<const datetime::TimeZone> zone;
  std::optional<datetime::DateTimePattern> timestamp_pattern;
  std::optional<datetime::DateTimePattern> date_pattern;
  JsonParseOptions parse;

  // Whether `node` converts to `type` (a struct always does, keeping what converts).
  bool Converts(const JsonNode& node, const arrow::DataType& type) const {
    if (node.kind == JsonNode::Kind::kNull) return true;
    switch (type.id()) {
      case arrow::Type::STRUCT:
        return node.kind == JsonNode::Kind::kObject;
      case arrow::Type::LIST: {
        if (node.kind != JsonNode::Kind::kArray) return false;
        const auto& element = *static_cast<const arrow::ListType&>(type).value_type();
        return std::all_of(node.items.begin(), node.items.end(),
                           [&](const JsonNode& item) { return Converts(item, element); });
      }
      case arrow::Type::MAP: {
        if (node.kind != JsonNode::Kind::kObject) return false;
        const auto& map_type = static_cast<const arrow::MapType&>(type);
        if (map_type.key_type()->id() != arrow::Type::STRING) return false;
        return std::all_of(node.items.begin(), node.items.end(), [&](const JsonNode& item) {
          return Converts(item, *map_type.item_type());
        });
      }
      default: {
        Scalar unused;
        return ScalarValue(node, type, &unused);
      }
    }
  }

  struct Scalar {
    int64_t integer = 0;
    double floating = 0;
    arrow::Decimal128 decimal;
    std::string text;
  };

  bool ScalarValue(const JsonNode& node, const arrow::DataType& type, Scalar* out) const {
    const bool number =
        node.kind == JsonNode::Kind::kInteger || node.kind == JsonNode::Kind::kFloat;
    switch (type.id()) {
      case arrow::Type::BOOL:
        if (node.kind != JsonNode::Kind::kTrue && node.kind != JsonNode::Kind::kFalse) {
          return false;
        }
        out->integer = node.kind == JsonNode::Kind::kTrue;
        return true;
      case arrow::Type::INT8:
      case arrow::Type::INT16:
      case arrow::Type::INT32:
      case arrow::Type::INT64: {
        if (node.kind != JsonNode::Kind::kInteger) return false;
        errno = 0;
        char* end = nullptr;
        const long long value = std::strtoll(node.text.c_str(), &end, 10);
        if (errno == ERANGE) return false;
        const int bits = arrow::bit_width(type.id());
        if (bits < 64) {
          const long long limit = (1LL << (bits - 1));
          if (value < -limit || value >= limit) return false;
        }
        out->integer = value;
        return true;
      }
      case arrow::Type::FLOAT:
      case arrow::Type::DOUBLE:
        if (number) {
          out->floating = JsonNumberValue(node);
          return true;
        }
        if (node.kind == JsonNode::Kind::kString && parse.allow_non_numeric_numbers) {
          const std::string& t = node.text;
          if (t == "NaN") {
            out->floating = std::numeric_limits<double>::quiet_NaN();
          } else if (t == "Infinity" || t == "+Infinity" || t == "+INF") {
            out->floating = std::numeric_limits<double>::infinity();
          } else if (t == "-Infinity" || t == "-INF") {
            out->floating = -std::numeric_limits<double>::infinity();
          } else {
            return false;
          }
          return true;
        }
        return false;
      case arrow::Type::DECIMAL128: {
        if (!number && node.kind != JsonNode::Kind::kString) return false;
        const auto& decimal = static_cast<const arrow::Decimal128Type&>(type);
        arrow::Decimal128 value;
        int32_t precision = 0, scale = 0;
        if (!arrow::Decimal128::FromString(node.text, &value, &precision, &scale).ok()) {
          return false;
        }
        if (scale > decimal.scale()) {
          // HALF_UP to the target scale.
          const arrow::Decimal128 factor =
              arrow::Decimal128::GetScaleMultiplier(scale - decimal.scale());
          auto divided = value.Divide(factor);
          if (!divided.ok()) return false;
          auto [quotient, remainder] = *divided;
          if (remainder.Abs() * arrow::Decimal128(2) >= factor) {
            quotient += value.Sign() < 0 ? arrow::Decimal128(-1) : arrow::Decimal128(1);
          }
          value = quotient;
        } else if (scale < decimal.scale()) {
          auto rescaled = value.Rescale(scale, decimal.scale());
          if (!rescaled.ok()) return false;
          value = *rescaled;
        }
        if (!value.FitsInPrecision(decimal.precision())) return false;
        out->decimal = value;
        return true;
      }
      case arrow::Type::STRING:
        if (node.kind == JsonNode::Kind::kString || number) {
          out->text = node.text;
        } else if (node.kind == JsonNode::Kind::kTrue || node.kind == JsonNode::Kind::kFalse) {
          out->text = node.kind == JsonNode::Kind::kTrue ? "true" : "false";
        } else {
          out->text.clear();
          AppendJsonNode(node, &out->text);
        }
        return true;
      case arrow::Type::DATE32: {
        if (node.kind != JsonNode::Kind::kString) return false;
        if (date_pattern) {
          datetime::ParsedDateTime parsed;
          std::string error;
          if (!date_pattern->Parse(node.text, &parsed, &error)) return false;
          out->integer = datetime::FloorDiv(parsed.local_micros, datetime::kMicrosPerDay);
          return true;
        }
        auto days = datetime::ParseDate(node.text);
        if (!days) return false;
        out->integer = *days;
        return true;
      }
      case arrow::Type::TIMESTAMP: {
        const bool ntz = static_cast<const arrow::TimestampType&>(type).timezone().empty();
        if (node.kind == JsonNode::Kind::kInteger && !ntz) {
          errno = 0;
          const long long seconds = std::strtoll(node.text.c_str(), nullptr, 10);
          if (errno == ERANGE) return false;
          out->integer = seconds * 1000000LL;
          return true;
        }
        if (node.kind != JsonNode::Kind::kString) return false;
        std::optional<int64_t> micros;
        if (timestamp_pattern) {
          datetime::ParsedDateTime parsed;
          std::string error;
          if (!timestamp_pattern->Parse(node.text, &parsed, &error)) return false;
          micros = ntz ? parsed.local_micros : parsed.ToUtcMicros(*zone);
        } else if (ntz) {
          micros = datetime::ParseTimestampNtz(node.text, /*allow_zone=*/true, std::nullopt);
        } else {
          micros = datetime::ParseTimestamp(node.text, *zone, std::nullopt);
        }
        if (!micros) return false;
        out->integer = *micros;
        return true;
      }
      default:
        return false;
    }
  }

  // Appends `node` (which Converts to the builder's type, or is replaced by null).
  arrow::Status Append(const JsonNode& node, arrow::ArrayBuilder* builder) const {
    const auto type_holder = builder->type();
    const auto& type = *type_holder;
    if (node.kind == JsonNode::Kind::kNull || !Converts(node, type)) {
      return builder->AppendNull();
    }
    switch (type.id()) {
      case arrow::Type::STRUCT:
        return AppendStruct(node, static_cast<arrow::StructBuilder*>(builder));
      case arrow::Type::LIST: {
        auto* list = static_cast<arrow::ListBuilder*>(builder);
        ARROW_RETURN_NOT_OK(list->Append());
        for (const auto& item : node.items) {
          ARROW_RETURN_NOT_OK(Append(item, list->value_builder()));
        }
        return arrow::Status::OK();
      }
      case arrow::Type::MAP: {
        auto* map = static_cast<arrow::MapBuilder*>(builder);
        ARROW_RETURN_NOT_OK(map->Append());
        for (size_t i = 0; i < node.items.size(); ++i) {
          ARROW_RETURN_NOT_OK(
              static_cast<arrow::StringBuilder*>(map->key_builder())->Append(node.keys[i]));
          ARROW_RETURN_NOT_OK(Append(node.items[i], map->item_builder()));
        }
        return arrow::Status::OK();
      }
      default:
        break;
    }
    Scalar value;
    ScalarValue(node, type, &value);
    switch (type.id()) {
      case arrow::Type::BOOL:
        return static_cast<arrow::BooleanBuilder*>(builder)->Append(value.integer != 0);
      case arrow::Type::INT8:
        return static_cast<arrow::Int8Builder*>(builder)->Append(static_cast<int8_t>(value.integer));
      case arrow::Type::INT16:
        return static_cast<arrow::Int16Builder*>(builder)->Append(
            static_cast<int16_t>(value.integer));
      case arrow::Type::INT32:
        return static_cast<arrow::Int32Builder*>(builder)->Append(
            static_cast<int32_t>(value.integer));
      case arrow::Type::INT64:
        return static_cast<arrow::Int64Builder*>(builder)->Append(value.integer);
      case arrow::Type::FLOAT:
        return static_cast<arrow::FloatBuilder*>(builder)->Append(
            static_cast<float>(value.floating));
      case arrow::Type::DOUBLE:
        return static_cast<arrow::DoubleBuilder*>(builder)->Append(value.floating);
      case arrow::Type::DECIMAL128:
        return static_cast<arrow::Decimal128Builder*>(builder)->Append(value.decimal);
      case arrow::Type::STRING:
        return static_cast<arrow::StringBuilder*>(builder)->Append(value.text);
      case arrow::Type::DATE32:
        return static_cast<arrow::Date32Builder*>(builder)->Append(
            static_cast<int32_t>(value.integer));
      case arrow::Type::TIMESTAMP:
        return static_cast<arrow::TimestampBuilder*>(builder)->Append(value.integer);
      default:
        return builder->AppendNull();
    }
  }

  // An object into a struct: fields by exact name (the last duplicate wins), missing or
  // unconvertible fields null.
  arrow::Status AppendStruct(const JsonNode& node, arrow::StructBuilder* builder) const {
    ARROW_RETURN_NOT_OK(builder->Append());
    const auto type_holder = builder->type();
    const auto& type = *type_holder;
    for (int f = 0; f < type.num_fields(); ++f) {
      const JsonNode* value = nullptr;
      for (size_t i = 0; i < node.keys.size(); ++i) {
        if (node.keys[i] == type.field(f)->name()) value = &node.items[i];
      }
      if (value == nullptr) {
        ARROW_RETURN_NOT_OK(builder->field_builder(f)->AppendNull());
      } else {
        ARROW_RETURN_NOT_OK(Append(*value, builder->field_builder(f)));
      }
    }
    return arrow::Status::OK();
  }

  // A struct whose fields are all null (a malformed record in PERMISSIVE mode).
  static arrow::Status AppendNullFields(arrow::StructBuilder* builder) {
    ARROW_RETURN_NOT_OK(builder->Append());
    for (int f = 0; f < builder->num_fields(); ++f) {
      ARROW_RETURN_NOT_OK(builder->field_builder(f)->AppendNull());
    }
    return arrow::Status::OK();
  }
};

bool OptionEnabled(const std::map<std::string, std::string>& options, const std::string& key,
                   bool fallback) {
  for (const auto& [name, value] : options) {
    if (Lower(name) == Lower(key)) return Lower(value) == "true";
  }
  return fallback;
}

std::optional<std::string> Option(const std::map<std::string, std::string>& options,
                                  const std::string& key) {
  for (const auto& [name, value] : options) {
    if (Lower(name) == Lower(key)) return value;
  }
  return std::nullopt;
}

JsonParseOptions ParseOptionsFrom(const std::map<std::string, std::string>& options) {
  JsonParseOptions parse;
  parse.allow_single_quotes = OptionEnabled(options, "allowSingleQuotes", true);
  parse.allow_non_numeric_numbers = OptionEnabled(options, "allowNonNumericNumbers", true);
  parse.allow_numeric_leading_zeros = OptionEnabled(options, "allowNumericLeadingZeros", false);
  parse.allow_unquoted_field_names = OptionEnabled(options, "allowUnquotedFieldNames", false);
  parse.allow_comments = OptionEnabled(options, "allowComments", false);
  parse.allow_backslash_escaping_any_character =
      OptionEnabled(options, "allowBackslashEscapingAnyCharacter", false);
  parse.allow_unquoted_control_chars = OptionEnabled(options, "allowUnquotedControlChars", false);
  return parse;
}

arrow::Result<std::shared_ptr<arrow::DataType>> SchemaArgument(const CallSite& call) {
  const arrow::Scalar* schema = ConstantArgument(call, 1);
  if (schema == nullptr || schema->type->id() != arrow::Type::STRING || !schema->is_valid) {
    return SparkError("INVALID_SCHEMA.NON_STRING_LITERAL",
                      "The input schema " + call.args[1]->sql() +
                          " is not a valid schema string. The input expression must be string "
                          "literal and not null.");
  }
  const std::string text(static_cast<const arrow::StringScalar&>(*schema).view());
  size_t first = text.find_first_not_of(" \t\n\r");
  if (first != std::string::npos && text[first] == '{') return types::DataTypeFromJson(text);
  auto as_schema = types::ParseSchema(text);
  if (as_schema.ok()) return arrow::struct_((*as_schema)->fields());
  auto as_type = types::ParseDataType(text);
  if (as_type.ok()) return as_type;
  return as_schema.status();
}

arrow::Result<ResolvedCall> ResolveFromJson(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3, "[2, 3]"));
  const auto input_id = call.args[0]->type()->id();
  if (input_id != arrow::Type::STRING && input_id != arrow::Type::NA) {
    return UnexpectedInputType(call, 0, "\"STRING\"");
  }
  ARROW_ASSIGN_OR_RAISE(auto type, SchemaArgument(call));
  std::map<std::string, std::string> options;
  if (call.args.size() == 3) {
    ARROW_ASSIGN_OR_RAISE(options, JsonOptionsArgument(call, 2));
  }
  const std::string mode = Lower(Option(options, "mode").value_or("PERMISSIVE"));
  if (mode != "permissive" && mode != "failfast") {
    return SparkError("PARSE_MODE_UNSUPPORTED",
                      "The function `from_json` doesn't support the " +
                          Option(options, "mode").value_or("") +
                          " mode. Acceptable modes are PERMISSIVE and FAILFAST.");
  }
  auto converter = std::make_shared<Converter>();
  converter->parse = ParseOptionsFrom(options);
  ARROW_ASSIGN_OR_RAISE(converter->zone,
                        datetime::TimeZone::Find(call.config->session_time_zone()));
  if (auto pattern = Option(options, "timestampFormat")) {
    ARROW_ASSIGN_OR_RAISE(auto compiled, datetime::DateTimePattern::Compile(*pattern));
    converter->timestamp_pattern = compiled;
  }
  if (auto pattern = Option(options, "dateFormat")) {
    ARROW_ASSIGN_OR_RAISE(auto compiled, datetime::DateTimePattern::Compile(*pattern));
    converter->date_pattern = compiled;
  }
  const bool fail_fast = mode == "failfast";
  ResolvedCall resolved;
  resolved.args = {call.args[0]};
  resolved.return_type = type;
  resolved.can_fail = fail_fast;
  // Spark names a from_json call with a map schema `entries`, also inside enclosing names:
  // `size(entries)`.
  if (type->id() == arrow::Type::MAP) resolved.sql = "entries";
  resolved.kernel = [converter, type, fail_fast](const std::vector<arrow::Datum>& args,
                                                 const EvalContext& context,
                                                 int64_t num_rows) -> arrow::Result<arrow::Datum> {
    std::unique_ptr<arrow::ArrayBuilder> builder;
    ARROW_RETURN_NOT_OK(arrow::MakeBuilder(context.pool, type, &builder));
    if (args[0].type()->id() == arrow::Type::NA) {
      return arrow::Datum(arrow::MakeNullScalar(type));
    }
    auto input = InputArray(args[0], num_rows, context.pool);
    const auto& strings = static_cast<const arrow::StringArray&>(*input);
    const bool is_struct = type->id() == arrow::Type::STRUCT;
    JsonNode node;
    for (int64_t row = 0; row < num_rows; ++row) {
      if (strings.IsNull(row)) {
        ARROW_RETURN_NOT_OK(builder->AppendNull());
        continue;
      }
      const auto result = ParseJson(strings.GetView(row), converter->parse, &node);
      if (result == JsonParseResult::kEmpty) {
        ARROW_RETURN_NOT_OK(builder->AppendNull());
        continue;
      }
      const bool malformed =
          result == JsonParseResult::kMalformed ||
          (is_struct ? node.kind != JsonNode::Kind::kObject
                     : !converter->Converts(node, *type) || node.kind == JsonNode::Kind::kNull);
      if (malformed && fail_fast) {
        return SparkError("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
                          "Malformed records are detected in record parsing: [null]. Parse Mode: "
                          "FAILFAST. To process malformed records as null result, try setting "
                          "the option 'mode' as 'PERMISSIVE'.");
      }
      if (malformed) {
        if (is_struct) {
          ARROW_RETURN_NOT_OK(
              Converter::AppendNullFields(static_cast<arrow::StructBuilder*>(builder.get())));
        } else {
          ARROW_RETURN_NOT_OK(builder->AppendNull());
        }
        continue;
      }
      ARROW_RETURN_NOT_OK(converter->Append(node, builder.get()));
    }
    ARROW_ASSIGN_OR_RAISE(auto out, builder->Finish());
    return arrow::Datum(out);
  };
  return resolved;
}

// A compiled get_json_object path: $ then .name, ['name'], [n] or [*] steps.
struct PathStep {
  enum class Kind { kField, kIndex, kWildcard } kind;
  std::string name;
  int64_t index = 0;
};

std::optional<std::vector<PathStep>> CompilePath(std::string_view path) {
  if (path.empty() || path[0] != '$') return std::nullopt;
  std::vector<PathStep> steps;
  size_t i = 1;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      const size_t start = i;
      while (i < path.size() && path[i] != '.' && path[i] != '[') ++i;
      if (i == start) return std::nullopt;
      std::string name(path.substr(start, i - start));
      if (name == "*") {
        steps.push_back({PathStep::Kind::kWildcard, "", 0});
      } else {
        steps.push_back({PathStep::Kind::kField, std::move(name), 0});
      }
    } else if (path[i] == '[') {
      ++i;
      if (i < path.size() && path[i] == '\'') {
        const size_t end = path.find("']", i + 1);
        if (end == std::string_view::npos) return std::nullopt;
        steps.push_back({PathStep::Kind::kField, std::string(path.substr(i + 1, end - i - 1)), 0});
        i = end + 2;
      } else if (i < path.size() && path[i] == '*') {
        if (i + 1 >= path.size() || path[i + 1] != ']') return std::nullopt;
        steps.push_back({PathStep::Kind::kWildcard, "", 0});
        i += 2;
      } else {
        const size_t start = i;
        while (i < path.size() && std::isdigit(static_cast<unsigned char>(path[i]))) ++i;
        if (i == start || i >= path.size() || path[i] != ']') return std::nullopt;
        steps.push_back({PathStep::Kind::kIndex, "",
                         std::stoll(std::string(path.substr(start, i - start)))});
        ++i;
      }
    } else {
      return std::nullopt;
    }
  }
  return steps;
}

// Collects the values `steps` select below `node`; `wildcard` says whether a [*] was crossed.
void Select(const JsonNode& node, const std::vector<PathStep>& steps, size_t step,
            std::vector<const JsonNode*>* out, bool* wildcard) {
  if (step == steps.size()) {
    out->push_back(&node);
    return;
  }
  const PathStep& s = steps[step];
  switch (s.kind) {
    case PathStep::Kind::kField:
      if (node.kind != JsonNode::Kind::kObject) return;
      for (size_t i = 0; i < node.keys.size(); ++i) {
        if (node.keys[i] == s.name) {
          Select(node.items[i], steps, step + 1, out, wildcard);
          return;
        }
      }
      return;
    case PathStep::Kind::kIndex:
      if (node.kind != JsonNode::Kind::kArray || s.index >= static_cast<int64_t>(node.items.size())) {
        return;
      }
      Select(node.items[s.index], steps, step + 1, out, wildcard);
      return;
    case PathStep::Kind::kWildcard:
      if (node.kind != JsonNode::Kind::kArray) return;
      *wildcard = true;
      for (const auto& item : node.items) Select(item, steps, step + 1, out, wildcard);
      return;
  }
}

arrow::Result<ResolvedCall> ResolveGetJsonObject(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  for (size_t i = 0; i < 2; ++i) {
    const auto id = call.args[i]->type()->id();
    if (id != arrow::Type::STRING && id != arrow::Type::NA) {
      return UnexpectedInputType(call, i, "\"STRING\"");
    }
  }
  ResolvedCall resolved;
  resolved.args = call.args;
  resolved.return_type = arrow::utf8();
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    arrow::StringBuilder out(context.pool);
    if (args[0].type()->id() == arrow::Type::NA || args[1].type()->id() == arrow::Type::NA) {
      return arrow::Datum(arrow::MakeNullScalar(arrow::utf8()));
    }
    auto input = InputArray(args[0], num_rows, context.pool);
    auto paths = InputArray(args[1], num_rows, context.pool);
    const auto& strings = static_cast<const arrow::StringArray&>(*input);
    const auto& path_strings = static_cast<const arrow::StringArray&>(*paths);
    JsonParseOptions parse;
    std::optional<std::vector<PathStep>> compiled;
    std::string compiled_for;
    bool have_compiled = false;
    JsonNode node;
    std::string text;
    for (int64_t row = 0; row < num_rows; ++row) {
      if (strings.IsNull(row) || path_strings.IsNull(row)) {
        ARROW_RETURN_NOT_OK(out.AppendNull());
        continue;
      }
      const auto path = path_strings.GetView(row);
      if (!have_compiled || path != compiled_for) {
        compiled = CompilePath(path);
        compiled_for = std::string(path);
        have_compiled = true;
      }
      if (!compiled || ParseJson(strings.GetView(row), parse, &node) != JsonParseResult::kOk) {
        ARROW_RETURN_NOT_OK(out.AppendNull());
        continue;
      }
      std::vector<const JsonNode*> selected;
      bool wildcard = false;
      Select(node, *compiled, 0, &selected, &wildcard);
      const JsonNode* single = nullptr;
      text.clear();
      if (selected.size() == 1) {
        single = selected[0];
      } else if (selected.size() > 1) {
        text.push_back('[');
        for (size_t i = 0; i < selected.size(); ++i) {
          if (i) text.push_back(',');
          AppendJsonNode(*selected[i], &text);
        }
        text.push_back(']');
      }
      if (single != nullptr) {
        if (single->kind == JsonNode::Kind::kNull) {
          ARROW_RETURN_NOT_OK(out.AppendNull());
          continue;
        }
        if (single->kind == JsonNode::Kind::kString) {
          text = single->text;
        } else {
          AppendJsonNode(*single, &text);
        }
      } else if (selected.empty()) {
        ARROW_RETURN_NOT_OK(out.AppendNull());
        continue;
      }
      ARROW_RETURN_NOT_OK(out.Append(text));
    }
    ARROW_ASSIGN_OR_RAISE(auto result, out.Finish());
    return arrow::Datum(result);
  };
  return resolved;
}

}  // namespace

arrow::Result<std::map<std::string, std::string>> JsonOptionsArgument(const CallSite& call,
                                                                      size_t index) {
  const auto& arg = call.args[index];
  auto invalid = [&]() {
    return SparkError("INVALID_OPTIONS.NON_MAP_FUNCTION",
                      "Invalid options: Must use the `map()` function for options.");
  };
  if (arg->type()->id() != arrow::Type::MAP) return invalid();
  // A constant map: evaluate it once over a batch of one row without columns.
  auto batch = arrow::RecordBatch::Make(arrow::schema({}), 1, arrow::ArrayVector{});
  EvalContext context;
  context.config = call.config;
  auto value = EvaluateToArray(*arg, *batch, context);
  if (!value.ok()) return invalid();
  const auto& map = static_cast<const arrow::MapArray&>(**value);
  if (map.keys()->type_id() != arrow::Type::STRING ||
      map.items()->type_id() != arrow::Type::STRING) {
    return SparkError("INVALID_OPTIONS.NON_STRING_TYPE",
                      "Invalid options: A type of keys and values in `map()` must be string, but "
                      "got \"" + SqlTypeName(*arg->type()) + "\".");
  }
  std::map<std::string, std::string> options;
  const auto& keys = static_cast<const arrow::StringArray&>(*map.keys());
  const auto& items = static_cast<const arrow::StringArray&>(*map.items());
  for (int32_t j = map.value_offset(0); j < map.value_offset(1); ++j) {
    if (items.IsNull(j)) continue;
    options[std::string(keys.GetView(j))] = std::string(items.GetView(j));
  }
  return options;
}

void RegisterJsonFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("from_json", ResolveFromJson);
  registry.RegisterScalar("get_json_object", ResolveGetJsonObject);
  RegisterToJson(registry);
}

}  // namespace sluice::expr
