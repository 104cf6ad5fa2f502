// Conservation, playability and definedness: every take, choice and partial operation of
// the program must hold under the inductive invariant of its position (and no instruction
// may change the number of cards of a class); a concrete fault from a sampled or searched
// game refutes the property it breaks.
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "context.hpp"

namespace rulebook::verifier {

namespace {

// The property a concrete fault breaks, by its kind (fault_kinds.hpp); nothing for a kind
// that no obligation covers (the termination check takes endless loops).
std::optional<ObligationKind> fault_obligation(const ri::Fault& fault) {
  const std::string_view property = ir::fault_kind_info(fault.kind).property;
  if (property == "conservation" || property == "playability" || property == "well-defined") {
    return obligation_kind(fault.kind);
  }
  return std::nullopt;
}

const char* kind_property(ObligationKind kind) {
  switch (kind) {
    case ObligationKind::kTakeFromEmpty: return "conservation";
    case ObligationKind::kLegalChoice: return "playability";
    case ObligationKind::kDefined: return "well-defined";
  }
  return "well-defined";
}

}  // namespace

std::string unproved_obligations_message(bool take, std::int64_t proved, std::int64_t checked, std::int64_t steps_open,
                                         std::int64_t steps) {
  // The steps not shown to keep the cards are counted apart from the take conditions:
  // "0 of 0 conditions proved; not proved: 2898" (the sixth probe) counted one as the other.
  std::string message = fmt::format("{} of {} {}conditions proved", proved, checked, take ? "take " : "");
  if (take && steps_open > 0) {
    message += fmt::format("; {} of {} steps not shown to keep the number of cards of each class", steps_open, steps);
  }
  return message;
}

// Conservation, playability and definedness: every obligation under the invariant of its
// position, and a concrete fault from the simulated games as a counterexample.
void check_obligations(Context& ctx, const std::set<std::string>& wanted, std::vector<Finding>& out) {
  const auto started = std::chrono::steady_clock::now();
  // An instruction's condition is checked once per path of a block that runs it: it is
  // proved when it holds on all of them.
  std::map<std::pair<ObligationKind, std::string>, z3::check_result> conditions;
  std::map<ObligationKind, PropertyClock> clocks;  // conservation is part of take-from-empty
  for (const ObligationKind kind : {ObligationKind::kTakeFromEmpty, ObligationKind::kLegalChoice, ObligationKind::kDefined}) {
    clocks[kind] = ctx.new_clock();
  }
  std::vector<bool> runs(ctx.ir.code.size(), false);
  for (std::size_t i = 0; i < ctx.ir.code.size(); ++i) {
    const auto pc = static_cast<std::int32_t>(i);
    if (!ctx.invariants.is_cut(pc) || !ctx.invariants.at(pc).reached()) continue;
    const Block& block = ctx.invariants.block(pc);
    for (const BlockNode& node : block.nodes) runs[static_cast<std::size_t>(node.pc)] = true;
    const z3::expr inv = ctx.invariants.formula(pc, ctx.invariants.state());
    for (const Obligation& ob : block.obligations) {
      if (wanted.count(kind_property(ob.kind)) == 0) continue;
      auto [it, fresh] = conditions.try_emplace({ob.kind, fmt::format("{}: {}", ctx.where(ob.span), ob.what)}, z3::unsat);
      if (it->second != z3::unsat || ob.holds.simplify().is_true()) continue;
      std::vector<z3::expr> facts{inv, !ob.holds};
      facts.insert(facts.end(), block.assumptions.begin(), block.assumptions.end());
      it->second = ctx.check(facts, clocks[ob.kind]);
    }
  }
  std::map<ObligationKind, std::vector<std::string>> open;
  std::map<ObligationKind, std::int64_t> proved;
  for (const auto& [key, result] : conditions) {
    if (result == z3::unsat) {
      ++proved[key.first];
    } else {
      open[key.first].push_back(key.second + (result == z3::unknown ? " (Z3 gave up: timeout)" : " (not implied by the invariant)"));
    }
  }
  // Every card an instruction moves stays a card: the count of each class over all zones
  // (one instruction at a time, for every instruction some block runs). By induction over
  // the steps of a game, each class has all its cards before the step (every card starts
  // in the box), which `move all_cards` and the like need.
  std::vector<std::string> conservation_open;
  std::int64_t conservation_steps = 0;
  if (wanted.count("conservation") != 0) {
    const auto& x = ctx.invariants.state();
    for (std::size_t i = 0; i < ctx.ir.code.size(); ++i) {
      if (!runs[i]) continue;
      ++conservation_steps;
      const Step step = ctx.encoder.step(static_cast<std::int32_t>(i), x, fmt::format("c{}", i));
      z3::expr_vector changed(ctx.z3);
      std::vector<z3::expr> facts;
      for (std::int32_t k = 0; k < ctx.layout.classes; ++k) {
        z3::expr before = ctx.z3.int_val(0), after = ctx.z3.int_val(0);
        for (std::int32_t z = 0; z < ctx.layout.instances; ++z) {
          const auto index = static_cast<std::size_t>(ctx.layout.count_index(z, k));
          before = before + x[index];
          after = after + step.next[index];
        }
        changed.push_back(before != after);
        facts.push_back(before == ctx.z3.int_val(static_cast<int64_t>(ctx.classes.size[static_cast<std::size_t>(k)])));
      }
      facts.push_back(z3::mk_or(changed));
      facts.insert(facts.end(), step.assumptions.begin(), step.assumptions.end());
      facts.insert(facts.end(), step.continues.begin(), step.continues.end());
      if (ctx.check(facts, clocks[ObligationKind::kTakeFromEmpty]) != z3::unsat) {
        conservation_open.push_back(fmt::format("{}: the number of cards may change here", ctx.where(ctx.ir.instr_spans[i])));
      }
    }
  }
  // Concrete faults: the first game with a fault of each kind, sampled or found by the
  // exhaustive search (shortest first).
  std::map<ObligationKind, const ri::GameResult*> faulted;
  for (const ri::GameResult& g : ctx.sampling.games) {
    if (!g.fault) continue;
    const auto kind = fault_obligation(*g.fault);
    if (kind && faulted.count(*kind) == 0) faulted[*kind] = &g;
  }
  std::map<ObligationKind, std::pair<const SearchHit*, ri::Fault>> searched;
  for (const SearchHit& hit : ctx.search.hits) {
    if (hit.what != SearchHit::What::kFault) continue;
    const ri::State end = ctx.search_state(hit);
    if (!end.fault) continue;
    const auto kind = fault_obligation(*end.fault);
    if (kind && faulted.count(*kind) == 0 && searched.count(*kind) == 0) searched.emplace(*kind, std::make_pair(&hit, *end.fault));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  for (const ObligationKind kind : {ObligationKind::kTakeFromEmpty, ObligationKind::kLegalChoice, ObligationKind::kDefined}) {
    const std::string name = kind_property(kind);
    if (wanted.count(name) == 0) continue;
    Finding f;
    f.property = name;
    f.seconds = seconds;
    const std::int64_t checked = proved[kind] + static_cast<std::int64_t>(open[kind].size());
    if (faulted.count(kind) != 0) {
      const ri::GameResult& g = *faulted[kind];
      f.status = Status::kRefuted;
      f.method = "a simulated game that ends in a rule fault";
      f.span = g.fault->span;
      f.where = ctx.where(g.fault->span);
      f.message = fmt::format("{}: {}", f.where, g.fault->message);
      f.counterexample = ctx.game_trace(g, -1, fmt::format("rule fault at {}: {}", f.where, g.fault->message));
    } else if (searched.count(kind) != 0) {
      const auto& [hit, fault] = searched.at(kind);
      f.status = Status::kRefuted;
      f.method = "a game found by the exhaustive search over decisions (the shortest)";
      f.span = fault.span;
      f.where = ctx.where(fault.span);
      f.message = fmt::format("{}: {}", f.where, fault.message);
      f.counterexample = ctx.search_trace(*hit, fmt::format("rule fault at {}: {}", f.where, fault.message));
    } else if (open[kind].empty() && (kind != ObligationKind::kTakeFromEmpty || conservation_open.empty())) {
      f.status = Status::kProved;
      f.method = kInductive;
      f.message = kind == ObligationKind::kTakeFromEmpty
                      ? fmt::format("every effect moves cards (counts per card class are kept) and all {} take "
                                    "conditions hold in every reachable state", checked)
                      : fmt::format("all {} conditions hold in every reachable state", checked);
    } else {
      f.status = Status::kUnknown;
      f.method = kInductive;
      std::vector<std::string> list = open[kind];
      if (kind == ObligationKind::kTakeFromEmpty) list.insert(list.end(), conservation_open.begin(), conservation_open.end());
      f.message = unproved_obligations_message(kind == ObligationKind::kTakeFromEmpty, proved[kind], checked,
                                               static_cast<std::int64_t>(conservation_open.size()), conservation_steps);
      f.details = std::move(list);
      f.details.push_back("no simulated game broke them; the abstraction (card counts per class, no facing or "
                          "order) may be too coarse, or the rules may fail in a game not yet found");
      ctx.note_time(f, clocks[kind]);
    }
    out.push_back(std::move(f));
  }
}

}  // namespace rulebook::verifier
