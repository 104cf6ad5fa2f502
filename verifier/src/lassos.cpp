// Lassos and endless games as replayable counterexamples to termination (lassos.hpp). States
// are compared as search.cpp's state words, so "the same state" means the same here as in
// the exhaustive search; a cycle found with alike cards taken as one is played again until
// the state is exactly one it was in before (after an earlier turn of the cycle), else it
// is not used.
#include "lassos.hpp"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

#include <fmt/format.h>

#include "rulebook/interpreter/agent.hpp"
#include "rulebook/interpreter/simulate.hpp"
#include "lasso_words.hpp"
#include "liveness.hpp"
#include "search.hpp"

namespace rulebook::verifier {

std::vector<Loop> find_loops(const ir::Ir& ir) {
  std::vector<Loop> loops;
  for (std::size_t j = 0; j < ir.code.size(); ++j) {
    const ir::Instr& in = ir.code[j];
    if (in.code != ir::OpCode::kJump || in.target > static_cast<std::int32_t>(j)) continue;
    Loop loop;
    loop.head = in.target;
    loop.back = static_cast<std::int32_t>(j);
    loop.game = in.target == ir.round_start;
    loop.label = ir.code[static_cast<std::size_t>(in.target)].rule;
    loops.push_back(loop);
  }
  return loops;
}

std::int64_t lasso_depth(const Context& ctx) { return std::min<std::int64_t>(ctx.options.bound, 4 * ctx.setting.seats + 4); }

namespace {

// A cycle made exact: moves that lead from `root` to a state (`lead_in`, possibly none) and
// then back to exactly that state (`cycle`).
struct ExactCycle {
  std::vector<std::size_t> lead_in, cycle;
};

// The moves `cycle` played from `root` turn after turn, staying inside the loop at every
// instruction (and, for a loop of a round, in the same round), until the state after a turn is exactly the state
// after an earlier turn (or `root`): the turns between are the exact cycle. Nothing when no
// state repeats within 24 turns. A card taken in the first turn may come back to another
// place (the end of a hand), so the first return is often not to `root` but to the state
// after the first turn.
std::optional<ExactCycle> exact_cycle(const Context& ctx, const Loop& loop, const ri::State& root,
                                      const std::vector<std::size_t>& cycle) {
  StatesSeen after_turn;  // tag: the moves played by then
  after_turn.seen(words_of(root, SearchSymmetry::kExact), 0);
  ri::State state = root;
  std::vector<std::size_t> path;
  InsideLoop watch;
  if (!loop.game) watch.watch(&loop);
  // Where the cycle takes a card, it takes the card last taken instead when that one is
  // alike and on offer: the same card goes round, so the cycle can close exactly.
  std::int64_t last_card = -1;
  for (int turn = 0; turn < 24 && !cycle.empty(); ++turn) {
    for (std::size_t index : cycle) {
      if (state.finished || !state.decision || index >= state.decision->options.size()) return std::nullopt;
      if (!loop.game && (!inside(loop, state.pc) || state.rounds != root.rounds)) return std::nullopt;
      const auto& options = state.decision->options;
      if (options[index].kind == ir::Kind::kCard) {
        for (std::size_t o = 0; o < options.size() && last_card >= 0; ++o) {
          if (options[o].kind == ir::Kind::kCard && options[o].scalar == last_card &&
              ctx.classes.class_of[static_cast<std::size_t>(last_card)] ==
                  ctx.classes.class_of[static_cast<std::size_t>(options[index].scalar)]) {
            index = o;
          }
        }
        last_card = options[index].scalar;
      }
      ctx.machine.apply(state, index, &watch);
      if (watch.left()) return std::nullopt;
      path.push_back(index);
    }
    if (state.finished || !state.decision) return std::nullopt;
    if (const std::optional<std::size_t> moves = after_turn.seen(words_of(state, SearchSymmetry::kExact), path.size())) {
      ExactCycle out;
      out.lead_in.assign(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(*moves));
      out.cycle.assign(path.begin() + static_cast<std::ptrdiff_t>(*moves), path.end());
      return out;
    }
  }
  return std::nullopt;
}

// Depth-first from `state` for moves back to `root`, inside the loop, within `budget` moves
// tried; a state seen before is searched again only when reached in fewer moves. States are
// compared by their live locals only: the loop's first decision has none of the values an
// iteration leaves behind (the card passed last), and would never be returned to.
class CycleSearch {
 public:
  CycleSearch(const Context& ctx, const Loop& loop, SearchSymmetry symmetry, const ri::State& root, const LiveLocals& live)
      : ctx_(ctx), loop_(loop), symmetry_(symmetry), live_(live), root_(words_of(root, symmetry, true, &live)) {
    visited_.emplace(hash_words(root_), 0);
  }

