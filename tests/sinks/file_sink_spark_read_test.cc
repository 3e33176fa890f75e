// Spark reads what our file sink writes. WriteFixture below writes two sink folders (Parquet,
// and JSON partitioned by a column) through several batches: a compaction, an empty batch, the
// orphan files of an attempt that crashed before its manifest entry, and a replayed batch.
// scripts/generate-file-sink-golden.sh has real Spark read such folders (FileSinkSparkFixture
// writes them where SLUICE_WRITE_FILE_SINK_FIXTURE points) and commits the rows Spark saw in
// tests/golden_streaming/file_sink_spark_rows.json. The tests write the
// folders afresh and check that reading them finds exactly Spark's rows, both from the files
// the manifest commits and through the batch reader.
#include <cstdlib>
#include <filesystem>
#include <numeric>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "formats/format_test_support.h"
#include "sinks/file_sink_test_support.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/session.h"
#include "sluice/checkpoint/atomic_file.h"
#include "sluice/sinks/file/file_stream_sink.h"
#include "sluice/types/ddl_parser.h"
#include "sluice/types/spark_type_names.h"
#include "support/canonical_values.h"

namespace sluice::sinks {
namespace {

namespace fs = std::filesystem;
using formats::FileFormat;

/// One sink folder of the fixture.
struct Output {
  const char* name;
  FileFormat format;
  std::vector<std::string> partition_by;
};
const Output kOutputs[] = {{"parquet", FileFormat::kParquet, {}},
                           {"json", FileFormat::kJson, {"kind"}}};
constexpr int kCompactInterval = 3;
/// Rows with an id at or above this were written by a crashed attempt or a replayed batch:
/// no reader may see them.
constexpr int64_t kInvisibleIds = 500;

std::shared_ptr<arrow::Schema> Schema() {
  return types::ParseSchema("id BIGINT, kind STRING, score DOUBLE").ValueOrDie();
}

arrow::Status AddRows(StreamSink& sink, int64_t batch_id, const std::string& ids,
                      const std::string& kinds, const std::string& scores) {
  testing::InMemoryBatchStream data(Schema(),
                                    {testing::MakeBatch(Schema(), {ids, kinds, scores})});
  return sink.AddBatch(batch_id, data, OutputMode::kAppend);
}

arrow::Status WriteOutput(const Output& output, const std::string& folder) {
  auto make = [&] {
    return MakeFileStreamSink(output.format, {}, folder, output.partition_by, Schema(),
                              formats::FormatContext{}, kCompactInterval);
  };
  ARROW_ASSIGN_OR_RAISE(auto sink, make());
  ARROW_RETURN_NOT_OK(AddRows(*sink, 0, "[1, 2, 3]", R"(["a", "b", null])", "[0.5, 1.25, null]"));
  ARROW_RETURN_NOT_OK(AddRows(*sink, 1, "[4, 5]", R"(["a", "a"])", "[-2.0, 1e10]"));
  ARROW_RETURN_NOT_OK(AddRows(*sink, 2, "[6, 7]", R"(["b", "c"])", "[0.1, 3.0]"));  // 2.compact
  ARROW_RETURN_NOT_OK(AddRows(*sink, 3, "[]", "[]", "[]"));
  // Batch 4 crashes between its files and its manifest entry; the restarted query runs it again.
  ARROW_RETURN_NOT_OK(AddRows(*sink, 4, "[900, 901]", R"(["a", "zz"])", "[9.0, 9.0]"));
  fs::remove(fs::path(folder) / "_spark_metadata" / "4");
  ARROW_ASSIGN_OR_RAISE(sink, make());
  ARROW_RETURN_NOT_OK(AddRows(*sink, 4, "[8, 9]", R"(["c", null])", "[8.5, 9.5]"));
  // A replay of a committed batch (a crash after the manifest entry) is skipped.
  ARROW_RETURN_NOT_OK(AddRows(*sink, 4, "[500]", R"(["a"])", "[5.0]"));
  return AddRows(*sink, 5, "[10, 11]", R"(["a", "b"])", "[10.0, 11.0]");  // 5.compact
}

arrow::Status WriteFixture(const std::string& root) {
  for (const auto& output : kOutputs) {
    ARROW_RETURN_NOT_OK(WriteOutput(output, (fs::path(root) / output.name).string()));
  }
  return arrow::Status::OK();
}

/// Row indices of `batch` in ascending order of its "id" column.
std::vector<int64_t> OrderById(const arrow::RecordBatch& batch) {
  const auto& ids = static_cast<const arrow::Int64Array&>(*batch.GetColumnByName("id"));
  std::vector<int64_t> order(batch.num_rows());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int64_t a, int64_t b) { return ids.Value(a) < ids.Value(b); });
  return order;
}

