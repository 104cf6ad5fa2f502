// The EventSink contract (machine.hpp): after each event the machine asks the sink's
// verdict and stops at once, with no exception, on anything but kContinue; the state is left
// as the event saw it. A replay steers the machine this way.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "rulebook/grammar/load.hpp"
#include "rulebook/interpreter/machine.hpp"
#include "rulebook/ir/lower.hpp"
#include "rulebook/logs/replay.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace rg = rulebook::grammar;

namespace logs_sink_verdict_test {  // this file's own names (unity builds put several files in one)
namespace {

// Each round deals two cards to each player; the player whose turn it is plays one and
// passes the turn. Six rounds.
const char* const kRules = R"(game "Verdicts"
players 2
cards { standard52 }
zone deck: pile hidden
zone hand(p): set owner
zone discard: pile public
var turn: player = seat 0
var plays: int = 0
setup {
  move box to deck
  shuffle deck
}
round {
  for each p in players { deal 2 from deck to hand(p) }
  rule play: choose c in hand(turn) by turn
  move c to discard
  rule pass: choose q in {x in players where x != turn} by turn
  set turn := q
  add 1 to plays
  if plays >= 6 { end game winners players }
}
)";

// Stops (or fails) at the n-th decision of a player, or at the first deal of round `deal_round`.
class Stopper : public ri::EventSink {
 public:
  std::int64_t stop_after = -1;
  ri::SinkVerdict how = ri::SinkVerdict::kStop;
  std::int64_t deal_round = -1;
  std::int64_t chosen = 0, deals = 0, ends = 0;
  std::string error;  // what the sink found, kept by the sink (the machine only stops)

  void chose(const ri::State& /*state*/, ri::PlayerId /*player*/, std::int32_t /*rule*/, const ri::Value& /*choice*/,
             bool /*by_policy*/) override {
    if (++chosen == stop_after) verdict_ = how;
  }
  void dealt(const ri::State& state, std::int32_t /*from*/, std::int32_t /*to*/, const std::vector<ri::CardId>& /*cards*/) override {
    ++deals;
    if (state.rounds == deal_round) {
      verdict_ = ri::SinkVerdict::kError;
      error = "no deal expected in round " + std::to_string(state.rounds);
    }
  }
  void ended(const ri::State& /*state*/) override { ++ends; }
  [[nodiscard]] ri::SinkVerdict verdict() const override { return verdict_; }

 private:
  ri::SinkVerdict verdict_ = ri::SinkVerdict::kContinue;
};

// Every card lies in exactly one zone, the one card_zone names.
void require_cards_consistent(const ri::State& s) {
  std::size_t total = 0;
  for (std::size_t z = 0; z < s.zones.size(); ++z) {
    for (const ri::CardId c : s.zones[z]) CHECK(s.card_zone[static_cast<std::size_t>(c)] == static_cast<std::int32_t>(z));
    total += s.zones[z].size();
  }
  CHECK(total == s.cards->size());
}

// Plays the first legal move until the game ends or the sink stops it; the last verdict.
ri::SinkVerdict play(const ri::Machine& machine, ri::State& state, Stopper& sink) {
  ri::SinkVerdict v = sink.verdict();
  while (v == ri::SinkVerdict::kContinue && !state.finished) v = machine.apply(state, 0, &sink);
  return v;
}

}  // namespace

TEST_CASE("sink verdict: a sink that stops after N decisions stops the game there, state intact", "[sinkverdict]") {
  auto machine = rulebook::test::machine_for(kRules);
  Stopper sink;
  sink.stop_after = 5;
  ri::State state;
  REQUIRE_NOTHROW(state = machine->start(ri::GameConfig{2, {}, 7}, &sink));
  ri::SinkVerdict v = ri::SinkVerdict::kContinue;
  REQUIRE_NOTHROW(v = play(*machine, state, sink));
  CHECK(v == ri::SinkVerdict::kStop);
  CHECK(sink.chosen == 5);
  CHECK(state.moves == 5);
  CHECK_FALSE(state.finished);
  CHECK_FALSE(state.fault);
  CHECK_FALSE(state.decision);  // stopped right after the choice, before the rules went on
  CHECK(sink.ends == 0);
  require_cards_consistent(state);
  // The same game with no sink, 4 moves in, then the 5th move's choice: same cards, same round.
  ri::State plain = machine->start(ri::GameConfig{2, {}, 7});
  for (int i = 0; i < 4; ++i) machine->apply(plain, 0);
  CHECK(plain.zones == state.zones);
  CHECK(plain.rounds == state.rounds);
}

