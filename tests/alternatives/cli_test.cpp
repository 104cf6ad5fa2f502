// Decisions with alternatives through the `rulebook` binary: play (typing `draw`), the IR dump,
// the graph (one node for the decision, one labelled edge per alternative), fmt, and verify
// (encoded; knowable-moves analysed).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;

namespace alternatives_cli_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;
std::string rules() { return quoted_path(source_path("tests/alternatives/alternatives.rules")); }

}  // namespace

TEST_CASE("alternatives: play lists moves as `draw` and `play 7H`, and takes them typed", "[alternatives][cli]") {
  const std::string dir = rulebook::test::temp_folder();
  // Seat 0 types the first move as written, in another case; then numbers.
  std::string input = "DRAW\n";
  for (int i = 0; i < 200; ++i) input += "1\n";
  const auto r = run_rulebook("play " + rules() + " --seed 2 --log " + quoted_path(dir + "/g.jsonl"), input);
  INFO(r.out << r.err);
  CHECK(r.out.find("  1) draw") != std::string::npos);
  const std::string log = rulebook::test::read_text(dir + "/g.jsonl");
  CHECK(log.find(R"({"move":{"alternative":"draw","choice":null,"player":0,"rule":"turn"}})") != std::string::npos);
  CHECK(run_rulebook("replay " + rules() + " " + quoted_path(dir + "/g.jsonl")).exit_code != 2);
}

TEST_CASE("alternatives: check --dump-ir prints the table and the opcode", "[alternatives][cli]") {
  const auto r = run_rulebook("check --dump-ir - " + rules());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("decisions with alternatives (1):") != std::string::npos);
  CHECK(r.out.find("m0 play: element l") != std::string::npos);
  CHECK(r.out.find("m0 draw: element - in -, guard x") != std::string::npos);
  CHECK(r.out.find("ChooseMixed") != std::string::npos);
}

TEST_CASE("alternatives: the graph has one node for the decision and one labelled edge per alternative", "[alternatives][cli]") {
  const auto r = run_rulebook("graph " + rules());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("choose by p") != std::string::npos);
  CHECK(r.out.find("shape=diamond") != std::string::npos);
  CHECK(r.out.find("[label=\"play c\"]") != std::string::npos);
  CHECK(r.out.find("[label=\"draw\"]") != std::string::npos);
  CHECK(r.out.find("[label=\"pass\"]") != std::string::npos);
}

TEST_CASE("alternatives: verify encodes the decision, a fault refuted by a game, knowable-moves proved", "[alternatives][cli][verify]") {
  const auto r = run_rulebook("verify " + rules() + " --players 2 --budget 20 --games 20 --no-progress");
  INFO(r.out << r.err);
  CHECK(r.out.find("cannot encode a decision with alternatives") == std::string::npos);
  // Five draws and no heart in hand: no legal move, found by a game (which replays).
  CHECK(r.out.find("refuted  playability") != std::string::npos);
  CHECK(r.out.find("has no legal move in rule 'turn'") != std::string::npos);
  // Every guard reads the chooser's own hand, a card count or a variable written by moves.
  CHECK(r.out.find("proved   knowable-moves") != std::string::npos);
}

TEST_CASE("alternatives: fmt lays a decision with alternatives out one alternative a line", "[alternatives][cli][fmt]") {
  const auto r = run_rulebook("fmt " + quoted_path(source_path("tests/golden/fmt/alternatives.rules")));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == rulebook::test::read_text(source_path("tests/golden/fmt/alternatives.expected")));
}

TEST_CASE("alternatives: simulate runs the decision and is deterministic", "[alternatives][cli]") {
  const auto a = run_rulebook("simulate " + rules() + " --games 50 --seed 9 --option draws=40");
  const auto b = run_rulebook("simulate " + rules() + " --games 50 --seed 9 --option draws=40");
  INFO(a.err);
  CHECK(a.exit_code == b.exit_code);
  CHECK(a.out == b.out);
  CHECK((a.out + a.err).find("rule coverage: 1 of 1 labelled rules fired") != std::string::npos);
}

TEST_CASE("alternatives: replay --partial lists the waiting decision's moves as written", "[alternatives][cli][replay]") {
  const std::string dir = rulebook::test::temp_folder();
  std::string input;
  for (int i = 0; i < 200; ++i) input += "1\n";
  // (This seed's game ends in a rule fault, a dead end of the test rules; the log is written.)
  (void)run_rulebook("play " + rules() + " --seed 2 --log " + quoted_path(dir + "/g.jsonl"), input);
  // The log up to the first move: the first decision waits, with only `draw` legal (hands are
  // empty, the deck is not).
  const std::string log = rulebook::test::read_text(dir + "/g.jsonl");
  const auto first_move = log.find("{\"move\"");
  REQUIRE(first_move != std::string::npos);
  rulebook::test::write_text(dir + "/part.jsonl", log.substr(0, first_move));
  const auto r = run_rulebook("replay --partial " + rules() + " " + quoted_path(dir + "/part.jsonl"));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("  legal: draw\n") != std::string::npos);
}

}  // namespace alternatives_cli_test
