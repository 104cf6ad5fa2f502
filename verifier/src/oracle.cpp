#include "oracle.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "blocks.hpp"
#include "invariants.hpp"
#include "sampler.hpp"
#include "solver.hpp"
#include "stop_sinks.hpp"
#include "rulebook/interpreter/agent.hpp"
#include "rulebook/interpreter/simulate.hpp"

namespace rulebook::verifier {

namespace {

// What the interpreter did from a cut point: reached the next cut point, ended the game,
// or stopped with a rule fault.
struct Outcome {
  enum class What : std::uint8_t { kCut, kEnd, kFault } what = What::kEnd;
  ri::State after;
  std::string step;  // how it got there, for messages (the option taken at a decision)
};

// Keeps the first states seen at each cut point (copies, with no decision pending).
class StateSink : public ri::EventSink {
 public:
  StateSink(const std::vector<bool>& cuts, std::int32_t per_cut, std::mt19937_64& rng)
      : cuts_(cuts), per_cut_(per_cut), rng_(rng), kept_(cuts.size()), seen_(cuts.size(), 0) {}
  [[nodiscard]] bool observes_steps() const override { return true; }
  void stepping(const ri::State& state) override {
    const auto pc = static_cast<std::size_t>(state.pc);
    if (!cuts_[pc]) return;
    // Reservoir sampling: every visit of the cut point equally likely to be kept.
    const std::uint64_t n = ++seen_[pc];
    if (kept_[pc].size() < static_cast<std::size_t>(per_cut_)) {
      kept_[pc].push_back(state);
    } else if (const std::uint64_t j = rng_() % n; j < static_cast<std::uint64_t>(per_cut_)) {
      kept_[pc][static_cast<std::size_t>(j)] = state;
    }
  }
  std::vector<std::vector<ri::State>>& kept() { return kept_; }

 private:
  const std::vector<bool>& cuts_;
  std::int32_t per_cut_;
  std::mt19937_64& rng_;
  std::vector<std::vector<ri::State>> kept_;
  std::vector<std::uint64_t> seen_;
};

// A state no game need reach: some cards moved between zones, some variables set to other
// values of their type. It stays a state the interpreter can run (every card in one zone,
// the seats a permutation, loop state untouched).
ri::State mutate(const ir::Ir& ir, const ri::State& from, std::mt19937_64& rng) {
  ri::State s = from;
  auto below = [&](std::uint64_t n) { return n == 0 ? 0 : static_cast<std::int64_t>(rng() % n); };
  const auto cards = s.card_zone.size();
  const std::int64_t moves = 1 + below(std::max<std::uint64_t>(1, cards / 4));
  for (std::int64_t m = 0; m < moves && cards > 0; ++m) {
    const auto card = static_cast<std::size_t>(below(cards));
    const auto target = static_cast<std::size_t>(below(s.zones.size()));
    auto& source = s.zones[static_cast<std::size_t>(s.card_zone[card])];
    source.erase(std::find(source.begin(), source.end(), static_cast<ri::CardId>(card)));
    auto& dest = s.zones[target];
    dest.insert(dest.begin() + below(dest.size() + 1), static_cast<ri::CardId>(card));
    s.card_zone[card] = static_cast<std::int32_t>(target);
    s.card_face_up[card] = static_cast<std::uint8_t>(below(2));
  }
  for (ir::Value& v : s.vars) {
    if (below(3) != 0) continue;
    switch (v.kind) {
      case ir::Kind::kInt:
        // Near the 64-bit limits a change could overflow here rather than in the rules.
        if (v.scalar > -(std::int64_t{1} << 60) && v.scalar < (std::int64_t{1} << 60)) v.scalar = v.scalar - 4 + below(9);
        break;
      case ir::Kind::kBool: v.scalar = 1 - v.scalar; break;
      case ir::Kind::kPlayer: v.scalar = below(static_cast<std::uint64_t>(s.num_seats)); break;
      case ir::Kind::kEnum:
        if (v.enum_id >= 0) v.scalar = below(ir.enums[static_cast<std::size_t>(v.enum_id)].values.size());
        break;
      default: break;
    }
  }
  return s;
}

class Oracle {
 public:
  Oracle(const ri::Machine& machine, const ri::GameConfig& config, const OracleOptions& options)
      : machine_(machine), ir_(machine.ir()), config_(config), options_(options), rng_(options.seed) {}

