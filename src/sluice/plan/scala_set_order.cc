#include "sluice/plan/scala_set_order.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace sluice::plan {

namespace {

/// Java's String.hashCode: over the UTF-16 code units of `name` (given in UTF-8).
int32_t JavaStringHash(const std::string& name) {
  uint32_t hash = 0;
  auto add = [&](uint32_t unit) { hash = 31 * hash + unit; };
  for (size_t i = 0; i < name.size();) {
    const auto byte = static_cast<unsigned char>(name[i]);
    uint32_t code = byte;
    size_t length = 1;
    if (byte >= 0xF0) {
      length = 4;
      code = byte & 0x07;
    } else if (byte >= 0xE0) {
      length = 3;
      code = byte & 0x0F;
    } else if (byte >= 0xC0) {
      length = 2;
      code = byte & 0x1F;
    }
    for (size_t k = 1; k < length && i + k < name.size(); ++k) {
      code = (code << 6) | (static_cast<unsigned char>(name[i + k]) & 0x3F);
    }
    i += length;
    if (code >= 0x10000) {
      code -= 0x10000;
      add(0xD800 + (code >> 10));
      add(0xDC00 + (code & 0x3FF));
    } else {
      add(code);
    }
  }
  return static_cast<int32_t>(hash);
}

/// scala.collection.Hashing.improve, which HashSet applies to each element's hash.
uint32_t Improve(int32_t code) {
  uint32_t h = static_cast<uint32_t>(code) + ~(static_cast<uint32_t>(code) << 9);
  h ^= h >> 14;
  h += h << 4;
  return h ^ (h >> 10);
}

struct Entry {
  std::string name;
  uint32_t hash;
};

/// The CHAMP trie's iteration order of `entries` below bit `shift` of their hashes: the
/// elements alone in their 5-bit slot first, by slot; then, by slot, the sub-tries of the
/// slots holding several, each in the same order. Equal hashes keep their insertion order.
void AppendInTrieOrder(const std::vector<Entry>& entries, int shift,
                       std::vector<std::string>* out) {
  if (entries.size() == 1 || shift >= 32) {
    for (const auto& entry : entries) out->push_back(entry.name);
    return;
  }
  std::map<uint32_t, std::vector<Entry>> slots;
  for (const auto& entry : entries) slots[(entry.hash >> shift) & 31].push_back(entry);
  for (const auto& [slot, held] : slots) {
    if (held.size() == 1) out->push_back(held[0].name);
  }
  for (const auto& [slot, held] : slots) {
    if (held.size() > 1) AppendInTrieOrder(held, shift + 5, out);
  }
}

}  // namespace

std::vector<std::string> ScalaSetOrder(const std::vector<std::string>& names) {
  std::vector<std::string> distinct;
  for (const auto& name : names) {
    if (std::find(distinct.begin(), distinct.end(), name) == distinct.end()) {
      distinct.push_back(name);
    }
  }
  if (distinct.size() <= 4) return distinct;
  std::vector<Entry> entries;
  for (const auto& name : distinct) entries.push_back({name, Improve(JavaStringHash(name))});
  std::vector<std::string> ordered;
  AppendInTrieOrder(entries, 0, &ordered);
  return ordered;
}

}  // namespace sluice::plan
