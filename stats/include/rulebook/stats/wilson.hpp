// The confidence interval the report gives for every win rate.
#pragma once

#include <cstdint>
#include <utility>

namespace rulebook::stats {

// The 95% confidence interval of a share of `wins` in `n` (Wilson score interval), as
// {low, high} within [0, 1]; {0, 0} when n is 0. Unlike the normal approximation it stays
// inside [0, 1] and is not empty at 0 or n wins, which a seat that never wins needs.
std::pair<double, double> wilson_interval(std::int64_t wins, std::int64_t n);

}  // namespace rulebook::stats
