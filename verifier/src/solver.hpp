// The one way the verifier sets up and runs a Z3 solver, so that every query runs with the
// same settings: a fixed seed (repeatable runs), a time limit, and the arithmetic solver that
// is fastest on these queries.
#pragma once

#include <z3++.h>

namespace rulebook::verifier {

inline z3::solver make_solver(z3::context& ctx) {
  // Z3's SMT core, without the default solver's tactic front end: that front end is built
  // at each new solver's first check and cost about 10 ms a query (of 10.6 ms for a small
  // one), and the queries, quantifier-free linear arithmetic, need none of it (measured in
  // docs/verification.md, after the table of the invariant search's changes).
  z3::solver solver(ctx, z3::solver::simple());
  z3::params params(ctx);
  params.set("random_seed", 0U);
  // The queries are linear integer arithmetic over card counts with many disjunctions.
  // Z3 4.8.12's older arithmetic solver (arith.solver=2) decides them about twice as fast
  // as the default (6), with the same results (measured on the shipped rulesets:
  // docs/verification.md).
  params.set("arith.solver", 2U);
  solver.set(params);
  return solver;
}

// `solver.check()`, stopped after `timeout_ms` (then unknown, as a Z3 timeout would be). The
// time limit is not Z3's `timeout` parameter: in Z3 4.8.12 that runs a timer from a shared
// thread pool (scoped_timer) that can deadlock with the query it guards, and a `verify` then
// waits forever with no CPU (seen in a test at --timeout 1 under load; Z3 PR 5371, issue 5990).
// A watchdog thread of ours calls Z3_solver_interrupt at the deadline instead; that cancels
// this query only, and the solver and its context stay usable for the next one.
z3::check_result check_within(z3::solver& solver, unsigned timeout_ms);

}  // namespace rulebook::verifier
