// The file stream options (typed, with Spark's defaults and Spark's messages for bad values)
// and the errors of creating a file stream: path, schema and schema inference.
#include <gtest/gtest.h>

#include "sluice/common/errors.h"
#include "sluice/sources/file/file_stream_options.h"
#include "sources/file_stream_fixture.h"

namespace sluice::sources::testing {
namespace {

TEST(FileStreamOptionsTest, DefaultsAreSparks) {
  auto options = ParseFileStreamOptions({{"multiLine", "true"}});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_FALSE(options->max_files_per_trigger.has_value());
  EXPECT_FALSE(options->max_bytes_per_trigger.has_value());
  EXPECT_EQ(options->max_file_age_ms, 7 * 24 * 3600 * 1000LL);
  EXPECT_FALSE(options->latest_first);
  EXPECT_FALSE(options->file_name_only);
  EXPECT_EQ(options->clean_source, CleanSourceMode::kOff);
  EXPECT_EQ(options->max_cached_files, 10000);
  EXPECT_FLOAT_EQ(static_cast<float>(options->discard_cached_input_ratio), 0.2f);
  EXPECT_EQ(FileStreamOptionDocs().size(), 9u);
}

TEST(FileStreamOptionsTest, ParsesEveryOptionCaseInsensitively) {
  auto options = ParseFileStreamOptions({{"MAXFILESPERTRIGGER", "+3"},
                                         {"maxFileAge", " 2H "},
                                         {"latestFirst", "TRUE"},
                                         {"fileNameOnly", "true"},
                                         {"cleanSource", "Archive"},
                                         {"sourceArchiveDir", "/archive"},
                                         {"maxCachedFiles", "0"},
                                         {"discardCachedInputRatio", "1"}});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->max_files_per_trigger, 3);
  EXPECT_EQ(options->max_file_age_ms, 2 * 3600 * 1000LL);
  EXPECT_TRUE(options->latest_first);
  EXPECT_TRUE(options->file_name_only);
  EXPECT_EQ(options->clean_source, CleanSourceMode::kArchive);
  EXPECT_EQ(options->source_archive_dir, "/archive");
  EXPECT_EQ(options->max_cached_files, 0);
  EXPECT_EQ(options->discard_cached_input_ratio, 1.0);
  auto bytes = ParseFileStreamOptions({{"maxBytesPerTrigger", "9000000000"}});
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->max_bytes_per_trigger, 9000000000LL);
}

TEST(FileStreamOptionsTest, BadValuesFailWithSparksMessages) {
  // Messages as Spark 4.0.1 reports them for the same options.
  std::vector<std::pair<formats::OptionMap, std::string>> cases = {
      {{{"maxFilesPerTrigger", "0"}},
       "Invalid value '0' for option 'maxFilesPerTrigger', must be a positive integer"},
      {{{"maxBytesPerTrigger", "abc"}},
       "Invalid value 'abc' for option 'maxBytesPerTrigger', must be a positive integer"},
      {{{"maxBytesPerTrigger", "10"}, {"maxFilesPerTrigger", "1"}},
       "Options 'maxFilesPerTrigger' and 'maxBytesPerTrigger' can't be both set at the same "
       "time"},
      {{{"latestFirst", "yes"}}, "Invalid value 'yes' for option 'latestFirst', must be "
                                 "'true' or 'false'"},
      {{{"fileNameOnly", "1"}}, "Invalid value '1' for option 'fileNameOnly', must be 'true' "
                                "or 'false'"},
      {{{"maxCachedFiles", "-1"}}, "Invalid value '-1' for option 'maxCachedFiles', must be an "
                                   "integer greater than or equal to 0"},
      {{{"discardCachedInputRatio", "2"}}, "Invalid value '2' for option "
                                           "'discardCachedInputRatio', must be a positive "
                                           "float between 0 and 1"},
      {{{"cleanSource", "ARCHIVE"}}, "Archive mode must be used with 'sourceArchiveDir' option."},
      {{{"modifiedBefore", "2020-01-01T00:00:00"}},
       "option 'modifiedbefore' is not allowed in file stream sources"},
  };
  for (const auto& [options, message] : cases) {
    auto parsed = ParseFileStreamOptions(options);
    ASSERT_FALSE(parsed.ok()) << message;
    EXPECT_EQ(parsed.status().message(), message);
  }
  auto clean = ParseFileStreamOptions({{"cleanSource", "bogus"}});
  EXPECT_NE(clean.status().message().find("Invalid mode for clean source option 'bogus'. Must "
                                          "be one of ARCHIVE,DELETE,OFF"),
            std::string::npos);
  auto age = ParseFileStreamOptions({{"maxFileAge", "7 parsecs"}});
  EXPECT_EQ(age.status().message(),
            "Invalid value '7 parsecs' for option 'maxFileAge': Time must be specified as "
            "seconds (s), milliseconds (ms), microseconds (us), minutes (m or min), hour (h), "
            "or day (d). E.g. 50s, 100ms, or 250us.\nFailed to parse time string: 7 parsecs");
}

