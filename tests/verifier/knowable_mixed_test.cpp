// knowable-moves for decisions with alternatives (verifier/src/knowable.cpp): the moves of a
// `choose by` are the pairs of an alternative and an element of its domain that passes its
// guard, so every domain and guard is checked as a choice's domain and filter are. As for
// `choose`, a decision whose moves may read hidden cards is not proved; it is refuted only by
// two games the verifier finds and replays (knowable_twins.hpp), which show the chooser the
// same view with other legal moves, as the corpus's witness and contrast logs do (98, 99).
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "rulebook/logs/replay.hpp"
#include "rulebook/verifier/verify.hpp"
#include "support.hpp"
#include "verifier/quick_verify.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;

namespace verifier_knowable_mixed_test {  // this file's own names (unity builds put several files in one)
namespace {

rv::Finding knowable(const ri::Machine& machine) { return rulebook::test::only_finding(machine, "knowable-moves"); }

rv::Finding knowable_file(const std::string& corpus_file) {
  return knowable(*rulebook::test::machine_for_file("tests/verifier/corpus/" + corpus_file));
}

// What seat 0 sees where a log stops, and its legal moves as typed.
struct Seen {
  std::vector<std::string> view;
  std::vector<std::string> moves;
};

Seen replay_text_to_decision(const ri::Machine& machine, const std::string& log_file, const std::string& text) {
  rulebook::grammar::SourceManager sources;
  const auto id = sources.add(log_file, text);
  ri::ReplayOptions options;
  options.partial = true;
  const ri::ReplayResult r = ri::replay(machine, sources, id, options);
  REQUIRE(r.outcome == ri::ReplayOutcome::kOk);
  REQUIRE(!r.ended);
  REQUIRE(r.final_state);
  const ri::State& state = *r.final_state;
  const ri::View view = machine.view(state, 0);
  REQUIRE(view.to_move);
  CHECK(*view.to_move == 0);
  Seen out;
  for (const ri::ZoneView& z : view.zones) {
    std::string line = z.name + ":";
    for (std::size_t i = 0; i < z.cards.size(); ++i) {
      line += " " + (z.cards[i] ? machine.card_name(state, *z.cards[i]) : std::string("?"));
      if (i < z.face_up.size() && z.face_up[i]) line += "^";
    }
    out.view.push_back(line);
  }
  for (const auto& [name, value] : view.vars) out.view.push_back(name + " = " + machine.value_text(state, value));
  for (std::size_t i = 0; i < machine.legal_moves(state).size(); ++i) out.moves.push_back(machine.move_text(state, i));
  return out;
}

Seen replay_to_decision(const ri::Machine& machine, const std::string& log_file) {
  return replay_text_to_decision(machine, log_file,
                                 rulebook::test::read_text(rulebook::test::source_path("tests/verifier/corpus/" + log_file)));
}

// A refutation's two games (its counterexample and twin) replay to a decision of seat 0 that
// shows seat 0 the same cards, with other moves: checked here by replaying the logs, not by
// the verifier's own comparison.
void check_twin(const ri::Machine& machine, const rv::Finding& f) {
  REQUIRE(f.status == rv::Status::kRefuted);
  REQUIRE(f.counterexample);
  REQUIRE(f.twin);
  Seen game = replay_text_to_decision(machine, "game.jsonl", f.counterexample->log);
  Seen twin = replay_text_to_decision(machine, "twin.jsonl", f.twin->log);
  const auto cards = [](std::vector<std::string>& lines) {
    std::erase_if(lines, [](const std::string& line) { return line.find(" = ") != std::string::npos; });
  };
  cards(game.view);
  cards(twin.view);
  CHECK(game.view == twin.view);
  CHECK(game.moves != twin.moves);
  CHECK(f.counterexample->log != f.twin->log);
}

// The witness and the contrast log show seat 0 the same cards and values, with other moves.
// With `cards_only`, the same cards: the variables differ, for they are what carries the hidden
// card into the options (a variable written from hidden cards is hidden to knowable-moves,
// docs/verification.md, whatever a view lists).
void check_evidence(const std::string& base, bool cards_only = false) {
  const auto machine = rulebook::test::machine_for_file("tests/verifier/corpus/" + base + ".rules");
  Seen witness = replay_to_decision(*machine, base + ".witness.jsonl");
  Seen contrast = replay_to_decision(*machine, base + ".contrast.jsonl");
  INFO(fmt::format("witness moves: {}; contrast moves: {}", fmt::join(witness.moves, ", "), fmt::join(contrast.moves, ", ")));
  if (cards_only) {
    const auto zones = [](std::vector<std::string>& lines) {
      std::erase_if(lines, [](const std::string& line) { return line.find(" = ") != std::string::npos; });
    };
    zones(witness.view);
    zones(contrast.view);
  }
  CHECK(witness.view == contrast.view);
  CHECK(witness.moves != contrast.moves);
}

std::string with_round(const std::string& round) {
  return R"(game "Knowable alternatives"
players 2
cards {
  chip: 3
  gem: 1
}
zone deck: pile hidden
zone hand(p): set owner
zone table: pile public
var n: int = 0
setup {
  move box to deck
  shuffle deck
  deal 1 from deck to hand(seat 0)
  deal 1 from deck to hand(seat 1)
}
round {
)" + round + "}\n";
}

}  // namespace

