// DataFrame, GroupedData and the batch reader and writer. Transformations raise the analysis
// error at once, as PySpark does; actions release the GIL while the engine runs.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <arrow/table.h>

#include "arrow_interop.h"
#include "binding.h"
#include "dataframe_builders.h"
#include "sluice/api/dataframe.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/grouped_data.h"
#include "sluice/types/tree_string.h"

namespace sluice::python {

DataFrame Checked(DataFrame df) {
  ThrowIfError(df.status());
  return df;
}

namespace {

using Release = nb::call_guard<nb::gil_scoped_release>;

/// A DataFrame transformation that raises the analysis error of its result.
template <typename... Args>
auto Transform(DataFrame (DataFrame::*method)(Args...) const) {
  return [method](const DataFrame& df, Args... args) {
    return Checked((df.*method)(std::forward<Args>(args)...));
  };
}

template <typename... Args>
auto Aggregate(DataFrame (GroupedData::*method)(Args...) const) {
  return [method](const GroupedData& grouped, Args... args) {
    return Checked((grouped.*method)(std::forward<Args>(args)...));
  };
}

}  // namespace

void RegisterDataFrame(nb::module_& m) {
  nb::class_<GroupedData>(m, "GroupedData")
      .def("agg", Aggregate(&GroupedData::agg))
      .def("count", Aggregate(&GroupedData::count))
      .def("sum", Aggregate(&GroupedData::sum))
      .def("avg", Aggregate(&GroupedData::avg))
      .def("min", Aggregate(&GroupedData::min))
      .def("max", Aggregate(&GroupedData::max))
      .def("apply_with_state", &ApplyWithState)
      .def("transform_with_state", &TransformWithState, nb::arg("bridge"),
           nb::arg("output_schema"), nb::arg("output_mode"), nb::arg("time_mode"),
           nb::arg("initial_state").none());

  nb::class_<DataFrame>(m, "DataFrame")
      .def("schema",
           [](const DataFrame& df) { return ExportSchema(*ValueOrThrow(df.schema())); })
      .def("columns", &DataFrame::columns)
      .def("column", [](const DataFrame& df, const std::string& name) { return df[name]; })
      .def("isStreaming", &DataFrame::isStreaming)
      .def("createOrReplaceTempView",
           [](const DataFrame& df, const std::string& name) {
             ThrowIfError(df.createOrReplaceTempView(name));
           })
      .def("createTempView",
           [](const DataFrame& df, const std::string& name) {
             ThrowIfError(df.createTempView(name));
           })
      .def("select", Transform(&DataFrame::select))
      .def("selectExpr", Transform(&DataFrame::selectExpr))
      .def("filter", Transform<const Column&>(&DataFrame::filter))
      .def("filter_sql", Transform<const std::string&>(&DataFrame::filter))
      .def("withColumn", Transform(&DataFrame::withColumn))
      .def("withColumnRenamed", Transform(&DataFrame::withColumnRenamed))
      .def("drop", Transform(&DataFrame::drop))
      .def("alias", Transform(&DataFrame::alias))
      .def("toDF", Transform(&DataFrame::toDF))
      .def("withWatermark", Transform(&DataFrame::withWatermark))
      .def("orderBy", Transform(&DataFrame::orderBy))
      .def("limit", Transform(&DataFrame::limit))
      .def("distinct", Transform(&DataFrame::distinct))
      .def("dropDuplicates", Transform(&DataFrame::dropDuplicates))
      .def("dropDuplicatesWithinWatermark", Transform(&DataFrame::dropDuplicatesWithinWatermark))
      .def("union", Transform(&DataFrame::union_))
      .def("unionByName", Transform(&DataFrame::unionByName))
      .def("join",
           Transform<const DataFrame&, const Column&, const std::string&>(&DataFrame::join))
      .def("join_using",
           Transform<const DataFrame&, const std::vector<std::string>&, const std::string&>(
               &DataFrame::join))
      .def("crossJoin", Transform(&DataFrame::crossJoin))
      .def("groupBy",
           [](const DataFrame& df, std::vector<Column> keys) {
             ThrowIfError(df.status());
             return df.groupBy(std::move(keys));
           })
      .def("agg", Transform(&DataFrame::agg))
      .def("collect",
           [](const DataFrame& df) {
             std::shared_ptr<arrow::Table> table;
             {
               nb::gil_scoped_release release;
               table = ValueOrThrow(df.collect());
             }
             return ExportTable(std::move(table));
           })
      .def("count", [](const DataFrame& df) { return ValueOrThrow(df.count()); }, Release())
      .def(
          "showString",
          [](const DataFrame& df, int n, int truncate_to, bool vertical) {
            return ValueOrThrow(df.showString(n, truncate_to, vertical));
          },
          Release())
      .def("treeString",
           [](const DataFrame& df, int level) {
             auto schema = ValueOrThrow(df.schema());
             return level > 0 ? types::TreeString(*schema, level) : types::TreeString(*schema);
           })
      .def("explainString",
           [](const DataFrame& df, bool extended) {
             return ValueOrThrow(df.explainString(extended));
           })
      .def("write_save", &WriteSave, nb::arg("format"), nb::arg("mode"), nb::arg("options"),
           nb::arg("partition_by"), nb::arg("path").none(), Release())
      .def("write_save_as_table", &WriteSaveAsTable, nb::arg("format").none(), nb::arg("mode"),
           nb::arg("options"), nb::arg("partition_by"), nb::arg("name"), Release());

  m.def("read_load", &ReadLoad, nb::arg("session"), nb::arg("format"), nb::arg("options"),
        nb::arg("schema").none(), nb::arg("path").none());
  m.def("read_table", &ReadTable, nb::arg("session"), nb::arg("options"), nb::arg("name"));
}

}  // namespace sluice::python