  bool run(const ri::State& state, std::vector<std::size_t>& path) {
    if (static_cast<std::int64_t>(path.size()) >= lasso_depth(ctx_)) return false;
    // Children closest to the root first: a cycle returns to the root, and moves that undo
    // earlier differences lead there soonest.
    struct Child {
      std::size_t index;
      std::int64_t distance;
      std::uint64_t hash;
      ri::State state;
    };
    std::vector<Child> children;
    const std::size_t options = state.decision ? state.decision->options.size() : 0;
    for (std::size_t i = 0; i < options; ++i) {
      if (--budget_ < 0) return false;
      ri::State next = state;
      ctx_.machine.apply(next, i);
      if (next.finished || !inside(loop_, next.pc)) continue;
      const Words words = words_of(next, symmetry_, true, &live_);
      if (words == root_) {
        path.push_back(i);
        return true;
      }
      std::int64_t distance = std::abs(static_cast<std::int64_t>(words.size()) - static_cast<std::int64_t>(root_.size()));
      for (std::size_t k = 0; k < std::min(words.size(), root_.size()); ++k) distance += words[k] != root_[k] ? 1 : 0;
      children.push_back(Child{i, distance, hash_words(words), std::move(next)});
    }
    std::stable_sort(children.begin(), children.end(), [](const Child& a, const Child& b) { return a.distance < b.distance; });
    const auto depth = static_cast<std::int64_t>(path.size()) + 1;
    for (Child& child : children) {
      auto [seen, inserted] = visited_.try_emplace(child.hash, depth);
      if (!inserted) {
        if (seen->second <= depth) continue;
        seen->second = depth;
      }
      path.push_back(child.index);
      if (run(child.state, path)) return true;
      path.pop_back();
    }
    return false;
  }

