// The arguments of the `sluice` program: each command's options parsed into what it needs,
// and usage errors that name the wrong argument.
#include <gtest/gtest.h>

#include "sluice/tools/command_line.h"

namespace sluice::tools {
namespace {

using Command = CommandLine::Command;

TEST(CommandLineTest, ReadsTheOptionsOfEachCommand) {
  auto sql = ParseCommandLine({"sql", "--conf", "a.b=1=2", "--conf", "c=", "-e", "SELECT 1"});
  ASSERT_TRUE(sql.ok()) << sql.status().ToString();
  EXPECT_EQ(sql->command, Command::kSql);
  EXPECT_EQ(sql->conf, (std::vector<std::pair<std::string, std::string>>{{"a.b", "1=2"},
                                                                         {"c", ""}}));
  EXPECT_EQ(sql->statements, "SELECT 1");
  EXPECT_FALSE(sql->file.has_value());

  auto checkpoint = ParseCommandLine({"checkpoint", "--json", "ck"});
  ASSERT_TRUE(checkpoint.ok()) << checkpoint.status().ToString();
  EXPECT_EQ(checkpoint->command, Command::kCheckpoint);
  EXPECT_EQ(checkpoint->checkpoint, "ck");
  EXPECT_TRUE(checkpoint->json);

  auto state = ParseCommandLine({"state", "ck", "--operator", "2", "--join-side", "left",
                                 "--batch-id", "7", "--limit", "5", "--output", "s.parquet"});
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  EXPECT_EQ(state->command, Command::kState);
  EXPECT_EQ(state->state.checkpoint, "ck");
  EXPECT_EQ(state->state.operator_id, 2);
  EXPECT_EQ(state->state.join_side, "left");
  EXPECT_FALSE(state->state.store_name.has_value());
  EXPECT_EQ(state->state.batch_id, 7);
  EXPECT_EQ(state->limit, 5);
  EXPECT_EQ(state->output, "s.parquet");

  // Spark's defaults: operator 0, the last committed batch, 20 rows.
  auto defaults = ParseCommandLine({"state", "ck"});
  ASSERT_TRUE(defaults.ok()) << defaults.status().ToString();
  EXPECT_EQ(defaults->state.operator_id, 0);
  EXPECT_FALSE(defaults->state.batch_id.has_value());
  EXPECT_EQ(defaults->limit, 20);
  EXPECT_FALSE(defaults->output.has_value());
}

TEST(CommandLineTest, UsageErrorsNameTheWrongArgument) {
  auto error_of = [](const std::vector<std::string>& args) {
    auto line = ParseCommandLine(args);
    EXPECT_FALSE(line.ok());
    return line.ok() ? std::string() : line.status().message();
  };
  EXPECT_EQ(error_of({}), "Name a command.");
  EXPECT_EQ(error_of({"stat"}), "Unknown command 'stat'.");
  EXPECT_EQ(error_of({"sql", "-e"}), "-e needs a value.");
  EXPECT_EQ(error_of({"sql", "-e", "SELECT 1", "-f", "x.sql"}), "Give -e or -f, not both.");
  EXPECT_EQ(error_of({"sql", "--conf", "=1"}), "--conf needs key=value, not '=1'.");
  EXPECT_EQ(error_of({"checkpoint"}), "sluice checkpoint needs a checkpoint folder.");
  EXPECT_EQ(error_of({"checkpoint", "a", "b"}),
            "sluice checkpoint does not know the argument 'b'.");
  EXPECT_EQ(error_of({"state", "ck", "--batch-id", "1x"}),
            "--batch-id needs a number of 0 or more, not '1x'.");
  EXPECT_EQ(error_of({"state", "ck", "--limit", "99999999999"}), "--limit is at most 2147483647.");
}

}  // namespace
}  // namespace sluice::tools
