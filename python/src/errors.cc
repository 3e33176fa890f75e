// Failed Statuses raised as the exceptions of sluice.errors, and Python references safe to drop
// from engine threads.
#include <string>

#include <nanobind/stl/string.h>

#include "binding.h"
#include "sluice/common/errors.h"

namespace sluice::python {

namespace {

bool InterpreterFinalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

/// Sets the Python error for `status`: sluice.errors builds the exception from its error
/// class, message and Arrow status code.
void RaiseStatus(const arrow::Status& status) {
  try {
    nb::object errors = nb::module_::import_("sluice.errors");
    std::optional<std::string> error_class = ErrorClassOf(status);
    nb::object exception = errors.attr("_from_native")(
        error_class ? nb::cast(*error_class) : nb::none(), status.message(), status.CodeAsString());
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exception.ptr())), exception.ptr());
  } catch (nb::python_error& error) {
    error.restore();
  }
}

}  // namespace

// The holder is made in place: a temporary Holder would release the reference it holds.
SharedPyObject::SharedPyObject(nb::object object)
    : holder_(new Holder{object.release().ptr()}) {}

SharedPyObject::Holder::~Holder() {
  if (object == nullptr || !Py_IsInitialized() || InterpreterFinalizing()) return;
  PyGILState_STATE state = PyGILState_Ensure();
  Py_DECREF(object);
  PyGILState_Release(state);
}

void RegisterErrors(nb::module_& m) {
  nb::register_exception_translator([](const std::exception_ptr& pointer, void*) {
    try {
      std::rethrow_exception(pointer);
    } catch (const StatusError& error) {
      RaiseStatus(error.status());
    }
  });
}

}  // namespace sluice::python