  // The same abstraction verify() builds.
  void build() {
    const ri::State initial = machine_.start(config_);
    setting_ = Setting{initial.num_players, initial.num_seats, initial.options, *initial.cards};
    kinds_ = slot_kinds(ir_);
    classes_ = card_classes(ir_, setting_);
    layout_ = make_layout(ir_, setting_, classes_, kinds_);
    encoder_.emplace(z3_, ir_, setting_, classes_, layout_, kinds_);  // keeps references to all of them
    invariants_.emplace(*encoder_, layout_, cut_points(ir_));
  }

  std::vector<ir::FaultKind> kinds() {
    build();
    std::vector<ir::FaultKind> out;
    for (std::size_t pc = 0; pc < ir_.code.size(); ++pc) {
      if (!invariants_->is_cut(static_cast<std::int32_t>(pc))) continue;
      for (const Obligation& ob : invariants_->block(static_cast<std::int32_t>(pc)).obligations) {
        if (std::find(out.begin(), out.end(), ob.fault) == out.end()) out.push_back(ob.fault);
      }
    }
    return out;
  }

  OracleReport run() {
    build();

    StateSink sink(invariants_->cuts(), options_.per_cut, rng_);
    for (std::int64_t g = 0; g < options_.games; ++g) {
      ri::GameConfig game = config_;
      game.seed = ri::game_seed(options_.seed, static_cast<std::uint64_t>(g));
      (void)ri::play_random_game(machine_, game, options_.max_moves, &sink);
    }
    for (std::size_t pc = 0; pc < ir_.code.size(); ++pc) {
      std::vector<ri::State>& kept = sink.kept()[pc];
      if (kept.empty()) continue;
      const std::size_t sampled = kept.size();
      for (std::int32_t m = 0; m < options_.mutations; ++m) {
        kept.push_back(mutate(ir_, kept[static_cast<std::size_t>(m) % sampled], rng_));
      }
      for (std::size_t i = 0; i < kept.size(); ++i) check_from(static_cast<std::int32_t>(pc), kept[i], i >= sampled);
    }
    return std::move(report_);
  }

 private:
  // Declared invariants and the measures of `terminates` claims, read by the verifier in
  // the abstract state: the value the interpreter gives them in `start` must be one the
  // encoding allows.
  void check_expressions(std::int32_t pc, const ri::State& start, bool mutated) {
    std::vector<std::pair<ir::ExprId, std::string>> exprs;
    for (const ir::InvariantInfo& inv : ir_.invariants) exprs.emplace_back(inv.condition, "invariant " + inv.name);
    for (const ir::TerminationClaim& claim : ir_.terminations) {
      if (claim.measure >= 0) exprs.emplace_back(claim.measure, "the measure of terminates " + claim.name);
    }
    if (exprs.empty()) return;
    const std::vector<z3::expr>& x = invariants_->state();
    const std::vector<std::int64_t> before = project(ir_, layout_, classes_, start);
    for (const auto& [id, name] : exprs) {
      const std::optional<ir::Value> concrete = machine_.evaluate(start, id);
      if (!concrete || (concrete->kind != ir::Kind::kInt && concrete->kind != ir::Kind::kBool)) continue;
      ++report_.steps;
      Step scratch;
      const z3::expr v = encoder_->value(id, x, fmt::format("o{}_{}", pc, report_.steps), scratch);
      z3::solver solver = make_solver(z3_);
      for (std::int32_t d = 0; d < layout_.base_size; ++d) {
        solver.add(x[static_cast<std::size_t>(d)] == z3_.int_val(static_cast<int64_t>(before[static_cast<std::size_t>(d)])));
      }
      for (const z3::expr& a : scratch.assumptions) solver.add(a);
      solver.add(v.is_bool() ? v == z3_.bool_val(concrete->scalar != 0) : v == z3_.int_val(static_cast<int64_t>(concrete->scalar)));
      const z3::check_result r = check_within(solver, options_.timeout_ms);
      if (r == z3::sat) continue;
      const std::string text = fmt::format("{}{}: at {} the interpreter gives {} the value {}, which the encoding does not allow",
                                           mutated ? "mutated state " : "", ir_.title, where(pc), name, concrete->scalar);
      (r == z3::unknown ? report_.undecided : report_.failures).push_back(text);
    }
  }

