// The seeds' clickstream example (seed 004): click events land as JSON files; a streaming
// query counts page views in five-minute event-time windows with a ten-minute watermark and
// appends each window, once final, to a Parquet folder. It runs twice with availableNow, as a
// scheduled incremental job would:
//  - run 1 reads sixteen clicks between 10:00 and 10:30. The watermark becomes 10:30 - 10
//    minutes = 10:20, and a batch without new data writes the windows that end by 10:20;
//  - run 2, from the same checkpoint, reads a late click (10:03, behind the watermark: dropped)
//    and a new one (10:40). The watermark moves to 10:30 and a batch without new data writes
//    the windows that closed.
// After each run the table is read back as a batch query. Every batch's progress is printed.
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

// The sixteen clicks of the first run, in two files.
constexpr const char* kFirstRun[][2] = {
    {"clicks-0001.json",
     R"({"user_id":"u1","page":"/home","event_time":"2026-06-10T10:01:00Z","duration_s":12.5}
{"user_id":"u2","page":"/pricing","event_time":"2026-06-10T10:02:30Z","duration_s":30.0}
{"user_id":"u3","page":"/pricing","event_time":"2026-06-10T10:04:10Z","duration_s":8.25}
{"user_id":"u1","page":"/home","event_time":"2026-06-10T10:06:00Z","duration_s":4.0}
{"user_id":"u2","page":"/pricing","event_time":"2026-06-10T10:08:45Z","duration_s":17.5}
{"user_id":"u4","page":"/home","event_time":"2026-06-10T10:11:00Z","duration_s":3.0}
{"user_id":"u5","page":"/home","event_time":"2026-06-10T10:13:20Z","duration_s":6.75}
{"user_id":"u3","page":"/pricing","event_time":"2026-06-10T10:14:59Z","duration_s":21.0}
)"},
    {"clicks-0002.json",
     R"({"user_id":"u1","page":"/home","event_time":"2026-06-10T10:16:00Z","duration_s":9.0}
{"user_id":"u6","page":"/pricing","event_time":"2026-06-10T10:18:30Z","duration_s":14.0}
{"user_id":"u2","page":"/home","event_time":"2026-06-10T10:21:00Z","duration_s":2.5}
{"user_id":"u7","page":"/docs","event_time":"2026-06-10T10:22:10Z","duration_s":40.0}
{"user_id":"u4","page":"/pricing","event_time":"2026-06-10T10:24:00Z","duration_s":11.0}
{"user_id":"u5","page":"/home","event_time":"2026-06-10T10:26:40Z","duration_s":5.5}
{"user_id":"u8","page":"/docs","event_time":"2026-06-10T10:28:00Z","duration_s":null}
{"user_id":"u1","page":"/pricing","event_time":"2026-06-10T10:30:00Z","duration_s":7.0}
)"},
};

// The second run: one late click and one new one.
constexpr const char* kSecondRun[2] = {
    "clicks-0003.json",
    R"({"user_id":"u9","page":"/home","event_time":"2026-06-10T10:03:00Z","duration_s":1.0}
{"user_id":"u3","page":"/docs","event_time":"2026-06-10T10:40:00Z","duration_s":25.0}
)"};

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

/// Prints one line per batch, as the seed's run log does, then the batch's full progress.
class PrintProgress final : public sluice::execution::StreamingQueryListener {
 public:
  explicit PrintProgress(std::string run) : run_(std::move(run)) {}

  void onQueryProgress(const sluice::execution::QueryProgressEvent& event) override {
    const auto& progress = event.progress;
    std::string dropped = "[";
    for (size_t i = 0; i < progress.state_operators.size(); ++i) {
      if (i > 0) dropped += ", ";
      dropped += std::to_string(progress.state_operators[i].num_rows_dropped_by_watermark);
    }
    dropped += "]";
    auto watermark = progress.event_time.find("watermark");
    std::cout << run_ << " batch " << progress.batch_id << " rows "
              << progress.num_input_rows() << " watermark "
              << (watermark == progress.event_time.end() ? "-" : watermark->second)
              << " droppedByWatermark " << dropped << "\n"
              << progress.PrettyJson() << std::endl;
  }

 private:
  std::string run_;
};

/// One availableNow run of the job: what is new in `landing`, into `output`.
arrow::Status RunJob(const std::shared_ptr<sluice::SparkSession>& spark, const std::string& run,
                     const fs::path& landing, const fs::path& output,
                     const fs::path& checkpoint) {
  auto clicks =
      spark->readStream()
          .schema("user_id STRING, page STRING, event_time TIMESTAMP, duration_s DOUBLE")
          .option("maxFilesPerTrigger", int64_t{10})
          .json(landing.string());
  auto per_page = clicks.withWatermark("event_time", "10 minutes")
                      .groupBy({F::window(F::col("event_time"), "5 minutes"), F::col("page")})
                      .agg({F::count(F::lit(1)).alias("views"),
                            F::sum(F::col("duration_s")).alias("total_duration_s")});
  auto listener = std::make_shared<PrintProgress>(run);
  spark->streams()->addListener(listener);
  auto query = per_page.writeStream()
                   .format("parquet")
                   .outputMode("append")
                   .option("checkpointLocation", checkpoint.string())
                   .trigger(sluice::Trigger::AvailableNow())
                   .queryName("page_views_5m")
                   .start(output.string());
  arrow::Status status = query.ok() ? (*query)->awaitTermination() : query.status();
  spark->streams()->removeListener(listener);
  return status;
}

/// The windows written so far, read back as a batch table.
arrow::Status ShowTable(const std::shared_ptr<sluice::SparkSession>& spark,
                        const fs::path& output) {
  auto windows = spark->read().parquet(output.string());
  return windows
      .select({F::date_format(F::col("window").getField("start"), "HH:mm").alias("start"),
               F::date_format(F::col("window").getField("end"), "HH:mm").alias("end"),
               F::col("page"), F::col("views")})
      .orderBy({F::col("start"), F::col("page")})
      .show(50);
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path work = argc > 1 ? fs::path(argv[1]) : fs::path("demo-output");
  fs::remove_all(work);
  const fs::path landing = work / "landing" / "clicks";
  const fs::path output = work / "page_views_5m";
  const fs::path checkpoint = work / "_checkpoints" / "page_views_5m";
  fs::create_directories(landing);

  auto session = sluice::SparkSession::builder()
                     .appName("ss-guide")
                     .config("spark.sql.session.timeZone", "UTC")
                     .config("spark.sql.shuffle.partitions", "4")
                     .getOrCreate();
  if (!session.ok()) return Fail(session.status());
  auto spark = *session;

  std::cout << "=== Run 1: sixteen clicks between 10:00 and 10:30\n";
  for (const auto& file : kFirstRun) Land(landing, file[0], file[1]);
  if (auto status = RunJob(spark, "run1", landing, output, checkpoint); !status.ok()) {
    return Fail(status);
  }
  if (auto status = ShowTable(spark, output); !status.ok()) return Fail(status);

  std::cout << "=== Run 2: a late click (10:03) and a new one (10:40)\n";
  Land(landing, kSecondRun[0], kSecondRun[1]);
  if (auto status = RunJob(spark, "run2", landing, output, checkpoint); !status.ok()) {
    return Fail(status);
  }
  if (auto status = ShowTable(spark, output); !status.ok()) return Fail(status);
  return 0;
}
