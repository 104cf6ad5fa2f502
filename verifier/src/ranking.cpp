// Ranking functions for the loops of the program: the checks that a measure is
// non-negative, never increased and decreased on every way round a loop (under the inductive
// invariants), and the candidate measures (a built-in loop's iterations left, a declared
// measure, the bounds of the variables a loop writes).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "termination.hpp"

namespace rulebook::verifier {

bool Termination::ranks(const Loop& loop, const Measure& m, std::string& why) {
  Invariants& inv = ctx_.invariants;
  const auto& x = inv.state();
  if (loop.game) {
    Step scratch;
    const z3::expr v = m(x, fmt::format("m{}a", loop.head), scratch);
    std::vector<z3::expr> facts{inv.formula(loop.head, x), v < 0};
    facts.insert(facts.end(), scratch.assumptions.begin(), scratch.assumptions.end());
    if (ctx_.check(facts) != z3::unsat) {
      why = "it can be negative when a round starts";
      return false;
    }
  }
  // Blocks that keep the measure (edges of the loop's graph of cut points without a decrease).
  std::vector<std::vector<std::int32_t>> level(ctx_.ir.code.size());
  std::string decreased_at;
  for (std::int32_t pc = loop.head; pc <= loop.back; ++pc) {
    if (!inv.is_cut(pc) || !inv.at(pc).reached()) continue;
    const Block& block = inv.block(pc);
    std::size_t way = 0;
    for (const BlockExit& exit : block.exits) {
      // Paths that leave the loop (its head's exit, the end of the game) are not iterations.
      if (exit.pc < 0) continue;
      const std::int32_t first = exit.path.size() >= 2 ? exit.path[1] : exit.pc;
      if (!inside(loop, first) || !inside(loop, exit.pc)) continue;
      Step scratch;
      const std::string tag = fmt::format("m{}_{}_{}", loop.head, pc, way++);
      const z3::expr before = m(x, tag + "b", scratch);
      const z3::expr after = m(exit.next, tag + "c", scratch);
      std::vector<z3::expr> base{inv.formula(pc, x), exit.guard};
      base.insert(base.end(), block.assumptions.begin(), block.assumptions.end());
      base.insert(base.end(), scratch.assumptions.begin(), scratch.assumptions.end());
      if (pc == loop.head && !loop.game) {
        std::vector<z3::expr> negative = base;
        negative.push_back(before < 0);
        if (ctx_.check(negative) != z3::unsat) {
          why = "it can be negative at the loop head";
          return false;
        }
      }
      std::vector<z3::expr> up = base;
      up.push_back(after > before);
      if (ctx_.check(up) != z3::unsat) {
        why = fmt::format("it can increase on a path from {}", ctx_.where(ctx_.ir.instr_spans[static_cast<std::size_t>(pc)]));
        return false;
      }
      std::vector<z3::expr> same = base;
      same.push_back(after >= before);
      if (ctx_.check(same) != z3::unsat) {
        level[static_cast<std::size_t>(pc)].push_back(exit.pc);
      } else if (decreased_at.empty()) {
        decreased_at = ctx_.where(ctx_.ir.instr_spans[static_cast<std::size_t>(pc)]);
      }
    }
  }
  // (c): the head must not reach itself through blocks that keep the measure.
  std::vector<bool> seen(ctx_.ir.code.size(), false);
  std::vector<std::int32_t> stack(level[static_cast<std::size_t>(loop.head)]);
  while (!stack.empty()) {
    const std::int32_t pc = stack.back();
    stack.pop_back();
    if (pc == loop.head) {
      why = "some way round the loop does not decrease it";
      return false;
    }
    if (seen[static_cast<std::size_t>(pc)]) continue;
    seen[static_cast<std::size_t>(pc)] = true;
    for (const std::int32_t next : level[static_cast<std::size_t>(pc)]) stack.push_back(next);
  }
  why = decreased_at.empty() ? "no way round the loop is feasible" : "decreases on the paths from " + decreased_at;
  return true;
}

std::optional<std::pair<Measure, std::string>> Termination::builtin_measure(const Loop& loop) const {
  const ir::Instr& head = ctx_.ir.code[static_cast<std::size_t>(loop.head)];
  const Layout& layout = ctx_.layout;
  if (head.code == ir::OpCode::kRepeatNext) {
    const std::int32_t index = layout.local_index[static_cast<std::size_t>(head.a)];
    if (index < 0) return std::nullopt;
    return std::make_pair(Measure([index](const std::vector<z3::expr>& s, const std::string&, Step&) {
                            return s[static_cast<std::size_t>(index)];
                          }),
                          std::string("the repetitions left"));
  }
  if (head.code == ir::OpCode::kForNext) {
    const auto slot = static_cast<std::size_t>(head.a);
    const std::int32_t index = layout.local_index[slot];
    if (index < 0) return std::nullopt;
    const std::int32_t width = layout.local_shape[slot] == SlotShape::kPlayerList ? layout.seats : 1;
    return std::make_pair(Measure([index, width](const std::vector<z3::expr>& s, const std::string&, Step&) {
                            z3::expr sum = s[static_cast<std::size_t>(index)];
                            for (std::int32_t i = 1; i < width; ++i) sum = sum + s[static_cast<std::size_t>(index + i)];
                            return sum;
                          }),
                          std::string("the elements left to visit"));
  }
  return std::nullopt;
}

Measure Termination::expression_measure(ir::ExprId id) const {
  Encoder& enc = ctx_.encoder;
  return [&enc, id](const std::vector<z3::expr>& s, const std::string& prefix, Step& step) {
    z3::expr v = enc.value(id, s, prefix, step);
    if (v.is_bool()) v = z3::ite(v, enc.context().int_val(1), enc.context().int_val(0));
    return v;
  };
}

std::vector<std::pair<Measure, std::string>> Termination::templates(const Loop& loop) {
  std::vector<bool> written(static_cast<std::size_t>(ctx_.layout.size()), false);
  for (std::int32_t pc = loop.head; pc <= loop.back; ++pc) {
    if (!ctx_.invariants.is_cut(pc) || !ctx_.invariants.at(pc).reached()) continue;
    const Block& block = ctx_.invariants.block(pc);
    for (std::size_t i = 0; i < written.size(); ++i) written[i] = written[i] || block.written[i];
  }
  std::vector<std::pair<Measure, std::string>> out;
  const PositionInvariant& head = ctx_.invariants.at(loop.head);
  if (!head.reached()) return out;
  for (std::size_t i = 0; i < written.size(); ++i) {
    // Scalar variables only (counts and loop state have their own measures).
    if (!written[i] || ctx_.layout.names[i].starts_with("local ") || ctx_.layout.names[i].starts_with("count(") ||
        static_cast<std::int32_t>(i) >= ctx_.layout.base_size) {
      continue;
    }
    z3::context& z = ctx_.z3;
    if (const auto lowest = head.lowest(i)) {
      const std::int64_t low = *lowest;
      out.emplace_back([i, low, &z](const std::vector<z3::expr>& s, const std::string&, Step&) {
        return s[i] - z.int_val(static_cast<int64_t>(low));
      }, fmt::format("{} - {}", ctx_.layout.names[i], low));
    }
    if (const auto highest = head.highest(i)) {
      const std::int64_t high = *highest;
      out.emplace_back([i, high, &z](const std::vector<z3::expr>& s, const std::string&, Step&) {
        return z.int_val(static_cast<int64_t>(high)) - s[i];
      }, fmt::format("{} - {}", high, ctx_.layout.names[i]));
    }
  }
  return out;
}

}  // namespace rulebook::verifier