TEST_CASE("sink verdict: a sink that returns an error stops the game with that error", "[sinkverdict]") {
  auto machine = rulebook::test::machine_for(kRules);
  Stopper sink;
  sink.deal_round = 2;  // the first deal of round 2 is an error for this sink
  ri::State state = machine->start(ri::GameConfig{2, {}, 7}, &sink);
  ri::SinkVerdict v = ri::SinkVerdict::kContinue;
  REQUIRE_NOTHROW(v = play(*machine, state, sink));
  CHECK(v == ri::SinkVerdict::kError);
  CHECK(sink.error == "no deal expected in round 2");
  CHECK(state.rounds == 2);
  CHECK(sink.deals == 3);  // both of round 1, the first of round 2; the second never came
  CHECK_FALSE(state.finished);
  CHECK_FALSE(state.fault);
  CHECK(sink.ends == 0);
  require_cards_consistent(state);
  // Stopped after the deal to seat 0 of round 2 (2 + 2 - 1 played), before the one to seat 1.
  const rulebook::test::Game g{machine, state};
  CHECK(g.zone("hand", 0).size() == 3);
  CHECK(g.zone("hand", 1).size() == 2);
}

TEST_CASE("sink verdict: a sink that always continues sees the game to its end", "[sinkverdict]") {
  auto machine = rulebook::test::machine_for(kRules);
  Stopper sink;
  ri::State state = machine->start(ri::GameConfig{2, {}, 7}, &sink);
  ri::SinkVerdict v = ri::SinkVerdict::kContinue;
  REQUIRE_NOTHROW(v = play(*machine, state, sink));
  CHECK(v == ri::SinkVerdict::kContinue);
  CHECK(state.finished);
  CHECK_FALSE(state.fault);
  CHECK(sink.ends == 1);
  CHECK(sink.chosen == 12);  // a card and a player in each of six rounds
  CHECK(state.rounds == 6);
}

TEST_CASE("sink verdict: no exception escapes a replay for an illegal move, nor for a log that stops at a shuffle",
          "[sinkverdict]") {
  const std::string path = rulebook::test::temp_folder() + "/verdicts.rules";
  rulebook::test::write_text(path, kRules);
  rg::SourceManager sources;
  rg::Diagnostics diagnostics;
  const auto loaded = rg::load_ruleset(path, sources, diagnostics);
  REQUIRE(loaded.status == rg::LoadStatus::kOk);
  const ri::Machine machine(ri::lower(*loaded.program, sources));
  const std::string header = R"({"log":"rulebook","version":1,"players":2,"names":["Ann","Bob"]})";
  const std::string shuffle = R"({"shuffle":"deck","top":["9H","2H","KC","3S"]})";

  // Ann holds 9H and 2H; KC is Bob's.
  rg::SourceManager illegal = sources;
  const rg::FileId bad = illegal.add("bad.jsonl", header + "\n" + shuffle + "\n" + R"({"move":{"player":"Ann","choice":"KC"}})" + "\n");
  ri::ReplayResult r;
  REQUIRE_NOTHROW(r = ri::replay(machine, illegal, bad, {}));
  CHECK(r.outcome == ri::ReplayOutcome::kIllegal);
  REQUIRE(r.final_state);
  CHECK(r.final_state->moves == 0);
  CHECK(r.final_state->decision);  // still waiting for Ann's move

  // The log ends before the shuffle's result: the machine stopped inside setup, at the shuffle.
  rg::SourceManager early = sources;
  const rg::FileId cut = early.add("early.jsonl", header + "\n");
  ri::ReplayOptions partial;
  partial.partial = true;
  REQUIRE_NOTHROW(r = ri::replay(machine, early, cut, partial));
  CHECK(r.outcome == ri::ReplayOutcome::kOk);
  CHECK(r.waiting.find("the result of shuffling deck") == 0);
  REQUIRE(r.final_state);
  const rulebook::test::Game g{std::make_shared<ri::Machine>(machine), *r.final_state};
  CHECK(g.zone("deck").size() == 52);  // not shuffled, nothing dealt
}

}  // namespace logs_sink_verdict_test

