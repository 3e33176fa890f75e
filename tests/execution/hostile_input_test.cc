// Hostile input files read in each parse mode: invalid UTF-8, NUL bytes, a 16 MB line, JSON
// nested a hundred thousand deep, an unterminated record, wrong types, empty and blank files,
// garbage named .parquet, and a file still growing when it is read. Whatever the bytes, the
// query must not crash, and no record may vanish: PERMISSIVE yields a row for every record
// (the unreadable ones with their text in the corrupt-record column), DROPMALFORMED yields every
// record that reads, and FAILFAST fails naming the file. Which records read and which are
// malformed is what Spark 4.0.1 (local[1]) gave on the same bytes.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "execution/file_stream_end_to_end_support.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"

namespace sluice::testing {
namespace {

namespace F = functions;
namespace fs = std::filesystem;

constexpr int64_t kFirstMtimeMs = 1'700'000'000'000;

/// A file of records, some of which cannot be read, and how many of each there are.
struct HostileFile {
  const char* name;
  std::string contents;
  int64_t good_records;
  int64_t bad_records;
};

std::string Repeat(std::string_view text, size_t times) {
  std::string out;
  out.reserve(text.size() * times);
  for (size_t i = 0; i < times; ++i) out.append(text);
  return out;
}

std::vector<HostileFile> JsonFiles() {
  using namespace std::string_literals;
  return {
      // Invalid UTF-8 in a string makes the record malformed, as Jackson refuses it.
      {"invalid_utf8", "{\"id\":1,\"name\":\"a\xff\xfe z\"}\n{\"id\":2,\"name\":\"\xc3\"}\n", 0, 2},
      // A NUL byte between records and one inside a value's quotes.
      {"nul_bytes", "{\"id\":1,\"name\":\"x\"}\n\0\n{\"id\":2,\"name\":\"a\0b\"}\n"s, 1, 2},
      {"huge_line", "{\"id\":1,\"name\":\"" + Repeat("x", 16 << 20) + "\"}\n", 1, 0},
      {"deeply_nested",
       "{\"id\":1,\"name\":" + Repeat("[", 100000) + Repeat("]", 100000) + "}\n{\"id\":2}\n", 1,
       1},
      {"unterminated", "{\"id\":1}\n{\"id\":2,\"name\":\"never closed", 1, 1},
      {"wrong_types", "{\"id\":\"one\",\"name\":\"x\"}\n{\"id\":3.5}\n{\"id\":3}\n", 1, 2},
      {"empty", "", 0, 0},
      {"blank_lines", "\n\n   \n\t\n", 0, 0},
  };
}

std::vector<HostileFile> CsvFiles() {
  using namespace std::string_literals;
  return {
      // Read, with U+FFFD for the bad bytes.
      {"invalid_utf8", "1,a\xff\xfe z\n2,\xc3\n", 2, 0},
      {"nul_bytes", "1,x\n2,a\0b\n"s, 2, 0},
      {"huge_field", "1," + Repeat("x", 16 << 20) + "\n", 1, 0},
      // The quoted field runs to the end of the file.
      {"unterminated_quote", "1,x\n2,\"never closed\n", 2, 0},
      {"wrong_types", "one,x\n3.5,y\n3,z\n", 1, 2},
      {"too_many_columns", "1,x,extra\n2,y\n", 1, 1},
      {"empty", "", 0, 0},
  };
}

class HostileInputTest : public EndToEndTest {
 protected:
  /// Lands `file` alone in a folder of its own and reads it as `format` in `mode` through a
  /// stream run to its end, into rows.
  arrow::Result<std::vector<std::string>> Read(const std::string& format, const HostileFile& file,
                                               const std::string& mode, const std::string& ddl) {
    const std::string folder = std::string(format) + "-" + file.name + "-" + mode;
    LandFile(Path(folder + "/in/data." + format), file.contents, kFirstMtimeMs);
    ARROW_RETURN_NOT_OK(Finish(spark_->readStream()
                                   .format(format)
                                   .schema(ddl)
                                   .option("mode", mode)
                                   .load(Path(folder + "/in"))
                                   .writeStream()
                                   .format("parquet")
                                   .option("checkpointLocation", Path(folder + "/ckpt"))
                                   .trigger(Trigger::AvailableNow())
                                   .start(Path(folder + "/out"))));
    // Counting rows and corrupt records keeps a 16 MB value out of the failure messages.
    auto counted = spark_->read().parquet(Path(folder + "/out"));
    if (ddl.find("_corrupt_record") != std::string::npos) {
      counted = counted.select({F::col("id"), F::col("_corrupt_record").isNotNull().alias("bad")});
    } else {
      counted = counted.select({F::col("id")});
    }
    return CollectRows(counted);
  }

