// Spark type names and schemas for sluice.sql.types: DDL parsing and printSchema's tree.
#include <nanobind/stl/string.h>

#include <arrow/type.h>

#include "arrow_interop.h"
#include "binding.h"
#include "sluice/types/ddl_parser.h"
#include "sluice/types/spark_types.h"
#include "sluice/types/tree_string.h"

namespace sluice::python {

void RegisterTypes(nb::module_& m) {
  m.def(
      "parse_schema",
      [](const std::string& ddl) { return ExportSchema(*ValueOrThrow(types::ParseSchema(ddl))); },
      "The Arrow schema (a capsule) of a DDL schema string such as 'a INT, b STRING'.");
  m.def(
      "parse_type",
      [](const std::string& ddl) {
        auto type = ValueOrThrow(types::ParseDataType(ddl));
        return ExportSchema(arrow::Schema({arrow::field("value", type)}));
      },
      "A one-column Arrow schema (a capsule) whose column has the DDL type, e.g. 'array<int>'.");
  m.def(
      "tree_string",
      [](nb::handle schema, int level) {
        auto imported = ImportSchema(schema);
        return level > 0 ? types::TreeString(*imported, level) : types::TreeString(*imported);
      },
      nb::arg("schema"), nb::arg("level") = 0, "Spark's StructType.treeString of an Arrow schema.");
  m.def(
      "to_spark_schema",
      [](nb::handle schema) {
        return ExportSchema(*ValueOrThrow(types::ToSparkArrowSchema(*ImportSchema(schema))));
      },
      "An Arrow schema with every type normalized to Spark's Arrow types.");
}

}  // namespace sluice::python
