// What every property check shares: the program, the fixed setting, the abstraction, the
// inductive invariants and the sampled games.
#pragma once

#include <string>
#include <vector>

#include <z3++.h>

#include "invariants.hpp"
#include "sampler.hpp"
#include "rulebook/verifier/verify.hpp"

namespace rulebook::verifier {

struct Context {
  const ri::Machine& machine;
  const ri::Ir& ir;
  ri::GameConfig config;
  const VerifyOptions& options;
  const Setting& setting;
  const CardClasses& classes;
  const Layout& layout;
  z3::context& z3;
  Encoder& encoder;
  Invariants& invariants;
  Sampling& sampling;

  // Checks the conjunction with a fresh solver (fixed seed, the per-query timeout).
  [[nodiscard]] z3::check_result check(const std::vector<z3::expr>& facts) const;
  // Same, and the model's values of `terms` when satisfiable.
  [[nodiscard]] z3::check_result check(const std::vector<z3::expr>& facts, const std::vector<z3::expr>& terms,
                                       std::vector<std::int64_t>& values) const;
  [[nodiscard]] std::string where(const grammar::SourceSpan& span) const { return machine.where(span); }
  // A finding about a declaration (its name is also the finding's key) at `span`.
  [[nodiscard]] Finding finding(const std::string& property, const std::string& subject,
                                const grammar::SourceSpan& span) const;
  // A counterexample from the sampled game `game`, up to `moves` decisions (-1: all).
  [[nodiscard]] Counterexample game_trace(const ri::GameResult& game, std::int64_t moves, std::string violation) const;
};

// Property checks (each appends its findings).
void check_termination(const Context& ctx, std::vector<Finding>& out, bool rounds, bool game, bool claims);
void check_knowable_moves(const Context& ctx, std::vector<Finding>& out);

}  // namespace rulebook::verifier
