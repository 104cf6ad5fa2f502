// The table of builtins (rulebook/grammar/builtins.def.hpp, rulebook/ir/builtins.hpp): its
// names are unique and round-trip through builtin_by_name, and `abs`, the builtin added by
// following docs/contributing.md, runs in the interpreter and is checked by the verifier.
#include <algorithm>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "interpreter/game_fixture.hpp"
#include "rulebook/logs/replay.hpp"
#include "rulebook/ir/builtins.hpp"
#include "rulebook/verifier/verify.hpp"
#include "support.hpp"

namespace ir = rulebook::ir;
namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;
using rulebook::test::eval_text;
using rulebook::test::machine_for_file;

namespace ir_builtins_test {  // this file's own names (unity builds put several files in one)
namespace {

rv::VerifyReport verify_case(const std::shared_ptr<ri::Machine>& machine) {
  rv::VerifyOptions options;
  options.games = 100;
  options.properties = {"well-defined"};
  return rv::verify(*machine, options);
}

const rv::Finding& well_defined(const rv::VerifyReport& report) {
  const auto it = std::find_if(report.findings.begin(), report.findings.end(),
                               [](const rv::Finding& f) { return f.property == "well-defined"; });
  REQUIRE(it != report.findings.end());
  return *it;
}

}  // namespace

TEST_CASE("builtins: the table's names are unique and each round-trips through builtin_by_name", "[builtins]") {
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < ir::kBuiltinNames.size(); ++i) {
    const std::string_view name = ir::kBuiltinNames[i];
    INFO(std::string(name));
    CHECK(seen.insert(name).second);
    const auto b = ir::builtin_by_name(name);
    REQUIRE(b);
    CHECK(static_cast<std::size_t>(*b) == i);
    CHECK(ir::builtin_name(*b) == name);
    const auto& sig = ir::builtin_signature(*b);
    CHECK(sig.spelling == name);
    CHECK(sig.min_args <= sig.max_args);
    CHECK(sig.max_args <= rulebook::grammar::kMaxBuiltinArgs);
  }
  CHECK(!ir::builtin_by_name("absolute"));
  CHECK(!ir::builtin_by_name(""));
}

TEST_CASE("builtins: abs is in the table with one int and may overflow", "[builtins]") {
  const auto abs = ir::builtin_by_name("abs");
  REQUIRE(abs);
  CHECK(ir::builtin_signature(*abs).min_args == 1);
  CHECK(ir::builtin_signature(*abs).max_args == 1);
  CHECK(ir::builtin_may_raise(*abs, ir::FaultKind::kIntegerOverflow));
  CHECK(!ir::builtin_may_raise(*abs, ir::FaultKind::kDivisionByZero));
  CHECK(ir::builtin_may_raise(ir::Builtin::kOpposite, ir::FaultKind::kNoOppositeSeat));
  CHECK(ir::builtin_faults(ir::Builtin::kMax) == ir::kNoFaults);
}

TEST_CASE("builtins: abs of a positive, a negative and zero in the interpreter", "[builtins]") {
  CHECK(eval_text("int", "abs(7)") == "7");
  CHECK(eval_text("int", "abs(-7)") == "7");
  CHECK(eval_text("int", "abs(0)") == "0");
  CHECK(eval_text("int", "abs(3 - 10) + abs(-2097152 * 2097152 * 2097152 + 8)") == "9223372036854775807");
}

TEST_CASE("builtins: abs of the smallest integer is an IntegerOverflow fault", "[builtins]") {
  rulebook::test::Game g = rulebook::test::start_game(R"(game "t"
players 2
cards { chip: 2 }
var d: int = 0
setup { set d := abs(-2097152 * 2097152 * 2097152) }
round { end game }
)");
  REQUIRE(g.state.fault);
  CHECK(g.state.fault->kind == ri::FaultKind::kIntegerOverflow);
}

TEST_CASE("builtins: abs of a bounded value is proved well-defined", "[builtins][verifier]") {
  const auto machine = machine_for_file("tests/verifier/cases/abs-overflow-fixed.rules");
  const rv::VerifyReport report = verify_case(machine);
  const rv::Finding& f = well_defined(report);
  INFO(f.message);
  CHECK(f.status == rv::Status::kProved);
}

TEST_CASE("builtins: abs of the smallest integer refutes well-defined with a game that replays to the fault",
          "[builtins][verifier]") {
  const auto machine = machine_for_file("tests/verifier/cases/abs-overflow.rules");
  const rv::VerifyReport report = verify_case(machine);
  const rv::Finding& f = well_defined(report);
  INFO(f.message);
  REQUIRE(f.status == rv::Status::kRefuted);
  REQUIRE(f.counterexample);
  rulebook::grammar::SourceManager sources;
  const auto id = sources.add("counterexample.jsonl", f.counterexample->log);
  ri::ReplayOptions options;
  options.partial = true;
  const ri::ReplayResult r = ri::replay(*machine, sources, id, options);
  CHECK(r.outcome == ri::ReplayOutcome::kFault);
  REQUIRE(r.final_state);
  REQUIRE(r.final_state->fault);
  CHECK(r.final_state->fault->kind == ri::FaultKind::kIntegerOverflow);
  CHECK_THAT(f.message, Catch::Contains(r.final_state->fault->message));
}

}  // namespace ir_builtins_test
