// Precompiled for the library, tests and benchmarks: the Arrow headers nearly every file uses.
// Only the build includes this file; sources include what they use themselves.
#pragma once

#include <arrow/api.h>
#include <arrow/compute/api.h>
#include <arrow/util/logging.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>
