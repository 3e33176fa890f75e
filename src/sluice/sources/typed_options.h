// The typed getters of Spark's CaseInsensitiveStringMap (getLong, getInt, getBoolean) and
// JavaUtils.timeStringAs, as the streaming connectors read their options (the rate, socket and
// file sources, the console sink): Java's parsing rules and Java's messages, plus the name of
// the option.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"

namespace sluice::sources {

/// Java's Long.parseLong: an optional sign, then ASCII digits, no blanks; nullopt for anything
/// else or a value out of range.
std::optional<int64_t> ParseJavaLong(std::string_view text);

/// Java's Integer.parseInt: as ParseJavaLong, within int's range.
std::optional<int32_t> ParseJavaInt(std::string_view text);

/// The units a time string is read in (the ones Spark's options ask for).
enum class TimeStringUnit { kMilliseconds, kSeconds };

/// JavaUtils.timeStringAs: a whole number with an optional unit suffix (us, ms, s, m, min, h,
/// d; case-insensitive; surrounding blanks ignored), e.g. "5s", "1500ms", "2min"; a bare number
/// is in `unit`. The value in `unit`, truncated toward zero and saturating at the long range as
/// Java's TimeUnit.convert does. A malformed text fails with JavaUtils' message.
arrow::Result<int64_t> ParseTimeString(std::string_view text, TimeStringUnit unit);

/// The option `key` read as ParseJavaLong does, or `default_value` when it is not set. A bad
/// value fails with Java's NumberFormatException text, 'For input string: "x"', naming the
/// option.
arrow::Result<int64_t> LongOption(const formats::OptionMap& options, std::string_view key,
                                  int64_t default_value);

/// As LongOption, within Java's int range (Integer.parseInt).
arrow::Result<int32_t> IntOption(const formats::OptionMap& options, std::string_view key,
                                 int32_t default_value);

/// The option `key` as "true" or "false" in any case, or `default_value` when it is not set.
/// Anything else fails with Spark's "x is not a boolean string.", naming the option.
arrow::Result<bool> BooleanOption(const formats::OptionMap& options, std::string_view key,
                                  bool default_value);

/// The option `key` read as ParseTimeString does in `unit`, or `default_value` when it is not
/// set. A bad value fails with JavaUtils' message, naming the option.
arrow::Result<int64_t> TimeStringOption(const formats::OptionMap& options, std::string_view key,
                                        TimeStringUnit unit, int64_t default_value);

/// The option `key` as a size in bytes, read as Spark's JavaUtils.byteStringAsBytes reads it
/// ("1048576", "100k", "250m", "1g": binary multiples), or `default_value` when it is not set.
/// A bad value fails with JavaUtils' message, naming the option.
arrow::Result<int64_t> ByteStringOption(const formats::OptionMap& options, std::string_view key,
                                        int64_t default_value);

}  // namespace sluice::sources
