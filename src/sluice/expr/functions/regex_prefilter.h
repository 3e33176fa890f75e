#pragma once

// Rules out texts a regular expression cannot match, without running it. RE2's FilteredRE2
// reduces a regex to an AND/OR formula over strings ("atoms") that every match contains: a URL
// without "channel_id=" cannot match (&|^)channel_id=([^&]*). Looking for an atom is a memchr
// and a few compares, cheaper than running the regex over the whole text, and most texts of a
// selective pattern hold none of the atoms.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <re2/filtered_re2.h>
#include <re2/re2.h>

namespace sluice::expr {

class RegexPrefilter {
 public:
  /// The prefilter of RE2 pattern `pattern` compiled with `options`; null when it would rule
  /// nothing out (a regex without atoms, such as \d+), when it would search for too many atoms,
  /// or when it could not search safely. FilteredRE2 gives the atoms lowercased, so they are
  /// searched for ignoring ASCII case. That finds every occurrence only when the regex matches
  /// case-sensitively and the atoms are ASCII: other regexes get no prefilter.
  static std::unique_ptr<const RegexPrefilter> Make(const std::string& pattern,
                                                    const RE2::Options& options);

  /// False only when no match of the regex can lie in `text`.
  bool MayMatch(std::string_view text) const;

 private:
  // Atoms shorter than this are left out of the formula (they would match almost any text).
  static constexpr int kMinAtomLength = 3;
  // Searching for more atoms than this one by one costs more than the regex saves.
  static constexpr size_t kMaxSearchedAtoms = 4;

  // A string searched for ignoring ASCII case.
  struct Needle {
    explicit Needle(std::string lowercase);
    bool FoundIn(std::string_view haystack) const;

    std::string text;
    /// A byte that has no other case (not a letter), searched for with memchr, and the rarest
    /// in common text of those: punctuation before digits before spaces. npos when every byte
    /// is a letter.
    size_t anchor = std::string::npos;
  };

  RegexPrefilter() = default;

  /// A string every atom contains, when there is one: a text without it cannot match, and a
  /// text with it is left to the regex. Then `atoms_` and `filter_` are empty.
  std::optional<Needle> gate_;
  /// Otherwise the atoms, each searched for, and the formula over them (FilteredRE2's) decides
  /// which found sets may match.
  std::vector<Needle> atoms_;
  std::unique_ptr<re2::FilteredRE2> filter_;
};

}  // namespace sluice::expr