  // Runs the interpreter from `start` (at cut point pc, before its instruction) to the end of
  // the block, for several options where the block starts with a decision.
  void check_from(std::int32_t pc, const ri::State& start, bool mutated) {
    check_expressions(pc, start, mutated);
    const ir::Instr& at = ir_.code[static_cast<std::size_t>(pc)];
    if (at.code == ir::OpCode::kChoose && at.c < 0) {
      check_draws(pc, start, mutated);
      return;
    }
    CutSink sink(invariants_->cuts());
    ri::State s = start;
    s.decision = ri::Decision{};  // refresh() runs from pc: the instruction is run again
    sink.restart(1);              // the start is a cut point itself
    if (machine_.refresh(s, &sink) == ri::SinkVerdict::kStop) {
      check(pc, start, Outcome{Outcome::What::kCut, std::move(s), ""}, mutated);
      return;
    }
    if (!s.decision) {
      check(pc, start, Outcome{s.fault ? Outcome::What::kFault : Outcome::What::kEnd, s, ""}, mutated);
      return;
    }
    // A decision at the start: take some of its options.
    const std::size_t n = s.decision->options.size();
    std::vector<std::size_t> picks(n);
    for (std::size_t i = 0; i < n; ++i) picks[i] = i;
    std::shuffle(picks.begin(), picks.end(), rng_);
    if (picks.size() > static_cast<std::size_t>(options_.choices)) picks.resize(static_cast<std::size_t>(options_.choices));
    for (const std::size_t index : picks) {
      ri::State t = s;
      const std::string step = fmt::format("option {} ({})", index, machine_.value_text(t, t.decision->options[index]));
      sink.restart(0);
      if (machine_.apply(t, index, &sink) == ri::SinkVerdict::kStop) {
        check(pc, start, Outcome{Outcome::What::kCut, std::move(t), step}, mutated);
        continue;
      }
      check(pc, start, Outcome{t.fault ? Outcome::What::kFault : Outcome::What::kEnd, std::move(t), step}, mutated);
    }
  }

  // A random choice at the start: its first option, then some others, each drawn by force.
  void check_draws(std::int32_t pc, const ri::State& start, bool mutated) {
    CutSink sink(invariants_->cuts());
    auto run = [&](std::size_t index) {
      ri::State s = start;
      s.decision = ri::Decision{};
      sink.restart(1);
      sink.force_draw(index);
      const bool cut = machine_.refresh(s, &sink) == ri::SinkVerdict::kStop;
      const std::string step = fmt::format("draw {}", index);
      check(pc, start, Outcome{cut ? Outcome::What::kCut : s.fault ? Outcome::What::kFault : Outcome::What::kEnd, std::move(s), step},
            mutated);
    };
    run(0);
    const std::size_t n = sink.drawn_among();
    std::vector<std::size_t> picks;
    for (std::size_t i = 1; i < n; ++i) picks.push_back(i);
    std::shuffle(picks.begin(), picks.end(), rng_);
    if (picks.size() + 1 > static_cast<std::size_t>(options_.choices)) {
      picks.resize(options_.choices > 1 ? static_cast<std::size_t>(options_.choices) - 1 : 0);
    }
    for (const std::size_t index : picks) run(index);
  }

