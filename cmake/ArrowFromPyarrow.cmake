# Arrow C++ comes from the pyarrow wheel: headers in pyarrow.get_include(), libraries named
# lib<name>.so.<major*100+minor> in the package folder, and no CMake config files. Ask the
# venv's Python for both and declare imported targets on the versioned files.
if(NOT SLUICE_PYTHON)
  message(FATAL_ERROR "Set SLUICE_PYTHON to the Python of the venv that holds pyarrow (make build does).")
endif()
execute_process(
  COMMAND "${SLUICE_PYTHON}" -c
    "import pyarrow as pa; v=pa.__version__.split('.'); print(pa.get_include()); print(pa.get_library_dirs()[0]); print(int(v[0])*100+int(v[1]))"
  OUTPUT_VARIABLE _pyarrow_out
  RESULT_VARIABLE _pyarrow_rc
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _pyarrow_rc EQUAL 0)
  message(FATAL_ERROR "pyarrow is not importable by ${SLUICE_PYTHON}: run scripts/setup-venv.sh")
endif()
string(REPLACE "\n" ";" _pyarrow_lines "${_pyarrow_out}")
list(GET _pyarrow_lines 0 ARROW_INCLUDE_DIR)
list(GET _pyarrow_lines 1 ARROW_LIBRARY_DIR)
list(GET _pyarrow_lines 2 ARROW_SO_VERSION)
message(STATUS "Arrow from pyarrow: ${ARROW_LIBRARY_DIR} (so version ${ARROW_SO_VERSION})")

function(sluice_arrow_library target name)
  set(_file "${ARROW_LIBRARY_DIR}/lib${name}.so.${ARROW_SO_VERSION}")
  if(NOT EXISTS "${_file}")
    message(FATAL_ERROR "Missing ${_file}")
  endif()
  add_library(${target} SHARED IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES
    IMPORTED_LOCATION "${_file}"
    INTERFACE_INCLUDE_DIRECTORIES "${ARROW_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS "ARROW_NO_DEPRECATED_API")
  set_property(TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES ${ARGN})
endfunction()

sluice_arrow_library(Arrow::arrow arrow)
sluice_arrow_library(Arrow::compute arrow_compute Arrow::arrow)
sluice_arrow_library(Arrow::acero arrow_acero Arrow::compute)
sluice_arrow_library(Arrow::dataset arrow_dataset Arrow::acero)
sluice_arrow_library(Arrow::parquet parquet Arrow::arrow)