  void CheckEveryMode(const std::string& format, const std::vector<HostileFile>& files) {
    const std::string ddl = "id BIGINT, name STRING";
    for (const auto& file : files) {
      SCOPED_TRACE(format + " " + file.name);
      auto permissive = Read(format, file, "PERMISSIVE", ddl + ", _corrupt_record STRING");
      ASSERT_TRUE(permissive.ok()) << permissive.status().ToString();
      int64_t bad = 0;
      for (const auto& row : *permissive) bad += row.ends_with(",true]") ? 1 : 0;
      EXPECT_EQ(static_cast<int64_t>(permissive->size()), file.good_records + file.bad_records);
      EXPECT_EQ(bad, file.bad_records);

      auto dropped = Read(format, file, "DROPMALFORMED", ddl);
      ASSERT_TRUE(dropped.ok()) << dropped.status().ToString();
      EXPECT_EQ(static_cast<int64_t>(dropped->size()), file.good_records);

      auto failed = Read(format, file, "FAILFAST", ddl);
      if (file.bad_records == 0) {
        EXPECT_TRUE(failed.ok()) << failed.status().ToString();
      } else {
        ASSERT_FALSE(failed.ok());
        EXPECT_NE(failed.status().message().find("data." + format), std::string::npos)
            << failed.status().ToString().substr(0, 2000);
      }
    }
  }
};

TEST_F(HostileInputTest, JsonFilesLoseNoRecordInAnyMode) { CheckEveryMode("json", JsonFiles()); }

TEST_F(HostileInputTest, CsvFilesLoseNoRecordInAnyMode) { CheckEveryMode("csv", CsvFiles()); }

// Spark: a file named .parquet holding anything else fails the query, naming the file.
TEST_F(HostileInputTest, GarbageOrATruncatedParquetFileFailsNamingIt) {
  ASSERT_TRUE(Frame("id BIGINT", {"[1, 2, 3]"}).write().parquet(Path("good")).ok());
  std::string parquet;
  for (const auto& entry : fs::directory_iterator(Path("good"))) {
    if (entry.path().extension() == ".parquet") parquet = ReadWhole(entry.path().string());
  }
  ASSERT_FALSE(parquet.empty());
  for (const auto& [name, contents] :
       std::vector<std::pair<std::string, std::string>>{
           {"garbage", "this is not a parquet file at all"},
           {"truncated", parquet.substr(0, parquet.size() / 2)},
           {"empty", ""}}) {
    SCOPED_TRACE(name);
    LandFile(Path(name + "/in/data.parquet"), contents, kFirstMtimeMs);
    arrow::Status ended = Finish(spark_->readStream()
                                     .schema("id BIGINT")
                                     .parquet(Path(name + "/in"))
                                     .writeStream()
                                     .format("parquet")
                                     .option("checkpointLocation", Path(name + "/ckpt"))
                                     .trigger(Trigger::AvailableNow())
                                     .start(Path(name + "/out")));
    ASSERT_FALSE(ended.ok());
    EXPECT_NE(ended.message().find(Path(name + "/in/data.parquet")), std::string::npos)
        << ended.ToString();
  }
}

// A file is read as it is when its batch runs; lines written later are not read again (Spark
// takes files as immutable). A record cut off mid-write is a malformed record, not a crash.
TEST_F(HostileInputTest, AFileStillGrowingIsReadAsFarAsItWasWritten) {
  const std::string file = Path("in/growing.json");
  fs::create_directories(Path("in"));
  {
    std::ofstream(file) << "{\"id\":1}\n{\"id\":2}\n{\"id\":";
  }
  auto run = [&]() {
    return Finish(spark_->readStream()
                      .schema("id BIGINT, _corrupt_record STRING")
                      .json(Path("in"))
                      .writeStream()
                      .format("parquet")
                      .option("checkpointLocation", Path("ckpt"))
                      .trigger(Trigger::AvailableNow())
                      .start(Path("out")));
  };
  ASSERT_TRUE(run().ok());
  { std::ofstream(file, std::ios::app) << "3}\n{\"id\":4}\n"; }
  ASSERT_TRUE(run().ok());
  EXPECT_EQ(CollectRows(spark_->read().parquet(Path("out"))),
            (std::vector<std::string>{R"([1,null])", R"([2,null])",
                                      R"([null,"{"id":"])"}));
}

}  // namespace
}  // namespace sluice::testing
