// Every Z3 query of the verifier runs through check_within (verifier/src/solver.hpp): the time
// limit is a watchdog of ours, not Z3's `timeout` parameter, whose timer can deadlock in Z3
// 4.8.12. What a user relies on: a hard query stops near its limit with `unknown`, and the
// next query on the same context is answered (the interrupt does not stay behind).
#include <chrono>

#include <catch2/catch.hpp>

#include "solver.hpp"

namespace verifier_solver_test {  // this file's own names (unity builds put several files in one)
namespace {

// Pigeonhole: n + 1 pigeons in n holes, as integers; unsatisfiable, and hard for Z3 at n = 12.
void pigeonhole(z3::context& ctx, z3::solver& solver, int holes) {
  z3::expr_vector pigeons(ctx);
  for (int i = 0; i <= holes; ++i) {
    const z3::expr p = ctx.int_const(("p" + std::to_string(i)).c_str());
    solver.add(p >= 0 && p < holes);
    pigeons.push_back(p);
  }
  solver.add(z3::distinct(pigeons));
}

}  // namespace

TEST_CASE("solver: a query stops at its time limit with unknown, and the context answers the next one", "[verifier][solver]") {
  z3::context ctx;
  z3::solver hard = rulebook::verifier::make_solver(ctx);
  pigeonhole(ctx, hard, 12);
  const auto started = std::chrono::steady_clock::now();
  CHECK(rulebook::verifier::check_within(hard, 300) == z3::unknown);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  CHECK(seconds < 20.0);  // 0.3 s and the time Z3 takes to notice, even on a loaded machine

  z3::solver easy = rulebook::verifier::make_solver(ctx);
  const z3::expr x = ctx.int_const("x");
  easy.add(x > 3 && x < 5);
  CHECK(rulebook::verifier::check_within(easy, 10000) == z3::sat);
  CHECK(easy.get_model().eval(x).get_numeral_int64() == 4);
  easy.add(x != 4);
  CHECK(rulebook::verifier::check_within(easy, 10000) == z3::unsat);
}

}  // namespace verifier_solver_test
