// DeltaTable and its MERGE builder (sluice.delta wraps them with Delta's Python names).
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "binding.h"
#include "sluice/api/delta_table.h"
#include "sluice/api/session.h"

namespace sluice::python {

namespace {

using Release = nb::call_guard<nb::gil_scoped_release>;

DeltaMergeBuilder::Assignments ToAssignments(const std::map<std::string, Column>& columns) {
  DeltaMergeBuilder::Assignments assignments;
  for (const auto& [name, value] : columns) assignments.emplace(name, value);
  return assignments;
}

std::optional<ExpressionOrColumn> ToCondition(const std::optional<Column>& condition) {
  if (!condition) return std::nullopt;
  return ExpressionOrColumn(*condition);
}

}  // namespace

void RegisterDelta(nb::module_& m) {
  nb::class_<DeltaMergeBuilder>(m, "DeltaMergeBuilder")
      .def("whenMatchedUpdate",
           [](const DeltaMergeBuilder& builder, const std::map<std::string, Column>& set,
              const std::optional<Column>& condition) {
             return builder.whenMatchedUpdate(ToAssignments(set), ToCondition(condition));
           },
           nb::arg("set"), nb::arg("condition").none())
      .def("whenMatchedUpdateAll",
           [](const DeltaMergeBuilder& builder, const std::optional<Column>& condition) {
             return builder.whenMatchedUpdateAll(ToCondition(condition));
           },
           nb::arg("condition").none())
      .def("whenMatchedDelete",
           [](const DeltaMergeBuilder& builder, const std::optional<Column>& condition) {
             return builder.whenMatchedDelete(ToCondition(condition));
           },
           nb::arg("condition").none())
      .def("whenNotMatchedInsert",
           [](const DeltaMergeBuilder& builder, const std::map<std::string, Column>& values,
              const std::optional<Column>& condition) {
             return builder.whenNotMatchedInsert(ToAssignments(values), ToCondition(condition));
           },
           nb::arg("values"), nb::arg("condition").none())
      .def("whenNotMatchedInsertAll",
           [](const DeltaMergeBuilder& builder, const std::optional<Column>& condition) {
             return builder.whenNotMatchedInsertAll(ToCondition(condition));
           },
           nb::arg("condition").none())
      .def("execute",
           [](const DeltaMergeBuilder& builder) { return ValueOrThrow(builder.execute()); },
           Release());

  nb::class_<DeltaTable>(m, "DeltaTable")
      .def_static("forPath",
                  [](const SparkSession& session, const std::string& path) {
                    return ValueOrThrow(DeltaTable::forPath(session, path));
                  },
                  Release())
      .def_static("forName",
                  [](const SparkSession& session, const std::string& name) {
                    return ValueOrThrow(DeltaTable::forName(session, name));
                  },
                  Release())
      .def("toDF", &DeltaTable::toDF)
      .def("alias", &DeltaTable::alias)
      .def("history", &DeltaTable::history, nb::arg("limit").none())
      .def("vacuum",
           [](const DeltaTable& table, std::optional<double> retention_hours) {
             return ValueOrThrow(table.vacuum(retention_hours));
           },
           nb::arg("retention_hours").none(), Release())
      .def("merge", [](const DeltaTable& table, const DataFrame& source, const Column& condition) {
        return table.merge(source, ExpressionOrColumn(condition));
      });
}

}  // namespace sluice::python
