// "Did you mean ...?": the closest known name to a misspelt one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rulebook::grammar {

// The work "did you mean" may do for one file (or one log), in cells of the edit-distance
// table: about 20 ms. Past it, names are reported without a suggestion.
inline constexpr std::size_t kSuggestionWork = 20'000'000;

// Feeds candidates one by one; keeps the first closest within a small edit distance (1 for
// names of up to 3 letters, else 2), never the name itself. Each comparison costs the longer
// name's length times five cells of `work`; a candidate that would take more than is left is
// not compared. A caller that suggests many names passes what the last one left (work_left()).
class ClosestName {
 public:
  explicit ClosestName(std::string_view target, std::size_t work = kSuggestionWork);
  void consider(std::string_view candidate);
  [[nodiscard]] const std::string& best() const { return best_; }
  [[nodiscard]] std::size_t work_left() const { return work_; }

 private:
  std::string target_;
  std::string best_;
  std::size_t best_distance_;
  std::size_t work_;
};

// Levenshtein distance between two names, or `limit` + 1 if it is more than `limit`; the work
// is the length of the longer name times 2 * limit + 1.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit);

// "Did you mean" for at most this many unknown names in one file: each suggestion compares
// the name with every defined one, so 40,000 unknown names among 40,000 definitions took
// minutes. The errors past it are reported without a suggestion.
inline constexpr std::size_t kMaxSuggestions = 100;

}  // namespace rulebook::grammar