  void check(std::int32_t pc, const ri::State& start, const Outcome& out, bool mutated) {
    ++report_.steps;
    if (mutated) ++report_.mutated;
    const Block& block = invariants_->block(pc);
    const std::vector<z3::expr>& x = invariants_->state();
    const std::vector<std::int64_t> before = project(ir_, layout_, classes_, start);
    z3::solver solver = make_solver(z3_);
    for (std::int32_t d = 0; d < layout_.base_size; ++d) {
      solver.add(x[static_cast<std::size_t>(d)] == z3_.int_val(static_cast<int64_t>(before[static_cast<std::size_t>(d)])));
    }
    for (const z3::expr& a : block.assumptions) solver.add(a);
    z3::expr_vector allowed(z3_);
    std::string what;
    std::vector<std::int64_t> after;
    switch (out.what) {
      case Outcome::What::kCut: {
        after = project(ir_, layout_, classes_, out.after);
        const std::vector<bool>& dead = layout_.dead[static_cast<std::size_t>(out.after.pc)];
        for (const BlockExit& exit : block.exits) {
          if (exit.pc != out.after.pc) continue;
          z3::expr_vector same(z3_);
          same.push_back(exit.guard);
          for (std::size_t d = 0; d < after.size(); ++d) {
            if (dead[d]) continue;
            same.push_back(exit.next[d] == z3_.int_val(static_cast<int64_t>(after[d])));
          }
          allowed.push_back(z3::mk_and(same));
        }
        what = fmt::format("reaches {}", where(out.after.pc));
        break;
      }
      case Outcome::What::kEnd:
        for (const BlockExit& exit : block.exits) {
          if (exit.pc < 0) allowed.push_back(exit.guard);
        }
        what = "ends the game";
        break;
      case Outcome::What::kFault: {
        ++report_.faults;
        const ir::FaultKind kind = out.after.fault->kind;
        for (const Obligation& ob : block.obligations) {
          if (ob.fault == kind) allowed.push_back(!ob.holds);
        }
        what = fmt::format("faults ({}: {})", ir::fault_kind_info(kind).name, out.after.fault->message);
        break;
      }
    }
    solver.add(allowed.empty() ? z3_.bool_val(false) : z3::mk_or(allowed));
    const z3::check_result r = check_within(solver, options_.timeout_ms);
    if (r == z3::sat) return;
    std::string text = fmt::format("{}{}: from {}{} the interpreter {}", mutated ? "mutated state " : "", ir_.title,
                                   where(pc), out.step.empty() ? "" : " taking " + out.step, what);
    if (r == z3::unknown) {
      report_.undecided.push_back(text);
      return;
    }
    std::vector<std::string> state;
    for (std::size_t d = 0; d < before.size(); ++d) {
      if (before[d] != 0) state.push_back(fmt::format("{}={}", layout_.names[d], before[d]));
    }
    text += fmt::format(", which no exit of the block allows; state before: {}", fmt::join(state, " "));
    if (!after.empty()) {
      std::vector<std::string> changed;
      for (std::size_t d = 0; d < after.size(); ++d) {
        if (after[d] != before[d]) changed.push_back(fmt::format("{}: {} -> {}", layout_.names[d], before[d], after[d]));
      }
      text += fmt::format("; changed: {}", fmt::join(changed, ", "));
    }
    report_.failures.push_back(std::move(text));
  }

  std::string where(std::int32_t pc) const {
    return fmt::format("pc {} ({})", pc, machine_.where(ir_.instr_spans[static_cast<std::size_t>(pc)]));
  }

  const ri::Machine& machine_;
  const ir::Ir& ir_;
  ri::GameConfig config_;
  OracleOptions options_;
  std::mt19937_64 rng_;
  Setting setting_;
  SlotKinds kinds_;
  CardClasses classes_;
  Layout layout_;
  z3::context z3_;
  std::optional<Encoder> encoder_;
  std::optional<Invariants> invariants_;
  OracleReport report_;
};

}  // namespace

std::vector<ir::FaultKind> obligation_kinds(const ri::Machine& machine, const ri::GameConfig& config) {
  return Oracle(machine, config, OracleOptions{}).kinds();
}

OracleReport check_abstraction(const ri::Machine& machine, const ri::GameConfig& config, const OracleOptions& options) {
  return Oracle(machine, config, options).run();
}

}  // namespace rulebook::verifier
