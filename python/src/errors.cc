// Failed Statuses raised as the exceptions of sluice.errors, and Python references safe to drop
// from engine threads.
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include <nanobind/stl/string.h>

#include "binding.h"
#include "sluice/common/errors.h"
#include "sluice/common/read_ahead.h"

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

// Every live holder, so that ReleaseSharedPyObjects can reach them.
std::mutex& HoldersMutex() {
  static std::mutex mutex;
  return mutex;
}

std::unordered_set<void*>& Holders() {
  static std::unordered_set<void*> holders;
  return holders;
}

}  // namespace

// The holder is made in place: a temporary Holder would release the reference it holds.
SharedPyObject::SharedPyObject(nb::object object)
    : holder_(new Holder{object.release().ptr()}) {
  std::lock_guard lock(HoldersMutex());
  Holders().insert(holder_.get());
}

SharedPyObject::Holder::~Holder() {
  PyObject* held;
  {
    std::lock_guard lock(HoldersMutex());
    Holders().erase(this);
    held = object;
  }
  if (held == nullptr || !Py_IsInitialized() || InterpreterFinalizing()) return;
  PyGILState_STATE state = PyGILState_Ensure();
  Py_DECREF(held);
  PyGILState_Release(state);
}

void ReleaseSharedPyObjects() {
  std::vector<PyObject*> released;
  {
    std::lock_guard lock(HoldersMutex());
    for (void* entry : Holders()) {
      auto* holder = static_cast<SharedPyObject::Holder*>(entry);
      if (holder->object != nullptr) released.push_back(holder->object);
      holder->object = nullptr;
    }
  }
  // Outside the lock: dropping an object may run code that makes or drops other holders.
  for (PyObject* object : released) Py_DECREF(object);
}

void RegisterErrors(nb::module_& m) {
  m.def("release_python_references", &ReleaseSharedPyObjects);
  // Without the GIL: a task still running may need it to end.
  m.def("wait_for_pools_idle", &sluice::WaitForPoolsIdle,
        nb::call_guard<nb::gil_scoped_release>());
  nb::register_exception_translator([](const std::exception_ptr& pointer, void*) {
    try {
      std::rethrow_exception(pointer);
    } catch (const StatusError& error) {
      RaiseStatus(error.status());
    }
  });
}

}  // namespace sluice::python
