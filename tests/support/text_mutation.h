// Seeded mutations of valid inputs, for the parsers' never-crash tests.
#pragma once

#include <random>
#include <string>
#include <vector>

namespace sluice::testing {

/// `text` after one to four random edits: a deleted run of up to `max_erase` characters, an
/// inserted fragment, a character replaced from `alphabet`, or a cut at a random place.
inline std::string MutateText(std::mt19937& random, std::string text,
                              const std::vector<std::string>& fragments,
                              const std::string& alphabet, size_t max_erase) {
  const int edits = 1 + static_cast<int>(random() % 4);
  for (int e = 0; e < edits; ++e) {
    const size_t at = random() % (text.size() + 1);
    switch (random() % 4) {
      case 0:
        if (at < text.size()) text.erase(at, 1 + random() % max_erase);
        break;
      case 1:
        text.insert(at, fragments[random() % fragments.size()]);
        break;
      case 2:
        if (at < text.size()) text[at] = alphabet[random() % alphabet.size()];
        break;
      default:
        text = text.substr(0, at);
    }
  }
  return text;
}

}  // namespace sluice::testing
