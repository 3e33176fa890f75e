// Runs every scenario of tests/golden_stateful/expected/*.json through Sluice and compares it,
// micro-batch by micro-batch, with what real Spark did (see generate.py): each batch's rows,
// numInputRows, event-time watermark and state operator counters. The query is the C++ twin of
// the scenario's PySpark query (stateful_golden_queries.h); each step of input is one AddData
// to a MemoryStream followed by processAllAvailable(), as each step was one file for Spark.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <arrow/compute/api.h>
#include <arrow/table.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "golden_stateful/stateful_golden_queries.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/common/errors.h"
#include "sluice/sources/memory/memory_stream.h"
#include "sluice/types/ddl_parser.h"
#include "sluice/types/spark_type_names.h"
#include "support/canonical_values.h"
#include "support/golden_rows.h"
#include "support/scratch_dir.h"
#include "support/session_fixture.h"

namespace sluice::golden_stateful {
namespace {

namespace fs = std::filesystem;

const fs::path kExpectedDir = fs::path(SLUICE_TEST_DATA_DIR) / "golden_stateful" / "expected";

struct Scenario {
  std::string name;
  fs::path file;
};

// gtest prints the parameters of failed tests; the name says enough.
void PrintTo(const Scenario& scenario, std::ostream* out) { *out << scenario.name; }

std::vector<Scenario> LoadScenarios() {
  std::vector<Scenario> scenarios;
  for (const auto& entry : fs::directory_iterator(kExpectedDir)) {
    if (entry.path().extension() == ".json") {
      scenarios.push_back({entry.path().stem().string(), entry.path()});
    }
  }
  std::sort(scenarios.begin(), scenarios.end(),
            [](const Scenario& a, const Scenario& b) { return a.name < b.name; });
  return scenarios;
}

std::string Text(simdjson::dom::element value) {
  std::string_view text;
  if (value.get(text) == simdjson::SUCCESS) return std::string(text);
  return simdjson::minify(value);
}

int64_t Int(simdjson::dom::element value) { return value.get_int64().value(); }

// One step of input as a table. Values are read as text and cast by Arrow, not by Sluice, so
// the input does not depend on the code under test; timestamps ("2024-01-01 00:00:20", UTC, as
// Spark's JSON reader took them) get the ISO form with a zone that Arrow parses.
arrow::Result<std::shared_ptr<arrow::Table>> StepTable(const std::shared_ptr<arrow::Schema>& schema,
                                                       simdjson::dom::array rows) {
  arrow::ArrayVector columns;
  for (int c = 0; c < schema->num_fields(); ++c) {
    const auto& type = schema->field(c)->type();
    // A TIMESTAMP (zoned) value needs the zone spelled out; a TIMESTAMP_NTZ one must not have it.
    const bool timestamp =
        type->id() == arrow::Type::TIMESTAMP &&
        !static_cast<const arrow::TimestampType&>(*type).timezone().empty();
    arrow::StringBuilder text;
    for (auto row : rows) {
      auto value = row.at(c).value();
      if (value.is_null()) {
        ARROW_RETURN_NOT_OK(text.AppendNull());
        continue;
      }
      std::string item = Text(value);
      if (timestamp) {
        std::replace(item.begin(), item.end(), ' ', 'T');
        item += "Z";
      }
      ARROW_RETURN_NOT_OK(text.Append(item));
    }
    ARROW_ASSIGN_OR_RAISE(auto strings, text.Finish());
    ARROW_ASSIGN_OR_RAISE(auto column, arrow::compute::Cast(strings, type));
    columns.push_back(column.make_array());
  }
  return arrow::Table::Make(schema, columns, static_cast<int64_t>(rows.size()));
}

/// `input_rows_comparable`: false when Spark's numInputRows left out rows its JSON reader
/// dropped by a pushed-down filter (see README.md), so only the rest is compared.
std::string CompareProgress(const execution::StreamingQueryProgress& progress,
                            simdjson::dom::element expected, bool input_rows_comparable) {
  std::string problems;
  auto mismatch = [&](const std::string& what, const std::string& want, const std::string& got) {
    if (want != got) problems += "  " + what + ": expected " + want + ", got " + got + "\n";
  };
  if (input_rows_comparable) {
    mismatch("numInputRows", std::to_string(Int(expected["numInputRows"])),
             std::to_string(progress.num_input_rows()));
  }
  auto watermark = progress.event_time.find("watermark");
  mismatch("watermark", Text(expected["watermark"]),
           watermark == progress.event_time.end() ? "null" : watermark->second);
  simdjson::dom::array operators = expected["stateOperators"].get_array();
  mismatch("state operators", std::to_string(operators.size()),
           std::to_string(progress.state_operators.size()));
  size_t i = 0;
  for (auto op : operators) {
    if (i >= progress.state_operators.size()) break;
    const auto& actual = progress.state_operators[i];
    const std::string where = "stateOperators[" + std::to_string(i++) + "].";
    // PySpark's applyInPandasWithState and transformWithStateInPandas are the
    // flatMapGroupsWithState and transformWithState the C++ twins call.
    std::string expected_name = Text(op["operatorName"]);
    if (expected_name == "applyInPandasWithState") expected_name = "flatMapGroupsWithState";
    if (expected_name == "transformWithStateInPandasExec") {
      expected_name = "transformWithStateExec";
    }
    mismatch(where + "operatorName", expected_name, actual.operator_name);
    for (auto [key, value] : std::vector<std::pair<std::string, int64_t>>{
             {"numRowsTotal", actual.num_rows_total},
             {"numRowsUpdated", actual.num_rows_updated},
             {"numRowsRemoved", actual.num_rows_removed},
             {"numRowsDroppedByWatermark", actual.num_rows_dropped_by_watermark}}) {
      mismatch(where + key, std::to_string(Int(op[key])), std::to_string(value));
    }
  }
  return problems;
}

// What one run of a query saw: each batch's rows and each batch's progress.
struct QueryRun {
  std::map<int64_t, std::shared_ptr<arrow::Table>> rows;
  std::map<int64_t, execution::StreamingQueryProgress> progress;
  arrow::Status error;
  std::string phase;  // where `error` came from: analysis, start, step N
};

class StatefulGoldenTest : public testing::SessionTest,
                           public ::testing::WithParamInterface<Scenario> {
 protected:
  // Runs the scenario's query over its steps; returns what happened.
  QueryRun RunQuery(simdjson::dom::element spec, const QueryBuilder& build) {
    QueryRun run;
    // Spark ran with two shuffle partitions; the counters compared do not depend on them, but
    // the same split keeps the two runs alike.
    EXPECT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "2").ok());
    for (auto [key, value] : spec["conf"].get_object()) {
      EXPECT_TRUE(spark_->conf().set(std::string(key), Text(value)).ok());
    }
    auto schema = types::ParseSchema(Text(spec["schema"]));
    if (!schema.ok()) {
      ADD_FAILURE() << "schema: " << schema.status().ToString();
      return run;
    }
    auto input = sources::MemoryStream::Make(*schema);
    DataFrame output = build(spark_->readStream().load(input));
    if (!output.ok()) {
      run.error = output.status();
      run.phase = "analysis";
      return run;
    }
    auto mutex = std::make_shared<std::mutex>();
    auto rows = std::make_shared<std::map<int64_t, std::shared_ptr<arrow::Table>>>();
    auto query = output.writeStream()
                     .outputMode(Text(spec["mode"]))
                     .option("checkpointLocation", scratch_ / "checkpoint")
                     .foreachBatch([mutex, rows](const DataFrame& batch, int64_t id) {
                       ARROW_ASSIGN_OR_RAISE(auto table, batch.collect());
                       std::lock_guard<std::mutex> lock(*mutex);
                       (*rows)[id] = std::move(table);
                       return arrow::Status::OK();
                     })
                     .start();
    if (!query.ok()) {
      run.error = query.status();
      run.phase = "start";
      return run;
    }
    int step = 0;
    for (auto step_rows : spec["steps"].get_array()) {
      auto table = StepTable(*schema, step_rows.get_array());
      if (!table.ok()) {
        ADD_FAILURE() << "step " << step << ": " << table.status().ToString();
        break;
      }
      auto added = input->AddData(*table);
      arrow::Status status = added.ok() ? (*query)->processAllAvailable() : added.status();
      if (!status.ok()) {
        run.error = status;
        run.phase = "step " + std::to_string(step);
        break;
      }
      ++step;
    }
    (void)(*query)->stop();
    if (run.error.ok() && !(*query)->exception().ok()) {
      run.error = (*query)->exception();
      run.phase = "batch";
    }
    // Only batches that ran count: a report without addBatch is an idle trigger's.
    for (const auto& progress : (*query)->recentProgress()) {
      if (progress.duration_ms.count("addBatch")) run.progress[progress.batch_id] = progress;
    }
    std::lock_guard<std::mutex> lock(*mutex);
    run.rows = *rows;
    return run;
  }

