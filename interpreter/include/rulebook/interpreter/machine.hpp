// The rules as a state machine: start a game, list the legal moves of the decision it waits
// for, apply one, and run the rules up to the next decision. The machine holds only the
// immutable IR; every game is a State value, so copies are independent games.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "rulebook/ir/ir.hpp"
#include "rulebook/interpreter/state.hpp"

namespace rulebook::interpreter {

// How a game is set up: the number of human players, option values as written on the
// command line (`notes=60`, `ogling=true`), and the seed of the game's random numbers.
struct GameConfig {
  std::int64_t players = 0;  // 0: the ruleset's default count (`default N`, else the largest)
  std::map<std::string, std::string> options;
  std::uint64_t seed = 0;
};

// A configuration the ruleset does not allow (unknown option, value out of range, ...).
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a sink tells the machine after an event: go on, or stop the game there. A replay
// stops when the log ends or is cut (kStop) and when the log contradicts the rules (kError).
enum class SinkVerdict : std::uint8_t {
  kContinue,  // run on
  kStop,      // stop here: the sink has what it wanted (not an error)
  kError,     // stop here: the sink found a problem, which it keeps and reports itself
};

// Receives what happens in a game, in order, for logs and replays. Every callback is optional.
//
// The contract of stopping: after every event (each callback below but `ended` and
// `stopped`), the machine asks verdict(). On anything but kContinue it stops at once, with
// no exception: the rest of the instruction that raised the event is not run (pc stays on
// it), `ended` is not called, and the State is left exactly as the event saw it, so the
// caller may keep it (a replay's final state). apply() and refresh() return the verdict;
// after start() ask the sink. A stopped game is not to be run on: its instruction is half
// done. A sink must not throw through the machine to steer it; rule faults are not the
// sink's business (they end the game with State::fault).
class EventSink {
 public:
  virtual ~EventSink() = default;
  // Asked after each event; a sink that stops keeps returning its verdict.
  [[nodiscard]] virtual SinkVerdict verdict() const { return SinkVerdict::kContinue; }
  // Called before a shuffle: a sink that knows the result (a replayed log) puts the zone's
  // cards in that order, bottom to top, and returns true; false leaves it to the generator.
  // The result must be an order of the same cards, or the game stops with a rule fault.
  virtual bool shuffle_result(const State& /*state*/, std::int32_t /*zone_instance*/,
                              std::vector<CardId>& /*cards*/) {
    return false;
  }
  virtual void shuffled(const State& /*state*/, std::int32_t /*zone_instance*/) {}
  virtual void dealt(const State& /*state*/, std::int32_t /*from*/, std::int32_t /*to*/,
                     const std::vector<CardId>& /*cards*/) {}
  virtual void chose(const State& /*state*/, PlayerId /*player*/, std::int32_t /*rule*/,
                     const Value& /*choice*/, bool /*by_policy*/) {}
  // Called before a random choice (`choose ... at random`) among `options` (never empty): a
  // sink that knows the result (a replayed log) sets `index` and returns true; false leaves it
  // to the generator. A sink that cannot give it (the log disagrees) halts.
  virtual bool draw_result(const State& /*state*/, std::int32_t /*rule*/, const std::vector<Value>& /*options*/,
                           std::size_t& /*index*/) {
    return false;
  }
  // A random choice drew `options[index]`, now bound to the choice's name.
  virtual void drew(const State& /*state*/, std::int32_t /*rule*/, const std::vector<Value>& /*options*/,
                    std::size_t /*index*/) {}
  // A card a `move` took from zone instance `from`; it now lies where `state` says, with its
  // new facing (`was_face_up`: the facing it had). Deals are `dealt`. For views that tell a
  // player what happened: who could see the card depends on both zones and both facings.
  virtual void moved(const State& /*state*/, CardId /*card*/, std::int32_t /*from*/, bool /*was_face_up*/) {}
  // A card a `flip` turned (it may already have lain that way).
  virtual void flipped(const State& /*state*/, CardId /*card*/, bool /*was_face_up*/) {}
  // Round `state.rounds` is over and the next one starts, before per-round variables reset:
  // the scores as the round left them. The last round ends with `ended`.
  virtual void round_ended(const State& /*state*/) {}
  virtual void round_started(const State& /*state*/) {}
  virtual void ended(const State& /*state*/) {}
  // The game was stopped from outside (a simulation's move cap), not ended by its rules.
  virtual void stopped(const State& /*state*/, std::int64_t /*max_moves*/) {}
  // Every instruction, before it runs (the verifier samples states at each control position).
  // Asked once per run: a sink that returns false costs the interpreter one test per run.
  [[nodiscard]] virtual bool observes_steps() const { return false; }
  virtual void stepping(const State& /*state*/) {}
};

// Fixed results for the first shuffles, in order, each the card names of the shuffled zone
// bottom to top (a scenario's deal); later shuffles are left to the generator. A name that
// is no card of the game stops the game with a rule fault at the shuffle.
class ScriptedShuffles : public EventSink {
 public:
  explicit ScriptedShuffles(std::vector<std::vector<std::string>> orders) : orders_(std::move(orders)) {}
  bool shuffle_result(const State& state, std::int32_t zone_instance, std::vector<CardId>& cards) override;

