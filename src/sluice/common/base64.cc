#include "sluice/common/base64.h"

#include <cstdint>

namespace sluice {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

uint32_t Byte(std::string_view bytes, size_t i) {
  return static_cast<uint32_t>(static_cast<uint8_t>(bytes[i]));
}

}  // namespace

void EncodeBase64(std::string_view bytes, char* dest) {
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = Byte(bytes, i) << 16 | Byte(bytes, i + 1) << 8 | Byte(bytes, i + 2);
    *dest++ = kAlphabet[v >> 18];
    *dest++ = kAlphabet[(v >> 12) & 63];
    *dest++ = kAlphabet[(v >> 6) & 63];
    *dest++ = kAlphabet[v & 63];
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const uint32_t v = Byte(bytes, i) << 16 | (two ? Byte(bytes, i + 1) << 8 : 0);
    *dest++ = kAlphabet[v >> 18];
    *dest++ = kAlphabet[(v >> 12) & 63];
    *dest++ = two ? kAlphabet[(v >> 6) & 63] : '=';
    *dest++ = '=';
  }
}

void AppendBase64(std::string_view bytes, std::string* out) {
  const size_t start = out->size();
  out->resize(start + Base64Length(bytes.size()));
  EncodeBase64(bytes, out->data() + start);
}

}  // namespace sluice