/// Expects `table` to hold exactly the columns and rows of `spark` (one output of the golden
/// file), rows compared in id order.
void ExpectSparksRows(const arrow::Table& table, simdjson::dom::element spark) {
  auto batch = table.CombineChunksToBatch().ValueOrDie();
  simdjson::dom::array spark_columns, spark_types, rows;
  ASSERT_EQ(spark["columns"].get(spark_columns), simdjson::SUCCESS);
  ASSERT_EQ(spark["types"].get(spark_types), simdjson::SUCCESS);
  ASSERT_EQ(spark["rows"].get(rows), simdjson::SUCCESS);
  std::vector<std::string> columns, types, our_types;
  for (simdjson::dom::element column : spark_columns) {
    columns.emplace_back(column.get_string().value_unsafe());
  }
  for (simdjson::dom::element type : spark_types) {
    types.emplace_back(type.get_string().value_unsafe());
  }
  for (const auto& field : batch->schema()->fields()) {
    our_types.push_back(types::SimpleString(*field->type()));
  }
  ASSERT_EQ(columns, batch->schema()->field_names());
  EXPECT_EQ(types, our_types);
  ASSERT_EQ(static_cast<int64_t>(rows.size()), batch->num_rows());
  auto order = OrderById(*batch);
  size_t i = 0;
  for (simdjson::dom::element row : rows) {
    simdjson::dom::array cells;
    int64_t id = 0;
    ASSERT_EQ(row.get(cells), simdjson::SUCCESS);
    ASSERT_EQ(cells.at(0).get(id), simdjson::SUCCESS);
    EXPECT_LT(id, kInvisibleIds) << "Spark read a row that no manifest lists";
    for (size_t c = 0; c < columns.size(); ++c) {
      simdjson::dom::element cell;
      ASSERT_EQ(cells.at(c).get(cell), simdjson::SUCCESS);
      std::string why;
      EXPECT_TRUE(testing::MatchesCanonical(*batch->GetColumnByName(columns[c]), order[i], cell,
                                            &why))
          << "row " << i << " column " << columns[c] << ": " << why;
    }
    ++i;
  }
}

class FileSinkSparkReadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(WriteFixture(dir_.path()));
    auto text = checkpoint::ReadWholeFile(kGoldenPath);
    ASSERT_TRUE(text.ok()) << text.status().ToString();
    golden_text_ = std::move(*text);
    ASSERT_EQ(parser_.parse(golden_text_).get(golden_), simdjson::SUCCESS) << kGoldenPath;
  }
  simdjson::dom::element Spark(const Output& output) {
    simdjson::dom::element rows;
    EXPECT_EQ(golden_["outputs"][output.name].get(rows), simdjson::SUCCESS) << output.name;
    return rows;
  }

  static inline const std::string kGoldenPath =
      std::string(SLUICE_TEST_DATA_DIR) + "/golden_streaming/file_sink_spark_rows.json";
  testing::ScratchDir dir_;
  std::string golden_text_;
  simdjson::dom::parser parser_;
  simdjson::dom::element golden_;
};

/// Not a check: writes the fixture for scripts/generate-file-sink-golden.sh when asked to.
TEST(FileSinkSparkFixture, WritesTheFixtureWhenAsked) {
  const char* fixture = std::getenv("SLUICE_WRITE_FILE_SINK_FIXTURE");
  if (fixture == nullptr) GTEST_SKIP() << "SLUICE_WRITE_FILE_SINK_FIXTURE is not set";
  ASSERT_FALSE(fs::exists(fs::path(fixture) / kOutputs[0].name)) << fixture << " is not fresh";
  ASSERT_OK(WriteFixture(fixture));
}

TEST_F(FileSinkSparkReadTest, CommittedFilesHoldSparksRows) {
  for (const auto& output : kOutputs) {
    SCOPED_TRACE(output.name);
    auto table = testing::ReadCommittedRows(dir_ / output.name, output.format, Schema(),
                                            output.partition_by);
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    ExpectSparksRows(**table, Spark(output));
  }
}

TEST_F(FileSinkSparkReadTest, BatchReaderSeesSparksRows) {
  auto session = SparkSession::builder().appName("test").getOrCreate();
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  for (const auto& output : kOutputs) {
    SCOPED_TRACE(output.name);
    auto table = (*session)->read().format(output.name).load(dir_ / output.name).collect();
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    ExpectSparksRows(**table, Spark(output));
  }
}

}  // namespace
}  // namespace sluice::sinks
