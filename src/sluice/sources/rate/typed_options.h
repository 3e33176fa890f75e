// The typed getters of Spark's CaseInsensitiveStringMap (getLong, getInt, getBoolean) and
// JavaUtils.timeStringAsSec, as the small streaming connectors (rate, socket, console) read
// their options: Java's parsing rules and Java's messages, plus the name of the option.
#pragma once

#include <cstdint>
#include <string_view>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"

namespace sluice::sources {

/// The option `key` read as Java's Long.parseLong does (an optional sign, then ASCII digits,
/// no blanks), or `default_value` when it is not set. A bad value fails with Java's
/// NumberFormatException text, 'For input string: "x"', naming the option.
arrow::Result<int64_t> LongOption(const formats::OptionMap& options, std::string_view key,
                                  int64_t default_value);

/// As LongOption, within Java's int range (Integer.parseInt).
arrow::Result<int32_t> IntOption(const formats::OptionMap& options, std::string_view key,
                                 int32_t default_value);

/// The option `key` as "true" or "false" in any case, or `default_value` when it is not set.
/// Anything else fails with Spark's "x is not a boolean string.", naming the option.
arrow::Result<bool> BooleanOption(const formats::OptionMap& options, std::string_view key,
                                  bool default_value);

/// A duration such as "5s", "1500ms", "2min" or "10" (seconds), in whole seconds truncated
/// toward zero, as Spark's JavaUtils.timeStringAsSec reads it (suffixes us, ms, s, m, min, h,
/// d; case-insensitive; surrounding blanks ignored). A malformed text fails with Spark's
/// message, naming the option `key`.
arrow::Result<int64_t> TimeStringAsSeconds(std::string_view text, std::string_view key);

}  // namespace sluice::sources
