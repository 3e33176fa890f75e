// The clickstream job of the seeds, as a stream: JSON click events land in a folder in two
// waves; each wave, an availableNow query picks up the files it has not seen, one file per
// batch, and appends them to a Parquet folder partitioned by day, printing each batch's
// progress. The second run processes only the new files: the checkpoint remembers the rest.
// Finally a batch query reads the Parquet folder (only committed files) and aggregates it.
//
// Usage: clickstream_demo [work_dir]   (default: ./demo-output; emptied first)
#include <filesystem>
#include <fstream>
#include <iostream>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"
#include "sluice/execution/query_listener.h"

namespace F = sluice::functions;
namespace fs = std::filesystem;

namespace {

// Sixteen clicks between 10:00 and 10:30, in four files, as in the seeds' example.
constexpr const char* kFiles[][2] = {
    {"clicks-0001.json",
     R"({"user_id":"u1","page":"/home","event_time":"2026-06-10T10:01:00Z","duration_s":12.5}
{"user_id":"u2","page":"/pricing","event_time":"2026-06-10T10:02:30Z","duration_s":30.0}
{"user_id":"u3","page":"/pricing","event_time":"2026-06-10T10:04:10Z","duration_s":8.25}
{"user_id":"u1","page":"/home","event_time":"2026-06-10T10:06:00Z","duration_s":4.0}
)"},
    {"clicks-0002.json",
     R"({"user_id":"u2","page":"/pricing","event_time":"2026-06-10T10:08:45Z","duration_s":17.5}
{"user_id":"u4","page":"/home","event_time":"2026-06-10T10:11:00Z","duration_s":3.0}
{"user_id":"u5","page":"/home","event_time":"2026-06-10T10:13:20Z","duration_s":6.75}
{"user_id":"u3","page":"/pricing","event_time":"2026-06-10T10:14:59Z","duration_s":21.0}
)"},
    {"clicks-0003.json",
     R"({"user_id":"u1","page":"/home","event_time":"2026-06-10T10:16:00Z","duration_s":9.0}
{"user_id":"u6","page":"/pricing","event_time":"2026-06-10T10:18:30Z","duration_s":14.0}
{"user_id":"u2","page":"/home","event_time":"2026-06-10T10:21:00Z","duration_s":2.5}
{"user_id":"u7","page":"/docs","event_time":"2026-06-10T10:22:10Z","duration_s":40.0}
)"},
    {"clicks-0004.json",
     R"({"user_id":"u4","page":"/pricing","event_time":"2026-06-10T10:24:00Z","duration_s":11.0}
{"user_id":"u5","page":"/home","event_time":"2026-06-11T00:26:40Z","duration_s":5.5}
{"user_id":"u8","page":"/docs","event_time":"2026-06-11T00:28:00Z","duration_s":null}
{"user_id":"u1","page":"/pricing","event_time":"2026-06-11T00:30:00Z","duration_s":7.0}
)"},
};

int Fail(const arrow::Status& status) {
  std::cerr << "clickstream_demo: " << status.ToString() << std::endl;
  return 1;
}

/// Files must appear atomically in a streaming source folder: write, then rename into place.
void Land(const fs::path& folder, const char* name, const char* contents) {
  fs::path temporary = folder / (std::string(".") + name + ".tmp");
  std::ofstream(temporary) << contents;
  fs::rename(temporary, folder / name);
}

/// Prints each batch's progress as Spark's prettyJson.
class PrintProgress final : public sluice::execution::StreamingQueryListener {
 public:
  void onQueryProgress(const sluice::execution::QueryProgressEvent& event) override {
    std::cout << "Batch " << event.progress.batch_id << ": " << event.progress.num_input_rows()
              << " rows\n"
              << event.progress.PrettyJson() << std::endl;
  }
};

/// One run of the streaming job: everything new in `landing` goes to `output`.
arrow::Status RunIngestion(const std::shared_ptr<sluice::SparkSession>& spark,
                           const fs::path& landing, const fs::path& output,
                           const fs::path& checkpoint) {
  auto clicks =
      spark->readStream()
          .schema("user_id STRING, page STRING, event_time TIMESTAMP, duration_s DOUBLE")
          .option("maxFilesPerTrigger", int64_t{1})
          .json(landing.string())
          .withColumn("event_date", F::to_date(F::col("event_time")));
  ARROW_ASSIGN_OR_RAISE(auto query, clicks.writeStream()
                                        .format("parquet")
                                        .partitionBy({"event_date"})
                                        .option("checkpointLocation", checkpoint.string())
                                        .trigger(sluice::Trigger::AvailableNow())
                                        .queryName("clickstream_ingest")
                                        .start(output.string()));
  return query->awaitTermination();
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path work = argc > 1 ? fs::path(argv[1]) : fs::path("demo-output");
  fs::remove_all(work);
  const fs::path landing = work / "landing" / "clicks";
  const fs::path output = work / "clicks_parquet";
  const fs::path checkpoint = work / "checkpoints" / "clickstream_ingest";
  fs::create_directories(landing);

  auto session = sluice::SparkSession::builder()
                     .appName("clickstream")
                     .config("spark.sql.session.timeZone", "UTC")
                     .getOrCreate();
  if (!session.ok()) return Fail(session.status());
  auto spark = *session;
  spark->streams()->addListener(std::make_shared<PrintProgress>());

  for (int wave = 0; wave < 2; ++wave) {
    std::cout << "=== Wave " << wave + 1 << ": two files land in " << landing.string() << "\n";
    for (int file = 2 * wave; file < 2 * wave + 2; ++file) {
      Land(landing, kFiles[file][0], kFiles[file][1]);
    }
    if (auto status = RunIngestion(spark, landing, output, checkpoint); !status.ok()) {
      return Fail(status);
    }
  }

  std::cout << "=== The Parquet folder, read as a batch table\n";
  auto clicks = spark->read().parquet(output.string());
  auto per_page =
      clicks.groupBy({F::col("event_date"), F::col("page")})
          .agg({F::count(F::col("*")).alias("views"),
                F::round(F::avg(F::col("duration_s")), 2).alias("avg_duration_s")})
          .orderBy({F::col("event_date"), F::col("views").desc(), F::col("page")});
  if (auto status = per_page.show(); !status.ok()) return Fail(status);
  return 0;
}