 private:
  std::vector<std::vector<std::string>> orders_;
  std::size_t next_ = 0;
};

// What one player may see: the cards whose faces it may know, every variable, and the
// decision it has to make (if any).
struct ZoneView {
  std::int32_t instance = 0;
  std::string name;                    // `hand(seat 2)` style, by player identity
  std::vector<std::optional<CardId>> cards;  // bottom to top; nullopt: face unknown to the viewer
  std::vector<bool> face_up;
};
struct View {
  PlayerId viewer = -1;
  std::vector<ZoneView> zones;
  std::vector<std::pair<std::string, Value>> vars;  // `points(2)` style names
  std::vector<std::int32_t> seat_of;
  std::int64_t rounds = 0;
  std::optional<PlayerId> to_move;     // who must decide now
  std::int32_t rule = -1;              // the deciding rule's label id
  std::vector<Value> legal;            // the viewer's legal moves (empty unless it is to move)
  std::int32_t mixed = -1;             // a decision with alternatives: Ir::mixed_choices index
  std::vector<std::int32_t> legal_alternatives;  // then: the alternative of each legal move
  bool finished = false;
};

// How much of a view to build: everything a player may see, or only its decision (all a
// random agent looks at; building the rest costs more than the agent's choice).
enum class ViewDetail { kFull, kDecisionOnly };

// One seat's score: its value, or the fault its expression raised in that state (a score is
// evaluated whenever a report shows it, and `top(pile)` of an empty pile faults there as it
// would in a rule). A fault is shown as a fault: docs/language.md, "a fault is never skipped".
struct ScoreValue {
  std::int64_t value = 0;
  std::string fault;  // the fault's message; empty when the score has a value
  [[nodiscard]] bool faulted() const { return !fault.empty(); }
  bool operator==(const ScoreValue&) const = default;
};

// "12", or "fault: MESSAGE" (for text reports).
std::string score_text(const ScoreValue& score);

class Machine {
 public:
  explicit Machine(std::shared_ptr<const Ir> ir);

  [[nodiscard]] const Ir& ir() const { return *ir_; }

  // A new game, run up to its first decision. Throws ConfigError for a bad configuration.
  [[nodiscard]] State start(const GameConfig& config, EventSink* sink = nullptr) const;

  // The options of the pending decision (empty when the game is over).
  [[nodiscard]] const std::vector<Value>& legal_moves(const State& state) const;

  // Takes option `index` of the pending decision and runs to the next decision or the end,
  // or until the sink stops the game (the sink's verdict, kContinue without a sink).
  SinkVerdict apply(State& state, std::size_t index, EventSink* sink = nullptr) const;

  // Recomputes the pending decision after the state was edited from outside (a scenario
  // that sets up cards by hand): the waiting choice is evaluated again.
  SinkVerdict refresh(State& state, EventSink* sink = nullptr) const;

  [[nodiscard]] View view(const State& state, PlayerId viewer, ViewDetail detail = ViewDetail::kFull) const;

  // The value of a global expression (an invariant, a measure) in a state; nothing if the
  // rules fault evaluating it.
  [[nodiscard]] std::optional<Value> evaluate(const State& state, ExprId expr) const;

  // Scores by declared score, then by player. A score whose expression faults in this state
  // is given as that fault, never as 0 (ScoreValue).
  [[nodiscard]] std::vector<std::vector<ScoreValue>> scores(const State& state) const;

  // Notation: `7H`, `10S`, `JK1`, `note3`; `seat 2` for players (by identity); enum names.
  [[nodiscard]] std::string value_text(const State& state, const Value& value) const;
  // A move of the pending decision as it is written and typed: the choice's value_text, or for
  // a decision with alternatives `draw` or `play 7H`.
  [[nodiscard]] std::string move_text(const State& state, std::size_t index) const;
  // The same for a move of decision `mixed` (or -1: plain), alternative `alternative`.
  [[nodiscard]] std::string move_text(const State& state, std::int32_t mixed, std::int32_t alternative,
                                      const Value& choice) const;
  [[nodiscard]] std::string card_name(const State& state, CardId card) const;
  [[nodiscard]] const std::string& zone_name(std::int32_t instance) const;
  // The card with this name, or -1.
  [[nodiscard]] CardId card_by_name(const State& state, const std::string& name) const;
  // `file:line` of a span.
  [[nodiscard]] std::string where(const grammar::SourceSpan& span) const;
  // A one-paragraph summary of the state, for fault reports.
  [[nodiscard]] std::string summary(const State& state) const;

  // The most instructions run between two decisions before the game is stopped as a fault
  // (a loop that never reaches a decision or an end).
  static constexpr std::int64_t kMaxStepsBetweenDecisions = 50'000'000;

 private:
  void run(State& state, EventSink* sink) const;
  std::shared_ptr<const Ir> ir_;
  // What the rules run on: ir_ with small defs inlined at their call sites (the same code and
  // expression ids; see src/inline_defs.hpp). ir() stays as lowered, for the verifier.
  std::shared_ptr<const Ir> exec_;
};

}  // namespace rulebook::interpreter
