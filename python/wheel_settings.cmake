# Settings of a wheel build (pyproject.toml), read before the project() call: the Python that
# runs the build (scikit-build-core passes it as Python_EXECUTABLE) is the one whose pyarrow
# provides Arrow C++.
if(NOT SLUICE_PYTHON)
  set(SLUICE_PYTHON "${Python_EXECUTABLE}" CACHE FILEPATH "The Python whose pyarrow provides Arrow")
endif()
