// Hidden information that reaches a decision by ways an independent probe found open (issue 24's
// last adversary round), each of which knowable-moves had `proved`: a card drawn at random from a
// set built from another player's hand, a number drawn where a hidden card allows it, and seats
// swapped under a test on a hidden card. And reachability, which counted a rule as firing when it
// was only reached.
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "rulebook/verifier/verify.hpp"
#include "support.hpp"
#include "verifier/quick_verify.hpp"

namespace rv = rulebook::verifier;

namespace verifier_knowable_flows_test {  // this file's own names (unity builds put several files in one)
namespace {

// Two players with three cards each, two cards face up on `pub`, the rest in the hidden deck.
std::string game(const std::string& round, const std::string& vars = "") {
  return R"(game "Flows"
players 2
cards { standard52 }
zone deck: pile hidden
zone hand(p): set owner
zone pub: pile public
var v: int = 0
)" + vars + R"(setup {
  move box to deck
  shuffle deck
  deal 3 from deck to hand(seat 0)
  deal 3 from deck to hand(seat 1)
  deal 2 from deck to pub
}
round {
)" + round + "}\n";
}

rv::Finding only(const std::string& text, const std::string& property) {
  return rulebook::test::only_finding(*rulebook::test::machine_for(text), property);
}

std::string details(const rv::Finding& f) { return fmt::format("{}", fmt::join(f.details, "\n")); }

}  // namespace

TEST_CASE("knowable-moves: a card drawn at random from a set built from a hidden hand is hidden", "[knowable][verifier]") {
  // Seat 0 may say `hi` only when the card drawn from seat 1's hand is above 9.
  for (const std::string& from : {std::string("let h = {x in hand(seat 1) where true}\n  rule cut: choose c in h at random"),
                                  std::string("set s := {x in hand(seat 1) where true}\n  rule cut: choose c in s at random")}) {
    INFO(from);
    const rv::Finding f = only(game("  " + from + R"(
  set v := rank(c)
  rule t: choose by seat 0 {
    hi where v > 9
    lo
  }
  end game
)", "var s: set of card = {}\n"), "knowable-moves");
    CHECK(f.status == rv::Status::kUnknown);
    CHECK(details(f).find("a value that may carry hidden cards") != std::string::npos);
  }
  // Drawn from the public pile: nothing hidden.
  const rv::Finding pub = only(game(R"(  rule cut: choose c in pub at random
  set v := rank(c)
  rule t: choose by seat 0 {
    hi where v > 9
    lo
  }
  end game
)"), "knowable-moves");
  CHECK(pub.status == rv::Status::kProved);
}

TEST_CASE("knowable-moves: a number drawn at random where a hidden card allows it is hidden", "[knowable][verifier]") {
  const rv::Finding f = only(game(R"(  rule cut: choose x in {1, 2} at random where x == 1 or rank(top(deck)) > 9
  set v := x
  rule t: choose by seat 0 {
    hi where v > 1
    lo
  }
  end game
)"), "knowable-moves");
  CHECK(f.status == rv::Status::kUnknown);
}

TEST_CASE("knowable-moves: seats swapped under a test on a hidden card make every choice unknown", "[knowable][verifier]") {
  const std::string round = R"(  if rank(top(deck)) > 9 { swap seats seat 0 and seat 1 }
  rule t: choose by me {
    hi where seat 0 == me
    lo
  }
  end game
)";
  const rv::Finding f = only(game(round, "var me: player = seat 0\n"), "knowable-moves");
  CHECK(f.status == rv::Status::kUnknown);
  CHECK(details(f).find("seats are swapped where hidden cards decide it") != std::string::npos);
  // The same swap under a test on the public pile is known to all.
  std::string open = round;
  open.replace(open.find("top(deck)"), 9, "top(pub)");
  CHECK(only(game(open, "var me: player = seat 0\n"), "knowable-moves").status == rv::Status::kProved);
}

TEST_CASE("reachability: a rule that is reached but never acts does not count as firing", "[reachability][verifier]") {
  // `never` is reached every round, but its test is never true (n starts at 0 and only `never`
  // adds to it): reachability is not proved (docs/verification.md: every labelled rule can fire),
  // and since no effect inside the rule can run (n = 0 is inductive), it is refuted.
  const std::string text = R"(game "Reached, never fired"
players 2
cards { standard52 }
var n: int = 0
round {
  rule pick: choose k in {0, 1} by seat 0
  rule never: if n > 5 {
    add 1 to n
  }
  end game winners {seat 0}
}
)";
  const rv::Finding f = only(text, "reachability");
  CHECK(f.status == rv::Status::kRefuted);
  CHECK(details(f).find("never (") != std::string::npos);
  // With a test that can be true, the rule fires in sampled games.
  std::string fires = text;
  fires.replace(fires.find("n > 5"), 5, "k == 1");
  CHECK(only(fires, "reachability").status == rv::Status::kProved);
}

TEST_CASE("knowable-moves: the facing of a known card is known, of a hidden card it is not", "[knowable][verifier]") {
  // docs/language.md: "A face-up card is seen by everyone wherever it lies", so whether a card
  // the chooser knows lies face up is known to it. Seat 0 may say `hi` when the public pile
  // holds a face-up card.
  const std::string known = R"(  flip top(pub) face up
  rule t: choose by seat 0 {
    hi where count({c in pub where face_up(c)}) > 0
    lo
  }
  end game
)";
  CHECK(only(game(known), "knowable-moves").status == rv::Status::kProved);
  // The same test over the hidden deck: which cards are there is hidden (only their number is
  // not), so the options are unknown.
  std::string hidden = known;
  hidden.replace(hidden.find("{c in pub"), 9, "{c in deck");
  CHECK(only(game(hidden), "knowable-moves").status == rv::Status::kUnknown);
  // A card's position in a zone stays a hidden read.
  std::string position = known;
  position.replace(position.find("face_up(c)"), 10, "index(c) > 0");
  CHECK(only(game(position), "knowable-moves").status == rv::Status::kUnknown);
}

}  // namespace verifier_knowable_flows_test
