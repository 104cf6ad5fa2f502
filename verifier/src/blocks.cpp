#include "blocks.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "liveness.hpp"

namespace rulebook::verifier {

namespace {

// Paths from each instruction to the next cut point (or the end); a cut point counts its own
// block's paths. Control between cut points has no cycle (every cycle passes a loop head).
// Depth-first with an explicit stack: a stretch of 100,000 instructions without a cut point
// (a long run of `if`s or of labelled rules) would overflow the call stack if this recursed.
std::vector<std::int64_t> path_counts(const std::vector<std::vector<std::int32_t>>& succ, const std::vector<bool>& cuts) {
  const std::size_t n = succ.size();
  constexpr std::int64_t kUnseen = -1, kOnStack = -2;
  std::vector<std::int64_t> memo(n, kUnseen);
  struct Frame {
    std::int32_t pc;
    std::size_t next_successor;
    std::int64_t total;
  };
  std::vector<Frame> stack;
  for (std::size_t root = 0; root < n; ++root) {
    if (memo[root] != kUnseen) continue;
    memo[root] = kOnStack;
    stack.push_back(Frame{static_cast<std::int32_t>(root), 0, 0});
    while (!stack.empty()) {
      Frame& top = stack.back();
      const auto& out = succ[static_cast<std::size_t>(top.pc)];
      if (top.next_successor < out.size()) {
        const std::int32_t s = out[top.next_successor++];
        const auto i = static_cast<std::size_t>(s);
        // A successor still on the stack would be a cycle without a cut point, which the
        // cut points rule out; it counts as one path rather than looping.
        if (cuts[i] || memo[i] == kOnStack) {
          top.total = std::min<std::int64_t>(top.total + 1, std::int64_t{1} << 40);
        } else if (memo[i] >= 0) {
          top.total = std::min<std::int64_t>(top.total + memo[i], std::int64_t{1} << 40);
        } else {
          memo[i] = kOnStack;
          stack.push_back(Frame{s, 0, 0});  // `top` is not used again before it is back on top
        }
        continue;
      }
      const std::int64_t paths = std::max<std::int64_t>(top.total, 1);
      memo[static_cast<std::size_t>(top.pc)] = paths;
      stack.pop_back();
      if (!stack.empty()) stack.back().total = std::min<std::int64_t>(stack.back().total + paths, std::int64_t{1} << 40);
    }
  }
  return memo;
}

}  // namespace

std::vector<bool> cut_points(const ir::Ir& ir, std::int64_t max_paths) {
  const std::size_t n = ir.code.size();
  std::vector<bool> cuts(n, false);
  if (n == 0) return cuts;
  cuts[0] = true;
  for (std::size_t pc = 0; pc < n; ++pc) {
    const ir::Instr& in = ir.code[pc];
    if (in.code == ir::OpCode::kChoose || in.code == ir::OpCode::kChooseMixed) cuts[pc] = true;
    if (in.code == ir::OpCode::kJump && in.target <= static_cast<std::int32_t>(pc)) cuts[static_cast<std::size_t>(in.target)] = true;
    if (in.code == ir::OpCode::kRoundStart) cuts[pc] = true;
  }
  const auto succ = static_successors(ir);
  std::vector<std::int32_t> preds(n, 0);
  for (const auto& list : succ) {
    for (const std::int32_t s : list) ++preds[static_cast<std::size_t>(s)];
  }
  // Too many paths in a block: cut at the join point (two or more ways in) with the most
  // paths onwards that stays within the limit, one at a time.
  for (;;) {
    const std::vector<std::int64_t> paths = path_counts(succ, cuts);
    std::int32_t worst = -1;
    for (std::size_t pc = 0; pc < n; ++pc) {
      if (cuts[pc] && paths[pc] > max_paths) worst = static_cast<std::int32_t>(pc);
    }
    if (worst < 0) break;
    // The join points this block reaches.
    std::vector<bool> seen(n, false);
    std::vector<std::int32_t> stack{worst};
    std::int32_t best = -1;
    while (!stack.empty()) {
      const std::int32_t pc = stack.back();
      stack.pop_back();
      for (const std::int32_t s : succ[static_cast<std::size_t>(pc)]) {
        const auto i = static_cast<std::size_t>(s);
        if (cuts[i] || seen[i]) continue;
        seen[i] = true;
        stack.push_back(s);
        if (preds[i] >= 2 && (best < 0 || paths[i] > paths[static_cast<std::size_t>(best)])) best = s;
      }
    }
    if (best < 0) {
      // No join point: cut where the block first branches.
      std::int32_t pc = worst;
      while (succ[static_cast<std::size_t>(pc)].size() == 1 && !cuts[static_cast<std::size_t>(succ[static_cast<std::size_t>(pc)][0])]) {
        pc = succ[static_cast<std::size_t>(pc)][0];
      }
      bool added = false;
      for (const std::int32_t s : succ[static_cast<std::size_t>(pc)]) {
        added = added || !cuts[static_cast<std::size_t>(s)];
        cuts[static_cast<std::size_t>(s)] = true;
      }
      if (!added) break;  // cannot happen: a block without branches has one path
      continue;
    }
    cuts[static_cast<std::size_t>(best)] = true;
  }
  return cuts;
}

Block fuse_block(Encoder& encoder, std::int32_t cut, const std::vector<bool>& cuts, const std::vector<z3::expr>& state,
                 const std::string& prefix) {
  z3::context& ctx = encoder.context();
  Block block;
  block.written.assign(state.size(), false);
  struct Pending {
    std::int32_t pc;
    z3::expr reached;
    std::vector<z3::expr> state;
    std::vector<std::int32_t> path;
  };
  std::vector<Pending> work{Pending{cut, ctx.bool_val(true), state, {}}};
  while (!work.empty()) {
    Pending at = std::move(work.back());
    work.pop_back();
    const auto node = static_cast<std::int32_t>(block.nodes.size());
    block.nodes.push_back(BlockNode{at.pc, at.reached, at.state});
    at.path.push_back(at.pc);
    Step step = encoder.step(at.pc, at.state, fmt::format("{}n{}", prefix, node));
    // An instruction's facts about its fresh values hold where it runs: asserted for the
    // whole block they would constrain the paths that never run it (and a path that leaves
    // a count negative would make every transition from the state unsatisfiable).
    for (const z3::expr& a : step.assumptions) block.assumptions.push_back(z3::implies(at.reached, a));
    for (Obligation& ob : step.obligations) {
      ob.holds = z3::implies(at.reached, ob.holds);
      block.obligations.push_back(std::move(ob));
    }
    for (std::size_t i = 0; i < step.written.size(); ++i) block.written[i] = block.written[i] || step.written[i];
    z3::expr_vector on(ctx);
    on.push_back(at.reached);
    for (const z3::expr& c : step.continues) on.push_back(c);
    const z3::expr goes_on = z3::mk_and(on);
    if (step.successors.empty()) {
      block.exits.push_back(BlockExit{goes_on, -1, step.next, at.path, {}});
      continue;
    }
    for (const Successor& s : step.successors) {
      const z3::expr guard = (goes_on && s.guard).simplify();
      if (guard.is_false()) continue;
      if (cuts[static_cast<std::size_t>(s.pc)]) {
        block.exits.push_back(BlockExit{guard, s.pc, step.next, at.path, {}});
      } else {
        work.push_back(Pending{s.pc, guard, step.next, at.path});
      }
    }
  }
  // Each query of the invariant search would simplify these terms again (constant zone
  // indices folded, ite chains over constants cut): once here is enough.
  // A value read through a player is a term over the others: it is kept when its terms are.
  std::vector<z3::expr> start;
  for (const z3::expr& v : state) start.push_back(v.simplify());
  for (BlockExit& exit : block.exits) {
    exit.kept.assign(state.size(), false);
    for (std::size_t d = 0; d < state.size(); ++d) {
      exit.next[d] = exit.next[d].simplify();
      exit.kept[d] = z3::eq(exit.next[d], start[d]);
    }
  }
  for (z3::expr& a : block.assumptions) a = a.simplify();
  return block;
}

}  // namespace rulebook::verifier