TEST_CASE("knowmixed: a guard on the hidden deck's top card, in a rare state, is not proved, two games show the leak",
          "[knowmixed][verifier]") {
  const rv::Finding f = knowable_file("98-know-alternative-peek.rules");
  CHECK(f.status == rv::Status::kUnknown);
  CHECK(fmt::format("{}", fmt::join(f.details, "\n")).find("its moves read the cards of deck") != std::string::npos);
  check_evidence("98-know-alternative-peek");
}

TEST_CASE("knowmixed: the twin whose guard reads the public discard pile is proved", "[knowmixed][verifier]") {
  const rv::Finding f = knowable_file("98-know-alternative-peek.fixed.rules");
  CHECK(f.status == rv::Status::kProved);
  CHECK(f.message.find("not analysed") == std::string::npos);
}

TEST_CASE("knowmixed: an alternative's element in another player's hidden hand is not proved, two games show the leak",
          "[knowmixed][verifier]") {
  const rv::Finding f = knowable_file("99-know-alternative-take.rules");
  CHECK(f.status == rv::Status::kUnknown);
  CHECK(fmt::format("{}", fmt::join(f.details, "\n")).find("which may belong to another player") != std::string::npos);
  check_evidence("99-know-alternative-take");
}

TEST_CASE("knowmixed: the twin whose element is a card of the public table is proved", "[knowmixed][verifier]") {
  CHECK(knowable_file("99-know-alternative-take.fixed.rules").status == rv::Status::kProved);
}

