#include "sluice/expr/functions/regex_prefilter.h"

#include <algorithm>
#include <cstring>

namespace sluice::expr {

namespace {

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

char LowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; }

bool IsAscii(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// How common a byte that is not a letter is in text: punctuation 0, digits 1, the rest 2.
int Commonness(char c) {
  if (c >= '0' && c <= '9') return 1;
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return 2;
  return 0;
}

// An inline flag group that turns case-insensitive matching on: (?i), (?si:...) and the like.
// A false alarm (an escaped "\(?i", or (?-i), which turns it off) only costs the prefilter.
bool HasCaseInsensitiveFlag(std::string_view pattern) {
  for (size_t at = pattern.find("(?"); at != std::string_view::npos;
       at = pattern.find("(?", at + 2)) {
    for (size_t i = at + 2; i < pattern.size() && std::strchr("imsU-", pattern[i]) != nullptr;
         ++i) {
      if (pattern[i] == 'i') return true;
    }
  }
  return false;
}

bool EqualsIgnoringCase(const char* text, std::string_view lowercase) {
  for (size_t k = 0; k < lowercase.size(); ++k) {
    if (LowerAscii(text[k]) != lowercase[k]) return false;
  }
  return true;
}

// The longest string of at least `min_length` bytes that every atom contains, if any.
std::optional<std::string> CommonSubstring(const std::vector<std::string>& atoms,
                                           size_t min_length) {
  const std::string& shortest = *std::min_element(
      atoms.begin(), atoms.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  for (size_t length = shortest.size(); length >= min_length && length > 0; --length) {
    for (size_t start = 0; start + length <= shortest.size(); ++start) {
      const std::string candidate = shortest.substr(start, length);
      if (std::all_of(atoms.begin(), atoms.end(), [&](const std::string& atom) {
            return atom.find(candidate) != std::string::npos;
          })) {
        return candidate;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

RegexPrefilter::Needle::Needle(std::string lowercase) : text(std::move(lowercase)) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (IsAsciiLetter(text[i])) continue;
    if (anchor == std::string::npos || Commonness(text[i]) <= Commonness(text[anchor])) {
      anchor = i;
    }
  }
}

bool RegexPrefilter::Needle::FoundIn(std::string_view haystack) const {
  if (text.size() > haystack.size()) return false;
  const size_t last_start = haystack.size() - text.size();
  if (anchor == std::string::npos) {
    // Letters only: look for the first one in either case.
    const char lower = text[0];
    const char upper = static_cast<char>(lower - ('a' - 'A'));
    for (size_t i = 0; i <= last_start; ++i) {
      if ((haystack[i] == lower || haystack[i] == upper) &&
          EqualsIgnoringCase(haystack.data() + i + 1, std::string_view(text).substr(1))) {
        return true;
      }
    }
    return false;
  }
  // A byte that has no other case is found with memchr, and the needle checked around it.
  const char* data = haystack.data();
  size_t from = anchor;
  const size_t last = last_start + anchor;
  while (from <= last) {
    const void* hit = std::memchr(data + from, text[anchor], last - from + 1);
    if (hit == nullptr) return false;
    const size_t at = static_cast<size_t>(static_cast<const char*>(hit) - data);
    if (EqualsIgnoringCase(data + at - anchor, text)) return true;
    from = at + 1;
  }
  return false;
}

std::unique_ptr<const RegexPrefilter> RegexPrefilter::Make(const std::string& pattern,
                                                           const RE2::Options& options) {
  if (!options.case_sensitive() || HasCaseInsensitiveFlag(pattern)) return nullptr;
  auto filter = std::make_unique<re2::FilteredRE2>(kMinAtomLength);
  int id = 0;
  if (filter->Add(pattern, options, &id) != RE2::NoError) return nullptr;
  std::vector<std::string> atoms;
  filter->Compile(&atoms);
  if (atoms.empty()) return nullptr;
  for (const auto& atom : atoms) {
    if (!IsAscii(atom)) return nullptr;
  }
  // A formula that holds with no atom found rules nothing out.
  std::vector<int> passing;
  filter->AllPotentials({}, &passing);
  if (!passing.empty()) return nullptr;
  std::unique_ptr<RegexPrefilter> prefilter(new RegexPrefilter());
  if (auto common = CommonSubstring(atoms, kMinAtomLength)) {
    // The formula is not needed: the gate alone decides.
    prefilter->gate_.emplace(std::move(*common));
    return prefilter;
  }
  if (atoms.size() > kMaxSearchedAtoms) return nullptr;
  for (auto& atom : atoms) prefilter->atoms_.emplace_back(std::move(atom));
  prefilter->filter_ = std::move(filter);
  return prefilter;
}

bool RegexPrefilter::MayMatch(std::string_view text) const {
  if (gate_) return gate_->FoundIn(text);
  uint32_t found = 0;
  for (size_t i = 0; i < atoms_.size(); ++i) {
    if (atoms_[i].FoundIn(text)) found |= 1u << i;
  }
  if (found == 0) return false;
  // The formula is monotone: with every atom found, it holds.
  if (found == (1u << atoms_.size()) - 1) return true;
  std::vector<int> found_indexes;
  for (size_t i = 0; i < atoms_.size(); ++i) {
    if ((found >> i) & 1) found_indexes.push_back(static_cast<int>(i));
  }
  std::vector<int> passing;
  filter_->AllPotentials(found_indexes, &passing);
  return !passing.empty();
}

}  // namespace sluice::expr
