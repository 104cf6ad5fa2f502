// Defs inlined at their call sites for running (interpreter/src/inline_defs.hpp): the
// inlined calls give what the calls give, and an argument that faults still faults even
// where the body would not read it.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "inline_defs.hpp"
#include "interpreter/game_fixture.hpp"

namespace ri = rulebook::interpreter;
using rulebook::test::start_game;

namespace interpreter_inline_test {  // this file's own names (unity builds put several files in one)
namespace {

// A game whose setup sets `probe` from `expression`, with these defs.
rulebook::test::Game probe(const std::string& defs, const std::string& type, const std::string& expression) {
  const std::string text = fmt::format(
      "game \"probe\"\nplayers 3\ncards {{\n  standard52\n}}\nzone deck: pile public\nzone hand(p): set owner\nzone pile_of(p): pile public\n"
      "var probe: {} = {}\n{}\nsetup {{\n  move box to deck\n  set probe := {}\n}}\nround {{\n  end game\n}}\n",
      type, type == "int" ? "0" : "false", defs, expression);
  return start_game(text);
}

std::size_t calls(const ri::Ir& ir) {
  return static_cast<std::size_t>(std::count_if(ir.exprs.begin(), ir.exprs.end(), [](const ri::ExprNode& n) { return n.op == ri::ExprOp::kDef; }));
}

}  // namespace

TEST_CASE("inlining: calls with locals, constants and nested calls give the same values", "[interpreter][inline]") {
  const std::string defs =
      "def twice(x: int): int = x + x\n"
      "def plus(a: int, b: int): int = a + b\n"
      "def ranked(c: card): int = rank(c)\n"
      "def sum_twice: int = sum p in players: twice(plus(1, 2))\n";
  auto g = probe(defs, "int", "twice(3) + plus(4, 5) + ranked(top(deck)) + sum_twice");
  REQUIRE_FALSE(g.state.fault);
  // top(deck): the last card moved from the box, the ace of spades (14).
  CHECK(g.int_var("probe") == 6 + 9 + 14 + 3 * 6);
  // Every call is inlined but `twice(plus(1, 2))`: its argument is an expression, and the
  // body reads it twice (inlined, it would be evaluated twice).
  const ri::Ir inlined = ri::inline_defs(g.machine->ir());
  CHECK(calls(g.machine->ir()) == 6);
  CHECK(calls(inlined) == 1);
}

TEST_CASE("inlining: an argument the body would not read still faults", "[interpreter][inline]") {
  // `c` is read only in one branch: inlining `unused(top(pile_of(seat 0)))` would skip the
  // argument, and with it the fault of taking the top of an empty hand.
  const std::string defs = "def unused(c: card): bool = if true then true else rank(c) > 3\n";
  auto g = probe(defs, "bool", "unused(top(pile_of(seat 0)))");
  REQUIRE(g.state.fault);
  CHECK(g.state.fault->message == "top(pile_of(0)): the zone is empty");
  const ri::Ir inlined = ri::inline_defs(g.machine->ir());
  CHECK(calls(inlined) == calls(g.machine->ir()));
}

}  // namespace interpreter_inline_test
