// transformWithStateInPandas's engine side: a StatefulProcessor that calls a Python bridge
// object (sluice.sql.streaming.stateful_processor), with the handle, the state variables, keys
// and rows crossing as Arrow tables.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <arrow/array.h>
#include <arrow/array/util.h>
#include <arrow/builder.h>
#include <arrow/table.h>

#include "arrow_interop.h"
#include "binding.h"
#include "sluice/api/grouped_data.h"
#include "sluice/common/errors.h"

namespace sluice::python {

namespace {

using plan::StateRow;

/// A table of `rows`, all of `type`.
nb::object RowsTable(const std::vector<StateRow>& rows,
                     const std::shared_ptr<arrow::StructType>& type) {
  std::unique_ptr<arrow::ArrayBuilder> builder;
  ThrowIfError(arrow::MakeBuilder(arrow::default_memory_pool(), type, &builder));
  for (const auto& row : rows) ThrowIfError(builder->AppendScalar(*row));
  auto array = ValueOrThrow(builder->Finish());
  auto batch = ValueOrThrow(arrow::RecordBatch::FromStructArray(array));
  return ExportTable(ValueOrThrow(arrow::Table::FromRecordBatches(batch->schema(), {batch})));
}

nb::object RowTable(const StateRow& row) {
  if (row == nullptr) return nb::none();
  return RowsTable({row}, std::static_pointer_cast<arrow::StructType>(row->type));
}

/// The rows of a pyarrow Table.
std::vector<StateRow> ImportRows(nb::handle table_object) {
  auto table = ImportTable(table_object);
  auto batch = ValueOrThrow(table->CombineChunksToBatch());
  auto rows = ValueOrThrow(batch->ToStructArray());
  std::vector<StateRow> out;
  for (int64_t i = 0; i < rows->length(); ++i) {
    out.push_back(std::static_pointer_cast<arrow::StructScalar>(ValueOrThrow(rows->GetScalar(i))));
  }
  return out;
}

StateRow ImportRow(nb::handle table_object) {
  auto rows = ImportRows(table_object);
  if (rows.size() != 1) {
    ThrowIfError(SparkError("ILLEGAL_ARGUMENT", "Expected one row, got " +
                                                    std::to_string(rows.size()) + "."));
  }
  return rows.front();
}

std::optional<int64_t> Ttl(std::optional<int64_t> ttl_ms) { return ttl_ms; }

/// The handle given to the Python processor's init; valid during the batch.
struct HandleBinding {
  plan::StatefulProcessorHandle* handle = nullptr;
};

/// flatMap the Python bridge's answer into output rows.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> Output(nb::object result) {
  if (result.is_none()) return nullptr;
  auto table = ImportTable(result);
  return table->CombineChunksToBatch();
}

class PythonProcessor final : public plan::StatefulProcessor {
 public:
  explicit PythonProcessor(nb::object bridge) : bridge_(std::move(bridge)) {}

  arrow::Status init(plan::StatefulProcessorHandle& handle, plan::TimeMode) override {
    return Call([&] {
      binding_.handle = &handle;
      bridge_.get().attr("init")(nb::cast(&binding_, nb::rv_policy::reference));
      return arrow::Result<std::shared_ptr<arrow::RecordBatch>>(nullptr);
    }).status();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleInputRows(
      const StateRow& key, const std::shared_ptr<arrow::RecordBatch>& rows,
      const plan::TimerValues& times) override {
    ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatches(rows->schema(), {rows}));
    return Call([&] {
      return Output(bridge_.get().attr("handle_input_rows")(
          RowTable(key), ExportTable(table), times.current_processing_time_ms,
          times.current_watermark_ms));
    });
  }

  arrow::Status handleInitialState(const StateRow& key,
                                   const std::shared_ptr<arrow::RecordBatch>& rows,
                                   const plan::TimerValues& times) override {
    ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatches(rows->schema(), {rows}));
    return Call([&] {
             bridge_.get().attr("handle_initial_state")(RowTable(key), ExportTable(table),
                                                        times.current_processing_time_ms,
                                                        times.current_watermark_ms);
             return arrow::Result<std::shared_ptr<arrow::RecordBatch>>(nullptr);
           })
        .status();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleExpiredTimer(
      const StateRow& key, const plan::TimerValues& times,
      const plan::ExpiredTimerInfo& info) override {
    return Call([&] {
      return Output(bridge_.get().attr("handle_expired_timer")(
          RowTable(key), times.current_processing_time_ms, times.current_watermark_ms,
          info.expiry_time_ms));
    });
  }

  void close() override {
    (void)Call([&] {
      bridge_.get().attr("close")();
      return arrow::Result<std::shared_ptr<arrow::RecordBatch>>(nullptr);
    });
    binding_.handle = nullptr;
  }

 private:
  /// Runs `body` with the GIL, turning a Python exception into the query's error.
  template <typename Body>
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Call(Body&& body) {
    nb::gil_scoped_acquire gil;
    if (!bridge_.get().is_valid()) {
      return arrow::Status::Cancelled("the Python interpreter is exiting");
    }
    std::string failure;
    try {
      return body();
    } catch (nb::python_error& error) {
      failure = error.what();
    } catch (const StatusError& error) {
      failure = error.what();
    }
    return SparkError("PYTHON_EXCEPTION",
                      "An exception was thrown from the Python worker: " + failure);
  }

