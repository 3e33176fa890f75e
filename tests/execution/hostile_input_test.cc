// Hostile input files read in each parse mode: invalid UTF-8, NUL bytes, a 16 MB line, JSON
// nested a hundred thousand deep, an unterminated record, wrong types, empty and blank files,
// garbage or truncated Parquet and ORC files (failing, or skipped with ignoreCorruptFiles), and
// a file still growing when it is read. Whatever the bytes, the
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
  /// The bytes of a file of `format` holding ids 0 to 4, written by Sluice.
  std::string FiveIds(const std::string& format) {
    const std::string folder = Path("written-" + format);
    EXPECT_TRUE(Frame("id BIGINT", {"[0, 1, 2, 3, 4]"}).write().format(format).save(folder).ok());
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.path().filename().string().starts_with("part-")) {
        return ReadWhole(entry.path().string());
      }
    }
    ADD_FAILURE() << "no part file in " << folder;
    return "";
  }

  /// Streams the files of `folder`/in as `format` to its end, with `options`, into ids.
  arrow::Result<std::vector<std::string>> StreamIds(
      const std::string& format, const std::string& folder,
      const std::vector<std::pair<std::string, std::string>>& options) {
    auto reader = spark_->readStream().format(format).schema("id BIGINT");
    for (const auto& [key, value] : options) reader.option(key, value);
    ARROW_RETURN_NOT_OK(Finish(reader.load(Path(folder + "/in"))
                                   .writeStream()
                                   .format("parquet")
                                   .option("checkpointLocation", Path(folder + "/ckpt"))
                                   .trigger(Trigger::AvailableNow())
                                   .start(Path(folder + "/out"))));
    return CollectRows(spark_->read().parquet(Path(folder + "/out")).orderBy({F::col("id")}));
  }

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

class CorruptColumnarFileTest : public HostileInputTest,
                                public ::testing::WithParamInterface<std::string> {};

// Spark 4.0.1: a file named .parquet or .orc holding anything else, or cut short, fails the
// query naming it; an empty file has no rows. With ignoreCorruptFiles (the option, or the
// session's spark.sql.files.ignoreCorruptFiles) the unreadable files are skipped and the good
// one read, in streams and batch reads alike.
TEST_P(CorruptColumnarFileTest, FailsNamingTheFileOrIsSkippedWithIgnoreCorruptFiles) {
  const std::string format = GetParam();
  const std::string good = FiveIds(format);
  ASSERT_FALSE(good.empty());
  const std::vector<std::string> five = {"[0]", "[1]", "[2]", "[3]", "[4]"};
  // Its data pages overwritten: the footer reads, the pages do not.
  std::string damaged = good;
  for (size_t i = 4; i < damaged.size() / 3; ++i) damaged[i] = static_cast<char>(0xA5 ^ i);
  for (const auto& [name, contents] : std::vector<std::pair<std::string, std::string>>{
           {"garbage", "this is not a file of this format at all"},
           {"truncated", good.substr(0, good.size() / 2)},
           {"damaged", damaged}}) {
    SCOPED_TRACE(name);
    const std::string corrupt = name + "/in/data." + format;
    LandFile(Path(name + "/in/good." + format), good, kFirstMtimeMs);
    LandFile(Path(corrupt), contents, kFirstMtimeMs);
    auto failed = StreamIds(format, name, {});
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.status().message().find(Path(corrupt)), std::string::npos)
        << failed.status().ToString();

    CapturedOutput warnings(std::cerr);
    LandFile(Path(name + "-ignored/in/good." + format), good, kFirstMtimeMs);
    LandFile(Path(name + "-ignored/in/data." + format), contents, kFirstMtimeMs);
    auto skipped = StreamIds(format, name + "-ignored", {{"ignoreCorruptFiles", "true"}});
    ASSERT_TRUE(skipped.ok()) << skipped.status().ToString();
    EXPECT_EQ(*skipped, five);
    EXPECT_NE(warnings.text().find("Skipped the rest of the content in the corrupted file"),
              std::string::npos);
    EXPECT_NE(warnings.text().find(Path(name + "-ignored/in/data." + format)), std::string::npos);

    auto batch = spark_->read().format(format).schema("id BIGINT")
                     .option("ignoreCorruptFiles", "true").load(Path(name + "/in"));
    EXPECT_EQ(CollectRows(batch.orderBy({F::col("id")})), five);
    EXPECT_FALSE(spark_->read().format(format).schema("id BIGINT").load(Path(name + "/in"))
                     .collect().ok());
  }
  // The session's setting, and the option overriding it.
  ASSERT_TRUE(spark_->conf().set("spark.sql.files.ignoreCorruptFiles", "true").ok());
  auto by_session = StreamIds(format, "garbage", {});
  ASSERT_TRUE(by_session.ok()) << by_session.status().ToString();
  EXPECT_EQ(*by_session, five);
  EXPECT_FALSE(StreamIds(format, "truncated", {{"ignoreCorruptFiles", "false"}}).ok());

  LandFile(Path("empty/in/good." + format), good, kFirstMtimeMs);
  LandFile(Path("empty/in/data." + format), "", kFirstMtimeMs);
  auto empty = StreamIds(format, "empty", {{"ignoreCorruptFiles", "false"}});
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ(*empty, five);
}

