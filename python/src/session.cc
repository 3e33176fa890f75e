// SparkSession and its RuntimeConfig.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <arrow/compute/cast.h>
#include <arrow/table.h>

#include "arrow_interop.h"
#include "binding.h"
#include "dataframe_builders.h"
#include "sluice/api/session.h"
#include "sluice/types/spark_types.h"

namespace sluice::python {

namespace {

/// `table` with every column cast to its type in Spark's Arrow mapping (large strings to
/// strings, nanosecond timestamps to microseconds, dictionaries to their values, ...), as
/// pandas and other libraries produce them. Columns already of Spark's types are kept as
/// they are, without a copy.
std::shared_ptr<arrow::Table> ToSparkTypes(const std::shared_ptr<arrow::Table>& table) {
  arrow::FieldVector fields;
  arrow::ChunkedArrayVector columns;
  bool changed = false;
  for (int i = 0; i < table->num_columns(); ++i) {
    auto field = table->schema()->field(i);
    auto type = ValueOrThrow(types::ToSparkArrowType(field->type()));
    auto column = table->column(i);
    if (!type->Equals(*field->type())) {
      arrow::compute::CastOptions options = arrow::compute::CastOptions::Safe(type);
      options.allow_time_truncate = true;
      column = ValueOrThrow(arrow::compute::Cast(column, options)).chunked_array();
      field = field->WithType(type);
      changed = true;
    }
    fields.push_back(std::move(field));
    columns.push_back(std::move(column));
  }
  if (!changed) return table;
  return arrow::Table::Make(arrow::schema(std::move(fields)), std::move(columns),
                            table->num_rows());
}

std::shared_ptr<SparkSession> MakeSession(const std::string& app_name,
                                          const std::map<std::string, std::string>& settings) {
  SparkSession::Builder builder = SparkSession::builder();
  builder.appName(app_name);
  for (const auto& [key, value] : settings) builder.config(key, value);
  return ValueOrThrow(builder.getOrCreate());
}

}  // namespace

void RegisterSession(nb::module_& m) {
  nb::class_<SparkSession>(m, "SparkSession")
      .def_static("create", &MakeSession, nb::arg("app_name"), nb::arg("settings"))
      .def("appName", &SparkSession::appName)
      .def("conf_set",
           [](const SparkSession& session, const std::string& key, const std::string& value) {
             ThrowIfError(session.conf().set(key, value));
           })
      .def("conf_get",
           [](const SparkSession& session, const std::string& key) {
             return session.conf().get(key);
           })
      .def("conf_unset", [](const SparkSession& session,
                            const std::string& key) { session.conf().unset(key); })
      .def("createDataFrame",
           [](const SparkSession& session, nb::handle data) {
             auto table = ImportTable(data);
             nb::gil_scoped_release release;
             return Checked(session.createDataFrame(ToSparkTypes(table)));
           })
      .def("range",
           [](const SparkSession& session, int64_t start, int64_t end, int64_t step) {
             return Checked(session.range(start, end, step));
           })
      .def(
          "table",
          [](const SparkSession& session, const std::string& name) {
            return Checked(session.table(name));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def(
          "sql",
          [](const SparkSession& session, const std::string& text) {
            return Checked(session.sql(text));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def("streams", &SparkSession::streams)
      .def("uiWebUrl", &SparkSession::uiWebUrl)
      .def("stop", &SparkSession::stop, nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace sluice::python
