#include "invariants.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <limits>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "solver.hpp"

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
bool mentions_dead(const LinearFact& f, const std::vector<bool>* dead) {
  if (dead == nullptr) return false;
  for (const auto& [i, c] : f.terms) {
    if ((*dead)[static_cast<std::size_t>(i)]) return true;
  }
  return false;
}
}  // namespace

// States Z3 finds at one position that join the hull before violated equalities are
// dropped instead.
constexpr std::size_t kJoinsPerPosition = 24;
// States that widen one bound of one part to just take them in, before it widens further.
constexpr std::int32_t kExactWidenings = 1;
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

bool PositionInvariant::weaken(const std::vector<std::int64_t>& found, const std::vector<std::int64_t>* global_low,
                               const std::vector<std::int64_t>* global_high) {
  const std::vector<std::int64_t> point = without_dead(found, dead);
  std::vector<std::optional<std::int64_t>> lows, highs;
  const bool fresh = parts.count(key(point)) == 0;
  if (fresh) {
    for (std::size_t i = 0; i < point.size(); ++i) {
      lows.push_back(parts.empty() ? std::nullopt : lowest(i));
      highs.push_back(parts.empty() ? std::nullopt : highest(i));
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
    std::erase_if(equalities, [&](const LinearFact& f) {
      std::int64_t sum = 0;
      for (const auto& [i, c] : f.terms) sum += c * point[static_cast<std::size_t>(i)];
      return sum != f.constant;
    });
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
    // to the sampled high; without one, the bound goes.
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
    if (family == nullptr || (*family)[i] < 0 || global_low == nullptr || global_high == nullptr) return;
    for (std::size_t j = 0; j < point.size(); ++j) {
      if (j == i || (*family)[j] != (*family)[i]) continue;
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

namespace {
// The loosest bound over all parts, or nothing if some part has none.
template <typename Pick>
std::optional<std::int64_t> loosest(const std::map<std::vector<std::int64_t>, InvariantPart>& parts, std::size_t i,
                                    bool high, Pick pick) {
  std::optional<std::int64_t> out;
  for (const auto& [k, p] : parts) {
    if (!(high ? p.has_high[i] : p.has_low[i])) return std::nullopt;
    const std::int64_t v = high ? p.high[i] : p.low[i];
    out = out ? pick(*out, v) : v;
  }
  return out;
}
}  // namespace

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

std::vector<std::vector<bool>> shared_dimensions(const ri::Ir& ir, const Layout& layout, const std::vector<bool>& shareable,
                                                 const std::vector<std::optional<Block>>& blocks) {
  const std::size_t n = ir.code.size();
  const auto dims = static_cast<std::size_t>(layout.size());
  // The walks: a jump back from `end` to the kForNext at `head` runs head..end again, and
  // the walk's list slot keeps who is still to visit.
  struct Walk {
    std::size_t head, end;
    ri::Slot list;
  };
  std::vector<Walk> walks;
  for (std::size_t pc = 0; pc < n; ++pc) {
    const ri::Instr& in = ir.code[pc];
    if (in.code == ri::OpCode::kJump && in.target >= 0 && static_cast<std::size_t>(in.target) <= pc &&
        ir.code[static_cast<std::size_t>(in.target)].code == ri::OpCode::kForNext) {
      walks.push_back(Walk{static_cast<std::size_t>(in.target), pc, ir.code[static_cast<std::size_t>(in.target)].a});
    }
  }
  std::vector<std::vector<bool>> out(n);
  for (std::size_t pc = 0; pc < n; ++pc) {
    const std::vector<std::int32_t>& keys = layout.key_dims[pc];
    if (keys.empty()) continue;
    // What the loops around pc that write a key dimension write.
    std::vector<bool> changed(dims, false), key_covered(dims, false);
    for (const Walk& w : walks) {
      if (pc < w.head || pc > w.end || layout.local_shape[static_cast<std::size_t>(w.list)] != SlotShape::kPlayerList) continue;
      const std::int32_t first = layout.local_index[static_cast<std::size_t>(w.list)];
      bool keyed = false;
      for (const std::int32_t k : keys) {
        if (k >= first && k < first + layout.seats) {
          keyed = true;
          key_covered[static_cast<std::size_t>(k)] = true;
        }
      }
      if (!keyed) continue;
      for (std::size_t i = w.head; i <= w.end; ++i) {
        if (!blocks[i]) continue;
        for (const BlockExit& e : blocks[i]->exits) {
          if (e.pc < static_cast<std::int32_t>(w.head) || e.pc > static_cast<std::int32_t>(w.end)) continue;
          for (std::size_t d = 0; d < dims; ++d) changed[d] = changed[d] || !e.kept[d];
        }
      }
    }
    const bool all_keys = std::all_of(keys.begin(), keys.end(), [&](std::int32_t k) { return key_covered[static_cast<std::size_t>(k)]; });
    if (!all_keys) continue;
    out[pc].assign(dims, false);
    for (std::size_t d = 0; d < dims; ++d) out[pc][d] = shareable[d] && !changed[d];
  }
  return out;
}

Invariants::Invariants(Encoder& encoder, const Layout& layout, std::vector<bool> cuts)
    : encoder_(encoder), cuts_(std::move(cuts)), blocks_(cuts_.size()), top_(cuts_.size(), false),
      state_(encoder.state_vars("x")) {
  positions_.reserve(cuts_.size());
  for (std::size_t i = 0; i < cuts_.size(); ++i) {
    PositionInvariant inv;
    inv.dimension = static_cast<std::size_t>(layout.size());
    inv.hull = AffineHull(inv.dimension);
    inv.dead = &layout.dead[i];
    inv.family = &layout.family;
    inv.key_dims = layout.key_dims[i];
    positions_.push_back(std::move(inv));
  }
  // Every block is built now: which variables a walk's blocks keep decides what is shared.
  for (std::size_t pc = 0; pc < cuts_.size(); ++pc) {
    if (cuts_[pc]) (void)block(static_cast<std::int32_t>(pc));
  }
  // Card counts, values read through a player and integer variables may be shared; who
  // starts a walk (a player) and who takes part in it (a yes or no per player) decide
  // which stages it goes through, so they stay apart per part.
  std::vector<bool> shareable(state_.size(), false);
  const std::size_t counts = static_cast<std::size_t>(layout.instances) * static_cast<std::size_t>(layout.classes);
  for (std::size_t d = 0; d < state_.size(); ++d) shareable[d] = d < counts || d >= static_cast<std::size_t>(layout.base_size);
  for (std::size_t slot = 0; slot < layout.var_index.size(); ++slot) {
    const std::int32_t index = layout.var_index[slot];
    if (index >= 0 && slot < encoder.kinds().var.size() && encoder.kinds().var[slot] == ri::Kind::kInt) {
      shareable[static_cast<std::size_t>(index)] = true;
    }
  }
  const std::vector<std::vector<bool>> shared = shared_dimensions(encoder.ir(), layout, shareable, blocks_);
  for (std::size_t pc = 0; pc < cuts_.size(); ++pc) positions_[pc].shared = shared[pc];
}

const Block& Invariants::block(std::int32_t pc) {
  auto& b = blocks_[static_cast<std::size_t>(pc)];
  if (!b) b = fuse_block(encoder_, pc, cuts_, state_, fmt::format("h{}", pc));
  return *b;
}

std::vector<Invariants::Reach> Invariants::reach(std::int32_t pc) {
  std::vector<Reach> out;
  for (std::size_t c = 0; c < cuts_.size(); ++c) {
    const auto cut = static_cast<std::int32_t>(c);
    if (!cuts_[c] || !at(cut).reached()) continue;
    const Block& b = block(cut);
    for (const BlockNode& node : b.nodes) {
      if (node.pc != pc) continue;
      Reach r;
      r.facts.push_back(formula(cut, state_));
      r.facts.insert(r.facts.end(), b.assumptions.begin(), b.assumptions.end());
      r.facts.push_back(node.reached);
      r.state = node.state;
      out.push_back(std::move(r));
    }
  }
  return out;
}

z3::expr Invariants::formula(std::int32_t pc, const std::vector<z3::expr>& state, const Implied* implied) const {
  z3::context& ctx = encoder_.context();
  const PositionInvariant& inv = at(pc);
  if (!inv.reached()) return ctx.bool_val(false);
  if (top_[static_cast<std::size_t>(pc)]) return ctx.bool_val(true);
  // Facts over variables a step leaves alone that the invariant before the step states as
  // well hold after it: they are left out of what the step must establish.
  const PositionInvariant* before = implied != nullptr && !top_[static_cast<std::size_t>(implied->source)] ? &at(implied->source) : nullptr;
  auto untouched = [&](const LinearFact& f) {
    return std::all_of(f.terms.begin(), f.terms.end(), [&](const auto& t) { return implied->kept[static_cast<std::size_t>(t.first)]; });
  };
  std::set<std::pair<std::vector<std::pair<std::int32_t, std::int64_t>>, std::int64_t>> known;
  if (before != nullptr) {
    for (const LinearFact& f : before->equalities) {
      if (!mentions_dead(f, before->dead) && untouched(f)) known.emplace(f.terms, f.constant);
    }
  }
  z3::expr_vector all(ctx);
  // A variable an equality fixes needs no bounds.
  std::vector<bool> fixed(state.size(), false);
  for (const LinearFact& f : inv.equalities) {
    if (mentions_dead(f, inv.dead)) continue;
    if (f.terms.size() == 1) fixed[static_cast<std::size_t>(f.terms[0].first)] = true;
    if (known.count({f.terms, f.constant}) != 0) continue;
    all.push_back(fact_term(ctx, f, state));
  }
  // The loosest bound every part keeps holds in every part: it is said once, outside the
  // cases, and a part repeats only the bounds that are tighter (the same set of states, in
  // a formula Z3 works through faster).
  std::vector<std::optional<std::int64_t>> low(state.size()), high(state.size());
  for (std::size_t i = 0; i < state.size(); ++i) {
    if (fixed[i] || (inv.dead != nullptr && (*inv.dead)[i])) continue;
    low[i] = inv.lowest(i);
    high[i] = inv.highest(i);
    std::optional<std::int64_t> low_before, high_before;
    if (before != nullptr && implied->kept[i] && (before->dead == nullptr || !(*before->dead)[i])) {
      low_before = before->lowest(i);
      high_before = before->highest(i);
    }
    if (low[i] && !(low_before && *low_before >= *low[i])) all.push_back(state[i] >= ctx.int_val(static_cast<int64_t>(*low[i])));
    if (high[i] && !(high_before && *high_before <= *high[i])) all.push_back(state[i] <= ctx.int_val(static_cast<int64_t>(*high[i])));
  }
  z3::expr_vector cases(ctx);
  for (const auto& [key, part] : inv.parts) {
    z3::expr_vector parts(ctx);
    for (std::size_t k = 0; k < key.size(); ++k) {
      parts.push_back(state[static_cast<std::size_t>(inv.key_dims[k])] == ctx.int_val(static_cast<int64_t>(key[k])));
    }
    for (std::size_t i = 0; i < state.size(); ++i) {
      if (fixed[i] || (inv.dead != nullptr && (*inv.dead)[i])) continue;
      if (part.has_low[i] && (!low[i] || part.low[i] > *low[i])) {
        parts.push_back(state[i] >= ctx.int_val(static_cast<int64_t>(part.low[i])));
      }
      if (part.has_high[i] && (!high[i] || part.high[i] < *high[i])) {
        parts.push_back(state[i] <= ctx.int_val(static_cast<int64_t>(part.high[i])));
      }
    }
    cases.push_back(parts.empty() ? ctx.bool_val(true) : z3::mk_and(parts));
  }
  all.push_back(cases.size() == 1 ? cases[0] : z3::mk_or(cases));
  return z3::mk_and(all);
}

Invariants::Stats Invariants::make_inductive(unsigned timeout_ms, double budget_seconds) {
  const auto started = std::chrono::steady_clock::now();
  Stats stats;
  z3::context& ctx = encoder_.context();
  z3::solver solver = make_solver(ctx, timeout_ms);
  for (PositionInvariant& p : positions_) p.join_shared();
  // Initiation: the start state satisfies the invariant of its position (by construction:
  // the hull takes it in and a bound it breaks goes).
  if (initial_) at(initial_->first).weaken(initial_->second);
  // The range of every variable over all sampled states: how far a bound may widen.
  const std::size_t dims = state_.size();
  global_low_.assign(dims, std::numeric_limits<std::int64_t>::max());
  global_high_.assign(dims, std::numeric_limits<std::int64_t>::min());
  for (const PositionInvariant& p : positions_) {
    for (const auto& [key, part] : p.parts) {
      for (std::size_t i = 0; i < dims; ++i) {
        global_low_[i] = std::min(global_low_[i], part.low[i]);
        global_high_[i] = std::max(global_high_[i], part.high[i]);
      }
    }
  }
  std::deque<std::int32_t> work;
  std::vector<bool> queued(positions_.size(), false);
  for (std::size_t pc = 0; pc < positions_.size(); ++pc) {
    if (cuts_[pc] && positions_[pc].reached()) {
      work.push_back(static_cast<std::int32_t>(pc));
      queued[pc] = true;
    }
  }
  auto enqueue = [&](std::int32_t pc) {
    if (!queued[static_cast<std::size_t>(pc)]) {
      queued[static_cast<std::size_t>(pc)] = true;
      work.push_back(pc);
    }
  };
  while (!work.empty()) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() > budget_seconds) {
      // Out of time: the candidates are not known to be inductive, so none is kept.
      stats.finished = false;
      for (std::size_t p = 0; p < positions_.size(); ++p) {
        if (!cuts_[p]) continue;
        top_[p] = true;
        if (!positions_[p].reached()) positions_[p].weaken(std::vector<std::int64_t>(state_.size(), 0));
      }
      break;
    }
    const std::int32_t pc = work.front();
    work.pop_front();
    queued[static_cast<std::size_t>(pc)] = false;
    if (!at(pc).reached()) continue;
    const Block& b = block(pc);
    for (const BlockExit& succ : b.exits) {
      if (succ.pc < 0) continue;  // the game ends
      // The source side of the query (its invariant, the block, the exit's guard) stays the
      // same while the target is weakened, unless the block returns to its own start: it is
      // asserted once, and Z3 keeps what it learnt about it from one query to the next.
      const bool loops = succ.pc == pc;
      solver.push();
      if (!loops) {
        solver.add(formula(pc, state_));
        for (const z3::expr& a : b.assumptions) solver.add(a);
        solver.add(succ.guard);
      }
      for (;;) {
        if (top_[static_cast<std::size_t>(succ.pc)]) break;
        solver.push();
        if (loops) {
          solver.add(formula(pc, state_));
          for (const z3::expr& a : b.assumptions) solver.add(a);
          solver.add(succ.guard);
        }
        const Implied implied{pc, succ.kept};
        solver.add(!formula(succ.pc, succ.next, &implied));
        ++stats.queries;
        const auto asked = std::chrono::steady_clock::now();
        const z3::check_result r = solver.check();
        const double query_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - asked).count();
        if (r == z3::unsat) {
          solver.pop();
          break;
        }
        if (r == z3::unknown) {
          solver.pop();
          ++stats.gave_up;
          top_[static_cast<std::size_t>(succ.pc)] = true;
          if (!at(succ.pc).reached()) at(succ.pc).weaken(std::vector<std::int64_t>(state_.size(), 0));
          enqueue(succ.pc);
          break;
        }
        const z3::model m = solver.get_model();
        std::vector<std::int64_t> y;
        y.reserve(succ.next.size());
        bool fits = true;
        for (const z3::expr& v : succ.next) {
          std::int64_t value = 0;
          fits = fits && m.eval(v, true).is_numeral_i64(value);
          y.push_back(value);
        }
        solver.pop();
        if (!fits) {
          // A state beyond 64-bit values: no candidate of ranges takes it in; the position
          // keeps no invariant (sound, and weaker).
          ++stats.gave_up;
          top_[static_cast<std::size_t>(succ.pc)] = true;
          if (!at(succ.pc).reached()) at(succ.pc).weaken(std::vector<std::int64_t>(state_.size(), 0));
          enqueue(succ.pc);
          break;
        }
        ++stats.weakenings;
        if (debug_ != nullptr) {
          std::string changed;
          for (std::size_t i = 0; i < y.size() && changed.size() < 400; ++i) {
            if ((*at(succ.pc).dead)[i]) continue;
            // The bounds of the state's own part (or of all parts, for a new part).
            const PositionInvariant& target = at(succ.pc);
            std::vector<std::int64_t> key;
            for (const std::int32_t d : target.key_dims) key.push_back(y[static_cast<std::size_t>(d)]);
            const auto part = target.parts.find(key);
            std::optional<std::int64_t> lo = target.lowest(i), hi = target.highest(i);
            if (part != target.parts.end()) {
              lo = part->second.has_low[i] ? std::optional<std::int64_t>(part->second.low[i]) : std::nullopt;
              hi = part->second.has_high[i] ? std::optional<std::int64_t>(part->second.high[i]) : std::nullopt;
            }
            if ((lo && y[i] < *lo) || (hi && y[i] > *hi)) changed += fmt::format(" {}={}", (*debug_)[i], y[i]);
          }
          for (const LinearFact& f : at(succ.pc).equalities) {
            if (mentions_dead(f, at(succ.pc).dead)) continue;
            std::int64_t sum = 0;
            std::string text;
            for (const auto& [i, c] : f.terms) {
              sum += c * y[static_cast<std::size_t>(i)];
              text += fmt::format("{}*{} ", c, (*debug_)[static_cast<std::size_t>(i)]);
            }
            if (sum != f.constant && changed.size() < 600) changed += fmt::format(" [{}= {} but {}]", text, f.constant, sum);
          }
          const std::size_t rank = at(succ.pc).hull.rank();
          const std::size_t parts = at(succ.pc).parts.size();
          fmt::print(stderr, "weaken {} -> {} ({:.0f} ms): rank {} parts {}{}\n", pc, succ.pc, query_ms, rank, parts, changed);
        }
        if (!at(succ.pc).weaken(y, &global_low_, &global_high_)) {
          top_[static_cast<std::size_t>(succ.pc)] = true;  // should not happen: keep it sound
        }
        enqueue(succ.pc);
      }
      solver.pop();
    }
  }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return stats;
}

std::vector<std::string> Invariants::describe(std::int32_t pc, const std::vector<std::string>& names) const {
  std::vector<std::string> out;
  const PositionInvariant& inv = at(pc);
  if (!inv.reached()) return {"false (unreachable)"};
  if (top_[static_cast<std::size_t>(pc)]) return {"true"};
  for (const LinearFact& f : inv.equalities) {
    if (mentions_dead(f, inv.dead)) continue;
    std::string text;
    for (const auto& [i, c] : f.terms) {
      const std::string& name = names[static_cast<std::size_t>(i)];
      if (text.empty()) {
        text = c == 1 ? name : c == -1 ? "-" + name : fmt::format("{}*{}", c, name);
      } else {
        text += c == 1 ? " + " + name
                : c == -1 ? " - " + name
                          : fmt::format(" {} {}*{}", c < 0 ? "-" : "+", c < 0 ? -c : c, name);
      }
    }
    out.push_back(fmt::format("{} = {}", text, f.constant));
  }
  for (const auto& [key, part] : inv.parts) {
    std::string prefix;
    if (!key.empty()) {
      std::vector<std::string> terms;
      for (std::size_t k = 0; k < key.size(); ++k) {
        terms.push_back(fmt::format("{} = {}", names[static_cast<std::size_t>(inv.key_dims[k])], key[k]));
      }
      prefix = fmt::format("when {}: ", fmt::join(terms, ", "));
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (inv.dead != nullptr && (*inv.dead)[i]) continue;
      const bool lo = part.has_low[i], hi = part.has_high[i];
      if (lo && hi && part.low[i] == part.high[i]) continue;  // an equality above
      if (lo && hi) {
        out.push_back(fmt::format("{}{} <= {} <= {}", prefix, part.low[i], names[i], part.high[i]));
      } else if (lo) {
        out.push_back(fmt::format("{}{} >= {}", prefix, names[i], part.low[i]));
      } else if (hi) {
        out.push_back(fmt::format("{}{} <= {}", prefix, names[i], part.high[i]));
      }
    }
  }
  return out;
}

}  // namespace rulebook::verifier
