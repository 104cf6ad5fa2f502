#include "counterexample.hpp"

#include <fmt/format.h>

#include "rulebook/interpreter/agent.hpp"
#include "rulebook/logs/log.hpp"
#include "rulebook/interpreter/simulate.hpp"

namespace rulebook::verifier {

namespace {

// Records each decision with what changed since the one before.
class TableSink : public ri::LogWriter {
 public:
  TableSink(const ri::Machine& machine, const ri::GameConfig& config, const Layout& layout, const CardClasses& classes,
            std::vector<TraceStep>& steps)
      : LogWriter(machine, config), machine_(machine), layout_(layout), classes_(classes), steps_(steps) {}

  void chose(const ri::State& state, ri::PlayerId player, std::int32_t rule, const ir::Value& choice,
             bool by_policy) override {
    LogWriter::chose(state, player, rule, choice, by_policy);
    flush(state);
    TraceStep row;
    row.step = state.moves;
    row.player = fmt::format("seat {}", state.seat_of[static_cast<std::size_t>(player)]);
    // A move of a decision with alternatives as it is written: `draw`, `play 7H`.
    const ri::LastAlternative alt = by_policy ? ri::LastAlternative{} : state.last_alternative;
    row.choice = machine_.move_text(state, alt.mixed, alt.alternative, choice) + (by_policy ? " (policy)" : "");
    if (rule >= 0) {
      const ir::Ir& ir = machine_.ir();
      row.rule = ir.labels[static_cast<std::size_t>(rule)];
      row.where = machine_.where(ir.label_spans[static_cast<std::size_t>(rule)]);
    }
    pending_ = std::move(row);
  }
  // The random choices of the next move draw `script` (nullptr: the generator's draws).
  void script(const std::vector<std::size_t>* script) {
    script_ = script;
    next_draw_ = 0;
  }
  bool draw_result(const ri::State& /*state*/, std::int32_t /*rule*/, const std::vector<ri::Value>& options,
                   std::size_t& index) override {
    if (script_ == nullptr) return false;
    const std::size_t k = next_draw_++;
    index = k < script_->size() && (*script_)[k] < options.size() ? (*script_)[k] : 0;  // as the search's DrawScript
    return true;
  }
  // The shuffles put the cards in the orders `shuffles` (in the order the game shuffles).
  void shuffles(const std::vector<std::vector<ri::CardId>>* shuffles) { shuffles_ = shuffles; }
  bool shuffle_result(const ri::State& /*state*/, std::int32_t /*zone_instance*/, std::vector<ri::CardId>& cards) override {
    if (shuffles_ == nullptr || next_shuffle_ >= shuffles_->size()) return false;
    cards = (*shuffles_)[next_shuffle_++];
    return true;
  }
  void ended(const ri::State& state) override {
    LogWriter::ended(state);
    flush(state);
  }
  void stopped(const ri::State& state, std::int64_t max_moves) override {
    LogWriter::stopped(state, max_moves);
    flush(state);
  }
  // The changes of the last pending decision up to `state`.
  void flush(const ri::State& state) {
    const std::vector<std::int64_t> now = project(machine_.ir(), layout_, classes_, state);
    if (before_.empty()) before_ = now;
    if (pending_) {
      for (std::size_t i = 0; i < now.size(); ++i) {
        // A local, or a value read through one (`points(local p#7)`), is the walk's own
        // bookkeeping: the variable it reads shows its change under its own name.
        if (now[i] != before_[i] && layout_.names[i].find("local ") == std::string::npos) {
          pending_->changes.push_back(fmt::format("{}: {} -> {}", layout_.names[i], before_[i], now[i]));
        }
      }
      steps_.push_back(std::move(*pending_));
      pending_.reset();
    }
    before_ = now;
  }

 private:
  const ri::Machine& machine_;
  const Layout& layout_;
  const CardClasses& classes_;
  std::vector<TraceStep>& steps_;
  std::vector<std::int64_t> before_;
  std::optional<TraceStep> pending_;
  const std::vector<std::size_t>* script_ = nullptr;
  std::size_t next_draw_ = 0;
  const std::vector<std::vector<ri::CardId>>* shuffles_ = nullptr;
  std::size_t next_shuffle_ = 0;
};

const std::vector<std::size_t> kNoDraws;

}  // namespace

Counterexample replay_moves(const ri::Machine& machine, const ri::GameConfig& config,
                            const std::vector<std::size_t>& moves, const std::vector<std::vector<std::size_t>>& draws,
                            const std::vector<std::vector<ri::CardId>>& shuffles, const Layout& layout,
                            const CardClasses& classes, std::string violation) {
  Counterexample out;
  out.seed = config.seed;
  out.violation = std::move(violation);
  TableSink sink(machine, config, layout, classes, out.steps);
  sink.shuffles(&shuffles);
  sink.script(draws.empty() ? &kNoDraws : &draws[0]);
  ri::State state = machine.start(config, &sink);
  sink.flush(state);
  for (std::size_t m = 0; m < moves.size() && !state.finished; ++m) {
    sink.script(m + 1 < draws.size() ? &draws[m + 1] : &kNoDraws);
    machine.apply(state, moves[m], &sink);
  }
  if (!state.finished) sink.stopped(state, state.moves);
  out.log = sink.text();
  return out;
}

Counterexample replay_game(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t random_moves,
                           const std::vector<std::size_t>& then, const Layout& layout, const CardClasses& classes,
                           std::string violation, const std::vector<std::vector<std::size_t>>& then_draws) {
  Counterexample out;
  out.seed = config.seed;
  out.violation = std::move(violation);
  TableSink sink(machine, config, layout, classes, out.steps);
  ri::State state = machine.start(config, &sink);
  sink.flush(state);
  ri::RandomAgent agent(ri::agent_seed(config.seed));  // the agent play_random_game uses
  while (!state.finished && (random_moves < 0 || state.moves < random_moves)) {
    const ri::View view = machine.view(state, state.decision->player, agent.detail());
    machine.apply(state, agent.choose(view), &sink);
  }
  for (std::size_t m = 0; m < then.size(); ++m) {
    if (state.finished) break;
    sink.script(then_draws.empty() ? nullptr : m < then_draws.size() ? &then_draws[m] : &kNoDraws);
    machine.apply(state, then[m], &sink);
  }
  sink.script(nullptr);
  if (!state.finished) sink.stopped(state, state.moves);
  out.log = sink.text();
  return out;
}

}  // namespace rulebook::verifier
