// The verifier's driver: builds the abstraction for one setting, infers and proves the
// invariants, then decides each property.
#include "rulebook/verifier/verify.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "context.hpp"
#include "counterexample.hpp"
#include "sampler.hpp"
#include "size_limits.hpp"

namespace rulebook::verifier {

const char* status_name(Status status) {
  switch (status) {
    case Status::kProved: return "proved";
    case Status::kRefuted: return "refuted";
    case Status::kUnknown: return "unknown";
  }
  return "unknown";
}

const std::vector<PropertyInfo>& properties() {
  static const std::vector<PropertyInfo> list = {
      {"conservation", "no card is created, lost or duplicated, and no effect takes from an empty zone"},
      {"playability", "every choice the rules ask for has at least one legal option"},
      {"well-defined", "no other rule fault: a player where one is needed, 'first' finds an element, ..."},
      {"round-termination", "every loop of the setup and of a round ends"},
      {"game-termination", "the game always ends"},
      {"reachability", "every labelled rule can fire"},
      {"winnability", "every seat can win in some game"},
      {"knowable-moves", "a player's legal moves depend only on what the player can see"},
      {"invariant", "every `invariant` declaration holds at every decision and at the end"},
      {"terminates", "every `terminates` declaration holds"},
  };
  return list;
}

int exit_code(const std::vector<VerifyReport>& reports) {
  bool refuted = false, unknown = false;
  for (const VerifyReport& r : reports) {
    for (const Finding& f : r.findings) {
      refuted = refuted || f.status == Status::kRefuted;
      unknown = unknown || f.status == Status::kUnknown;
    }
  }
  return refuted ? 1 : unknown ? 3 : 0;
}

VerifyReport verify_setting(const ri::Machine& machine, const VerifyOptions& options);

VerifyReport verify(const ri::Machine& machine, const VerifyOptions& options) {
  try {
    return verify_setting(machine, options);
  } catch (const z3::exception& e) {
    throw InternalError(fmt::format("Z3: {}", e.msg()));
  }
}

VerifyReport verify_setting(const ri::Machine& machine, const VerifyOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  std::set<std::string> wanted;
  for (const std::string& name : options.properties) {
    const auto& all = properties();
    if (std::none_of(all.begin(), all.end(), [&](const PropertyInfo& p) { return name == p.name; })) {
      std::vector<std::string> names;
      for (const PropertyInfo& p : all) names.emplace_back(p.name);
      throw std::invalid_argument(fmt::format("unknown property '{}' (expected one of: {})", name, fmt::join(names, ", ")));
    }
    wanted.insert(name);
  }
  if (wanted.empty()) {
    for (const PropertyInfo& p : properties()) wanted.insert(p.name);
  }
  const ir::Ir& ir = machine.ir();
  ri::GameConfig config;
  config.players = options.players;
  config.options = options.options;
  config.seed = options.seed;
  const ri::State initial = machine.start(config);  // throws ConfigError
  Setting setting{initial.num_players, initial.num_seats, initial.options, *initial.cards};

  VerifyReport report;
  report.title = ir.title;
  report.players = initial.num_players;
  report.options = options.options;
  // Too large to encode (size_limits.hpp): every finding is unknown, with the reason, before
  // anything that grows with the size runs. The card counts alone are known before any game
  // is played, the rest of the state after a few.
  auto too_large = [&](const std::string& reason) {
    report.findings = undecided_findings(machine, wanted, reason);
    report.notes.push_back("nothing was decided: " + reason);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report;
  };
  if (std::string reason = instructions_over_limit(ir); !reason.empty()) return too_large(reason);
  const CardClasses classes = card_classes(ir, setting);
  if (std::string reason = state_over_limit(std::int64_t{ir.zone_instances} * classes.count(), true); !reason.empty()) {
    return too_large(reason);
  }
  // Progress for the caller's display; nothing is printed here.
  const auto progress = [&](Progress::Stage stage, std::int64_t done, std::int64_t total, std::int64_t left = 0,
                            std::string property = {}) {
    if (!options.progress) return;
    Progress p;
    p.stage = stage;
    p.players = initial.num_players;
    p.done = done;
    p.total = total;
    p.left = left;
    p.property = std::move(property);
    options.progress(p);
  };
  // A stage counted in games or states: announced, then a callback for each step of it.
  const auto counted = [&](Progress::Stage stage, std::int64_t total) -> std::function<void(std::int64_t)> {
    if (!options.progress) return {};
    progress(stage, 0, total);
    return [&progress, stage, total](std::int64_t done) { progress(stage, done, total); };
  };
  // `--budget` covers the inference as a whole: the sampled games and the search for
  // inductive invariants (the exhaustive search has its own limits).
  const auto budget_end = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                        std::chrono::duration<double>(std::clamp(options.budget_seconds, 0.0, 1e9)));
  const SlotKinds kinds = slot_kinds(ir);  // from the checker's types, not from samples
  const Layout layout = make_layout(ir, setting, classes, kinds);
  if (std::string reason = state_over_limit(layout.size(), false); !reason.empty()) return too_large(reason);
  z3::context z3;
  Encoder encoder(z3, ir, setting, classes, layout, kinds);
  Invariants invariants(encoder, layout, cut_points(ir));
  Sampling sampling = sample(machine, config, options.games, options.bound, options.rounds, layout, classes, invariants,
                             budget_end, counted(Progress::Stage::kSampling, options.games));
  // Rare counterexamples: every sequence of decisions from the start, breadth-first, for
  // what the sampled games did not show.
  SearchGoal goal;
  for (std::size_t i = 0; i < ir.invariants.size(); ++i) {
    if (!sampling.broken[i]) goal.invariants.push_back(ir.invariants[i].condition);
  }
  {
    std::vector<bool> open_labels = sampling.fired(ir.labels.size());
    open_labels.flip();
    std::vector<bool> open_seats = sampling.won(setting.seats);
    open_seats.flip();
    // Long games, only where the caps stopped sampled games: a game that ended by itself
    // would have ended the same way under any cap. They share the exhaustive search's time
    // limit (both look for examples) and count as many games as were sampled at most; with
    // nothing open, none is played.
    const bool capped = sampling.capped_moves + sampling.capped_rounds > 0;
    if (capped && options.search_seconds > 0 && !sampling.looped) {
      play_long_witnesses(machine, config, static_cast<std::int64_t>(sampling.games.size()), options.games,
                          options.search_seconds, open_labels, open_seats, sampling,
                          counted(Progress::Stage::kWitnesses, options.games));
    }
    for (std::size_t l = 0; l < open_labels.size(); ++l) {
      if (open_labels[l]) goal.labels.push_back(static_cast<std::int32_t>(l));
    }
    for (std::int32_t p = 0; p < setting.seats; ++p) {
      if (open_seats[static_cast<std::size_t>(p)]) goal.winners.push_back(p);
    }
  }
  goal.lassos = true;  // the termination check keeps those that stay inside a loop
  SearchResult searched;
  if (options.search_states > 0 && !sampling.looped) {
    // Alike cards (20 chips) as one: the hits are real games either way, and exhaustion is not
    // used as a proof.
    searched = search_states(machine, config, goal, options.search_states, options.search_seconds, options.bound,
                             SearchSymmetry::kAlikeCards, counted(Progress::Stage::kSearch, options.search_states));
  }
  if (std::getenv("RULEBOOK_VERIFY_DEBUG") != nullptr) {
    invariants.debug(&layout.names);
    for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
      if (!invariants.is_cut(static_cast<std::int32_t>(pc))) continue;
      const PositionInvariant& inv = invariants.at(static_cast<std::int32_t>(pc));
      fmt::print(stderr, "pc {}: op {} {} samples {} rank {} parts {} equalities {} shared {}\n", pc,
                 static_cast<int>(ir.code[pc].code), machine.where(ir.instr_spans[pc]), inv.samples, inv.hull.rank(),
                 inv.parts.size(), inv.equalities.size(), std::count(inv.shared.begin(), inv.shared.end(), true));
    }
  }
  const double budget_left =
      std::max(0.0, options.budget_seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  std::function<void(std::int64_t, std::int64_t)> queried;
  if (options.progress) {
    queried = [&](std::int64_t left, std::int64_t queries) { progress(Progress::Stage::kInvariants, queries, 0, left); };
  }
  const Invariants::Stats stats = invariants.make_inductive(options.timeout_seconds * 1000U, budget_left, queried);
  const auto positions = static_cast<std::int32_t>(std::count(invariants.cuts().begin(), invariants.cuts().end(), true));
  report.stats = VerifyStats{classes.count(), layout.size(), positions, static_cast<std::int32_t>(ir.code.size()),
                             sampling.states, stats.queries, stats.weakenings, stats.seconds, stats.finished};
  report.notes.push_back(fmt::format("abstraction: {} card class(es), {} state variables, {} control positions (the "
                                     "{} instructions fused into blocks between them)",
                                     classes.count(), layout.size(), positions, ir.code.size()));
  report.notes.push_back("kept: cards per zone and class (and per zone over all classes), scalar variables, seats, "
                         "loop state; not kept: which card of a class, facing, order within a pile, sets held in "
                         "variables (read as any value)");
  if (!stats.finished) {
    report.notes.push_back(fmt::format("the invariant search did not finish within the budget ({} s, --budget): no "
                                       "invariant is used, so most proofs are unknown; refutations by games stand",
                                       options.budget_seconds));
  }
  if (sampling.cut_by_budget) {
    report.notes.push_back(fmt::format("sampling stopped after {} of {} games: the budget ({} s, --budget) was spent",
                                       sampling.games.size(), options.games, options.budget_seconds));
  }
  if (sampling.capped_moves + sampling.capped_rounds > static_cast<std::int64_t>(sampling.games.size()) / 2) {
    report.notes.push_back(fmt::format("{} of the {} simulated games stopped at a cap ({} at --bound {} moves, {} at --rounds {}): "
                                       "the invariants and witnesses come mostly from unfinished games",
                                       sampling.capped_moves + sampling.capped_rounds, sampling.games.size(), sampling.capped_moves,
                                       options.bound, sampling.capped_rounds, options.rounds));
  }
  if (sampling.witness_games > 0) {
    report.notes.push_back(fmt::format("{} long game(s) played past the sampled ones, up to {} moves and no round cap, for the "
                                       "rules and seats the capped games did not show ({:.1f} s, within --search-seconds): "
                                       "{} showed something new",
                                       sampling.witness_games, kWitnessMoves, sampling.witness_seconds, sampling.witnesses.size()));
  }
  if (sampling.long_games > 0) {
    report.notes.push_back(fmt::format("sampling stopped {} game(s) at their last decision after {} instructions (the first: "
                                       "game {}, seed {}): a game may run that many; their states up to there are kept",
                                       sampling.long_games, kStepsPerGame, sampling.first_long + 1,
                                       ri::game_seed(config.seed, static_cast<std::uint64_t>(sampling.first_long))));
  }
  if (sampling.long_loops > 0) {
    report.notes.push_back(fmt::format("{} sampled game(s) ran {} instructions without a decision (the first: game {}, seed {}); "
                                       "played once more without that limit, the first reached a decision (a long loop, "
                                       "not an endless one: no counterexample), so sampling went on; later ones were kept "
                                       "up to their last decision before the loop",
                                       sampling.long_loops, kStepsWithoutDecision, sampling.first_long_loop + 1,
                                       ri::game_seed(config.seed, static_cast<std::uint64_t>(sampling.first_long_loop))));
  }
  if (sampling.budget_stopped) {
    report.notes.push_back(fmt::format("sampling stopped game {} at its last decision: the budget ({} s, --budget) was spent "
                                       "while it was under way", sampling.games.size(), options.budget_seconds));
  }
  if (sampling.looped) {
    report.notes.push_back(fmt::format("sampling stopped game {} (seed {}): it ran {} instructions without a decision, a loop "
                                       "that reaches none; it was played once more to the interpreter's own fault (the "
                                       "counterexample), no later game was sampled, and the exhaustive search was not run",
                                       sampling.games.size(), sampling.games.back().seed, kStepsWithoutDecision));
  }
  if (options.search_states > 0 && !sampling.looped) {
    report.notes.push_back(fmt::format("exhaustive search over decisions (seed {}): {} states{}{}", config.seed, searched.states,
                                       searched.exhausted ? ", every reachable one"
                                       : searched.cut    ? fmt::format(", cut by --search-states {} or --search-seconds {}",
                                                                       options.search_states, options.search_seconds)
                                                         : fmt::format(", to depth {}", options.bound),
                                       searched.draws_cut ? fmt::format("; not every draw of a move was tried (a move drew more than "
                                                                        "{} times, or had more than {} ways to draw)",
                                                                        DrawScript::kMaxDraws, kMaxDrawRunsPerMove)
                                                          : ""));
  }
  if (stats.gave_up > 0) {
    report.notes.push_back(fmt::format("Z3 gave up on {} induction queries; the invariants there were dropped", stats.gave_up));
  }

  if (options.show_invariants) {
    for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
      if (ir.code[pc].code != ir::OpCode::kChoose) continue;
      const ir::Instr& in = ir.code[pc];
      const std::string where = fmt::format("{} {}", machine.where(ir.span_of(in)),
                                            in.rule >= 0 ? ir.labels[static_cast<std::size_t>(in.rule)] : "");
      report.invariants.emplace_back(where, invariants.describe(static_cast<std::int32_t>(pc), layout.names));
    }
  }
  Context ctx{machine, ir, config, options, setting, classes, layout, z3, encoder, invariants, sampling, searched, {}};
  const std::string vacuous = vacuity_failure(ctx);
  if (!vacuous.empty()) report.notes.push_back("internal error: the vacuity check failed (" + vacuous + "); no proof from Z3 is reported");
  // Each check announced with the properties it decides (in the order of properties()).
  std::int64_t checked = 0;
  const auto deciding = [&](std::initializer_list<const char*> names) {
    std::vector<std::string> asked;
    for (const char* name : names) {
      if (wanted.count(name) != 0) asked.emplace_back(name);
    }
    if (!asked.empty()) progress(Progress::Stage::kProperty, checked, static_cast<std::int64_t>(wanted.size()), 0,
                                 fmt::format("{}", fmt::join(asked, ", ")));
    checked += static_cast<std::int64_t>(asked.size());
    return !asked.empty();
  };
  (void)deciding({"conservation", "playability", "well-defined"});
  check_obligations(ctx, wanted, report.findings);
  if (deciding({"round-termination", "game-termination", "terminates"})) {
    check_termination(ctx, report.findings, wanted.count("round-termination") != 0, wanted.count("game-termination") != 0,
                      wanted.count("terminates") != 0);
  }
  if (deciding({"reachability"})) check_reachability(ctx, report.findings);
  if (deciding({"winnability"})) check_winnability(ctx, report.findings);
  if (deciding({"knowable-moves"})) check_knowable_moves(ctx, report.findings);
  if (deciding({"invariant"})) check_invariants(ctx, report.findings);
  // A proof from an unsatisfiable premise is no proof: only what games show stands.
  if (!vacuous.empty()) {
    for (Finding& f : report.findings) {
      const bool by_game = f.counterexample.has_value() || f.method.starts_with("witness games");
      if (by_game || f.status == Status::kUnknown) continue;
      f.status = Status::kUnknown;
      f.message = "not decided: the vacuity check failed (" + vacuous + "); " + f.message;
    }
  }
  // Report in the order of the property list.
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    auto rank = [](const std::string& name) {
      const auto& all = properties();
      for (std::size_t i = 0; i < all.size(); ++i) {
        if (name == all[i].name) return i;
      }
      return all.size();
    };
    return rank(a.property) < rank(b.property);
  });
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace rulebook::verifier