  /// Reads the stopped query's checkpoint as each of spec["stateReads"] read Spark's, and
  /// compares what came back, partition_id included.
  std::string CompareStateReads(simdjson::dom::element spec) {
    simdjson::dom::array reads;
    if (spec["stateReads"].get(reads) != simdjson::SUCCESS) return "";
    std::string problems;
    int index = 0;
    for (auto read : reads) {
      auto reader = spark_->read();
      reader.format(Text(read["format"]));
      std::string described;
      for (auto [key, value] : read["options"].get_object()) {
        int64_t number;
        const std::string text =
            value.get(number) == simdjson::SUCCESS ? std::to_string(number) : Text(value);
        reader.option(std::string(key), text);
        described += " " + std::string(key) + "=" + text;
      }
      const std::string where = "stateReads[" + std::to_string(index++) + "] " +
                                Text(read["format"]) + described;
      DataFrame df = reader.load(scratch_ / "checkpoint");
      auto table = df.collect();
      if (!table.ok()) {
        problems += where + ": " + table.status().ToString() + "\n";
        continue;
      }
      std::string found =
          testing::CompareColumns(*(*table)->schema(), read["columns"].get_array()) +
          testing::CompareRows(**table, read["rows"].get_array());
      if (!found.empty()) problems += where + ":\n" + found;
    }
    return problems;
  }

