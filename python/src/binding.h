// What the parts of the extension module sluice._native share: turning a failed Status into a
// Python exception, holding Python objects from engine threads, and the parts' entry points.
#pragma once

#include <exception>
#include <memory>
#include <string>
#include <utility>

#include <arrow/result.h>
#include <arrow/status.h>
#include <nanobind/nanobind.h>

namespace sluice {
class DataFrame;
class GroupedData;
}  // namespace sluice

namespace sluice::python {

namespace nb = nanobind;

/// A failed Status on its way to Python: the module's exception translator raises it as the
/// sluice.errors exception of its Spark error class.
class StatusError : public std::exception {
 public:
  explicit StatusError(arrow::Status status) : status_(std::move(status)) {}
  const char* what() const noexcept override { return status_.message().c_str(); }
  const arrow::Status& status() const { return status_; }

 private:
  arrow::Status status_;
};

/// Throws StatusError unless `status` is OK.
inline void ThrowIfError(const arrow::Status& status) {
  if (!status.ok()) throw StatusError(status);
}

/// The value of `result`, or throws StatusError.
template <typename T>
T ValueOrThrow(arrow::Result<T> result) {
  if (!result.ok()) throw StatusError(result.status());
  return std::move(result).ValueUnsafe();
}

/// A reference to a Python object that engine threads may copy and drop without holding the
/// GIL: copies share one reference, and the last one takes the GIL to release it (or leaks it
/// when the interpreter is shutting down). Calls on the object need the GIL.
class SharedPyObject {
 public:
  explicit SharedPyObject(nb::object object);
  /// The object, or a null handle once ReleaseSharedPyObjects ran; hold the GIL while using it.
  nb::handle get() const { return holder_->object; }

  struct Holder {
    PyObject* object;
    ~Holder();
  };

 private:
  std::shared_ptr<Holder> holder_;
};

/// Drops the reference of every SharedPyObject (at interpreter exit, with the GIL, once the
/// queries have stopped). The engine's references are invisible to Python's garbage collector,
/// so a cycle through them (a foreachBatch function or a listener whose module globals hold
/// the session that holds them) would otherwise outlive the interpreter.
void ReleaseSharedPyObjects();

/// Registers the translation of StatusError into sluice.errors exceptions.
void RegisterErrors(nb::module_& m);
/// Schema and type helpers (DDL parsing, printSchema's tree).
void RegisterTypes(nb::module_& m);
/// Column and the functions.
void RegisterColumn(nb::module_& m);
/// DataFrame, GroupedData and the batch reader and writer.
void RegisterDataFrame(nb::module_& m);
/// SparkSession and its RuntimeConfig.
void RegisterSession(nb::module_& m);
/// Streaming reads and writes, StreamingQuery, the query manager and listeners.
void RegisterStreaming(nb::module_& m);
/// DeltaTable and its MERGE builder.
void RegisterDelta(nb::module_& m);
/// The GroupState handle of applyInPandasWithState's calls.
void RegisterGroupState(nb::module_& m);
/// The handle and state variables of transformWithStateInPandas's processors.
void RegisterStatefulProcessor(nb::module_& m);

/// GroupedData.transform_with_state: transformWithState with a Python bridge object (init,
/// handle_initial_state, handle_input_rows, handle_expired_timer, close) and an optional
/// initial state.
DataFrame TransformWithState(const GroupedData& grouped, nb::object bridge,
                             nb::handle output_schema, const std::string& output_mode,
                             const std::string& time_mode, const GroupedData* initial_state);

/// GroupedData.apply_with_state: flatMapGroupsWithState with a Python callable
/// `callback(key_table, rows_table, state_handle)` returning a pyarrow Table or None.
DataFrame ApplyWithState(const GroupedData& grouped, nb::object callback,
                         nb::handle output_schema, nb::handle state_schema,
                         const std::string& output_mode, const std::string& timeout);

}  // namespace sluice::python
