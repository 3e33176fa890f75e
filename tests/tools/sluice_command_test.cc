// The real `sluice` program, run as a user runs it: its output, its exit codes, and its
// errors on stderr.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "tools/stateful_checkpoint_fixture.h"

namespace sluice::testing {
namespace {

/// What a run of the program printed and how it ended.
struct ProgramRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string Quoted(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Runs the shell command `command` with `input` on its standard input, its files in
/// `scratch`.
ProgramRun RunCommand(const ScratchDir& scratch, std::string command, const std::string& input) {
  const std::string in = scratch.Write("stdin.txt", input);
  const std::string out = scratch / "stdout.txt";
  const std::string err = scratch / "stderr.txt";
  command += " <" + Quoted(in) + " >" + Quoted(out) + " 2>" + Quoted(err);
  const int status = std::system(command.c_str());
  ProgramRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = ReadAll(out);
  run.err = ReadAll(err);
  return run;
}

/// Runs `sluice args...` with `input` on its standard input, its files in `scratch`.
ProgramRun Sluice(const ScratchDir& scratch, const std::vector<std::string>& args,
                  const std::string& input = "") {
  std::string command = Quoted(SLUICE_COMMAND);
  for (const auto& arg : args) command += " " + Quoted(arg);
  return RunCommand(scratch, command, input);
}

class SluiceCommandTest : public StatefulCheckpointTest {
 protected:
  ProgramRun Sluice(const std::vector<std::string>& args) {
    return sluice::testing::Sluice(scratch_dir_, args);
  }
};

TEST(SluiceSqlCommandTest, RunsStatementsAndStopsAtTheFirstError) {
  ScratchDir scratch;
  ProgramRun run = Sluice(scratch, {"sql", "--conf", "spark.sql.session.timeZone=UTC", "-e",
                    "SELECT 1 AS a, 'x' AS b; SELECT CAST(0 AS TIMESTAMP) AS t"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out,
            "+---+---+\n|a  |b  |\n+---+---+\n|1  |x  |\n+---+---+\n"
            "+-------------------+\n|t                  |\n+-------------------+\n"
            "|1970-01-01 00:00:00|\n+-------------------+\n");
  EXPECT_NE(run.err.find(" seconds, Fetched 1 row(s)\n"), std::string::npos) << run.err;

  const std::string script = scratch.Write(
      "script.sql", "SELECT 1 AS a;\nSELECT nope FROM range(1);\nSELECT 2 AS b;\n");
  run = Sluice(scratch, {"sql", "-f", script});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "+---+\n|a  |\n+---+\n|1  |\n+---+\n");
  EXPECT_NE(run.err.find("Error: [UNRESOLVED_COLUMN"), std::string::npos) << run.err;

  run = Sluice(scratch, {"sql", "--conf", "spark.sql.shuffle.partitions=zero"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("spark.sql.shuffle.partitions"), std::string::npos) << run.err;
}

TEST(SluiceSqlCommandTest, TheShellReadsStatementsFromItsInput) {
  ScratchDir scratch;
  ProgramRun run = Sluice(scratch, {"sql"}, "SELECT nope;\nSELECT 'a;'\n  AS s;\n");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "+---+\n|s  |\n+---+\n|a; |\n+---+\n");
  EXPECT_NE(run.err.find("Error in query: [UNRESOLVED_COLUMN"), std::string::npos) << run.err;
}

// On a terminal (`script`, of Debian's essential bsdutils, gives it one) the shell edits lines
// with libedit and keeps them in ~/.sluice_history, across sessions.
TEST(SluiceSqlCommandTest, TheShellOnATerminalKeepsItsHistory) {
  ScratchDir scratch;
  const std::string shell = "HOME=" + Quoted(scratch.path()) + " script -qfec " +
                            Quoted(Quoted(SLUICE_COMMAND) + " sql") + " /dev/null";
  // Each session ends with quit: `script` hands its input's end to the shell only while the
  // terminal is in canonical mode, and the line editor waiting at a prompt has it in raw
  // mode, so an end of input there may never arrive.
  ProgramRun run = RunCommand(scratch, shell, "SELECT 'x'\n AS s;\nquit;\n");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("sluice-sql> SELECT 'x'\r\n          >  AS s;\r\n+---+\r\n|s  |"),
            std::string::npos)
      << run.out;
  run = RunCommand(scratch, shell, "SELECT 2 AS n;\nquit;\n");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  const std::string history = ReadAll(scratch / ".sluice_history");
  const auto first = history.find("SELECT\\040'x'\n\\040AS\\040s;\n");
  const auto second = history.find("SELECT\\0402\\040AS\\040n;\n");
  EXPECT_NE(first, std::string::npos) << history;
  EXPECT_NE(second, std::string::npos) << history;
  EXPECT_LT(first, second) << history;
}

TEST_P(SluiceCommandTest, CheckpointAndStateReadARealCheckpoint) {
  RunDedupedCounts();
  const int64_t last = query_->lastProgress()->batch_id;
  ProgramRun run = Sluice({"checkpoint", checkpoint_});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("Query id    " + query_->id()), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("commits 0-" + std::to_string(last)), std::string::npos) << run.out;

  run = Sluice({"checkpoint", checkpoint_, "--json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\"queryId\" : \"" + query_->id() + "\""), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\"nextBatchWatermarkMs\" : 15000"), std::string::npos) << run.out;

  // The aggregation is the operator after the deduplication.
  std::string operator_id;
  for (const char* id : {"0", "1"}) {
    if (Sluice({"state", checkpoint_, "--operator", id}).out.find("(stateStoreSave)") !=
        std::string::npos) {
      operator_id = id;
    }
  }
  ASSERT_FALSE(operator_id.empty());
  run = Sluice({"state", checkpoint_, "--operator", operator_id, "--batch-id", "0"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("batch 0 (state version 1): 2 row(s)"), std::string::npos) << run.out;

  const std::string parquet = scratch_dir_ / "state.parquet";
  run = Sluice({"state", checkpoint_, "--operator", operator_id, "--output", parquet});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "Wrote 3 row(s) to " + parquet + "\n");
  auto table = ReadParquetFile(parquet);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->num_rows(), 3);
}

TEST(SluiceCheckpointCommandTest, ABadCheckpointFailsNamingTheFile) {
  ScratchDir scratch;
  const std::string folder = scratch / "not-a-checkpoint";
  std::filesystem::create_directories(folder);
  ProgramRun run = Sluice(scratch, {"checkpoint", folder});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find(folder + "/metadata does not exist"), std::string::npos) << run.err;

  run = Sluice(scratch, {"state", folder, "--operator", "-1"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--operator needs a number of 0 or more, not '-1'"), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("Usage:"), std::string::npos) << run.err;
}

// The program reads the checkpoints of either provider.
INSTANTIATE_TEST_SUITE_P(Providers, SluiceCommandTest,
                         ::testing::Values(state::kHdfsBackedProviderClass,
                                           state::kRocksDbProviderClass),
                         ProviderName);

}  // namespace
}  // namespace sluice::testing
