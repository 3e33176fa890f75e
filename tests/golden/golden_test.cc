// Runs every case of tests/golden/expected/*.json through Sluice and compares with the answers
// real Spark gave (see tests/golden/README.md). Cases Sluice does not match yet are listed, with
// the reason, in known_failures.txt: they are skipped, and a listed case that starts passing fails
// until it is taken off the list, so the list only shrinks.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <arrow/compute/api.h>
#include <arrow/table.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "sluice/api/dataframe.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"
#include "sluice/common/errors.h"
#include "sluice/sql/expression_parser.h"
#include "sluice/types/ddl_parser.h"
#include "sluice/types/spark_type_names.h"
#include "support/canonical_values.h"

namespace sluice {
namespace {

namespace F = functions;
namespace fs = std::filesystem;

const fs::path kGoldenDir = fs::path(SLUICE_TEST_DATA_DIR) / "golden";

struct GoldenCase {
  std::string area;
  std::string name;
  std::string json;  // the case object, as written by the generator
};

// gtest prints parameters of failed tests; the case's name says enough.
void PrintTo(const GoldenCase& golden, std::ostream* out) {
  *out << golden.area << "/" << golden.name;
}

std::vector<GoldenCase> LoadCases() {
  std::vector<GoldenCase> cases;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kGoldenDir / "expected")) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    simdjson::dom::parser parser;
    simdjson::dom::element document;
    if (parser.load(file.string()).get(document) != simdjson::SUCCESS) {
      ADD_FAILURE() << "cannot parse " << file;
      continue;
    }
    for (auto item : document["cases"].get_array()) {
      std::string_view name = item["name"].get_string().value();
      cases.push_back({file.stem().string(), std::string(name), simdjson::minify(item)});
    }
  }
  return cases;
}

// "area/case  reason" lines; '#' starts a comment.
std::map<std::string, std::string> LoadKnownFailures() {
  std::map<std::string, std::string> known;
  std::ifstream in(kGoldenDir / "known_failures.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string key, reason;
    fields >> key;
    std::getline(fields, reason);
    known[key] = reason;
  }
  return known;
}

std::string Text(simdjson::dom::element value) {
  std::string_view text;
  if (value.get(text) == simdjson::SUCCESS) return std::string(text);
  bool flag;
  if (value.get(flag) == simdjson::SUCCESS) return flag ? "true" : "false";
  return simdjson::minify(value);
}

