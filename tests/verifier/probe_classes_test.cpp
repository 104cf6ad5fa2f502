// The classes of wrong answer the fourth independent probe found (tests/verifier/probes/README.md):
// each scenario fails on the verifier before its fix.
#include <algorithm>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "rulebook/verifier/verify.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;
using rulebook::test::machine_for_file;

namespace verifier_probe_classes_test {  // this file's own names (unity builds put several files in one)
namespace {

const std::string kFolder = "tests/verifier/probes/";

rv::VerifyOptions options(std::int64_t players, std::int64_t games, std::int64_t search_states) {
  rv::VerifyOptions o;
  o.players = players;
  o.games = games;
  o.search_states = search_states;
  o.search_seconds = 5;
  o.timeout_seconds = 20;
  return o;
}

const rv::Finding& finding(const rv::VerifyReport& report, const std::string& property) {
  const auto it = std::find_if(report.findings.begin(), report.findings.end(), [&](const rv::Finding& f) { return f.property == property; });
  REQUIRE(it != report.findings.end());
  UNSCOPED_INFO(fmt::format("{} {}: {}\n{}", property, rv::status_name(it->status), it->message, fmt::join(it->details, "\n")));
  return *it;
}

bool any_note(const rv::VerifyReport& report, const std::string& part) {
  return std::any_of(report.notes.begin(), report.notes.end(), [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("probe classes: a card of all_cards tested for where it lies may lie anywhere", "[verifier][probes]") {
  SECTION("a rule that fires only when every card is in the pot is not refuted as dead, nor its winner") {
    // all-cards-location-reach.rules: `rule full: if all c in all_cards: c in pot` after 12
    // true choices in a row. Three sampled games and no search do not get there, so only Z3
    // could say anything: before the fix it said the rule and seat 1's win impossible.
    const auto machine = machine_for_file(kFolder + "all-cards-location-reach.rules");
    const rv::VerifyReport report = rv::verify(*machine, options(2, 3, 0));
    const rv::Finding& reach = finding(report, "reachability");
    CHECK(reach.status != rv::Status::kRefuted);
    const rv::Finding& win = finding(report, "winnability");
    if (win.status == rv::Status::kRefuted) CHECK(win.message.find("player 1") == std::string::npos);
  }
  SECTION("a game that fires such a rule passes the vacuity guard: no internal error") {
    const auto machine = machine_for_file(kFolder + "all-cards-location-vacuity.rules");
    const rv::VerifyReport report = rv::verify(*machine, options(2, 60, 2000));
    CHECK_FALSE(any_note(report, "internal error"));
    CHECK(finding(report, "reachability").status == rv::Status::kProved);
  }
  SECTION("a choice from all_cards filtered by location: no internal error, and its options are not taken as none") {
    const auto machine = machine_for_file(kFolder + "all-cards-location-choice.rules");
    const rv::VerifyReport report = rv::verify(*machine, options(2, 60, 2000));
    CHECK_FALSE(any_note(report, "internal error"));
    CHECK(finding(report, "playability").status != rv::Status::kRefuted);
  }
}

TEST_CASE("probe classes: a per-round initial value read from a hidden deck carries hidden cards", "[verifier][probes]") {
  // `var peek: bool = ... kind(top(deck)) == apple per round`, then seat 0's options depend on
  // it: seat 0 cannot see the deck, so the moves are not knowable.
  const auto machine = machine_for_file(kFolder + "per-round-hidden-init.rules");
  rv::VerifyOptions o = options(2, 60, 2000);
  o.properties = {"knowable-moves"};
  const rv::VerifyReport report = rv::verify(*machine, o);
  const rv::Finding& f = finding(report, "knowable-moves");
  CHECK(f.status != rv::Status::kProved);
}

TEST_CASE("probe classes: an invariant holds where the game waits, not where a policy or a fault decides", "[verifier][probes]") {
  SECTION("an automated seat's policy decides at once: the game does not wait there") {
    // invariant small: n == 0; n is 1 only while seat 1 (automated, with a policy) chooses.
    const auto machine = machine_for_file(kFolder + "invariant-policy-choice.rules");
    const rv::VerifyReport report = rv::verify(*machine, options(1, 60, 2000));
    CHECK(finding(report, "invariant").status != rv::Status::kRefuted);
  }
  SECTION("a choice without a legal option faults: the game does not wait there either") {
    const auto machine = machine_for_file(kFolder + "invariant-faulting-choice.rules");
    const rv::VerifyReport report = rv::verify(*machine, options(2, 60, 2000));
    CHECK(finding(report, "invariant").status != rv::Status::kRefuted);
    // The fault itself is still found, under its own property.
    CHECK(finding(report, "playability").status == rv::Status::kRefuted);
  }
}

TEST_CASE("probe classes: a loop that ends only by a random draw stops the search within its limits", "[verifier][probes]") {
  // draw-ends-loop.rules: `while not done { choose d in {false, true} at random ... }`. The
  // search plays draw 0 past its script, which loops; a move may draw 256 times, then the
  // search leaves the move's other draws untried and says it was cut.
  const auto machine = machine_for_file(kFolder + "draw-ends-loop.rules");
  rv::VerifyOptions o = options(2, 20, 100000);
  o.search_seconds = 60;
  const rv::VerifyReport report = rv::verify(*machine, o);
  CHECK(any_note(report, "exhaustive search over decisions (seed 1)"));
  CHECK_FALSE(any_note(report, "every reachable one"));
}

TEST_CASE("probe classes: a long but finite loop without a decision is no counterexample", "[verifier][probes][long]") {
  const auto machine = machine_for_file(kFolder + "long-finite-loop.rules");
  const rv::VerifyReport report = rv::verify(*machine, options(2, 4, 200));
  CHECK_FALSE(any_note(report, "interpreter's own fault"));
  CHECK(any_note(report, "a long loop, not an endless one"));
  CHECK(finding(report, "game-termination").status != rv::Status::kRefuted);
}

TEST_CASE("probe classes: a lasso's message counts the moves its log holds, policy moves included", "[verifier][probes]") {
  // Found by the adversary round of issue 33: the message counted only the moves the search
  // chose ("these 1 moves") while the log and the step table held the policy's moves too.
  const auto machine = machine_for_file(kFolder + "lasso-policy-moves.rules");
  const rv::VerifyReport report = rv::verify(*machine, options(2, 20, 2000));
  const rv::Finding& f = finding(report, "game-termination");
  REQUIRE(f.status == rv::Status::kRefuted);
  REQUIRE(f.counterexample);
  CHECK(f.counterexample->steps.size() == 4);
  CHECK(f.message.find("after move 4 the game is in exactly the state it was in after move 2") != std::string::npos);
  CHECK(f.message.find("these 2 moves can repeat forever") != std::string::npos);
}

TEST_CASE("probe classes: winnability counts players by the seat they start in, after swaps too", "[verifier][probes]") {
  // The setup swaps seats 0 and 1; `winners {seat 1}` names player 0, the only one who wins.
  const auto machine = machine_for_file(kFolder + "swapped-winner.rules");
  const rv::VerifyReport report = rv::verify(*machine, options(2, 20, 2000));
  const rv::Finding& f = finding(report, "winnability");
  CHECK(f.status == rv::Status::kRefuted);
  CHECK(f.message == "player 1 can never win");
  CHECK(fmt::format("{}", fmt::join(f.details, "\n")).find("player 0: wins") != std::string::npos);
}

}  // namespace verifier_probe_classes_test