namespace logs_sink_verdict_test {
namespace {

// Stops at the n-th card moved, and checks at each card of the last move what a sink may
// read: the moved card's zone and face.
class MoveStopper : public ri::EventSink {
 public:
  std::int64_t stop_at = -1;     // counting every card moved in the game
  std::int64_t checked_from = 0;  // the first event of the move under test
  std::int32_t target = -1;
  std::int64_t moved_count = 0;
  void moved(const ri::State& state, ri::CardId card, std::int32_t /*from*/, bool /*was_face_up*/) override {
    if (++moved_count >= checked_from) {
      CHECK(state.card_zone[static_cast<std::size_t>(card)] == target);
      CHECK(state.card_face_up[static_cast<std::size_t>(card)] == 1);
    }
    if (moved_count == stop_at) verdict_ = ri::SinkVerdict::kStop;
  }
  [[nodiscard]] ri::SinkVerdict verdict() const override { return verdict_; }

 private:
  ri::SinkVerdict verdict_ = ri::SinkVerdict::kContinue;
};

}  // namespace

// A move of many cards runs in one pass over the zones (execute.cpp, move_cards, issue 34);
// stopped part way, it leaves the state the card-by-card move left.
TEST_CASE("sink verdict: a sink that stops part way through a move of many cards leaves them half moved, in order",
          "[sinkverdict]") {
  for (const bool bottom : {false, true}) {
    const std::string rules = fmt::format(
        "game \"Moves\"\nplayers 2\ncards {{ standard52 }}\nzone deck: pile hidden\nzone stack: pile public\n"
        "setup {{\n  move box to deck\n  move top(deck) to stack\n  move deck to stack{} face up\n}}\nround {{\n  end game\n}}\n",
        bottom ? " at bottom" : "");
    INFO(rules);
    auto machine = rulebook::test::machine_for(rules);
    const auto& names = machine->ir().instance_names;
    const auto index_of = [&](const std::string& name) {
      return static_cast<std::int32_t>(std::find(names.begin(), names.end(), name) - names.begin());
    };
    for (const std::int64_t stop_at : {1, 20, 51}) {
      INFO("stop at " << stop_at);
      MoveStopper sink;
      sink.checked_from = 52 + 1 + 1;  // after box to deck (52 cards) and the top card
      sink.stop_at = 52 + 1 + stop_at;
      sink.target = index_of("stack");
      ri::State state;
      REQUIRE_NOTHROW(state = machine->start(ri::GameConfig{2, {}, 7}, &sink));
      require_cards_consistent(state);
      // The deck held the cards in identity order but its top one (card 51, the ace of
      // spades); the first `stop_at` of them moved.
      std::vector<ri::CardId> rest;
      for (ri::CardId c = 0; c < 51; ++c) rest.push_back(c);
      const std::vector<ri::CardId> moved(rest.begin(), rest.begin() + stop_at);
      const std::vector<ri::CardId> left(rest.begin() + stop_at, rest.end());
      CHECK(state.zones[static_cast<std::size_t>(index_of("deck"))] == left);
      std::vector<ri::CardId> pile = bottom ? moved : std::vector<ri::CardId>{51};
      if (bottom) {
        pile.push_back(51);
      } else {
        pile.insert(pile.end(), moved.begin(), moved.end());
      }
      CHECK(state.zones[static_cast<std::size_t>(index_of("stack"))] == pile);
    }
  }
}

}  // namespace logs_sink_verdict_test