// Builds an input table: every value is read as text and cast by Arrow (not by Sluice), so the
// inputs do not depend on the code under test.
arrow::Result<std::shared_ptr<arrow::Table>> MakeInput(simdjson::dom::element spec) {
  ARROW_ASSIGN_OR_RAISE(auto schema,
                        types::ParseSchema(std::string(spec["schema"].get_string().value())));
  simdjson::dom::array rows = spec["rows"].get_array();
  arrow::ArrayVector columns;
  for (int c = 0; c < schema->num_fields(); ++c) {
    arrow::StringBuilder text;
    for (auto row : rows) {
      auto value = row.at(c).value();
      if (value.is_null()) {
        ARROW_RETURN_NOT_OK(text.AppendNull());
      } else {
        ARROW_RETURN_NOT_OK(text.Append(Text(value)));
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto strings, text.Finish());
    const auto& type = schema->field(c)->type();
    ARROW_ASSIGN_OR_RAISE(auto column, arrow::compute::Cast(strings, type));
    columns.push_back(column.make_array());
  }
  return arrow::Table::Make(schema, columns, static_cast<int64_t>(rows.size()));
}

Column SortKey(const std::string& key) {
  auto parsed = sql::ParseSortOrder(key);
  if (!parsed.ok()) return Column(std::make_shared<expr::InvalidExpr>(parsed.status(), key));
  return Column(*parsed);
}

std::vector<Column> Exprs(simdjson::dom::element list) {
  std::vector<Column> columns;
  for (auto item : list.get_array()) columns.push_back(F::expr(Text(item)));
  return columns;
}

DataFrame Apply(const SparkSession& spark, const DataFrame& df, simdjson::dom::element op,
                const std::map<std::string, DataFrame>& tables) {
  const std::string kind = Text(op["op"]);
  if (kind == "selectExpr") {
    std::vector<std::string> exprs;
    for (auto item : op["exprs"].get_array()) exprs.push_back(Text(item));
    return df.selectExpr(exprs);
  }
  if (kind == "filter") return df.filter(Text(op["condition"]));
  if (kind == "groupBy") return df.groupBy(Exprs(op["keys"])).agg(Exprs(op["aggs"]));
  if (kind == "orderBy") {
    std::vector<Column> keys;
    for (auto item : op["keys"].get_array()) keys.push_back(SortKey(Text(item)));
    return df.orderBy(keys);
  }
  if (kind == "limit") return df.limit(op["n"].get_int64().value());
  if (kind == "distinct") return df.distinct();
  if (kind == "union") return df.union_(tables.at(Text(op["table"])));
  if (kind == "unionByName") {
    bool allow = false;
    if (auto flag = op["allowMissingColumns"]; flag.error() == simdjson::SUCCESS) {
      allow = flag.get_bool().value();
    }
    return df.unionByName(tables.at(Text(op["table"])), allow);
  }
  if (kind == "join") {
    const DataFrame& right = tables.at(Text(op["table"]));
    auto on = op["on"];
    if (on.error() != simdjson::SUCCESS) return df.alias("t").crossJoin(right);
    return df.alias("t").join(right, F::expr(Text(on.value())), Text(op["how"]));
  }
  if (kind == "withColumn") return df.withColumn(Text(op["name"]), F::expr(Text(op["expr"])));
  if (kind == "drop") {
    std::vector<std::string> names;
    for (auto item : op["columns"].get_array()) names.push_back(Text(item));
    return df.drop(names);
  }
  if (kind == "sql") {
    for (const auto& [name, table] : tables) {
      auto status = table.createOrReplaceTempView(name);
      if (!status.ok()) return DataFrame(df.session(), status);
    }
    return spark.sql(Text(op["query"]));
  }
  return DataFrame(df.session(), arrow::Status::Invalid("unknown golden op ", kind));
}

// Runs the case; returns "" when Sluice gives Spark's answer, else what differs.
std::string RunCase(const GoldenCase& golden) {
  simdjson::dom::parser parser;
  simdjson::dom::element spec = parser.parse(golden.json).value();
  auto builder = SparkSession::builder();
  if (auto conf = spec["conf"]; conf.error() == simdjson::SUCCESS) {
    for (auto [key, value] : conf.get_object()) builder.config(std::string(key), Text(value));
  }
  auto session = builder.getOrCreate();
  if (!session.ok()) return "session: " + session.status().ToString();

  std::map<std::string, DataFrame> tables;
  for (auto [name, table_spec] : spec["tables"].get_object()) {
    auto table = MakeInput(table_spec);
    if (!table.ok()) return "input " + std::string(name) + ": " + table.status().ToString();
    tables.emplace(std::string(name),
                   (*session)->createDataFrame(*table).alias(std::string(name)));
  }
  DataFrame df = tables.at("t");
  for (auto op : spec["ops"].get_array()) df = Apply(**session, df, op, tables);
  auto result = df.collect();

  if (auto error = spec["error"]; error.error() == simdjson::SUCCESS) {
    const std::string expected = Text(error.value());
    if (result.ok()) return "expected error " + expected + ", got " +
                            std::to_string((*result)->num_rows()) + " rows";
    auto actual = ErrorClassOf(result.status());
    if (actual && *actual == expected) return "";
    return "expected error " + expected + ", got " + result.status().ToString();
  }
  if (!result.ok()) return "failed: " + result.status().ToString();
  auto table = (*result)->CombineChunks().ValueOrDie();

  std::string problems;
  simdjson::dom::array schema = spec["schema"].get_array();
  if (static_cast<int>(schema.size()) != table->num_columns()) {
    return "expected " + std::to_string(schema.size()) + " columns, got " +
           table->schema()->ToString();
  }
  int c = 0;
  for (auto field : schema) {
    const std::string name = Text(field["name"]), type = Text(field["type"]);
    const auto& actual = table->schema()->field(c++);
    const std::string actual_type = types::SimpleString(*actual->type());
    if (actual->name() != name || actual_type != type) {
      problems += "column " + std::to_string(c - 1) + ": expected `" + name + "` " + type +
                  ", got `" + actual->name() + "` " + actual_type + "\n";
    }
  }
  if (!problems.empty()) return problems;

  simdjson::dom::array rows = spec["rows"].get_array();
  if (static_cast<int64_t>(rows.size()) != table->num_rows()) {
    problems = "expected " + std::to_string(rows.size()) + " rows, got " +
               std::to_string(table->num_rows()) + "\n";
  }
  const bool ordered = spec["ordered"].get_bool().value_unsafe();
  std::vector<bool> used(rows.size(), false);
  for (int64_t r = 0; r < table->num_rows(); ++r) {
    std::string row_text = "[";
    for (int k = 0; k < table->num_columns(); ++k) {
      row_text += (k ? ", " : "") + testing::CanonicalText(*table->column(k)->chunk(0), r);
    }
    row_text += "]";
    auto matches = [&](simdjson::dom::element expected) {
      for (int k = 0; k < table->num_columns(); ++k) {
        if (!testing::MatchesCanonical(*table->column(k)->chunk(0), r, expected.at(k).value(),
                                       nullptr)) {
          return false;
        }
      }
      return true;
    };
    bool found = false;
    size_t index = 0;
    for (auto expected : rows) {
      if (!used[index] && (!ordered || index == static_cast<size_t>(r)) && matches(expected)) {
        used[index] = found = true;
        break;
      }
      ++index;
    }
    if (!found) problems += "unexpected row " + std::to_string(r) + ": " + row_text + "\n";
  }
  size_t index = 0;
  for (auto expected : rows) {
    if (!used[index++]) problems += "missing row: " + simdjson::minify(expected) + "\n";
  }
  return problems;
}

class GoldenTest : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenTest, MatchesSpark) {
  static const auto known = LoadKnownFailures();
  const GoldenCase& golden = GetParam();
  const std::string key = golden.area + "/" + golden.name;
  const std::string problems = RunCase(golden);
  auto listed = known.find(key);
  if (listed != known.end()) {
    if (problems.empty()) {
      FAIL() << key << " now matches Spark: remove it from tests/golden/known_failures.txt";
    }
    GTEST_SKIP() << "known failure:" << listed->second << "\n" << problems;
  }
  EXPECT_TRUE(problems.empty()) << key << "\n" << problems;
}

INSTANTIATE_TEST_SUITE_P(Spark, GoldenTest, ::testing::ValuesIn(LoadCases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& info) {
                           std::string name = info.param.area + "_" + info.param.name;
                           for (auto& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace sluice
