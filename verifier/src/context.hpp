// What every property check shares: the program, the fixed setting, the abstraction, the
// inductive invariants and the sampled games.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <z3++.h>

#include "invariants.hpp"
#include "sampler.hpp"
#include "search.hpp"
#include "rulebook/verifier/verify.hpp"

namespace rulebook::verifier {

// The Z3 time one finding may take (`--timeout`): every query of the property draws on it,
// with the time left as its own timeout, and once it is spent a query answers unknown
// without running. Only Z3's time counts, so properties decided together (the conditions
// of each instruction) each have their own.
struct PropertyClock {
  double limit = 0;
  double spent = 0;
  bool ran_out = false;
};

struct Context {
  const ri::Machine& machine;
  const ir::Ir& ir;
  ri::GameConfig config;
  const VerifyOptions& options;
  const Setting& setting;
  const CardClasses& classes;
  const Layout& layout;
  z3::context& z3;
  Encoder& encoder;
  Invariants& invariants;
  Sampling& sampling;
  // The exhaustive search's hits (search.hpp): concrete games, like the sampled ones.
  const SearchResult& search;

  // The clock of the finding being decided, for check() without one.
  mutable PropertyClock clock;

  // A full clock for a finding: `--timeout` seconds.
  [[nodiscard]] PropertyClock new_clock() const { return PropertyClock{static_cast<double>(options.timeout_seconds)}; }
  void start_clock() const { clock = new_clock(); }
  // Checks the conjunction with a fresh solver (fixed seed, the time left on the clock).
  [[nodiscard]] z3::check_result check(const std::vector<z3::expr>& facts) const;
  [[nodiscard]] z3::check_result check(const std::vector<z3::expr>& facts, PropertyClock& on) const;
  // Same, and the model's values of `terms` when satisfiable.
  [[nodiscard]] z3::check_result check(const std::vector<z3::expr>& facts, const std::vector<z3::expr>& terms,
                                       std::vector<std::int64_t>& values, PropertyClock& on) const;
  // For a finding left unknown: says so when its time ran out.
  void note_time(Finding& f, const PropertyClock& on) const;
  [[nodiscard]] std::string where(const grammar::SourceSpan& span) const { return machine.where(span); }
  // A finding about a declaration (its name is also the finding's key) at `span`.
  [[nodiscard]] Finding finding(const std::string& property, const std::string& subject,
                                const grammar::SourceSpan& span) const;
  // A counterexample from the sampled game `game`, up to `moves` decisions (-1: all).
  [[nodiscard]] Counterexample game_trace(const ri::GameResult& game, std::int64_t moves, std::string violation) const;
  // A counterexample from a search hit: its moves from the start, with the setting's seed.
  [[nodiscard]] Counterexample search_trace(const SearchHit& hit, std::string violation) const;
  // The game a search hit leads to.
  [[nodiscard]] ri::State search_state(const SearchHit& hit) const;
};

// Where to find long witness game `index` (Sampling::witnesses): the `rulebook simulate`
// command that plays it, and its length.
std::string long_game(const Context& ctx, std::int64_t index, const ri::GameResult& game);
// "in 300 simulated games" and, when long ones were played, "and 41 long ones".
std::string games_played(const Context& ctx);

// The vacuity guard: every state a sampled game had at a cut point satisfies the invariant
// there and has a transition in the encoding (an exit of its block, or a fault), and every
// labelled rule that fired in a game is reachable under the invariants. Returns what
// failed, or nothing.
std::string vacuity_failure(Context& ctx);

// The method of a finding proved from the inferred invariants.
inline constexpr const char* kInductive = "invariants inferred from simulated games and proved inductive by Z3";

// Property checks (each appends its findings).
void check_obligations(Context& ctx, const std::set<std::string>& wanted, std::vector<Finding>& out);
// An unknown obligation property's message: how many of its conditions were proved, and for
// conservation ('take') how many steps were not shown to keep the cards of each class.
std::string unproved_obligations_message(bool take, std::int64_t proved, std::int64_t checked, std::int64_t steps_open,
                                         std::int64_t steps);
void check_invariants(Context& ctx, std::vector<Finding>& out);
void check_reachability(Context& ctx, std::vector<Finding>& out);
void check_winnability(Context& ctx, std::vector<Finding>& out);
void check_termination(const Context& ctx, std::vector<Finding>& out, bool rounds, bool game, bool claims);
void check_knowable_moves(const Context& ctx, std::vector<Finding>& out);

}  // namespace rulebook::verifier
