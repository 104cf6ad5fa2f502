// The verifier's sinks that stop the interpreter (verifier/src/stop_sinks.hpp): the oracle's
// stop at the next cut point and the sampler's watch over long games stop the machine by
// their verdict, with no exception through the executor, and leave the state exactly where
// the interpreter stands at that point.
#include <chrono>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "blocks.hpp"
#include "interpreter/game_fixture.hpp"
#include "rulebook/interpreter/machine.hpp"
#include "sampler.hpp"
#include "stop_sinks.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;

namespace verifier_sink_stop_test {  // this file's own names (unity builds put several files in one)
namespace {

// Two decisions a round with a loop between them: cut points inside the round.
const char* const kRules = R"(game "Cuts"
players 2
cards { chip: 6 }
zone deck: pile hidden
zone hand(p): set owner
var turn: player = seat 0
var x: int = 0
setup { move box to deck }
round {
  rule take: choose n in {1, 2} by turn
  rule give: repeat n { if not empty(deck) { deal 1 from deck to hand(turn) } }
  rule tally: for each p in players { add count(hand(p)) to x }
  rule pass: choose q in {y in players where y != turn} by turn
  set turn := q
  if empty(deck) { end game winners players }
}
)";

// Every state the interpreter passes through (before each instruction), none stopped.
class Recorder : public ri::EventSink {
 public:
  [[nodiscard]] bool observes_steps() const override { return true; }
  void stepping(const ri::State& state) override { states.push_back(state); }
  std::vector<ri::State> states;
};

bool same_value(const ri::Value& a, const ri::Value& b) {
  return a.kind == b.kind && a.scalar == b.scalar && a.items == b.items && a.enum_id == b.enum_id;
}

bool same_values(const std::vector<ri::Value>& a, const std::vector<ri::Value>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_value(a[i], b[i])) return false;
  }
  return true;
}

// The state the stopped machine left is the one the interpreter stands in at that point.
void require_same_state(const ri::State& stopped, const ri::State& seen) {
  CHECK(stopped.pc == seen.pc);
  CHECK(same_values(stopped.locals, seen.locals));
  CHECK(same_values(stopped.vars, seen.vars));
  CHECK(stopped.zones == seen.zones);
  CHECK(stopped.card_zone == seen.card_zone);
  CHECK(stopped.card_face_up == seen.card_face_up);
  CHECK(stopped.seat_of == seen.seat_of);
  CHECK(stopped.moves == seen.moves);
  CHECK(stopped.rounds == seen.rounds);
  CHECK(stopped.finished == seen.finished);
  CHECK(stopped.decision.has_value() == seen.decision.has_value());
  CHECK_FALSE(stopped.fault);
}

// The first recorded state at a cut point, after skipping `skip` states.
const ri::State* first_cut(const std::vector<ri::State>& states, const std::vector<bool>& cuts, std::size_t skip) {
  for (std::size_t i = skip; i < states.size(); ++i) {
    if (cuts[static_cast<std::size_t>(states[i].pc)]) return &states[i];
  }
  return nullptr;
}

}  // namespace

TEST_CASE("stop sinks: the oracle's cut sink stops a move at the next cut point by its verdict, state intact",
          "[verifier][sinkstop]") {
  const auto machine = rulebook::test::machine_for(kRules);
  const std::vector<bool> cuts = rv::cut_points(machine->ir());
  const ri::State start = machine->start(ri::GameConfig{2, {}, 3});
  REQUIRE(start.decision);
  for (std::size_t option = 0; option < start.decision->options.size(); ++option) {
    Recorder recorder;
    ri::State plain = start;
    machine->apply(plain, option, &recorder);
    const ri::State* seen = first_cut(recorder.states, cuts, 0);
    REQUIRE(seen != nullptr);

    rv::CutSink sink(cuts);
    sink.restart(0);
    ri::State state = start;
    ri::SinkVerdict verdict = ri::SinkVerdict::kContinue;
    REQUIRE_NOTHROW(verdict = machine->apply(state, option, &sink));
    CHECK(verdict == ri::SinkVerdict::kStop);
    CHECK(sink.reached());
    CHECK(cuts[static_cast<std::size_t>(state.pc)]);
    require_same_state(state, *seen);
  }
}

