// Streaming: readStream, writeStream().start(), StreamingQuery, spark.streams and listeners.
// The GIL is released while the engine runs or waits; engine threads take it to call back into
// Python (foreachBatch functions and listeners).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "binding.h"
#include "dataframe_builders.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/common/errors.h"
#include "sluice/execution/query_manager.h"
#include "sluice/execution/streaming_query.h"

namespace sluice::python {

namespace {

using execution::StreamingQueryManager;
using Release = nb::call_guard<nb::gil_scoped_release>;

/// A query handle held by Python. Dropping the last reference to a query joins its thread,
/// which may be waiting for the GIL to call a listener: the GIL is released first.
class QueryHandle {
 public:
  explicit QueryHandle(std::shared_ptr<StreamingQuery> query) : query_(std::move(query)) {}
  QueryHandle(const QueryHandle&) = default;
  ~QueryHandle() {
    if (query_ == nullptr || !Py_IsInitialized() || !PyGILState_Check()) return;
    nb::gil_scoped_release release;
    query_.reset();
  }
  StreamingQuery& operator*() const { return *query_; }
  StreamingQuery* operator->() const { return query_.get(); }

 private:
  std::shared_ptr<StreamingQuery> query_;
};

/// (error class or None, message, Arrow status code) of a failed status, as
/// sluice.errors._from_native takes them; None when OK.
std::optional<std::tuple<std::optional<std::string>, std::string, std::string>> ErrorInfo(
    const arrow::Status& status) {
  if (status.ok()) return std::nullopt;
  return std::make_tuple(ErrorClassOf(status), status.message(), status.CodeAsString());
}

/// Forwards the engine's listener events to a Python adapter object (sluice.sql.streaming
/// builds PySpark's event objects and calls the user's listener). Errors of the adapter are
/// reported as unraisable exceptions and never reach the query.
class PythonListener final : public execution::StreamingQueryListener {
 public:
  explicit PythonListener(nb::object adapter) : adapter_(std::move(adapter)) {}

  void onQueryStarted(const execution::QueryStartedEvent& event) override {
    Call("started", event.id, event.run_id, event.name, event.timestamp);
  }
  void onQueryProgress(const execution::QueryProgressEvent& event) override {
    Call("progress", event.progress.Json());
  }
  void onQueryIdle(const execution::QueryIdleEvent& event) override {
    Call("idle", event.id, event.run_id, event.timestamp);
  }
  void onQueryTerminated(const execution::QueryTerminatedEvent& event) override {
    Call("terminated", event.id, event.run_id, event.exception, event.error_class_on_exception);
  }

 private:
  template <typename... Args>
  void Call(const char* method, const Args&... args) {
    nb::gil_scoped_acquire gil;
    if (!adapter_.get().is_valid()) return;  // released at interpreter exit
    try {
      adapter_.get().attr(method)(args...);
    } catch (nb::python_error& error) {
      error.discard_as_unraisable(adapter_.get());
    }
  }

