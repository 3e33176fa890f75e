// `sluice state` on checkpoints written by real queries on both providers: the rows of a
// store at the last committed or a chosen batch, equal to what the query computed, shown as a
// table or written to Parquet, a side of a join, and errors naming what was wrong.
#include <sstream>

#include <gtest/gtest.h>

#include "sluice/state/operator_metadata.h"
#include "sluice/tools/state_command.h"
#include "tools/stateful_checkpoint_fixture.h"

namespace sluice::testing {
namespace {

using tools::StateSelection;

class StateCommandTest : public StatefulCheckpointTest {
 protected:
  /// The id of the operator Spark names `name` in the checkpoint.
  int64_t OperatorId(const std::string& name) {
    checkpoint::CheckpointPaths paths(checkpoint_);
    auto ids = state::ListStateOperators(paths);
    EXPECT_TRUE(ids.ok());
    for (int64_t id : ids.ValueOr({})) {
      auto info = state::ReadOperatorMetadata(paths, id);
      if (info.ok() && info->operator_name == name) return id;
    }
    ADD_FAILURE() << "no operator " << name;
    return -1;
  }

  StateSelection Select(const std::string& operator_name) {
    StateSelection selection;
    selection.checkpoint = checkpoint_;
    selection.operator_id = OperatorId(operator_name);
    return selection;
  }

  /// key and value of each row, sorted.
  std::vector<std::string> KeyValueRows(const std::shared_ptr<arrow::Table>& table) {
    auto rows = RowsOf(*table->SelectColumns({0, 1}).ValueOrDie());
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  std::vector<std::string> KeyValueRows(const StateSelection& selection) {
    auto table = tools::ReadState(*spark_, selection).collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? KeyValueRows(*table) : std::vector<std::string>{};
  }
};

TEST_P(StateCommandTest, ReadsTheCountsTheQueryComputed) {
  RunDedupedCounts();
  StateSelection counts = Select("stateStoreSave");
  EXPECT_EQ(KeyValueRows(counts), (std::vector<std::string>{
                                      R"([["a"],[2]])", R"([["b"],[1]])", R"([["c"],[1]])"}));
  counts.batch_id = 0;
  EXPECT_EQ(KeyValueRows(counts),
            (std::vector<std::string>{R"([["a"],[1]])", R"([["b"],[1]])"}));
  // After batch 0 the deduplication keeps the distinct (k, event time) of that batch.
  StateSelection seen = Select("dedupe");
  seen.batch_id = 0;
  auto table = tools::ReadState(*spark_, seen).collect();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->num_rows(), 2);
  // Its keys are decoded with the key schema the operator recorded.
  auto info = state::ReadOperatorMetadata(checkpoint::CheckpointPaths(checkpoint_),
                                          seen.operator_id);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_TRUE((*table)->schema()->field(0)->type()->Equals(
      arrow::struct_(info->stores.at(0).key_schema->fields())))
      << (*table)->schema()->field(0)->type()->ToString();
  EXPECT_EQ(info->stores.at(0).key_schema->num_fields(), 2);
}

TEST_P(StateCommandTest, PrintsAHeaderAndTheFirstRowsAsATable) {
  RunDedupedCounts();
  const int64_t last = query_->lastProgress()->batch_id;
  StateSelection counts = Select("stateStoreSave");
  std::ostringstream out;
  ASSERT_TRUE(tools::PrintState(*spark_, counts, 2, out).ok());
  const std::string text = out.str();
  EXPECT_TRUE(text.starts_with("Operator " + std::to_string(counts.operator_id) +
                               " (stateStoreSave), store default, batch " +
                               std::to_string(last) + " (state version " +
                               std::to_string(last + 1) + "): 3 row(s)\n"
                               "+---+-----+------------+\n"
                               "|key|value|partition_id|\n"
                               "+---+-----+------------+\n"))
      << text;
  EXPECT_NE(text.find("only showing top 2 rows"), std::string::npos) << text;
  // Two of the three rows are shown.
  int shown = 0;
  for (const char* row : {"|{a}|{2}  |", "|{b}|{1}  |", "|{c}|{1}  |"}) {
    shown += text.find(row) != std::string::npos;
  }
  EXPECT_EQ(shown, 2) << text;
}

TEST_P(StateCommandTest, WritesEveryRowToParquet) {
  RunDedupedCounts();
  const std::string path = scratch_dir_ / "counts.parquet";
  auto written = tools::WriteStateParquet(*spark_, Select("stateStoreSave"), path);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(*written, 3);
  auto table = ReadParquetFile(path);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->schema()->field(2)->name(), "partition_id");
  EXPECT_EQ(KeyValueRows(*table), (std::vector<std::string>{
                                     R"([["a"],[2]])", R"([["b"],[1]])", R"([["c"],[1]])"}));
  // An existing file is not replaced.
  auto again = tools::WriteStateParquet(*spark_, Select("stateStoreSave"), path);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find(path + " already exists"), std::string::npos);
}

TEST_P(StateCommandTest, ReadsASideOfAJoin) {
  RunJoin();
  StateSelection left = Select("symmetricHashJoin");
  left.join_side = "left";
  EXPECT_EQ(KeyValueRows(left), (std::vector<std::string>{
                                    R"([["a"],["a", "1970-01-01T00:00:05.000000Z"]])",
                                    R"([["b"],["b", "1970-01-01T00:00:06.000000Z"]])"}));
}

TEST_P(StateCommandTest, ErrorsNameTheWrongOperatorStoreOrBatch) {
  RunDedupedCounts();
  auto error_of = [&](const StateSelection& selection) {
    std::ostringstream out;
    auto status = tools::PrintState(*spark_, selection, 20, out);
    EXPECT_FALSE(status.ok());
    return status.message();
  };
  StateSelection selection = Select("stateStoreSave");
  selection.operator_id = 9;
  EXPECT_NE(error_of(selection).find("state/9/_metadata/metadata"), std::string::npos);
  selection = Select("stateStoreSave");
  selection.store_name = "other";
  EXPECT_NE(error_of(selection).find("has no store named other; its stores are default"),
            std::string::npos);
  selection = Select("stateStoreSave");
  selection.batch_id = 99;
  EXPECT_NE(error_of(selection).find("batch 99 is after the last committed batch"),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Providers, StateCommandTest,
                         ::testing::Values(state::kHdfsBackedProviderClass,
                                           state::kRocksDbProviderClass),
                         ProviderName);

}  // namespace
}  // namespace sluice::testing
