// Context's queries and traces (context.hpp): every Z3 query of a property goes through
// Context::check, which charges its time to the property's clock.
#include <chrono>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "context.hpp"
#include "counterexample.hpp"
#include "solver.hpp"

namespace rulebook::verifier {

z3::check_result Context::check(const std::vector<z3::expr>& facts) const { return check(facts, clock); }

z3::check_result Context::check(const std::vector<z3::expr>& facts, PropertyClock& on) const {
  std::vector<std::int64_t> none;
  return check(facts, {}, none, on);
}

z3::check_result Context::check(const std::vector<z3::expr>& facts, const std::vector<z3::expr>& terms,
                                std::vector<std::int64_t>& values, PropertyClock& on) const {
  const double left = on.limit - on.spent;
  if (left < 0.001) {
    on.ran_out = true;
    return z3::unknown;
  }
  const auto started = std::chrono::steady_clock::now();
  z3::solver solver = make_solver(z3);
  for (const z3::expr& f : facts) solver.add(f);
  const z3::check_result r = check_within(solver, static_cast<unsigned>(std::ceil(left * 1000)));
  on.spent += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (r == z3::unknown && on.spent >= on.limit) on.ran_out = true;
  if (r == z3::sat) {
    const z3::model m = solver.get_model();
    values.clear();
    for (const z3::expr& t : terms) {
      std::int64_t value = 0;
      if (!m.eval(t, true).is_numeral_i64(value)) value = std::numeric_limits<std::int64_t>::max();
      values.push_back(value);
    }
  }
  return r;
}

void Context::note_time(Finding& f, const PropertyClock& on) const {
  if (f.status != Status::kUnknown || !on.ran_out) return;
  f.message += fmt::format(" (the property's {} s of Z3 time, --timeout, ran out)", options.timeout_seconds);
  f.details.push_back(fmt::format("Z3 time: {} s of {} s; the queries left were not run", std::lround(on.spent),
                                  options.timeout_seconds));
}

Finding Context::finding(const std::string& property, const std::string& subject, const grammar::SourceSpan& span) const {
  Finding f;
  f.property = property;
  f.subject = subject;
  f.key = subject;
  f.span = span;
  f.where = where(span);
  return f;
}

Counterexample Context::game_trace(const ri::GameResult& game, std::int64_t moves, std::string violation) const {
  ri::GameConfig c = config;
  c.seed = game.seed;
  return replay_game(machine, c, moves, {}, layout, classes, std::move(violation));
}

ri::State Context::search_state(const SearchHit& hit) const {
  ri::State state = machine.start(config);
  DrawScript draws;  // the search's draws, where the rules have random choices
  for (std::size_t m = 0; m < hit.moves.size(); ++m) {
    if (state.finished) break;
    draws.reset(m < hit.draws.size() ? &hit.draws[m] : nullptr);
    if (hit.draws.empty()) {
      machine.apply(state, hit.moves[m]);
    } else {
      machine.apply(state, hit.moves[m], &draws);
    }
  }
  return state;
}

Counterexample Context::search_trace(const SearchHit& hit, std::string violation) const {
  return replay_game(machine, config, 0, hit.moves, layout, classes, std::move(violation), hit.draws);
}

std::string long_game(const Context& ctx, std::int64_t index, const ri::GameResult& game) {
  // `simulate --logs DIR` names it game-NNNNNN.jsonl (cli/src/simulate_command.cpp).
  return fmt::format("game {} of `rulebook simulate --seed {} --games {}` with this run's players and options, its "
                     "log game-{:06}.jsonl with --logs ({} moves, {} rounds; the sampled games stop at {} moves or {} rounds)",
                     index, ctx.options.seed, index + 1, index, game.moves, game.rounds, ctx.options.bound,
                     ctx.options.rounds);
}

std::string games_played(const Context& ctx) {
  std::string out = fmt::format("in {} simulated games", ctx.sampling.games.size());
  if (ctx.sampling.witness_games > 0) out += fmt::format(" and {} long ones", ctx.sampling.witness_games);
  return out;
}

}  // namespace rulebook::verifier
