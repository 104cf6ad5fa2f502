// PositionInvariant (invariants.hpp): the invariant candidate at one cut point, a set of
// parts (each a box of bounds plus linear equalities) that sampled states join and states
// Z3 finds outside it weaken.
#include <algorithm>
#include <numeric>

#include "invariants.hpp"

namespace rulebook::verifier {

namespace {
std::vector<std::int64_t> without_dead(const std::vector<std::int64_t>& point, const std::vector<bool>* dead) {
  std::vector<std::int64_t> out = point;
  if (dead != nullptr) {
    for (std::size_t i = 0; i < out.size(); ++i) {
      if ((*dead)[i]) out[i] = 0;
    }
  }
  return out;
}

// The loosest bound over the parts whose key `among` takes (all parts by default), or
// nothing if one of them has none.
template <typename Pick, typename Among = bool (*)(const std::vector<std::int64_t>&)>
std::optional<std::int64_t> loosest(const std::map<std::vector<std::int64_t>, InvariantPart>& parts, std::size_t i,
                                    bool high, Pick pick,
                                    Among among = [](const std::vector<std::int64_t>&) { return true; }) {
  std::optional<std::int64_t> out;
  for (const auto& [k, p] : parts) {
    if (!among(k)) continue;
    if (!(high ? p.has_high[i] : p.has_low[i])) return std::nullopt;
    const std::int64_t v = high ? p.high[i] : p.low[i];
    out = out ? pick(*out, v) : v;
  }
  return out;
}

}  // namespace

// States Z3 finds at one position that join the hull before violated equalities are
// dropped instead.
constexpr std::size_t kJoinsPerPosition = 24;
// States that widen one bound of one part to just take them in, before it widens further.
constexpr std::int32_t kExactWidenings = 1;
// A sampled high bound above this gets no landmark past it (2 * high + 1 stays far from overflow).
constexpr std::int64_t kLandmarkLimit = std::int64_t{1} << 40;
// States taken at one position before broken ranges widen in every part: at least this
// many, and more where there are many parts (a walk over more players).
constexpr std::size_t kFineWeakenings = 200;
constexpr std::size_t kFineWeakeningsPerPart = 40;

std::vector<std::int64_t> PositionInvariant::key(const std::vector<std::int64_t>& point) const {
  std::vector<std::int64_t> k;
  k.reserve(key_dims.size());
  for (const std::int32_t d : key_dims) k.push_back(point[static_cast<std::size_t>(d)]);
  return k;
}

InvariantPart& PositionInvariant::part(const std::vector<std::int64_t>& point, bool& created) {
  auto [it, inserted] = parts.try_emplace(key(point));
  created = inserted;
  if (inserted) {
    it->second.low = it->second.high = point;
    it->second.has_low.assign(dimension, true);
    it->second.has_high.assign(dimension, true);
  }
  return it->second;
}

void PositionInvariant::add(const std::vector<std::int64_t>& sampled) {
  const std::vector<std::int64_t> point = without_dead(sampled, dead);
  bool created = false;
  InvariantPart& p = part(point, created);
  for (std::size_t i = 0; i < point.size(); ++i) {
    p.low[i] = std::min(p.low[i], point[i]);
    p.high[i] = std::max(p.high[i], point[i]);
  }
  ++samples;
  // Most states lie in the hull already: a check of the equalities is cheaper than the
  // elimination.
  bool inside = !hull.empty();
  for (const LinearFact& f : equalities) {
    if (!inside) break;
    std::int64_t sum = 0;
    for (const auto& [i, c] : f.terms) sum += c * point[static_cast<std::size_t>(i)];
    inside = sum == f.constant;
  }
  if (!inside && hull.add(point)) equalities = hull.equalities();
}

std::vector<std::size_t> PositionInvariant::stage_keys(std::size_t i) const {
  std::vector<std::size_t> out;
  const std::int32_t player = owner != nullptr && i < owner->size() ? (*owner)[i] : -1;
  if (player < 0) return out;
  for (std::size_t k = 0; k < key_dims.size(); ++k) {
    if ((*owner)[static_cast<std::size_t>(key_dims[k])] == player) out.push_back(k);
  }
  return out;
}

std::vector<std::int64_t> PositionInvariant::stage(const std::vector<std::int64_t>& point, std::size_t i) const {
  std::vector<std::int64_t> out;
  for (const std::size_t k : stage_keys(i)) out.push_back(point[static_cast<std::size_t>(key_dims[k])]);
  return out;
}

std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> PositionInvariant::starting_range(
    std::size_t i, const std::vector<std::int64_t>& key) const {
  // A player's value starts from the parts at the same stage for that player (both still
  // to visit them, or both past them): a walk that adds to each player in turn has the
  // range before the player's turn in one set of parts and the range after in the other,
  // and the union of both would let the next turn add again. With no such part, from all.
  const std::vector<std::size_t> keys = stage_keys(i);
  const auto same_stage = [&](const std::vector<std::int64_t>& k) {
    return std::all_of(keys.begin(), keys.end(), [&](std::size_t d) { return k[d] == key[d]; });
  };
  const bool any = !keys.empty() && std::any_of(parts.begin(), parts.end(), [&](const auto& p) { return same_stage(p.first); });
  if (!any) return {lowest(i), highest(i)};
  return {loosest(parts, i, false, [](std::int64_t a, std::int64_t b) { return std::min(a, b); }, same_stage),
          loosest(parts, i, true, [](std::int64_t a, std::int64_t b) { return std::max(a, b); }, same_stage)};
}

bool PositionInvariant::weaken(const std::vector<std::int64_t>& found, const std::vector<std::int64_t>* global_low,
                               const std::vector<std::int64_t>* global_high) {
  const std::vector<std::int64_t> point = without_dead(found, dead);
  std::vector<std::optional<std::int64_t>> lows, highs;
  const bool fresh = parts.count(key(point)) == 0;
  if (fresh) {
    const std::vector<std::int64_t> k = key(point);
    for (std::size_t i = 0; i < point.size(); ++i) {
      const auto [low, high] = starting_range(i, k);
      lows.push_back(low);
      highs.push_back(high);
    }
  }
  bool created = false;
  InvariantPart& p = part(point, created);
  if (created) {
    // The ranges the other parts agree on, widened to take the state in; where they do
    // not agree on one, the state's own value (later states widen it as usual).
    for (std::size_t i = 0; i < point.size(); ++i) {
      p.low[i] = lows[i] ? std::min(*lows[i], point[i]) : point[i];
      p.high[i] = highs[i] ? std::max(*highs[i], point[i]) : point[i];
    }
  }
  bool changed = created;
  if (++weakenings <= kJoinsPerPosition) {
    if (hull.add(point)) {
      equalities = hull.equalities();
      changed = true;
    }
  } else {
    const std::size_t before = equalities.size();
    equalities = join_equalities(std::move(equalities), point);
    changed = changed || equalities.size() != before;
  }
  // A broken range widens in the state's part only: the parts keep apart what differs
  // between the stages of a walk over the table ("the players already visited hold no
  // notes"), which widening everywhere would lose. The first state that breaks a bound
  // widens it just enough to take the state in; later ones widen it to a landmark (below)
  // or drop it. At a position that has taken many states, a broken bound widens that way
  // in every part at once, so that the search ends in reasonable time.
  if (p.widened_low.empty()) {
    p.widened_low.assign(point.size(), 0);
    p.widened_high.assign(point.size(), 0);
  }
  const bool coarse = weakenings > std::max(kFineWeakenings, kFineWeakeningsPerPart * parts.size());
  // Calls `change(bound, kept)` for the low (or high) bound of variable d in each part a
  // widening of d reaches: the state's part, or every part (coarse, or d is shared).
  auto each_bound = [&](std::size_t d, bool low, auto change) {
    const bool everywhere = coarse || (!shared.empty() && shared[d]);
    for (auto& [k, q] : parts) {
      if (!everywhere && &q != &p) continue;
      std::vector<bool>::reference kept = low ? q.has_low[d] : q.has_high[d];
      if (kept) change(low ? q.low[d] : q.high[d], kept);
    }
  };
  // Widens the low (or high) bound of variable i to take the state in.
  auto widen = [&](std::size_t i, bool low) {
    std::int32_t& times = low ? p.widened_low[i] : p.widened_high[i];
    // A low bound goes to the highest landmark at or below the state: the sampled low, 0
    // or 1 ("not empty" survives a widening that "at least three" does not); a high bound
    // to the sampled high, or past it to twice that and one; without one, the bound goes.
    std::optional<std::int64_t> target;
    if (!coarse && ++times <= kExactWidenings) {
      target = point[i];
    } else if (low) {
      std::vector<std::int64_t> landmarks{0, 1};
      if (global_low != nullptr) landmarks.push_back((*global_low)[i]);
      for (const std::int64_t t : landmarks) {
        if (t <= point[i] && (!target || t > *target)) target = t;
      }
    } else if (global_high != nullptr && point[i] <= (*global_high)[i]) {
      target = (*global_high)[i];
    } else if (global_high != nullptr && (*global_high)[i] >= 0 && (*global_high)[i] < kLandmarkLimit &&
               point[i] <= 2 * (*global_high)[i] + 1) {
      // One landmark past what the games saw: a score at most 2 where a round starts gains a
      // few points in a walk over the players, more than most sampled games show; a
      // counter that grows without bound
      // breaks this one too, and its bound goes.
      target = 2 * (*global_high)[i] + 1;
    }
    each_bound(i, low, [&](std::int64_t& bound, std::vector<bool>::reference kept) {
      if (low ? bound <= point[i] : bound >= point[i]) return;  // takes the state in already
      if (target) {
        bound = *target;
      } else {
        kept = false;
      }
    });
    // The same variable of the other players (and the other card classes of the zone)
    // widens with it, as far as the sampled games saw it go, or goes with it: the rules
    // treat the players alike, and Z3 would otherwise find the same state for each of them
    // in turn, one query each (a quarter fewer weakenings on the shipped rulesets, with the
    // same results: docs/verification.md).
    // A player at another stage of a walk (still to visit where this one is past) is not
    // alike: the walk may be about to add to one and have added to the other.
    if (family == nullptr || (*family)[i] < 0 || global_low == nullptr || global_high == nullptr) return;
    const std::vector<std::int64_t> own_stage = stage(point, i);
    for (std::size_t j = 0; j < point.size(); ++j) {
      if (j == i || (*family)[j] != (*family)[i] || stage(point, j) != own_stage) continue;
      each_bound(j, low, [&](std::int64_t& bound, std::vector<bool>::reference kept) {
        if (!target) {
          kept = false;
          return;
        }
        const std::int64_t to = low ? std::max(*target, (*global_low)[j]) : std::min(*target, (*global_high)[j]);
        if (low ? bound > to : bound < to) bound = to;
      });
    }
  };
  for (std::size_t i = 0; i < point.size(); ++i) {
    const bool below = p.has_low[i] && point[i] < p.low[i];
    const bool above = p.has_high[i] && point[i] > p.high[i];
    if (below) widen(i, true);
    if (above) widen(i, false);
    changed = changed || below || above;
  }
  return changed;
}


std::optional<std::int64_t> PositionInvariant::lowest(std::size_t i) const {
  return loosest(parts, i, false, [](std::int64_t a, std::int64_t b) { return std::min(a, b); });
}

std::optional<std::int64_t> PositionInvariant::highest(std::size_t i) const {
  return loosest(parts, i, true, [](std::int64_t a, std::int64_t b) { return std::max(a, b); });
}

z3::expr fact_term(z3::context& ctx, const LinearFact& fact, const std::vector<z3::expr>& state) {
  z3::expr_vector parts(ctx);
  for (const auto& [i, c] : fact.terms) {
    const z3::expr& x = state[static_cast<std::size_t>(i)];
    parts.push_back(c == 1 ? x : ctx.int_val(static_cast<int64_t>(c)) * x);
  }
  const z3::expr sum = parts.size() == 1 ? parts[0] : z3::sum(parts);
  const z3::expr k = ctx.int_val(static_cast<int64_t>(fact.constant));
  return fact.equality ? sum == k : sum >= k;
}

void PositionInvariant::join_shared() {
  for (std::size_t i = 0; i < shared.size(); ++i) {
    if (!shared[i]) continue;
    const std::optional<std::int64_t> lo = lowest(i), hi = highest(i);
    for (auto& [key, part] : parts) {
      part.has_low[i] = lo.has_value();
      part.has_high[i] = hi.has_value();
      if (lo) part.low[i] = *lo;
      if (hi) part.high[i] = *hi;
    }
  }
}

}  // namespace rulebook::verifier
