// Column and the functions: operators as named methods, literals, and the built-in functions
// by their SQL names (sluice.sql.functions gives each its PySpark signature).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "binding.h"
#include "sluice/api/column.h"
#include "sluice/api/functions.h"
#include "sluice/api/window_spec.h"

namespace sluice::python {

namespace {

/// PySpark's lit(int): IntegerType when the value fits, else LongType.
Column IntegerLiteral(int64_t value) {
  if (value >= std::numeric_limits<int32_t>::min() &&
      value <= std::numeric_limits<int32_t>::max()) {
    return Column(static_cast<int>(value));
  }
  return Column(value);
}

}  // namespace

void RegisterColumn(nb::module_& m) {
  nb::class_<Column>(m, "Column")
      .def("__str__", &Column::ToString)
      .def("add", [](const Column& a, const Column& b) { return a + b; })
      .def("sub", [](const Column& a, const Column& b) { return a - b; })
      .def("mul", [](const Column& a, const Column& b) { return a * b; })
      .def("div", [](const Column& a, const Column& b) { return a / b; })
      .def("mod", [](const Column& a, const Column& b) { return a % b; })
      .def("neg", [](const Column& a) { return -a; })
      .def("eq", [](const Column& a, const Column& b) { return a == b; })
      .def("ne", [](const Column& a, const Column& b) { return a != b; })
      .def("lt", [](const Column& a, const Column& b) { return a < b; })
      .def("le", [](const Column& a, const Column& b) { return a <= b; })
      .def("gt", [](const Column& a, const Column& b) { return a > b; })
      .def("ge", [](const Column& a, const Column& b) { return a >= b; })
      .def("and_", [](const Column& a, const Column& b) { return a && b; })
      .def("or_", [](const Column& a, const Column& b) { return a || b; })
      .def("not_", [](const Column& a) { return !a; })
      .def("alias", &Column::alias)
      .def("cast", nb::overload_cast<const std::string&>(&Column::cast, nb::const_))
      .def("try_cast", &Column::try_cast)
      .def("isNull", &Column::isNull)
      .def("isNotNull", &Column::isNotNull)
      .def("isNaN", &Column::isNaN)
      .def("isin", &Column::isin)
      .def("between", &Column::between)
      .def("like", &Column::like)
      .def("ilike", &Column::ilike)
      .def("rlike", &Column::rlike)
      .def("startswith", &Column::startswith)
      .def("endswith", &Column::endswith)
      .def("contains", &Column::contains)
      .def("substr", &Column::substr)
      .def("eqNullSafe", &Column::eqNullSafe)
      .def("getItem", &Column::getItem)
      .def("getField", &Column::getField)
      .def("when", &Column::when)
      .def("otherwise", &Column::otherwise)
      .def("asc", &Column::asc)
      .def("asc_nulls_first", &Column::asc_nulls_first)
      .def("asc_nulls_last", &Column::asc_nulls_last)
      .def("desc", &Column::desc)
      .def("desc_nulls_first", &Column::desc_nulls_first)
      .def("desc_nulls_last", &Column::desc_nulls_last)
      .def("bitwiseAND", &Column::bitwiseAND)
      .def("bitwiseOR", &Column::bitwiseOR)
      .def("bitwiseXOR", &Column::bitwiseXOR)
      .def("over", nb::overload_cast<const WindowSpec&>(&Column::over, nb::const_));

  nb::class_<WindowSpec>(m, "WindowSpec")
      .def(nb::init<>())
      .def("partitionBy", &WindowSpec::partitionBy)
      .def("orderBy", &WindowSpec::orderBy)
      .def("rowsBetween", &WindowSpec::rowsBetween)
      .def("rangeBetween", &WindowSpec::rangeBetween);

  m.def("col", &functions::col, nb::arg("name"));
  // Overloads are tried in order: bool before int, as Python's bool is an int.
  m.def("lit", [](bool value) { return functions::lit(value); }, nb::arg("value"));
  m.def("lit", &IntegerLiteral, nb::arg("value"));
  m.def("lit", [](double value) { return functions::lit(value); }, nb::arg("value"));
  m.def("lit", [](const std::string& value) { return functions::lit(value); }, nb::arg("value"));
  m.def("lit_null", &functions::lit_null, nb::arg("type_name"));
  m.def("expr", &functions::expr, nb::arg("text"));
  m.def("call_function", &functions::call_function, nb::arg("name"), nb::arg("args"));
  m.def("when", &functions::when, nb::arg("condition"), nb::arg("value"));
  m.def("count_distinct", &functions::count_distinct, nb::arg("columns"));
  m.def("approx_count_distinct", &functions::approx_count_distinct, nb::arg("col"),
        nb::arg("rsd"));
  m.def("first", &functions::first, nb::arg("col"), nb::arg("ignorenulls"));
  m.def("last", &functions::last, nb::arg("col"), nb::arg("ignorenulls"));
}

}  // namespace sluice::python