  SharedPyObject adapter_;
};

/// A listener added from Python, kept so that it can be removed.
struct ListenerHandle {
  std::shared_ptr<execution::StreamingQueryListener> listener;
};

/// foreachBatch's function over a Python callable `callback(batch, batch_id)` that returns
/// None, or the text of the exception the user's function raised (with its traceback).
ForeachBatchFunction PythonForeachBatch(nb::object callback) {
  SharedPyObject function(std::move(callback));
  return [function](const DataFrame& batch, int64_t batch_id) -> arrow::Status {
    nb::gil_scoped_acquire gil;
    if (!function.get().is_valid()) {
      return arrow::Status::Cancelled("the Python interpreter is exiting");
    }
    std::string failure;
    try {
      nb::object result = function.get()(batch, batch_id);
      if (result.is_none()) return arrow::Status::OK();
      failure = nb::cast<std::string>(nb::str(result));
    } catch (nb::python_error& error) {
      failure = error.what();
    }
    return SparkError("FOREACH_BATCH_USER_FUNCTION_ERROR",
                      "An error occurred in the user provided function in foreach batch sink. "
                      "Reason: " + failure);
  };
}

QueryHandle Start(const DataFrame& df, const std::optional<std::string>& format,
                  const std::string& output_mode,
                  const std::map<std::string, std::string>& options,
                  const std::vector<std::string>& partition_by,
                  const std::optional<std::string>& trigger, const std::string& processing_time,
                  const std::optional<std::string>& query_name, nb::object foreach_batch,
                  const std::optional<std::string>& path,
                  const std::optional<std::string>& table) {
  DataStreamWriter writer = df.writeStream();
  if (format) writer.format(*format);
  writer.outputMode(output_mode).options(options);
  if (!partition_by.empty()) writer.partitionBy(partition_by);
  if (trigger == "processingTime") {
    writer.trigger(processing_time);
  } else if (trigger == "once") {
    writer.trigger(Trigger::Once());
  } else if (trigger == "availableNow") {
    writer.trigger(Trigger::AvailableNow());
  }
  if (query_name) writer.queryName(*query_name);
  if (!foreach_batch.is_none()) writer.foreachBatch(PythonForeachBatch(std::move(foreach_batch)));
  nb::gil_scoped_release release;
  if (table) return QueryHandle(ValueOrThrow(writer.toTable(*table)));
  return QueryHandle(ValueOrThrow(path ? writer.start(*path) : writer.start()));
}

std::vector<std::string> ProgressJson(const std::vector<execution::StreamingQueryProgress>& all) {
  std::vector<std::string> texts;
  texts.reserve(all.size());
  for (const auto& progress : all) texts.push_back(progress.Json());
  return texts;
}

}  // namespace

void RegisterStreaming(nb::module_& m) {
  m.def("read_stream_load", &ReadStreamLoad, nb::arg("session"), nb::arg("format"),
        nb::arg("options"), nb::arg("schema").none(), nb::arg("path").none());
  m.def("read_stream_table", &ReadStreamTable, nb::arg("session"), nb::arg("options"),
        nb::arg("name"));
  m.def("start_stream", &Start, nb::arg("df"), nb::arg("format").none(), nb::arg("output_mode"),
        nb::arg("options"), nb::arg("partition_by"), nb::arg("trigger").none(),
        nb::arg("processing_time"), nb::arg("query_name").none(),
        nb::arg("foreach_batch").none(), nb::arg("path").none(), nb::arg("table").none());

  nb::class_<QueryHandle>(m, "StreamingQuery")
      .def("id", [](const QueryHandle& q) { return q->id(); })
      .def("runId", [](const QueryHandle& q) { return q->runId(); })
      .def("name", [](const QueryHandle& q) { return q->name(); })
      .def("isActive", [](const QueryHandle& q) { return q->isActive(); })
      .def("status_json", [](const QueryHandle& q) { return q->status().Json(); })
      .def("last_progress_json",
           [](const QueryHandle& q) -> std::optional<std::string> {
             auto progress = q->lastProgress();
             if (!progress) return std::nullopt;
             return progress->Json();
           })
      .def("recent_progress_json",
           [](const QueryHandle& q) { return ProgressJson(q->recentProgress()); })
      .def("exception_info", [](const QueryHandle& q) { return ErrorInfo(q->exception()); })
      .def(
          "awaitTermination",
          [](const QueryHandle& q, std::optional<int64_t> timeout_ms) {
            if (!timeout_ms) {
              ThrowIfError(q->awaitTermination());
              return true;
            }
            return ValueOrThrow(q->awaitTermination(*timeout_ms));
          },
          nb::arg("timeout_ms").none(), Release())
      .def(
          "processAllAvailable",
          [](const QueryHandle& q) { ThrowIfError(q->processAllAvailable()); }, Release())
      .def("stop", [](const QueryHandle& q) { ThrowIfError(q->stop()); }, Release())
      .def("explainString",
           [](const QueryHandle& q, bool extended) { return q->explainString(extended); });

  nb::class_<ListenerHandle>(m, "ListenerHandle");

  nb::class_<StreamingQueryManager>(m, "StreamingQueryManager")
      .def("active",
           [](const StreamingQueryManager& manager) {
             std::vector<QueryHandle> handles;
             for (auto& query : manager.active()) handles.emplace_back(std::move(query));
             return handles;
           })
      .def("get",
           [](const StreamingQueryManager& manager,
              const std::string& id) -> std::optional<QueryHandle> {
             auto query = manager.get(id);
             if (query == nullptr) return std::nullopt;
             return QueryHandle(std::move(query));
           })
      .def(
          "awaitAnyTermination",
          [](StreamingQueryManager& manager, std::optional<int64_t> timeout_ms) {
            if (!timeout_ms) {
              ThrowIfError(manager.awaitAnyTermination());
              return true;
            }
            return ValueOrThrow(manager.awaitAnyTermination(*timeout_ms));
          },
          nb::arg("timeout_ms").none(), Release())
      .def("resetTerminated", &StreamingQueryManager::resetTerminated)
      .def("add_listener",
           [](StreamingQueryManager& manager, nb::object adapter) {
             ListenerHandle handle{std::make_shared<PythonListener>(std::move(adapter))};
             nb::gil_scoped_release release;
             manager.addListener(handle.listener);
             return handle;
           })
      .def("remove_listener", [](StreamingQueryManager& manager, const ListenerHandle& handle) {
        nb::gil_scoped_release release;
        manager.removeListener(handle.listener);
      });
}

}  // namespace sluice::python
