// "Did you mean ...?": the closest known name to a misspelt one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rulebook::grammar {

// Feeds candidates one by one; keeps the first closest within a small edit distance (1 for
// names of up to 3 letters, else 2), never the name itself.
class ClosestName {
 public:
  explicit ClosestName(std::string_view target);
  void consider(std::string_view candidate);
  [[nodiscard]] const std::string& best() const { return best_; }

 private:
  std::string target_;
  std::string best_;
  std::size_t best_distance_;
};

// Levenshtein distance between two names.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace rulebook::grammar
