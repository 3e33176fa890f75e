// Partition values are data, never paths: values holding "../", "/", NUL or a lone ".." are
// escaped as Spark escapes them (ExternalCatalogUtils.escapePathName: "/" is %2F, NUL %00),
// every file lands inside the output folder, and reading back gives the values as written.
#include <filesystem>

#include <gtest/gtest.h>

#include "execution/file_stream_end_to_end_support.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"

namespace sluice::testing {
namespace {

namespace F = functions;
namespace fs = std::filesystem;

class PartitionPathEscapeTest : public EndToEndTest,
                                public ::testing::WithParamInterface<std::string> {};

TEST_P(PartitionPathEscapeTest, HostileValuesStayInsideTheOutputFolder) {
  const std::string format = GetParam();
  // Each value a line of its own; JSON keeps the NUL (\u0000) and the slashes.
  LandJson("in/values.json",
           {R"({"id":1,"p":"../../escaped"})", R"({"id":2,"p":"a/b"})", R"({"id":3,"p":".."})",
            R"({"id":4,"p":"x\u0000y"})", R"({"id":5,"p":"/absolute"})", R"({"id":6,"p":"."})"},
           1'700'000'000'000);
  fs::create_directories(Path("sandbox"));
  const std::string output = Path("sandbox/out");
  auto started = spark_->readStream()
                     .schema("id INT, p STRING")
                     .json(Path("in"))
                     .writeStream()
                     .format(format)
                     .partitionBy({"p"})
                     .option("checkpointLocation", Path("ckpt"))
                     .trigger(Trigger::AvailableNow())
                     .start(output);
  arrow::Status ended = Finish(started);
  ASSERT_TRUE(ended.ok()) << ended.ToString();

  // Nothing but the output folder in the sandbox, and nothing anywhere else in the scratch
  // tree but what the test made.
  std::vector<std::string> sandbox;
  for (const auto& entry : fs::directory_iterator(Path("sandbox"))) {
    sandbox.push_back(entry.path().filename().string());
  }
  EXPECT_EQ(sandbox, std::vector<std::string>{"out"});
  std::vector<std::string> top;
  for (const auto& entry : fs::directory_iterator(root_)) {
    top.push_back(entry.path().filename().string());
  }
  std::sort(top.begin(), top.end());
  EXPECT_EQ(top, (std::vector<std::string>{"ckpt", "in", "sandbox"}));
  // Every partition folder is one path component directly under the output folder.
  std::vector<std::string> folders;
  for (const auto& entry : fs::directory_iterator(output)) {
    std::string name = entry.path().filename().string();
    if (entry.is_directory() && name.starts_with("p=")) folders.push_back(name);
  }
  std::sort(folders.begin(), folders.end());
  EXPECT_EQ(folders, (std::vector<std::string>{"p=%2Fabsolute", "p=.", "p=..",
                                               "p=..%2F..%2Fescaped", "p=a%2Fb", "p=x%00y"}));

  auto read_back = format == "delta" ? spark_->read().format("delta").load(output)
                                     : spark_->read().parquet(output);
  EXPECT_EQ(CollectRows(read_back.select({F::col("id"), F::col("p")})),
            (std::vector<std::string>{R"([1,"../../escaped"])", R"([2,"a/b"])", R"([3,".."])",
                                      std::string("[4,\"x") + '\0' + "y\"]", R"([5,"/absolute"])",
                                      R"([6,"."])"}));
}

INSTANTIATE_TEST_SUITE_P(Sinks, PartitionPathEscapeTest, ::testing::Values("parquet", "delta"));

}  // namespace
}  // namespace sluice::testing