  SharedPyObject bridge_;
  HandleBinding binding_;
};

plan::StatefulProcessorHandle& HandleOf(const HandleBinding& binding) {
  if (binding.handle == nullptr) {
    ThrowIfError(SparkError("ILLEGAL_STATE", "The processor's handle is used outside a batch."));
  }
  return *binding.handle;
}

}  // namespace

void RegisterStatefulProcessor(nb::module_& m) {
  nb::class_<plan::ValueState>(m, "ValueState")
      .def("exists", [](plan::ValueState& s) { return ValueOrThrow(s.exists()); })
      .def("get", [](plan::ValueState& s) { return RowTable(ValueOrThrow(s.get())); })
      .def("update", [](plan::ValueState& s, nb::handle t) { ThrowIfError(s.update(ImportRow(t))); })
      .def("clear", [](plan::ValueState& s) { ThrowIfError(s.clear()); });
  nb::class_<plan::ListState>(m, "ListState")
      .def("exists", [](plan::ListState& s) { return ValueOrThrow(s.exists()); })
      .def("get",
           [](plan::ListState& s, nb::handle schema) {
             auto rows = ValueOrThrow(s.get());
             auto type = std::make_shared<arrow::StructType>(ImportSchema(schema)->fields());
             return RowsTable(rows, type);
           })
      .def("put", [](plan::ListState& s, nb::handle t) { ThrowIfError(s.put(ImportRows(t))); })
      .def("append_list",
           [](plan::ListState& s, nb::handle t) { ThrowIfError(s.appendList(ImportRows(t))); })
      .def("clear", [](plan::ListState& s) { ThrowIfError(s.clear()); });
  nb::class_<plan::MapState>(m, "MapState")
      .def("exists", [](plan::MapState& s) { return ValueOrThrow(s.exists()); })
      .def("get_value",
           [](plan::MapState& s, nb::handle key) {
             return RowTable(ValueOrThrow(s.getValue(ImportRow(key))));
           })
      .def("contains_key",
           [](plan::MapState& s, nb::handle key) {
             return ValueOrThrow(s.containsKey(ImportRow(key)));
           })
      .def("update_value",
           [](plan::MapState& s, nb::handle key, nb::handle value) {
             ThrowIfError(s.updateValue(ImportRow(key), ImportRow(value)));
           })
      .def("remove_key",
           [](plan::MapState& s, nb::handle key) { ThrowIfError(s.removeKey(ImportRow(key))); })
      .def("entries",
           [](plan::MapState& s, nb::handle key_schema, nb::handle value_schema) {
             auto entries = ValueOrThrow(s.iterator());
             std::vector<StateRow> keys, values;
             for (auto& [k, v] : entries) {
               keys.push_back(k);
               values.push_back(v);
             }
             auto key_type =
                 std::make_shared<arrow::StructType>(ImportSchema(key_schema)->fields());
             auto value_type =
                 std::make_shared<arrow::StructType>(ImportSchema(value_schema)->fields());
             return std::make_pair(RowsTable(keys, key_type), RowsTable(values, value_type));
           })
      .def("clear", [](plan::MapState& s) { ThrowIfError(s.clear()); });
  nb::class_<HandleBinding>(m, "ProcessorHandle")
      .def("get_value_state",
           [](const HandleBinding& h, const std::string& name, nb::handle schema,
              std::optional<int64_t> ttl_ms) {
             return ValueOrThrow(HandleOf(h).getValueState(name, ImportSchema(schema), Ttl(ttl_ms)));
           })
      .def("get_list_state",
           [](const HandleBinding& h, const std::string& name, nb::handle schema,
              std::optional<int64_t> ttl_ms) {
             return ValueOrThrow(HandleOf(h).getListState(name, ImportSchema(schema), Ttl(ttl_ms)));
           })
      .def("get_map_state",
           [](const HandleBinding& h, const std::string& name, nb::handle key_schema,
              nb::handle value_schema, std::optional<int64_t> ttl_ms) {
             return ValueOrThrow(HandleOf(h).getMapState(name, ImportSchema(key_schema),
                                                         ImportSchema(value_schema), Ttl(ttl_ms)));
           })
      .def("register_timer",
           [](const HandleBinding& h, int64_t ms) { ThrowIfError(HandleOf(h).registerTimer(ms)); })
      .def("delete_timer",
           [](const HandleBinding& h, int64_t ms) { ThrowIfError(HandleOf(h).deleteTimer(ms)); })
      .def("list_timers",
           [](const HandleBinding& h) { return ValueOrThrow(HandleOf(h).listTimers()); });
}

DataFrame TransformWithState(const GroupedData& grouped, nb::object bridge,
                             nb::handle output_schema, const std::string& output_mode,
                             const std::string& time_mode, const GroupedData* initial_state) {
  auto processor = std::make_shared<PythonProcessor>(std::move(bridge));
  auto df = initial_state == nullptr
                ? grouped.transformWithState(processor, ImportSchema(output_schema),
                                             output_mode, time_mode)
                : grouped.transformWithState(processor, ImportSchema(output_schema),
                                             output_mode, time_mode, *initial_state);
  ThrowIfError(df.status());
  return df;
}

}  // namespace sluice::python
