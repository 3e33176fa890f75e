#include "arrow_interop.h"

#include <cstdlib>

#include <arrow/c/abi.h>
#include <arrow/c/bridge.h>
#include <arrow/record_batch.h>
#include <arrow/table.h>
#include <arrow/util/key_value_metadata.h>

#include "binding.h"
#include "sluice/types/interval_types.h"

namespace sluice::python {

namespace {

constexpr const char* kStreamCapsule = "arrow_array_stream";
constexpr const char* kSchemaCapsule = "arrow_schema";

void ReleaseStreamCapsule(PyObject* capsule) {
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, kStreamCapsule));
  if (stream == nullptr) {
    PyErr_Clear();
    return;
  }
  if (stream->release != nullptr) stream->release(stream);
  std::free(stream);
}

void ReleaseSchemaCapsule(PyObject* capsule) {
  auto* schema = static_cast<ArrowSchema*>(PyCapsule_GetPointer(capsule, kSchemaCapsule));
  if (schema == nullptr) {
    PyErr_Clear();
    return;
  }
  if (schema->release != nullptr) schema->release(schema);
  std::free(schema);
}

/// The pointer a capsule returned by `object.method()` holds, checked against its name.
template <typename T>
T* CapsulePointer(nb::handle object, const char* method, const char* name, nb::object* keep) {
  if (!nb::hasattr(object, method)) {
    throw nb::type_error((std::string("expected an Arrow object with ") + method +
                          " (a pyarrow Table, RecordBatchReader or Schema)")
                             .c_str());
  }
  *keep = object.attr(method)();
  auto* pointer = static_cast<T*>(PyCapsule_GetPointer(keep->ptr(), name));
  if (pointer == nullptr) throw nb::python_error();
  return pointer;
}

}  // namespace

nb::object ExportTable(std::shared_ptr<arrow::Table> table) {
  auto reader = std::make_shared<arrow::TableBatchReader>(table);
  auto* stream = static_cast<ArrowArrayStream*>(std::malloc(sizeof(ArrowArrayStream)));
  stream->release = nullptr;
  arrow::Status status = arrow::ExportRecordBatchReader(std::move(reader), stream);
  if (!status.ok()) {
    std::free(stream);
    throw StatusError(status);
  }
  return nb::steal(PyCapsule_New(stream, kStreamCapsule, ReleaseStreamCapsule));
}

namespace {

constexpr const char* kIntervalMetadataKey = "sluice.interval_type";

// Arrow's duration and month_interval types cannot say which fields of Spark's interval types
// they hold (interval minute, interval day to hour): the field's metadata carries the name, and
// sluice.sql.types reads it back.
std::shared_ptr<arrow::Field> AnnotateIntervals(const std::shared_ptr<arrow::Field>& field) {
  const auto& type = field->type();
  if (types::IsDayTimeInterval(*type) || types::IsYearMonthInterval(*type)) {
    return field->WithMergedMetadata(
        arrow::key_value_metadata({kIntervalMetadataKey}, {types::IntervalTypeName(*type)}));
  }
  if (type->num_fields() == 0) return field;
  arrow::FieldVector children;
  for (const auto& child : type->fields()) children.push_back(AnnotateIntervals(child));
  switch (type->id()) {
    case arrow::Type::LIST:
      return field->WithType(arrow::list(children[0]));
    case arrow::Type::STRUCT:
      return field->WithType(arrow::struct_(children));
    case arrow::Type::MAP:
      return field->WithType(std::make_shared<arrow::MapType>(children[0]->type()->field(0),
                                                              children[0]->type()->field(1)));
    default:
      return field;
  }
}

}  // namespace

nb::object ExportSchema(const arrow::Schema& schema) {
  auto* c_schema = static_cast<ArrowSchema*>(std::malloc(sizeof(ArrowSchema)));
  c_schema->release = nullptr;
  arrow::FieldVector fields;
  for (const auto& field : schema.fields()) fields.push_back(AnnotateIntervals(field));
  arrow::Status status =
      arrow::ExportSchema(arrow::Schema(std::move(fields), schema.metadata()), c_schema);
  if (!status.ok()) {
    std::free(c_schema);
    throw StatusError(status);
  }
  return nb::steal(PyCapsule_New(c_schema, kSchemaCapsule, ReleaseSchemaCapsule));
}

std::shared_ptr<arrow::Table> ImportTable(nb::handle object) {
  nb::object capsule;
  auto* stream =
      CapsulePointer<ArrowArrayStream>(object, "__arrow_c_stream__", kStreamCapsule, &capsule);
  // Import moves the stream out of the capsule (its release becomes null).
  auto reader = ValueOrThrow(arrow::ImportRecordBatchReader(stream));
  nb::gil_scoped_release release;
  return ValueOrThrow(reader->ToTable());
}

std::shared_ptr<arrow::Schema> ImportSchema(nb::handle object) {
  nb::object capsule;
  auto* schema =
      CapsulePointer<ArrowSchema>(object, "__arrow_c_schema__", kSchemaCapsule, &capsule);
  return ValueOrThrow(arrow::ImportSchema(schema));
}

}  // namespace sluice::python
