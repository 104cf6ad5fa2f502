#include "rulebook/grammar/suggest.hpp"

#include <algorithm>
#include <vector>

namespace rulebook::grammar {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

ClosestName::ClosestName(std::string_view target)
    : target_(target), best_distance_(target.size() <= 3 ? 1 : 2) {}

void ClosestName::consider(std::string_view candidate) {
  // The distance is at least the difference in length, so a candidate that differs by more
  // cannot be kept; skipping it first keeps a huge name (a 100 MB label in a log) from an
  // edit distance that is quadratic in its length.
  const std::size_t longer = std::max(target_.size(), candidate.size());
  const std::size_t shorter = std::min(target_.size(), candidate.size());
  if (longer - shorter > best_distance_) return;
  const std::size_t d = edit_distance(target_, candidate);
  if (d == 0 || d > best_distance_) return;
  if (best_.empty() || d < best_distance_) {
    best_ = std::string(candidate);
    best_distance_ = d;
  }
}

}  // namespace rulebook::grammar
