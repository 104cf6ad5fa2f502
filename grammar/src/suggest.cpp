#include "rulebook/grammar/suggest.hpp"

#include <algorithm>
#include <vector>

namespace rulebook::grammar {

std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  // Only the cells within `limit` of the diagonal can hold a distance of at most `limit`
  // (Ukkonen's band), so the work is the length times 2 * limit + 1, not the product of the
  // lengths: the full table made "did you mean" quadratic in a long name's length.
  if (a.size() < b.size()) std::swap(a, b);
  if (a.size() - b.size() > limit) return limit + 1;
  const std::size_t over = limit + 1;
  std::vector<std::size_t> row(b.size() + 1, over);
  for (std::size_t j = 0; j <= std::min(b.size(), limit); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    const std::size_t lo = i > limit ? i - limit : 1;
    const std::size_t hi = std::min(b.size(), i + limit);
    // row[lo - 1] holds the previous row's value; the cell left of the band is out of reach.
    std::size_t diagonal = row[lo - 1];
    row[lo - 1] = lo == 1 && i <= limit ? i : over;
    std::size_t best = row[lo - 1];
    for (std::size_t j = lo; j <= hi; ++j) {
      const std::size_t above = row[j];
      const std::size_t cell = std::min({above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      row[j] = std::min(cell, over);
      best = std::min(best, row[j]);
      diagonal = above;
    }
    if (best > limit) return over;  // every path already costs more
  }
  return std::min(row[b.size()], over);
}

ClosestName::ClosestName(std::string_view target, std::size_t work)
    : target_(target), best_distance_(target.size() <= 3 ? 1 : 2), work_(work) {}

void ClosestName::consider(std::string_view candidate) {
  // The distance is at least the difference in length, so a candidate that differs by more
  // cannot be kept; the banded distance costs the name's length times five at most.
  const std::size_t longer = std::max(target_.size(), candidate.size());
  const std::size_t shorter = std::min(target_.size(), candidate.size());
  if (longer - shorter > best_distance_) return;
  const std::size_t cost = longer * (2 * best_distance_ + 1);
  if (cost > work_) return;
  work_ -= cost;
  const std::size_t d = edit_distance(target_, candidate, best_distance_);
  if (d == 0 || d > best_distance_) return;
  if (best_.empty() || d < best_distance_) {
    best_ = std::string(candidate);
    best_distance_ = d;
  }
}

}  // namespace rulebook::grammar
