// Value aggregates (`max x in S: E`, `min x in S: E`) and enum type names used as sets
// (`choose s in suit by p`): through the interpreter, the formatter and the verifier.
#include <algorithm>
#include <string>

#include <catch2/catch.hpp>

#include "interpreter/game_fixture.hpp"
#include "rulebook/authoring/format.hpp"
#include "rulebook/grammar/dump.hpp"
#include "rulebook/ir/dump.hpp"
#include "rulebook/verifier/verify.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;
using rulebook::test::eval_text;

TEST_CASE("value aggregates: max and min give the value, beside the element form", "[smalllang][interpreter]") {
  CHECK(eval_text("int", "max x in {3, 9, 4}: x * 2") == "18");
  CHECK(eval_text("int", "min x in {3, 9, 4}: x * 2") == "6");
  CHECK(eval_text("int", "max x in {3, 9, 4}: 0 - x") == "-3");
  CHECK(eval_text("int", "max p in players: distance(seat 0, p)") == "3");
  CHECK(eval_text("int", "max x in {3, 9, 4} by 0 - x") == "3");  // the element form is unchanged
  CHECK(eval_text("int", "min c in pile_of(seat 0): rank(c)", "  move {c in box where suit(c) == hearts and rank(c) > 10} to pile_of(seat 0)") == "11");
  CHECK(eval_text("int", "max c in pile_of(seat 0): rank(c)", "  move {c in box where suit(c) == hearts and rank(c) > 10} to pile_of(seat 0)") == "14");
}

TEST_CASE("value aggregates: over an empty set it is the element form's rule fault", "[smalllang][interpreter]") {
  rulebook::test::Game g = rulebook::test::start_game(R"(game "t"
players 2
cards { standard52 }
zone hand(p): pile owner
var n: int = 0
setup {
  rule high: set n := max c in hand(seat 0): rank(c)
}
round {
  end game
}
)");
  REQUIRE(g.state.fault);
  CHECK(g.state.fault->message == "max over an empty set");
  CHECK(g.fault_rule() == "high");
}

TEST_CASE("enum type names: a set of the enum's values, without none", "[smalllang][interpreter]") {
  CHECK(eval_text("int", "count s in suit: true") == "4");
  CHECK(eval_text("int", "count s in color: s != none") == "2");
  CHECK(eval_text("bool", "all s in suit: exists c in box: suit(c) == s") == "true");
  CHECK(eval_text("set of suit", "suit - {hearts}") == "{clubs, diamonds, spades}");
  rulebook::test::Game g = rulebook::test::start_game(R"(game "t"
players 2
cards { standard52 }
enum gesture { rock, paper, scissors }
var shown: gesture = none
var seen: int = 0
round {
  for each g in gesture {
    add 1 to seen
  }
  rule show: choose g in gesture by seat 0 where g != paper
  set shown := g
  rule call: choose s in suit by seat 1
  end game
}
)");
  CHECK(g.int_var("seen") == 3);
  CHECK(g.legal() == std::vector<std::string>{"rock", "scissors"});
  g.choose("scissors");
  CHECK(g.var("shown") == "scissors");
  CHECK(g.legal() == std::vector<std::string>{"clubs", "diamonds", "hearts", "spades"});
}

TEST_CASE("value aggregates and enum sets: the formatter keeps them, and the IR dump names the value form",
          "[smalllang][fmt]") {
  const std::string text = R"(game "t"
players 2
cards { standard52 }
zone hand(p): pile owner
def high(p: player): int = max c in hand(p): rank(c)
def low(p: player): int = 1 + (min c in hand(p): rank(c))
def best(p: player): card = max c in hand(p) by rank(c)
def suits_held(p: player): int = count s in suit: exists c in hand(p): suit(c) == s
round {
  if high(seat 0) + low(seat 0) + suits_held(seat 0) > 100 and rank(best(seat 0)) > 0 {
    end game
  }
  end game
}
)";
  const auto parsed = rulebook::test::parse_text(text, "t.rules");
  REQUIRE_FALSE(parsed.diagnostics.has_errors());
  const std::string once = rulebook::authoring::format_rules(parsed.file, parsed.sources.file(0));
  INFO(once);
  CHECK(once.find("def high(p: player): int = max c in hand(p): rank(c)\n") != std::string::npos);
  CHECK(once.find("def low(p: player): int = 1 + (min c in hand(p): rank(c))\n") != std::string::npos);
  CHECK(once.find("def suits_held(p: player): int = count s in suit: exists c in hand(p): suit(c) == s\n") != std::string::npos);
  const auto again = rulebook::test::parse_text(once, "t.rules");
  REQUIRE_FALSE(again.diagnostics.has_errors());
  CHECK(rulebook::grammar::dump_ast(again.file) == rulebook::grammar::dump_ast(parsed.file));
  CHECK(rulebook::authoring::format_rules(again.file, again.sources.file(0)) == once);
  const std::string ir = rulebook::ir::dump(rulebook::test::machine_for(text)->ir());
  CHECK(ir.find("max value l") != std::string::npos);
  CHECK(ir.find("min value l") != std::string::npos);
}

namespace interpreter_value_aggregates_test {  // this file's own names (unity builds put several files in one)
namespace {

const char* const kTally = R"(game "t"
players 2
cards { chip: 2 }
var points(p): int = 0
var turns: int = 0
invariant top_small: (max p in players: points(p)) <= LIMIT
round {
  rule pick: choose who in players by seat 0
  add 1 to points(who)
  add 1 to turns
  rule stop: if turns >= 3 {
    end game
  }
}
)";

rv::Status invariant_status(const std::string& limit) {
  std::string text = kTally;
  text.replace(text.find("LIMIT"), 5, limit);
  const auto machine = rulebook::test::machine_for(text);
  rv::VerifyOptions options;
  options.games = 100;
  options.properties = {"invariant"};
  const rv::VerifyReport report = rv::verify(*machine, options);
  const auto it = std::find_if(report.findings.begin(), report.findings.end(),
                               [](const rv::Finding& f) { return f.property == "invariant"; });
  REQUIRE(it != report.findings.end());
  INFO(it->message);
  return it->status;
}

}  // namespace

TEST_CASE("value aggregates: the verifier proves a true bound on a max and never a false one", "[smalllang][verifier]") {
  CHECK(invariant_status("3") == rv::Status::kProved);
  CHECK(invariant_status("2") != rv::Status::kProved);
}

}  // namespace interpreter_value_aggregates_test
