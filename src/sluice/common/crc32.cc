#include "sluice/common/crc32.h"

#include <libdeflate.h>

namespace sluice {

uint32_t Crc32(uint32_t crc, const void* data, size_t length) {
  return libdeflate_crc32(crc, data, length);
}

}  // namespace sluice