 private:
  const Context& ctx_;
  const Loop& loop_;
  SearchSymmetry symmetry_;
  const LiveLocals& live_;
  Words root_;
  std::unordered_map<std::uint64_t, std::int64_t> visited_;
  std::int64_t budget_ = kLassoNodes;
};

// Breadth-first from `root` for the fewest moves back to it, inside the loop, within
// kLassoNodes moves tried and lasso_depth() moves deep. The depth-first search above goes
// deep along the moves that look closest to the root; where many moves look alike (which
// player receives a card) it can spend its budget on one wrong early choice, and this one
// cannot.
std::optional<std::vector<std::size_t>> breadth_first_cycle(const Context& ctx, const Loop& loop, SearchSymmetry symmetry,
                                                            const ri::State& root, const LiveLocals& live) {
  const Words home = words_of(root, symmetry, true, &live);
  struct Visit {
    std::int32_t parent;
    std::size_t move;
  };
  std::vector<Visit> nodes{Visit{-1, 0}};
  std::unordered_map<std::uint64_t, std::int32_t> seen{{hash_words(home), 0}};
  std::vector<std::pair<std::int32_t, ri::State>> layer{{0, root}};
  std::int64_t budget = kLassoNodes;
  for (std::int64_t depth = 0; depth < lasso_depth(ctx) && !layer.empty(); ++depth) {
    std::vector<std::pair<std::int32_t, ri::State>> next_layer;
    for (const auto& [id, state] : layer) {
      const std::size_t options = state.decision ? state.decision->options.size() : 0;
      for (std::size_t i = 0; i < options; ++i) {
        if (--budget < 0) return std::nullopt;
        ri::State next = state;
        ctx.machine.apply(next, i);
        if (next.finished || !inside(loop, next.pc) || (!loop.game && next.rounds != root.rounds)) continue;
        const Words words = words_of(next, symmetry, true, &live);
        if (words == home) {
          std::vector<std::size_t> path{i};
          for (std::int32_t at = id; at > 0; at = nodes[static_cast<std::size_t>(at)].parent) {
            path.push_back(nodes[static_cast<std::size_t>(at)].move);
          }
          std::reverse(path.begin(), path.end());
          return path;
        }
        if (!seen.try_emplace(hash_words(words), static_cast<std::int32_t>(nodes.size())).second) continue;
        nodes.push_back(Visit{id, i});
        next_layer.emplace_back(static_cast<std::int32_t>(nodes.size() - 1), std::move(next));
      }
    }
    layer = std::move(next_layer);
  }
  return std::nullopt;
}

// The game of a lasso: `random_moves` moves of the seed's agent, then `prefix`, then `cycle`,
// which comes back to the state after `prefix`. The message counts moves as the log and the
// step table do, an automated seat's policy moves included (the searches count only the
// moves they choose).
Counterexample lasso_game(const Context& ctx, const ri::GameConfig& config, std::int64_t random_moves,
                          const std::vector<std::size_t>& prefix, const std::vector<std::size_t>& cycle,
                          const std::string& found_by) {
  std::vector<std::size_t> all = prefix;
  all.insert(all.end(), cycle.begin(), cycle.end());
  const std::size_t before =
      replay_game(ctx.machine, config, random_moves, prefix, ctx.layout, ctx.classes, "").steps.size();
  Counterexample out = replay_game(ctx.machine, config, random_moves, all, ctx.layout, ctx.classes, "");
  const std::size_t after = out.steps.size();
  out.violation = fmt::format("after move {} the game is in exactly the state it was in after move {}{}: {} {} can repeat "
                              "forever", after, before, found_by, after - before == 1 ? "this" : "these",
                              after - before == 1 ? "move" : fmt::format("{} moves", after - before));
  return out;
}

}  // namespace

std::optional<Counterexample> sampled_lasso(const Context& ctx, const Loop& loop) {
  const ri::Machine& machine = ctx.machine;
  const LiveLocals live = live_locals(ctx.ir);
  for (const ri::GameResult& game : ctx.sampling.games) {
    if (game.moves == 0) continue;
    // The first decision of this game inside the loop.
    ri::GameConfig config = ctx.config;
    config.seed = game.seed;
    ri::State root = machine.start(config);
    ri::RandomAgent agent(ri::agent_seed(game.seed));
    while (!root.finished && !inside(loop, root.pc) && root.moves < ctx.options.bound) {
      machine.apply(root, agent.choose(machine.view(root, root.decision->player, agent.detail())));
    }
    if (root.finished || !inside(loop, root.pc)) continue;
    // First with alike cards as one (a shorter search); when that cycle does not return to
    // exactly the same state (rules can tell alike cards apart by their order, and the same
    // option indexes may then take other cards), card by card.
    // Each symmetry depth-first, then breadth-first when that finds nothing.
    for (const SearchSymmetry symmetry : {SearchSymmetry::kAlikeCards, SearchSymmetry::kExact}) {
      std::optional<std::vector<std::size_t>> path;
      if (std::vector<std::size_t> deep; CycleSearch(ctx, loop, symmetry, root, live).run(root, deep)) {
        path = std::move(deep);
      } else {
        path = breadth_first_cycle(ctx, loop, symmetry, root, live);
      }
      if (!path) return std::nullopt;
      if (auto exact = exact_cycle(ctx, loop, root, *path)) {
        return lasso_game(ctx, config, root.moves, exact->lead_in, exact->cycle, "");
      }
    }
    return std::nullopt;  // one root is enough for a bounded search
  }
  return std::nullopt;
}

std::optional<Counterexample> search_lasso(const Context& ctx, const Loop& loop) {
  for (const SearchHit& hit : ctx.search.hits) {
    if (hit.what != SearchHit::What::kLasso || hit.index < 0 || static_cast<std::size_t>(hit.index) >= hit.moves.size()) {
      continue;
    }
    const std::vector<std::size_t> prefix(hit.moves.begin(), hit.moves.begin() + hit.index);
    const std::vector<std::size_t> cycle(hit.moves.begin() + hit.index, hit.moves.end());
    const ri::State state = ctx.search_state(SearchHit{SearchHit::What::kLasso, -1, prefix, {}});
    if (state.finished || !state.decision) continue;
    const std::optional<ExactCycle> exact = exact_cycle(ctx, loop, state, cycle);
    if (!exact) continue;
    std::vector<std::size_t> lead_in = prefix;
    lead_in.insert(lead_in.end(), exact->lead_in.begin(), exact->lead_in.end());
    return lasso_game(ctx, ctx.config, 0, lead_in, exact->cycle, " (found by the exhaustive search)");
  }
  return std::nullopt;
}

std::optional<std::pair<std::string, Counterexample>> looped_game(const Context& ctx) {
  auto in_loop = [](const ri::Fault& fault) { return fault.kind == ir::FaultKind::kEndlessLoop; };
  auto violation = [&](const ri::Fault& fault) { return fmt::format("rule fault at {}: {}", ctx.where(fault.span), fault.message); };
  for (const ri::GameResult& g : ctx.sampling.games) {
    if (g.fault && in_loop(*g.fault)) return std::make_pair(g.fault->message, ctx.game_trace(g, -1, violation(*g.fault)));
  }
  for (const SearchHit& hit : ctx.search.hits) {
    if (hit.what != SearchHit::What::kFault) continue;
    const ri::State end = ctx.search_state(hit);
    if (end.fault && in_loop(*end.fault)) return std::make_pair(end.fault->message, ctx.search_trace(hit, violation(*end.fault)));
  }
  return std::nullopt;
}

}  // namespace rulebook::verifier
