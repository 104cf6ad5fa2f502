// The Wilson score interval of a share.
#include "rulebook/stats/wilson.hpp"

#include <algorithm>
#include <cmath>

namespace rulebook::stats {

// Wilson score interval at 95%.
std::pair<double, double> wilson_interval(std::int64_t wins, std::int64_t n) {
  if (n == 0) return {0, 0};
  const double z = 1.959963984540054;
  const double p = static_cast<double>(wins) / static_cast<double>(n);
  const double nn = static_cast<double>(n);
  const double denom = 1 + z * z / nn;
  const double center = (p + z * z / (2 * nn)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

}  // namespace rulebook::stats
