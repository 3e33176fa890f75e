"""Sluice's Python package: PySpark's API over the Sluice streaming engine.

Change ``pyspark`` to ``sluice`` (and ``delta`` to ``sluice.delta``) in the imports of a
Structured Streaming job and it runs in-process, without a JVM.
"""

import pkgutil

# In a build tree the extension module sluice._native lives in the build directory, in a
# folder named sluice on sys.path (see python/CMakeLists.txt); it joins this package.
__path__ = pkgutil.extend_path(__path__, __name__)

# pyarrow loads the Arrow C++ libraries the extension module links against.
import pyarrow as _pyarrow  # noqa: E402,F401

__version__ = "0.1.0"