  testing::ScratchDir scratch_;
};

std::string CompareError(const QueryRun& run, simdjson::dom::element spec) {
  const std::string expected_class = Text(spec["errorClass"]);
  const std::string expected_message = Text(spec["message"]);
  if (run.error.ok()) {
    return "expected error " + expected_class + " (Spark: " + Text(spec["phase"]) +
           "), the query ran " + std::to_string(run.rows.size()) + " batches\n";
  }
  // A batch failure arrives as STREAM_FAILED quoting its cause's "[CLASS] message".
  auto actual = ErrorClassOf(run.error);
  const std::string& message = run.error.message();
  if ((!actual || *actual != expected_class) &&
      message.find("[" + expected_class + "]") == std::string::npos) {
    return "expected error " + expected_class + ", got (" + run.phase + ") " +
           run.error.ToString() + "\n";
  }
  // PySpark's applyInPandasWithState is the flatMapGroupsWithState the C++ twins call; Spark
  // names the API in its messages ("[map|flatMap]GroupsWithState" in the generic ones).
  bool same_message = message.find(expected_message) != std::string::npos;
  for (const char* scala_name : {"flatMapGroupsWithState", "[map|flatMap]GroupsWithState"}) {
    std::string renamed = expected_message;
    const std::string python_name = "applyInPandasWithState";
    for (size_t at = renamed.find(python_name); at != std::string::npos;
         at = renamed.find(python_name, at)) {
      renamed.replace(at, python_name.size(), scala_name);
    }
    same_message = same_message || message.find(renamed) != std::string::npos;
  }
  if (!same_message) {
    return "error " + expected_class + " has another message:\n  Spark: " + expected_message +
           "\n  ours:  " + message + "\n";
  }
  return "";
}

