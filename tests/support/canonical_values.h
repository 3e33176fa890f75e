#pragma once

#include <cstdint>
#include <string>

#include <arrow/array.h>
#include <simdjson.h>

namespace sluice::testing {

/// Compares one Arrow value with its canonical JSON form, as tests/golden/generate.py writes
/// Spark's answers (see tests/golden/README.md): null, booleans, integers, floats (with a relative
/// tolerance, "NaN"/"Infinity" as strings), decimals/dates/timestamps as strings, binary as hex,
/// arrays, structs (field arrays) and maps (arrays of [key, value] pairs). On a mismatch,
/// returns false and says why in `why`.
bool MatchesCanonical(const arrow::Array& array, int64_t row, simdjson::dom::element expected,
                      std::string* why);

/// The canonical JSON text of one Arrow value, for messages.
std::string CanonicalText(const arrow::Array& array, int64_t row);

}  // namespace sluice::testing