TEST_CASE("stop sinks: from a cut point the cut sink passes the start and stops at the next one", "[verifier][sinkstop]") {
  const auto machine = rulebook::test::machine_for(kRules);
  const std::vector<bool> cuts = rv::cut_points(machine->ir());
  ri::State start = machine->start(ri::GameConfig{2, {}, 3});
  machine->apply(start, 1);  // now at the second decision of round 1
  REQUIRE(start.decision);
  REQUIRE(cuts[static_cast<std::size_t>(start.pc)]);

  // As the oracle runs a state again from its cut point: the pending choice is recomputed.
  Recorder recorder;
  ri::State plain = start;
  plain.decision = ri::Decision{};
  machine->refresh(plain, &recorder);
  rv::CutSink sink(cuts);
  sink.restart(1);
  ri::State state = start;
  state.decision = ri::Decision{};
  ri::SinkVerdict verdict = ri::SinkVerdict::kContinue;
  REQUIRE_NOTHROW(verdict = machine->refresh(state, &sink));
  // The start is a choice: the refresh waits there again, no cut point passed.
  CHECK(verdict == ri::SinkVerdict::kContinue);
  CHECK_FALSE(sink.reached());
  REQUIRE(state.decision);
  CHECK(state.pc == start.pc);
  CHECK(state.decision->options.size() == start.decision->options.size());

  // From there, the move to the next cut point.
  Recorder after;
  ri::State plain_move = state;
  machine->apply(plain_move, 0, &after);
  const ri::State* seen = first_cut(after.states, cuts, 0);
  REQUIRE(seen != nullptr);
  sink.restart(0);
  REQUIRE_NOTHROW(verdict = machine->apply(state, 0, &sink));
  CHECK(verdict == ri::SinkVerdict::kStop);
  require_same_state(state, *seen);
}

TEST_CASE("stop sinks: the loop watch stops a loop with no decision by its verdict, and says why", "[verifier][sinkstop]") {
  const auto machine = rulebook::test::machine_for_file("tests/cli/data/endless-loop.rules");
  rv::LoopWatch watch(1000, 1'000'000);
  watch.reset();
  ri::State state = machine->start(ri::GameConfig{2, {}, 1}, &watch);
  REQUIRE(watch.stop() == rv::LoopWatch::Stop::kNone);
  REQUIRE(state.decision);
  ri::SinkVerdict verdict = ri::SinkVerdict::kContinue;
  REQUIRE_NOTHROW(verdict = machine->apply(state, 0, &watch));
  CHECK(verdict == ri::SinkVerdict::kStop);
  CHECK(watch.stop() == rv::LoopWatch::Stop::kNoDecision);
  CHECK(watch.stopped_moves() == 1);
  // Stopped inside the loop, not faulted by the interpreter's own limit, and not ended.
  CHECK_FALSE(state.finished);
  CHECK_FALSE(state.fault);
  CHECK_FALSE(state.decision);
  CHECK(state.moves == 1);
}

TEST_CASE("stop sinks: the loop watch stops a long game at its step limit and a game under way when the budget is spent",
          "[verifier][sinkstop]") {
  const auto machine = rulebook::test::machine_for_file("tests/cli/data/long-game.rules");
  const ri::GameConfig config{2, {}, 5};
  {
    // 200,000 repetitions a round: 1,000,000 instructions end within a few rounds.
    rv::LoopWatch watch(1'000'000, 1'000'000);
    watch.reset();
    ri::GameResult result;
    REQUIRE_NOTHROW(result = rv::play_sample_game(*machine, config, 100, 100, &watch));
    CHECK(watch.stop() == rv::LoopWatch::Stop::kTooLong);
    CHECK(watch.stopped_moves() >= 1);
    CHECK(result.moves == watch.stopped_moves());
    CHECK_FALSE(result.capped);
    CHECK_FALSE(result.fault);
  }
  {
    // A budget already spent: the game stops at the first clock reading, 65,536 instructions in.
    rv::LoopWatch watch(1'000'000, 10'000'000);
    watch.reset(std::chrono::steady_clock::now());
    ri::GameResult result;
    REQUIRE_NOTHROW(result = rv::play_sample_game(*machine, config, 100, 100, &watch));
    CHECK(watch.stop() == rv::LoopWatch::Stop::kBudget);
    CHECK(watch.stopped_moves() == 1);
    CHECK(result.moves == 1);
  }
  {
    // A watch that never stops: the game runs to the move cap.
    rv::LoopWatch watch(1'000'000, 10'000'000);
    watch.reset();
    ri::GameResult result;
    REQUIRE_NOTHROW(result = rv::play_sample_game(*machine, config, 4, 100, &watch));
    CHECK(watch.stop() == rv::LoopWatch::Stop::kNone);
    CHECK(result.capped);
    CHECK(result.moves == 4);
  }
}

}  // namespace verifier_sink_stop_test
