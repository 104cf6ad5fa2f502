// The values a setting decides (verifier/src/static_value.hpp) are the interpreter's: for
// the card predicates that define the card classes, every card gets the value the
// interpreter gives, and no value where the interpreter faults (an overflow, a division by
// zero), never a wrapped number. A predicate the interpreter faults on defines no classes,
// so the verifier keeps its fault obligation.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "layout.hpp"
#include "oracle.hpp"
#include "rulebook/interpreter/evaluator.hpp"
#include "static_value.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;

namespace verifier_static_value_test {  // this file's own names (unity builds put several files in one)
namespace {

// The largest integer, as a product of literals (a literal is at most 1,000,000,000).
const std::string kMaxInt = "(7 * 7 * 73 * 127 * 337 * 92737 * 649657)";

// A game whose one choice is over the cards of the deck that `filter` (over `x`) keeps.
std::string game_with_filter(const std::string& filter) {
  return fmt::format(R"(game "Filter"
players 2
cards {{ standard52 }}
zone deck: pile hidden
zone hand(p): set owner
setup {{ move box to deck }}
round {{
  rule take: choose c in {{x in deck where {}}} by seat 0
  move c to hand(seat 0)
  end game winners players
}}
)",
                     filter);
}

struct Filter {
  ri::ExprId expr = -1;
  ri::Slot slot = -1;
};

// The filter of the game's one comprehension.
Filter find_filter(const ri::Ir& ir) {
  for (const ri::ExprNode& n : ir.exprs) {
    if (n.op == ri::ExprOp::kComprehension) return Filter{n.kids[1], n.index};
  }
  FAIL("no comprehension");
  return {};
}

rv::Setting setting_of(const ri::State& initial) {
  return rv::Setting{initial.num_players, initial.num_seats, initial.options, *initial.cards};
}

std::string text_of(const std::optional<ri::Value>& v) {
  if (!v) return "no value";
  return fmt::format("kind {} value {}", static_cast<int>(v->kind), v->scalar);
}

}  // namespace

TEST_CASE("static value: every card gets the interpreter's value of a card predicate, and none where it faults",
          "[verifier][staticvalue]") {
  const std::vector<std::string> filters = {
      // Overflow in `*`, `+`, `-` and unary `-` on some ranks, not others.
      "rank(x) * 1000000000 * 1000000000 > 0",
      "1000000000 * 1000000000 * 9 + 1000000000 * 100000000 * rank(x) > 0",
      fmt::format("0 - {} + 2 - rank(x) < 0", kMaxInt),
      fmt::format("-(0 - {} + 3 - rank(x)) > 0", kMaxInt),
      // The smallest integer divided by -1, and by zero.
      fmt::format("(0 - {} - 1) / (rank(x) - 3) < 0", kMaxInt),
      fmt::format("(0 - {} - 1) % (rank(x) - 3) == 0", kMaxInt),
      // Division and remainder of negative numbers, comparisons, sets, conditions.
      "(0 - rank(x)) / 4 == -2 or (0 - rank(x)) % 4 == -1",
      "max(rank(x), 7) - min(rank(x), 7) >= 3 and suit(x) in {hearts, spades}",
      "(if color(x) == red then rank(x) else 0 - rank(x)) > 5",
  };
  for (const std::string& filter : filters) {
    INFO(filter);
    const auto machine = rulebook::test::machine_for(game_with_filter(filter));
    const ri::Ir& ir = machine->ir();
    const Filter f = find_filter(ir);
    const ri::State initial = machine->start(ri::GameConfig{2, {}, 1});
    rv::StaticValues values(ir, setting_of(initial));
    for (std::size_t c = 0; c < initial.cards->size(); ++c) {
      INFO((*initial.cards)[c].name);
      ri::State state = initial;
      state.locals[static_cast<std::size_t>(f.slot)] = ri::Value::card(static_cast<std::int64_t>(c));
      const std::optional<ri::Value> expected = ri::Evaluator(ir, state).eval(f.expr);
      rv::StaticEnv env;
      env[f.slot] = ri::Value::card(static_cast<std::int64_t>(c));
      const std::optional<ri::Value> got = values.value(f.expr, env);
      CHECK(text_of(got) == text_of(expected));
    }
  }
}

TEST_CASE("static value: an expression that reads the game has no static value", "[verifier][staticvalue]") {
  const auto machine = rulebook::test::machine_for(game_with_filter("count(hand(seat 0)) < rank(x)"));
  const ri::Ir& ir = machine->ir();
  const Filter f = find_filter(ir);
  const ri::State initial = machine->start(ri::GameConfig{2, {}, 1});
  rv::StaticValues values(ir, setting_of(initial));
  rv::StaticEnv env;
  env[f.slot] = ri::Value::card(0);
  CHECK_FALSE(values.value(f.expr, env));
  // Unbound, the card is not the setting's either.
  CHECK_FALSE(values.value(f.expr, rv::StaticEnv{}));
}

TEST_CASE("static value: a card predicate that overflows on some cards defines no card classes, and the oracle allows "
          "its fault",
          "[verifier][staticvalue]") {
  const auto machine = rulebook::test::machine_for(game_with_filter("rank(x) * 1000000000 * 1000000000 > 0"));
  const ri::State initial = machine->start(ri::GameConfig{2, {}, 1});
  const rv::CardClasses classes = rv::card_classes(machine->ir(), setting_of(initial));
  // A wrapped product would split the deck at rank 10 (true below, false from there).
  CHECK(classes.count() == 1);
  CHECK(classes.predicates.empty());
  // Every game faults at the filter (ranks 10 and up overflow): the abstraction must allow it.
  rv::OracleOptions options;
  options.games = 3;
  const rv::OracleReport report = rv::check_abstraction(*machine, ri::GameConfig{2, {}, 1}, options);
  CHECK(report.faults > 0);
  for (const std::string& failure : report.failures) UNSCOPED_INFO(failure);
  CHECK(report.failures.empty());
}

TEST_CASE("static value: verify reports the smallest integer divided by -1 in a card predicate as a fault, no crash",
          "[verifier][staticvalue]") {
  const std::string path = rulebook::test::temp_folder() + "/division.rules";
  rulebook::test::write_text(path, game_with_filter(fmt::format("(0 - {} - 1) / (rank(x) - 3) < 0", kMaxInt)));
  const auto r = rulebook::test::run_rulebook("verify '" + path + "' --players 2 --property well-defined --no-progress");
  INFO(r.out + r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("refuted  well-defined") != std::string::npos);
}

}  // namespace verifier_static_value_test
