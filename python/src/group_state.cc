// applyInPandasWithState's engine side: GroupedData.apply_with_state runs a Python callable as
// the function of flatMapGroupsWithState, passing the key and the rows as Arrow tables and the
// key's GroupState as a handle valid during the call.
#include <memory>
#include <string>

#include <nanobind/stl/string.h>

#include <arrow/array.h>
#include <arrow/array/util.h>
#include <arrow/table.h>

#include "arrow_interop.h"
#include "binding.h"
#include "sluice/api/grouped_data.h"
#include "sluice/common/errors.h"

namespace sluice::python {

namespace {

/// A one-row table of `row`, a struct scalar.
std::shared_ptr<arrow::Table> OneRowTable(const arrow::StructScalar& row) {
  auto array = arrow::MakeArrayFromScalar(row, 1).ValueOrDie();
  auto batch = arrow::RecordBatch::FromStructArray(array).ValueOrDie();
  return arrow::Table::FromRecordBatches(batch->schema(), {batch}).ValueOrDie();
}

/// The GroupState of one call, for Python; refuses use once the call returned.
class GroupStateHandle {
 public:
  GroupStateHandle(plan::GroupState* state, std::shared_ptr<arrow::Schema> schema)
      : state_(state), schema_(std::move(schema)) {}

  void Close() { state_ = nullptr; }

  plan::GroupState& state() const {
    if (state_ == nullptr) {
      ThrowIfError(SparkError("ILLEGAL_STATE",
                              "A GroupState is only valid during the call it was given to."));
    }
    return *state_;
  }

  nb::object Get() const {
    const auto& row = state().getOption();
    if (row == nullptr) return nb::none();
    return ExportTable(OneRowTable(*row));
  }

  void Update(nb::handle table_object) {
    auto table = ImportTable(table_object);
    if (table->num_rows() != 1 || !table->schema()->Equals(*schema_, false)) {
      ThrowIfError(SparkError("ILLEGAL_ARGUMENT",
                              "A state must be one row of the state schema " +
                                  schema_->ToString() + ", not " +
                                  std::to_string(table->num_rows()) + " rows of " +
                                  table->schema()->ToString()));
    }
    auto batch = table->CombineChunksToBatch().ValueOrDie();
    auto rows = batch->ToStructArray().ValueOrDie();
    auto row = rows->GetScalar(0).ValueOrDie();
    ThrowIfError(state().update(std::static_pointer_cast<arrow::StructScalar>(row)));
  }

 private:
  plan::GroupState* state_;
  std::shared_ptr<arrow::Schema> schema_;
};

/// flatMapGroupsWithState's function over a Python callable
/// `callback(key_table, rows_table, state_handle)` that returns a pyarrow Table or None.
plan::FlatMapGroupsWithStateFunction PythonGroupsWithState(
    nb::object callback, std::shared_ptr<arrow::Schema> state_schema) {
  SharedPyObject function(std::move(callback));
  return [function, state_schema](const std::shared_ptr<arrow::StructScalar>& key,
                                  const std::shared_ptr<arrow::RecordBatch>& rows,
                                  plan::GroupState& state)
             -> arrow::Result<std::shared_ptr<arrow::RecordBatch>> {
    auto key_table = OneRowTable(*key);
    ARROW_ASSIGN_OR_RAISE(auto rows_table, arrow::Table::FromRecordBatches(rows->schema(), {rows}));
    nb::gil_scoped_acquire gil;
    if (!function.get().is_valid()) {
      return arrow::Status::Cancelled("the Python interpreter is exiting");
    }
    GroupStateHandle handle(&state, state_schema);
    std::string failure;
    try {
      nb::object result = function.get()(ExportTable(key_table), ExportTable(rows_table),
                                         nb::cast(&handle, nb::rv_policy::reference));
      handle.Close();
      if (result.is_none()) return nullptr;
      auto table = ImportTable(result);
      return table->CombineChunksToBatch();
    } catch (nb::python_error& error) {
      failure = error.what();
    } catch (const StatusError& error) {
      failure = error.what();
    }
    handle.Close();
    return SparkError("PYTHON_EXCEPTION",
                      "An exception was thrown from the Python worker: " + failure);
  };
}

}  // namespace

void RegisterGroupState(nb::module_& m) {
  nb::class_<GroupStateHandle>(m, "GroupStateHandle")
      .def("exists", [](const GroupStateHandle& h) { return h.state().exists(); })
      .def("get", &GroupStateHandle::Get)
      .def("update", &GroupStateHandle::Update)
      .def("remove", [](const GroupStateHandle& h) { h.state().remove(); })
      .def("has_timed_out", [](const GroupStateHandle& h) { return h.state().hasTimedOut(); })
      .def("set_timeout_duration",
           [](const GroupStateHandle& h, int64_t ms) {
             ThrowIfError(h.state().setTimeoutDuration(ms));
           })
      .def("set_timeout_duration_text",
           [](const GroupStateHandle& h, const std::string& duration) {
             ThrowIfError(h.state().setTimeoutDuration(duration));
           })
      .def("set_timeout_timestamp",
           [](const GroupStateHandle& h, int64_t ms) {
             ThrowIfError(h.state().setTimeoutTimestamp(ms));
           })
      .def("watermark_ms",
           [](const GroupStateHandle& h) {
             auto watermark = h.state().getCurrentWatermarkMs();
             ThrowIfError(watermark.status());
             return *watermark;
           })
      .def("processing_time_ms",
           [](const GroupStateHandle& h) { return h.state().getCurrentProcessingTimeMs(); });
}

DataFrame ApplyWithState(const GroupedData& grouped, nb::object callback,
                         nb::handle output_schema, nb::handle state_schema,
                         const std::string& output_mode, const std::string& timeout) {
  auto output = ImportSchema(output_schema);
  auto state = ImportSchema(state_schema);
  auto df = grouped.flatMapGroupsWithState(PythonGroupsWithState(std::move(callback), state),
                                           output, state, output_mode, timeout);
  ThrowIfError(df.status());
  return df;
}

}  // namespace sluice::python
