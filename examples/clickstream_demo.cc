// The clickstream job of the seeds, as a batch: JSON click events land in a folder, Sluice reads
// them with a schema, aggregates page views per page and per five-minute bucket, shows the
// result and writes it as Parquet, then reads the Parquet back.
//
// Usage: clickstream_demo [work_dir]   (default: ./demo-output)
#include <filesystem>
#include <fstream>
#include <iostream>

#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"

namespace F = sluice::functions;
namespace fs = std::filesystem;

namespace {

// Sixteen clicks between 10:00 and 10:30, in two files, as in the seeds' example.
constexpr const char* kFirstFile = R"({"user_id":"u1","page":"/home","event_time":"2026-06-10T10:01:00Z","duration_s":12.5}
{"user_id":"u2","page":"/pricing","event_time":"2026-06-10T10:02:30Z","duration_s":30.0}
{"user_id":"u3","page":"/pricing","event_time":"2026-06-10T10:04:10Z","duration_s":8.25}
{"user_id":"u1","page":"/home","event_time":"2026-06-10T10:06:00Z","duration_s":4.0}
{"user_id":"u2","page":"/pricing","event_time":"2026-06-10T10:08:45Z","duration_s":17.5}
{"user_id":"u4","page":"/home","event_time":"2026-06-10T10:11:00Z","duration_s":3.0}
{"user_id":"u5","page":"/home","event_time":"2026-06-10T10:13:20Z","duration_s":6.75}
{"user_id":"u3","page":"/pricing","event_time":"2026-06-10T10:14:59Z","duration_s":21.0}
)";
constexpr const char* kSecondFile = R"({"user_id":"u1","page":"/home","event_time":"2026-06-10T10:16:00Z","duration_s":9.0}
{"user_id":"u6","page":"/pricing","event_time":"2026-06-10T10:18:30Z","duration_s":14.0}
{"user_id":"u2","page":"/home","event_time":"2026-06-10T10:21:00Z","duration_s":2.5}
{"user_id":"u7","page":"/docs","event_time":"2026-06-10T10:22:10Z","duration_s":40.0}
{"user_id":"u4","page":"/pricing","event_time":"2026-06-10T10:24:00Z","duration_s":11.0}
{"user_id":"u5","page":"/home","event_time":"2026-06-10T10:26:40Z","duration_s":5.5}
{"user_id":"u8","page":"/docs","event_time":"2026-06-10T10:28:00Z","duration_s":null}
{"user_id":"u1","page":"/pricing","event_time":"2026-06-10T10:30:00Z","duration_s":7.0}
)";

int Fail(const arrow::Status& status) {
  std::cerr << "clickstream_demo: " << status.ToString() << std::endl;
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path work = argc > 1 ? fs::path(argv[1]) : fs::path("demo-output");
  const fs::path landing = work / "landing" / "clicks";
  fs::create_directories(landing);
  std::ofstream(landing / "clicks-0001.json") << kFirstFile;
  std::ofstream(landing / "clicks-0002.json") << kSecondFile;

  auto session = sluice::SparkSession::builder()
                     .appName("clickstream")
                     .config("spark.sql.session.timeZone", "UTC")
                     .getOrCreate();
  if (!session.ok()) return Fail(session.status());
  auto spark = *session;

  auto clicks = spark->read()
                    .schema("user_id STRING, page STRING, event_time TIMESTAMP, duration_s DOUBLE")
                    .json(landing.string());
  if (!clicks.ok()) return Fail(clicks.status());
  std::cout << "Clicks read from " << landing.string() << ":" << std::endl;
  if (auto status = clicks.printSchema(); !status.ok()) return Fail(status);
  if (auto status = clicks.show(5); !status.ok()) return Fail(status);

  auto per_page = clicks.groupBy({F::col("page")})
                      .agg({F::count(F::col("*")).alias("views"),
                            F::sum(F::col("duration_s")).alias("total_duration_s"),
                            F::round(F::avg(F::col("duration_s")), 2).alias("avg_duration_s")})
                      .orderBy({F::col("views").desc(), F::col("page")});
  std::cout << "Views per page:" << std::endl;
  if (auto status = per_page.show(); !status.ok()) return Fail(status);

  auto per_bucket =
      clicks
          .withColumn("bucket_start",
                      F::expr("timestamp_seconds(floor(unix_timestamp(event_time) / 300) * 300)"))
          .groupBy({F::col("bucket_start"), F::col("page")})
          .agg({F::count(F::col("*")).alias("views")})
          .orderBy({F::col("bucket_start"), F::col("page")});
  std::cout << "Views per five-minute bucket and page:" << std::endl;
  if (auto status = per_bucket.show(); !status.ok()) return Fail(status);

  const fs::path output = work / "page_views_5m";
  if (auto status = per_bucket.write().mode("overwrite").parquet(output.string()); !status.ok()) {
    return Fail(status);
  }
  auto written = spark->read().parquet(output.string());
  auto rows = written.count();
  if (!rows.ok()) return Fail(rows.status());
  std::cout << "Wrote " << *rows << " rows of Parquet to " << output.string() << std::endl;
  return 0;
}