TEST_CASE("knowmixed: guards on public counts and the chooser's own hand are proved", "[knowmixed][verifier]") {
  // `play` reads its element (a card of seat 0's own hand) in its guard; `draw` and `stop`
  // read only numbers of cards, which everyone sees.
  const auto machine = rulebook::test::machine_for(with_round(R"(
  rule turn: choose by seat 0 {
    play c in hand(seat 0) where kind(c) == gem or count(hand(seat 1)) > 0 {
      move c to table
    }
    draw where count(deck) > 0 and count(hand(seat 0)) < 3 {
      deal 1 from deck to hand(seat 0)
    }
    stop where count(deck) == 0 or count(table) > 1 {
      end game winners players
    }
  }
  if count(hand(seat 0)) + count(deck) == 0 { end game winners players }
)"));
  CHECK(knowable(*machine).status == rv::Status::kProved);
}

TEST_CASE("knowmixed: a guard on another player's hidden hand, or on the hidden deck through a variable, is refuted by two games",
          "[knowmixed][verifier]") {
  SECTION("a guard on another player's hand") {
    const auto machine = rulebook::test::machine_for(with_round(R"(
  rule turn: choose by seat 0 {
    guess where exists c in hand(seat 1): kind(c) == gem {
      end game winners players
    }
    stop {
      end game winners players
    }
  }
)"));
    const rv::Finding f = knowable(*machine);
    check_twin(*machine, f);
    CHECK(fmt::format("{}", fmt::join(f.details, "\n")).find("which may belong to another player") != std::string::npos);
  }
  SECTION("the hidden top card through a variable") {
    const auto machine = rulebook::test::machine_for(with_round(R"(
  if n == 0 and kind(top(deck)) == gem { set n := 1 }
  rule turn: choose by seat 0 {
    bet where n == 1 {
      end game winners players
    }
    stop {
      end game winners players
    }
  }
)"));
    const rv::Finding f = knowable(*machine);
    check_twin(*machine, f);
    CHECK(fmt::format("{}", fmt::join(f.details, "\n")).find("a value that may carry hidden cards") != std::string::npos);
  }
}

TEST_CASE("knowmixed: which alternative was taken is seen by all, an element among hidden cards is not",
          "[knowmixed][verifier]") {
  SECTION("an alternative allowed by the chooser's own hand") {
    // Seat 1 sees seat 0 take `show` (a move), so its options may depend on it.
    const auto machine = rulebook::test::machine_for(with_round(R"(
  rule turn: choose by seat 0 {
    show where exists c in hand(seat 0): kind(c) == gem {
      set n := 1
    }
    hide {
      set n := 0
    }
  }
  rule answer: choose by seat 1 {
    call where n == 1 {
      end game winners players
    }
    fold {
      end game winners players
    }
  }
)"));
    CHECK(knowable(*machine).status == rv::Status::kProved);
  }
  SECTION("an element of a hidden hand, read by another player") {
    const auto machine = rulebook::test::machine_for(with_round(R"(
  rule turn: choose by seat 0 {
    give c in hand(seat 0) {
      if kind(c) == gem { set n := 1 }
      move c to deck
    }
    keep {
      set n := 0
    }
  }
  rule answer: choose by seat 1 {
    call where n == 1 {
      end game winners players
    }
    fold {
      end game winners players
    }
  }
)"));
    const rv::Finding f = knowable(*machine);
    CHECK(f.status == rv::Status::kUnknown);
    CHECK(fmt::format("{}", fmt::join(f.details, "\n")).find("'answer'") != std::string::npos);
  }
}

TEST_CASE("knowable-moves: a choice's filter may read its own element, known when its domain is", "[knowmixed][verifier]") {
  // As for a guard: `c` ranges over seat 0's own hand, so the filter tells seat 0 nothing hidden.
  const auto own = rulebook::test::machine_for(with_round(R"(
  rule take: choose c in hand(seat 0) by seat 0 where kind(c) == gem or count(hand(seat 1)) > 0
  move c to table
  if count(hand(seat 0)) == 0 { end game winners players }
)"));
  CHECK(knowable(*own).status == rv::Status::kProved);
  // The filter reads another player's hidden hand beside its element: not proved.
  const auto other = rulebook::test::machine_for(with_round(R"(
  rule take: choose c in hand(seat 0) by seat 0 where exists d in hand(seat 1): kind(d) == kind(c)
  move c to table
  if count(hand(seat 0)) == 0 { end game winners players }
)"));
  CHECK(knowable(*other).status == rv::Status::kUnknown);
}

TEST_CASE("knowable-moves: what the else branch of a hidden test writes is hidden too (corpus 103, 104)", "[knowmixed][verifier]") {
  // Found by an independent probe: only the first branch of an `if` counted as depending on its
  // test, so these two were proved.
  for (const std::string base : {"103-know-else-branch", "104-know-else-alternative"}) {
    INFO(base);
    // Since issue 35 refuted by two games the twin search finds (knowable_twins.hpp).
    const rv::Finding f = knowable_file(base + ".rules");
    CHECK(f.status == rv::Status::kRefuted);
    CHECK(fmt::format("{}", fmt::join(f.details, "\n")).find("a value that may carry hidden cards") != std::string::npos);
    check_twin(*rulebook::test::machine_for_file("tests/verifier/corpus/" + base + ".rules"), f);
    check_evidence(base, true);
    CHECK(knowable_file(base + ".fixed.rules").status == rv::Status::kProved);
  }
  // A choice in the else branch is asked (or not) by the hidden test. Alone in its rule, it is
  // known to the chooser by the rule its view names, so only its options count: proved.
  const auto asked = rulebook::test::machine_for(with_round(R"(
  rule test: if kind(top(deck)) == gem {
    set n := 1
  } else {
    rule pick: choose y in {1, 2, 3} by seat 0
  }
  rule pick2: choose z in {1, 2, 3} by seat 0 where z == 1
  end game winners players
)"));
  CHECK(knowable(*asked).status == rv::Status::kProved);
  // Two choices of one rule, one in each branch, with other options: seat 0 cannot tell which
  // asks it. Not proved, and two games show it.
  const auto shared = rulebook::test::machine_for(with_round(R"(
  rule test: if kind(top(deck)) == gem {
    choose y in {1, 2} by seat 0
  } else {
    choose y in {1, 2, 3} by seat 0
  }
  end game winners players
)"));
  const rv::Finding f = knowable(*shared);
  CHECK(f.status != rv::Status::kProved);
  CHECK(fmt::format("{}", fmt::join(f.details, "\n")).find("'test' at") != std::string::npos);
  check_twin(*shared, f);
}

TEST_CASE("knowable-moves: an initial value computed from hidden cards each round is hidden (corpus 107)", "[knowmixed][verifier]") {
  // Found by the fourth independent probe (issue 33): a `per round` value that reads the hidden
  // deck's top card decides seat 0's options; the flow analysis did not follow initial values,
  // so knowable-moves was proved.
  const rv::Finding f = knowable_file("107-know-per-round-init.rules");
  check_twin(*rulebook::test::machine_for_file("tests/verifier/corpus/107-know-per-round-init.rules"), f);
  check_evidence("107-know-per-round-init", true);
  CHECK(knowable_file("107-know-per-round-init.fixed.rules").status == rv::Status::kProved);
}

TEST_CASE("knowable-moves: a choice alone in its rule is known by it only when its options read no loop state",
          "[knowmixed][verifier]") {
  // Issue 35's adversary round: the rule that asks does not say at which pass of a loop it asks.
  for (const std::string name : {"know-loop-element", "know-pass-counter", "know-loop-guard"}) {
    INFO(name);
    const auto machine = rulebook::test::machine_for_file("tests/verifier/probes/" + name + ".rules");
    const rv::Finding f = knowable(*machine);
    CHECK(f.status != rv::Status::kProved);
    if (f.status == rv::Status::kRefuted) check_twin(*machine, f);
  }
}

TEST_CASE("knowable-moves: two games that differ in a score everyone sees are no refutation", "[knowmixed][verifier]") {
  const auto machine = rulebook::test::machine_for_file("tests/verifier/probes/know-score-shows.rules");
  const rv::Finding f = knowable(*machine);
  CHECK(f.status != rv::Status::kProved);
  if (f.status == rv::Status::kRefuted) {
    REQUIRE(f.twin);
    CHECK(f.counterexample->log != f.twin->log);
    // Were it refuted, the two games would have to show the same scores.
    rulebook::grammar::SourceManager sources;
    ri::ReplayOptions options;
    options.partial = true;
    const auto a = ri::replay(*machine, sources, sources.add("a.jsonl", f.counterexample->log), options);
    const auto b = ri::replay(*machine, sources, sources.add("b.jsonl", f.twin->log), options);
    REQUIRE(a.final_state);
    REQUIRE(b.final_state);
    CHECK(machine->scores(*a.final_state) == machine->scores(*b.final_state));
  }
}

}  // namespace verifier_knowable_mixed_test