TEST(FileStreamOptionsTest, TimeStringsAsSparksJavaUtils) {
  EXPECT_EQ(ParseTimeStringAsMs("1000").ValueOrDie(), 1000);
  EXPECT_EQ(ParseTimeStringAsMs("7d").ValueOrDie(), 7 * 24 * 3600 * 1000LL);
  EXPECT_EQ(ParseTimeStringAsMs("90s").ValueOrDie(), 90000);
  EXPECT_EQ(ParseTimeStringAsMs("5min").ValueOrDie(), 300000);
  EXPECT_EQ(ParseTimeStringAsMs("5m").ValueOrDie(), 300000);
  EXPECT_EQ(ParseTimeStringAsMs("2500us").ValueOrDie(), 2);
  EXPECT_EQ(ParseTimeStringAsMs("1ms").ValueOrDie(), 1);
  EXPECT_FALSE(ParseTimeStringAsMs("1 s").ok());
  EXPECT_FALSE(ParseTimeStringAsMs("1w").ok());
  EXPECT_FALSE(ParseTimeStringAsMs("").ok());
}

class FileStreamCreationTest : public FileStreamTest {};

TEST_F(FileStreamCreationTest, StreamOptionErrorsSurfaceWhenTheQueryStarts) {
  WriteRow("a.json", 1, 1000);
  auto provider = Provider({{"maxFilesPerTrigger", "0"}});
  ASSERT_TRUE(provider.ok()) << provider.status().ToString();
  auto source = Start(**provider);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().message(),
            "Invalid value '0' for option 'maxFilesPerTrigger', must be a positive integer");
}

TEST_F(FileStreamCreationTest, MissingPathFailsWithPathNotFound) {
  auto missing = Provider({}, "a INT", dir_ / "nope");
  EXPECT_EQ(ErrorClassOf(missing.status()), "PATH_NOT_FOUND");
  EXPECT_NE(missing.status().message().find("Path does not exist: " + (dir_ / "nope") + "."),
            std::string::npos);
  // A glob may match nothing yet.
  EXPECT_TRUE(Provider({}, "a INT", dir_ / "nope*").ok());
}

TEST_F(FileStreamCreationTest, CommaSeparatedPathsAreOnePathWithAHint) {
  WriteRow("a.json", 1, 1000);
  auto both = Provider({}, "a INT", In() + "," + (dir_ / "other"));
  EXPECT_EQ(ErrorClassOf(both.status()), "PATH_NOT_FOUND");
  EXPECT_NE(both.status().message().find("comma-separated list of paths"), std::string::npos);
}

TEST_F(FileStreamCreationTest, SchemaIsRequiredWithoutInference) {
  WriteRow("a.json", 1, 1000);
  auto provider = Provider({}, "");
  EXPECT_EQ(ErrorClassOf(provider.status()), "_LEGACY_ERROR_TEMP_2048");
  EXPECT_NE(provider.status().message().find(
                "Schema must be specified when creating a streaming source DataFrame. If some "
                "files already exist in the directory"),
            std::string::npos);
  // Text has its own schema.
  auto text = Provider({}, "", "", formats::FileFormat::kText);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ((*text)->schema()->ToString(), "value: string");
}

TEST_F(FileStreamCreationTest, InferenceReadsTheFilesThereNow) {
  // Spark: struct<a:bigint,k:int> for {"a":1} under k=1.
  WriteRow("k=1/x.json", 1, 1000);
  auto provider = Provider({}, "", "", formats::FileFormat::kJson, /*inference=*/true);
  ASSERT_TRUE(provider.ok()) << provider.status().ToString();
  EXPECT_EQ((*provider)->schema()->ToString(), "a: int64\nk: int32");
}

TEST_F(FileStreamCreationTest, InferenceOverAnEmptyFolderFails) {
  std::filesystem::create_directories(In());
  auto provider = Provider({}, "", "", formats::FileFormat::kJson, /*inference=*/true);
  EXPECT_EQ(ErrorClassOf(provider.status()), "UNABLE_TO_INFER_SCHEMA");
  EXPECT_NE(provider.status().message().find(
                "Unable to infer schema for JSON. It must be specified manually."),
            std::string::npos);
}

TEST_F(FileStreamCreationTest, UserSchemaWinsOverInference) {
  WriteRow("a.json", 1, 1000);
  auto provider = Provider({}, "a STRING", "", formats::FileFormat::kJson, true);
  ASSERT_TRUE(provider.ok());
  EXPECT_EQ((*provider)->schema()->ToString(), "a: string");
}

}  // namespace
}  // namespace sluice::sources::testing
