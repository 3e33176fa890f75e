// Arrow data between the engine and pyarrow through the Arrow C data and stream interfaces
// (PyCapsules named as the Arrow PyCapsule protocol names them), so no pyarrow C++ ABI is used
// and no buffer is copied.
#pragma once

#include <memory>

#include <arrow/type_fwd.h>
#include <nanobind/nanobind.h>

namespace sluice::python {

namespace nb = nanobind;

/// A PyCapsule "arrow_array_stream" yielding the chunks of `table`; the buffers stay shared
/// with the table until the stream's consumer releases them.
nb::object ExportTable(std::shared_ptr<arrow::Table> table);
/// A PyCapsule "arrow_schema" describing `schema`.
nb::object ExportSchema(const arrow::Schema& schema);
/// The rows of an object implementing __arrow_c_stream__ (a pyarrow Table or
/// RecordBatchReader, ...), without copying them. Throws StatusError when the stream fails.
std::shared_ptr<arrow::Table> ImportTable(nb::handle object);
/// The schema of an object implementing __arrow_c_schema__ (a pyarrow Schema).
std::shared_ptr<arrow::Schema> ImportSchema(nb::handle object);

}  // namespace sluice::python