std::string CompareBatches(const QueryRun& run, simdjson::dom::element spec) {
  if (!run.error.ok()) return "failed (" + run.phase + "): " + run.error.ToString() + "\n";
  std::string problems;
  std::set<int64_t> expected_ids;
  for (auto batch : spec["batches"].get_array()) {
    const int64_t id = Int(batch["batchId"]);
    expected_ids.insert(id);
    const std::string where = "batch " + std::to_string(id) + " (after step " +
                              std::to_string(Int(batch["afterStep"])) + ")";
    auto rows = run.rows.find(id);
    if (rows == run.rows.end()) {
      problems += where + ": did not run\n";
      continue;
    }
    if (problems.empty()) {
      problems += testing::CompareColumns(*rows->second->schema(), spec["columns"].get_array());
    }
    std::string batch_problems = testing::CompareRows(*rows->second, batch["rows"].get_array());
    auto progress = run.progress.find(id);
    if (progress == run.progress.end()) {
      batch_problems += "  no progress report\n";
    } else {
      bool input_rows_comparable = true;
      if (spec["inputRowsComparable"].get(input_rows_comparable) != simdjson::SUCCESS) {
        input_rows_comparable = true;
      }
      batch_problems += CompareProgress(progress->second, batch, input_rows_comparable);
    }
    if (!batch_problems.empty()) problems += where + ":\n" + batch_problems;
  }
  for (const auto& [id, rows] : run.rows) {
    if (!expected_ids.count(id)) {
      problems += "batch " + std::to_string(id) + " ran, Spark had no such batch (" +
                  std::to_string(rows->num_rows()) + " rows)\n";
    }
  }
  return problems;
}

// "scenario  reason" lines; '#' starts a comment.
std::map<std::string, std::string> LoadKnownFailures() {
  std::map<std::string, std::string> known;
  std::ifstream in(kExpectedDir.parent_path() / "known_failures.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, reason;
    fields >> name;
    std::getline(fields, reason);
    known[name] = reason;
  }
  return known;
}

/// The query of a scenario: a scenario run again with other settings (`repeated` in
/// scenarios.py) shares the query of the scenario it repeats.
std::string QueryName(const std::string& scenario) {
  for (std::string_view suffix : {"_without_no_data_batches", "_on_rocksdb"}) {
    if (scenario.ends_with(suffix)) return scenario.substr(0, scenario.size() - suffix.size());
  }
  return scenario;
}

TEST_P(StatefulGoldenTest, MatchesSpark) {
  static const auto known = LoadKnownFailures();
  const Scenario& scenario = GetParam();
  simdjson::dom::parser parser;
  simdjson::dom::element spec;
  ASSERT_EQ(parser.load(scenario.file.string()).get(spec), simdjson::SUCCESS)
      << "cannot parse " << scenario.file;
  auto query = Queries().find(QueryName(scenario.name));
  if (query == Queries().end()) {
    FAIL() << scenario.name << " has no C++ query in stateful_golden_queries.h";
  }
  const QueryRun run = RunQuery(spec, query->second);
  const bool expects_error = spec["errorClass"].error() == simdjson::SUCCESS;
  const std::string problems = expects_error
                                   ? CompareError(run, spec)
                                   : CompareBatches(run, spec) + CompareStateReads(spec);
  auto listed = known.find(scenario.name);
  if (listed != known.end()) {
    if (problems.empty()) {
      FAIL() << scenario.name
             << " now matches Spark: remove it from tests/golden_stateful/known_failures.txt";
    }
    GTEST_SKIP() << "known failure:" << listed->second << "\n" << problems;
  }
  EXPECT_TRUE(problems.empty()) << scenario.name << "\n" << problems;
}

INSTANTIATE_TEST_SUITE_P(Spark, StatefulGoldenTest, ::testing::ValuesIn(LoadScenarios()),
                         [](const ::testing::TestParamInfo<Scenario>& info) {
                           return info.param.name;
                         });

// Every C++ query belongs to a scenario Spark answered: a renamed or removed scenario must not
// leave a query behind that no test runs.
TEST(StatefulGoldenQueries, EachHasAnExpectedFile) {
  for (const auto& [name, build] : Queries()) {
    EXPECT_TRUE(fs::exists(kExpectedDir / (name + ".json"))) << name << " has no expected file";
  }
}

}  // namespace
}  // namespace sluice::golden_stateful
