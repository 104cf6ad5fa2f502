// Source spans are a side table of the IR (docs/ir.md#source-spans): one span per node and per
// instruction, read when something is reported. A fault names the place in the rule file
// that faulted, also inside a definition whose body the interpreter inlined at the call.
#include <stdexcept>

#include <catch2/catch.hpp>

#include "interpreter/game_fixture.hpp"
#include "support.hpp"

namespace rulebook::test {

TEST_CASE("ir spans: one span per node and per instruction, every node and effect placed", "[ir][spans]") {
  for (const std::string ruleset : {"rulesets/molestation-game.rules", "rulesets/clusterfk.rules"}) {
    INFO(ruleset);
    const auto machine = machine_for_file(ruleset);
    const ir::Ir& program = machine->ir();
    REQUIRE(program.expr_spans.size() == program.exprs.size());
    REQUIRE(program.instr_spans.size() == program.code.size());
    for (std::size_t id = 0; id < program.exprs.size(); ++id) {
      INFO("x" << id);
      CHECK(program.span_of(static_cast<ir::ExprId>(id)).valid());
      CHECK(&program.span_of(program.exprs[id]) == &program.expr_spans[id]);
    }
    for (std::size_t pc = 0; pc < program.code.size(); ++pc) {
      INFO("instruction " << pc);
      const ir::Instr& in = program.code[pc];
      // Only the jumps that close a loop or skip an `else`, and the start of the round (whose
      // place is Ir::round_span), are made by lowering rather than written.
      if (in.code != ir::OpCode::kJump && in.code != ir::OpCode::kRoundStart) CHECK(program.instr_span(static_cast<std::int32_t>(pc)).valid());
      CHECK(&program.span_of(in) == &program.instr_spans[pc]);
    }
  }
}

TEST_CASE("ir spans: a copy of a node has no span to give", "[ir][spans]") {
  const auto machine = machine_for_file("rulesets/clusterfk.rules");
  const ir::Ir& program = machine->ir();
  const ir::ExprNode copy = program.exprs.front();
  CHECK_THROWS_AS((void)program.span_of(copy), std::logic_error);
  const ir::Instr instr = program.code.front();
  CHECK_THROWS_AS((void)program.span_of(instr), std::logic_error);
}

TEST_CASE("ir spans: a fault inside an inlined definition names the definition's body", "[ir][spans]") {
  // `ratio(k)` with a local argument is inlined by the interpreter (interpreter/src/inline_defs.hpp);
  // the division by zero is on line 6, in the body, not on line 10 at the call.
  const std::string file = temp_folder() + "/ratio.rules";
  write_text(file,
             "game \"Fault in a definition\"\n"
             "players 2\n"
             "cards { chip: 2 }\n"
             "var d: int = 0\n"
             "def ratio(x: int): int =\n"
             "  100 / x\n"
             "round {\n"
             "  rule pick: choose z in {0, 1} by seat 0\n"
             "  let k = z\n"
             "  set d := ratio(k)\n"
             "  rule stop: end game winners players\n"
             "}\n");
  const RunResult out = run_rulebook("simulate \"" + file + "\" --games 20 --seed 1");
  REQUIRE(out.exit_code == 1);
  CHECK(out.err.find("division by zero") != std::string::npos);
  CHECK(out.err.find("ratio.rules:6") != std::string::npos);
}

}  // namespace rulebook::test