INSTANTIATE_TEST_SUITE_P(Formats, CorruptColumnarFileTest, ::testing::Values("parquet", "orc"));

// Spark's batch reads honour ignoreMissingFiles too: a file deleted between the listing and
// the scan is skipped with it, and fails the scan naming it without. A value that is not a
// boolean is refused naming the option.
TEST_F(HostileInputTest, BatchReadsSkipAFileDeletedAfterTheListingWithIgnoreMissingFiles) {
  ASSERT_TRUE(Frame("id BIGINT", {"[1]"}).write().parquet(Path("missing/in/a")).ok());
  ASSERT_TRUE(Frame("id BIGINT", {"[2]"}).write().parquet(Path("missing/in/b")).ok());
  auto read = [&](const std::string& ignore) {
    return spark_->read()
        .option("recursiveFileLookup", "true")
        .option("ignoreMissingFiles", ignore)
        .parquet(Path("missing/in"));
  };
  auto skipping = read("true");
  auto failing = read("false");
  fs::remove_all(Path("missing/in/b"));
  EXPECT_EQ(CollectRows(skipping), std::vector<std::string>{"[1]"});
  auto failed = failing.collect();
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("FAILED_READ_FILE.FILE_NOT_EXIST"), std::string::npos)
      << failed.status().ToString();

  auto refused = spark_->read().option("ignoreCorruptFiles", "sometimes").parquet(Path("missing/in"))
                     .collect();
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("ignoreCorruptFiles"), std::string::npos)
      << refused.status().ToString();
}

// Spark 4.0.1 with ignoreCorruptFiles: a Parquet column of the wrong type makes the file
// unreadable, so it is skipped; FAILFAST's malformed records still fail the query.
TEST_F(HostileInputTest, IgnoreCorruptFilesSkipsAMistypedFileButNotFailFast) {
  ASSERT_TRUE(Frame("id STRING", {R"(["x"])"}).write().parquet(Path("typed/in/s")).ok());
  ASSERT_TRUE(Frame("id BIGINT", {"[7]"}).write().parquet(Path("typed/in/l")).ok());
  auto skipped = StreamIds("parquet", "typed",
                           {{"ignoreCorruptFiles", "true"}, {"recursiveFileLookup", "true"}});
  ASSERT_TRUE(skipped.ok()) << skipped.status().ToString();
  EXPECT_EQ(*skipped, std::vector<std::string>{"[7]"});

  LandFile(Path("failfast/in/a.json"), "{\"id\":1}\n{\"id\":\n{\"id\":3}\n", kFirstMtimeMs);
  auto failed = StreamIds("json", "failfast",
                          {{"ignoreCorruptFiles", "true"}, {"mode", "FAILFAST"}});
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("MALFORMED_RECORD_IN_PARSING"), std::string::npos)
      << failed.status().ToString();
}

// Spark 4.0.1's schema inference: Parquet reads the first file's footer only, so a corrupt
// first file fails the read, or with ignoreCorruptFiles leaves no schema; ORC takes the first
// file that has a schema, passing empty files and, with ignoreCorruptFiles, corrupt ones.
TEST_F(HostileInputTest, SchemaInferenceOverCorruptFilesIsSparks) {
  for (const std::string format : {"parquet", "orc"}) {
    SCOPED_TRACE(format);
    const std::string good = FiveIds(format);
    LandFile(Path(format + "/in/0garbage." + format), "garbage garbage garbage", kFirstMtimeMs);
    LandFile(Path(format + "/in/a." + format), "", kFirstMtimeMs);
    LandFile(Path(format + "/in/b." + format), good, kFirstMtimeMs);
    auto strict = spark_->read().format(format).load(Path(format + "/in")).collect();
    ASSERT_FALSE(strict.ok());
    EXPECT_NE(strict.status().message().find("0garbage"), std::string::npos)
        << strict.status().ToString();
    auto lenient =
        spark_->read().format(format).option("ignoreCorruptFiles", "true").load(Path(format + "/in"));
    if (format == "parquet") {
      auto rows = lenient.collect();
      ASSERT_FALSE(rows.ok());
      EXPECT_NE(rows.status().message().find("UNABLE_TO_INFER_SCHEMA"), std::string::npos)
          << rows.status().ToString();
    } else {
      EXPECT_EQ(CollectRows(lenient.orderBy({F::col("id")})),
                (std::vector<std::string>{"[0]", "[1]", "[2]", "[3]", "[4]"}));
    }
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
