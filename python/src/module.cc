// The extension module sluice._native: the C++ API of src/sluice/api bound one-to-one; the
// PySpark-shaped Python package (python/sluice) wraps it.
#include <nanobind/nanobind.h>

#include "binding.h"

NB_MODULE(_native, m) {
  m.doc() = "Sluice's C++ API; use the sluice package, which wraps it.";
  sluice::python::RegisterErrors(m);
  sluice::python::RegisterTypes(m);
  sluice::python::RegisterColumn(m);
  sluice::python::RegisterDataFrame(m);
  sluice::python::RegisterSession(m);
  sluice::python::RegisterStreaming(m);
  sluice::python::RegisterDelta(m);
  sluice::python::RegisterGroupState(m);
  sluice::python::RegisterStatefulProcessor(m);
}
