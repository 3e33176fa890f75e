// Base64 encoding of bytes: the standard alphabet (RFC 4648) with '=' padding and no line
// breaks, as Spark's base64() and Jackson's binary values in JSON write it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sluice {

/// The length of the base64 text of `size` bytes.
constexpr size_t Base64Length(size_t size) { return (size + 2) / 3 * 4; }

/// Writes the base64 text of `bytes` to `dest`, which must have room for
/// Base64Length(bytes.size()) characters.
void EncodeBase64(std::string_view bytes, char* dest);

/// Appends the base64 text of `bytes` to `out`.
void AppendBase64(std::string_view bytes, std::string* out);

}  // namespace sluice
