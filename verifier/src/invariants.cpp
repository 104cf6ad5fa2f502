#include "invariants.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "solver.hpp"

namespace rulebook::verifier {

namespace {
bool mentions_dead(const LinearFact& f, const std::vector<bool>* dead) {
  if (dead == nullptr) return false;
  for (const auto& [i, c] : f.terms) {
    if ((*dead)[static_cast<std::size_t>(i)]) return true;
  }
  return false;
}
}  // namespace

std::vector<std::vector<bool>> shared_dimensions(const ir::Ir& ir, const Layout& layout, const std::vector<bool>& shareable,
                                                 const std::vector<std::optional<Block>>& blocks) {
  const std::size_t n = ir.code.size();
  const auto dims = static_cast<std::size_t>(layout.size());
  // The walks: a jump back from `end` to the kForNext at `head` runs head..end again, and
  // the walk's list slot keeps who is still to visit.
  struct Walk {
    std::size_t head, end;
    ir::Slot list;
  };
  std::vector<Walk> walks;
  for (std::size_t pc = 0; pc < n; ++pc) {
    const ir::Instr& in = ir.code[pc];
    if (in.code == ir::OpCode::kJump && in.target >= 0 && static_cast<std::size_t>(in.target) <= pc &&
        ir.code[static_cast<std::size_t>(in.target)].code == ir::OpCode::kForNext) {
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
    inv.owner = &layout.owner;
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
    if (index >= 0 && slot < encoder.kinds().var.size() && encoder.kinds().var[slot] == ir::Kind::kInt) {
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

Invariants::Stats Invariants::make_inductive(unsigned timeout_ms, double budget_seconds,
                                             const std::function<void(std::int64_t, std::int64_t)>& queried) {
  const auto started = std::chrono::steady_clock::now();
  Stats stats;
  z3::context& ctx = encoder_.context();
  z3::solver solver = make_solver(ctx);
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
  // The budget is checked before every query, not only between positions: one position of
  // a large table can take thousands of weakenings, each a query of up to `timeout_ms`. No
  // query may run past the budget either.
  auto budget_left_ms = [&]() {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return (budget_seconds - spent) * 1000;
  };
  bool out_of_budget = false;
  while (!work.empty() && !out_of_budget) {
    if (budget_left_ms() <= 0) {
      out_of_budget = true;
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
        const double left_ms = budget_left_ms();
        if (left_ms < 1) {
          out_of_budget = true;
          break;
        }
        const auto query_limit_ms = static_cast<unsigned>(std::min<double>(timeout_ms, std::ceil(left_ms)));
        solver.push();
        if (loops) {
          solver.add(formula(pc, state_));
          for (const z3::expr& a : b.assumptions) solver.add(a);
          solver.add(succ.guard);
        }
        const Implied implied{pc, succ.kept};
        solver.add(!formula(succ.pc, succ.next, &implied));
        if (queried) queried(static_cast<std::int64_t>(work.size()) + 1, stats.queries);
        ++stats.queries;
        const auto asked = std::chrono::steady_clock::now();
        const z3::check_result r = check_within(solver, query_limit_ms);
        const double query_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - asked).count();
        if (r == z3::unsat) {
          solver.pop();
          break;
        }
        if (r == z3::unknown && budget_left_ms() < 1) {
          solver.pop();  // cut by the budget, not a query Z3 gave up on: everything goes below
          out_of_budget = true;
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
      if (out_of_budget) break;
    }
  }
  if (out_of_budget) {
    // Out of time: the candidates are not known to be inductive, so none is kept.
    stats.finished = false;
    for (std::size_t p = 0; p < positions_.size(); ++p) {
      if (!cuts_[p]) continue;
      top_[p] = true;
      if (!positions_[p].reached()) positions_[p].weaken(std::vector<std::int64_t>(state_.size(), 0));
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
