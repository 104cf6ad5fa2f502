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

namespace {

// The property a concrete fault breaks, by its kind (fault_kinds.hpp); nothing for a kind
// that no obligation covers (the termination check takes endless loops).
std::optional<ObligationKind> fault_obligation(const ri::Fault& fault) {
  const std::string_view property = ir::fault_kind_info(fault.kind).property;
  if (property == "conservation" || property == "playability" || property == "well-defined") {
    return obligation_kind(fault.kind);
  }
  return std::nullopt;
}

const char* kind_property(ObligationKind kind) {
  switch (kind) {
    case ObligationKind::kTakeFromEmpty: return "conservation";
    case ObligationKind::kLegalChoice: return "playability";
    case ObligationKind::kDefined: return "well-defined";
  }
  return "well-defined";
}

constexpr const char* kInductive = "invariants inferred from simulated games and proved inductive by Z3";

// Conservation, playability and definedness: every obligation under the invariant of its
// position, and a concrete fault from the simulated games as a counterexample.
void check_obligations(Context& ctx, const std::set<std::string>& wanted, std::vector<Finding>& out) {
  const auto started = std::chrono::steady_clock::now();
  // An instruction's condition is checked once per path of a block that runs it: it is
  // proved when it holds on all of them.
  std::map<std::pair<ObligationKind, std::string>, z3::check_result> conditions;
  std::map<ObligationKind, PropertyClock> clocks;  // conservation is part of take-from-empty
  for (const ObligationKind kind : {ObligationKind::kTakeFromEmpty, ObligationKind::kLegalChoice, ObligationKind::kDefined}) {
    clocks[kind] = ctx.new_clock();
  }
  std::vector<bool> runs(ctx.ir.code.size(), false);
  for (std::size_t i = 0; i < ctx.ir.code.size(); ++i) {
    const auto pc = static_cast<std::int32_t>(i);
    if (!ctx.invariants.is_cut(pc) || !ctx.invariants.at(pc).reached()) continue;
    const Block& block = ctx.invariants.block(pc);
    for (const BlockNode& node : block.nodes) runs[static_cast<std::size_t>(node.pc)] = true;
    const z3::expr inv = ctx.invariants.formula(pc, ctx.invariants.state());
    for (const Obligation& ob : block.obligations) {
      if (wanted.count(kind_property(ob.kind)) == 0) continue;
      auto [it, fresh] = conditions.try_emplace({ob.kind, fmt::format("{}: {}", ctx.where(ob.span), ob.what)}, z3::unsat);
      if (it->second != z3::unsat || ob.holds.simplify().is_true()) continue;
      std::vector<z3::expr> facts{inv, !ob.holds};
      facts.insert(facts.end(), block.assumptions.begin(), block.assumptions.end());
      it->second = ctx.check(facts, clocks[ob.kind]);
    }
  }
  std::map<ObligationKind, std::vector<std::string>> open;
  std::map<ObligationKind, std::int64_t> proved;
  for (const auto& [key, result] : conditions) {
    if (result == z3::unsat) {
      ++proved[key.first];
    } else {
      open[key.first].push_back(key.second + (result == z3::unknown ? " (Z3 gave up: timeout)" : " (not implied by the invariant)"));
    }
  }
  // Every card an instruction moves stays a card: the count of each class over all zones
  // (one instruction at a time, for every instruction some block runs). By induction over
  // the steps of a game, each class has all its cards before the step (every card starts
  // in the box), which `move all_cards` and the like need.
  std::vector<std::string> conservation_open;
  if (wanted.count("conservation") != 0) {
    const auto& x = ctx.invariants.state();
    for (std::size_t i = 0; i < ctx.ir.code.size(); ++i) {
      if (!runs[i]) continue;
      const Step step = ctx.encoder.step(static_cast<std::int32_t>(i), x, fmt::format("c{}", i));
      z3::expr_vector changed(ctx.z3);
      std::vector<z3::expr> facts;
      for (std::int32_t k = 0; k < ctx.layout.classes; ++k) {
        z3::expr before = ctx.z3.int_val(0), after = ctx.z3.int_val(0);
        for (std::int32_t z = 0; z < ctx.layout.instances; ++z) {
          const auto index = static_cast<std::size_t>(ctx.layout.count_index(z, k));
          before = before + x[index];
          after = after + step.next[index];
        }
        changed.push_back(before != after);
        facts.push_back(before == ctx.z3.int_val(static_cast<int64_t>(ctx.classes.size[static_cast<std::size_t>(k)])));
      }
      facts.push_back(z3::mk_or(changed));
      facts.insert(facts.end(), step.assumptions.begin(), step.assumptions.end());
      facts.insert(facts.end(), step.continues.begin(), step.continues.end());
      if (ctx.check(facts, clocks[ObligationKind::kTakeFromEmpty]) != z3::unsat) {
        conservation_open.push_back(fmt::format("{}: the number of cards may change here", ctx.where(ctx.ir.code[i].span)));
      }
    }
  }
  // Concrete faults: the first game with a fault of each kind, sampled or found by the
  // exhaustive search (shortest first).
  std::map<ObligationKind, const ri::GameResult*> faulted;
  for (const ri::GameResult& g : ctx.sampling.games) {
    if (!g.fault) continue;
    const auto kind = fault_obligation(*g.fault);
    if (kind && faulted.count(*kind) == 0) faulted[*kind] = &g;
  }
  std::map<ObligationKind, std::pair<const SearchHit*, ri::Fault>> searched;
  for (const SearchHit& hit : ctx.search.hits) {
    if (hit.what != SearchHit::What::kFault) continue;
    const ri::State end = ctx.search_state(hit);
    if (!end.fault) continue;
    const auto kind = fault_obligation(*end.fault);
    if (kind && faulted.count(*kind) == 0 && searched.count(*kind) == 0) searched.emplace(*kind, std::make_pair(&hit, *end.fault));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  for (const ObligationKind kind : {ObligationKind::kTakeFromEmpty, ObligationKind::kLegalChoice, ObligationKind::kDefined}) {
    const std::string name = kind_property(kind);
    if (wanted.count(name) == 0) continue;
    Finding f;
    f.property = name;
    f.seconds = seconds;
    const std::int64_t checked = proved[kind] + static_cast<std::int64_t>(open[kind].size());
    if (faulted.count(kind) != 0) {
      const ri::GameResult& g = *faulted[kind];
      f.status = Status::kRefuted;
      f.method = "a simulated game that ends in a rule fault";
      f.span = g.fault->span;
      f.where = ctx.where(g.fault->span);
      f.message = fmt::format("{}: {}", f.where, g.fault->message);
      f.counterexample = ctx.game_trace(g, -1, fmt::format("rule fault at {}: {}", f.where, g.fault->message));
    } else if (searched.count(kind) != 0) {
      const auto& [hit, fault] = searched.at(kind);
      f.status = Status::kRefuted;
      f.method = "a game found by the exhaustive search over decisions (the shortest)";
      f.span = fault.span;
      f.where = ctx.where(fault.span);
      f.message = fmt::format("{}: {}", f.where, fault.message);
      f.counterexample = ctx.search_trace(*hit, fmt::format("rule fault at {}: {}", f.where, fault.message));
    } else if (open[kind].empty() && (kind != ObligationKind::kTakeFromEmpty || conservation_open.empty())) {
      f.status = Status::kProved;
      f.method = kInductive;
      f.message = kind == ObligationKind::kTakeFromEmpty
                      ? fmt::format("every effect moves cards (counts per card class are kept) and all {} take "
                                    "conditions hold in every reachable state", checked)
                      : fmt::format("all {} conditions hold in every reachable state", checked);
    } else {
      f.status = Status::kUnknown;
      f.method = kInductive;
      std::vector<std::string> list = open[kind];
      if (kind == ObligationKind::kTakeFromEmpty) list.insert(list.end(), conservation_open.begin(), conservation_open.end());
      f.message = fmt::format("{} of {} conditions proved; not proved: {}", checked - static_cast<std::int64_t>(open[kind].size()),
                              checked, list.size());
      f.details = std::move(list);
      f.details.push_back("no simulated game broke them; the abstraction (card counts per class, no facing or "
                          "order) may be too coarse, or the rules may fail in a game not yet found");
      ctx.note_time(f, clocks[kind]);
    }
    out.push_back(std::move(f));
  }
}

void check_invariants(Context& ctx, std::vector<Finding>& out) {
  for (std::size_t i = 0; i < ctx.ir.invariants.size(); ++i) {
    const auto started = std::chrono::steady_clock::now();
    const ir::InvariantInfo& claim = ctx.ir.invariants[i];
    Finding f = ctx.finding("invariant", claim.name, claim.span);
    ctx.start_clock();
    const SearchHit* found = nullptr;
    for (const SearchHit& hit : ctx.search.hits) {
      if (hit.what == SearchHit::What::kInvariant && hit.index == static_cast<std::int32_t>(i)) found = &hit;
    }
    if (!ctx.sampling.broken[i] && found != nullptr) {
      f.status = Status::kRefuted;
      f.method = "a game found by the exhaustive search over decisions (the shortest)";
      const ri::State end = ctx.search_state(*found);
      const std::string when = end.finished ? "at the end of the game" : fmt::format("after {} moves", end.moves);
      f.message = fmt::format("invariant {} is false {}", claim.name, when);
      f.counterexample = ctx.search_trace(*found, fmt::format("{} ({}) is false {}", claim.name, f.where, when));
    } else if (const auto& broken = ctx.sampling.broken[i]) {
      f.status = Status::kRefuted;
      f.method = "a simulated game";
      const std::string when = broken->at_end ? "at the end of the game" : fmt::format("after {} moves", broken->moves);
      f.message = fmt::format("invariant {} is false {}", claim.name, when);
      const ri::GameResult* game = nullptr;
      for (const ri::GameResult& g : ctx.sampling.games) {
        if (g.seed == broken->seed) game = &g;
      }
      f.counterexample = ctx.game_trace(*game, broken->at_end ? -1 : broken->moves,
                                        fmt::format("{} ({}) is false {}", claim.name, f.where, when));
    } else {
      std::vector<std::string> open;
      for (std::size_t p = 0; p < ctx.ir.code.size(); ++p) {
        const auto pc = static_cast<std::int32_t>(p);
        const ir::OpCode code = ctx.ir.code[p].code;
        if (code != ir::OpCode::kChoose && code != ir::OpCode::kEndGame) continue;
        std::size_t way = 0;
        for (Invariants::Reach& r : ctx.invariants.reach(pc)) {
          Step scratch;
          const z3::expr v = ctx.encoder.value(claim.condition, r.state, fmt::format("inv{}_{}_{}", i, pc, way++), scratch);
          r.facts.push_back(v.is_bool() ? !v : v == 0);
          r.facts.insert(r.facts.end(), scratch.assumptions.begin(), scratch.assumptions.end());
          if (ctx.check(r.facts) != z3::unsat) {
            open.push_back(ctx.where(ctx.ir.code[p].span));
            break;
          }
        }
      }
      f.method = kInductive;
      if (open.empty()) {
        f.status = Status::kProved;
        f.message = fmt::format("invariant {} holds at every decision and at the end", claim.name);
      } else {
        f.status = Status::kUnknown;
        f.message = fmt::format("invariant {} is not implied by the inferred invariant at {} point(s); no simulated "
                                "game broke it", claim.name, open.size());
        f.details = std::move(open);
        ctx.note_time(f, ctx.clock);
      }
    }
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    out.push_back(std::move(f));
  }
}

void check_reachability(Context& ctx, std::vector<Finding>& out) {
  const auto started = std::chrono::steady_clock::now();
  ctx.start_clock();
  const std::size_t labels = ctx.ir.labels.size();
  std::vector<bool> fired(labels, false);
  for (const ri::GameResult& g : ctx.sampling.games) {
    for (std::size_t l = 0; l < labels && l < g.reached.size(); ++l) fired[l] = fired[l] || g.reached[l] > 0;
  }
  std::vector<std::string> searched;
  for (const SearchHit& hit : ctx.search.hits) {
    if (hit.what != SearchHit::What::kFired || hit.index < 0 || static_cast<std::size_t>(hit.index) >= labels) continue;
    if (fired[static_cast<std::size_t>(hit.index)]) continue;
    fired[static_cast<std::size_t>(hit.index)] = true;
    searched.push_back(fmt::format("{}: fires after {} moves found by the exhaustive search", ctx.ir.labels[static_cast<std::size_t>(hit.index)],
                                   hit.moves.size()));
  }
  std::vector<std::string> dead, open;
  for (std::size_t l = 0; l < labels; ++l) {
    if (fired[l]) continue;
    bool reachable = false;
    for (std::size_t pc = 0; pc < ctx.ir.code.size() && !reachable; ++pc) {
      const ir::Instr& in = ctx.ir.code[pc];
      if (in.code != ir::OpCode::kFire || in.a != static_cast<std::int32_t>(l)) continue;
      for (const Invariants::Reach& r : ctx.invariants.reach(static_cast<std::int32_t>(pc))) {
        if (ctx.check(r.facts) != z3::unsat) {
          reachable = true;
          break;
        }
      }
    }
    const std::string text = fmt::format("{} ({})", ctx.ir.labels[l], ctx.where(ctx.ir.label_spans[l]));
    (reachable ? open : dead).push_back(text);
  }
  Finding f;
  f.property = "reachability";
  if (!dead.empty()) {
    f.status = Status::kRefuted;
    f.method = "Z3: the invariant `false` at the rule is inductive, so no game reaches it";
    f.message = fmt::format("{} rule(s) can never fire: {}", dead.size(), fmt::join(dead, ", "));
    f.details = dead;
    for (const std::string& o : open) f.details.push_back("not shown either way: " + o);
  } else if (open.empty()) {
    f.status = Status::kProved;
    f.method = "witness games: every rule fired in a simulated game (replayable with its seed) or in one the "
               "exhaustive search found";
    f.message = fmt::format("all {} labelled rules fire", labels);
    f.details = searched;
  } else {
    f.status = Status::kUnknown;
    f.method = "witness games and Z3";
    f.message = fmt::format("{} rule(s) never fired in {} simulated games and are not proved dead", open.size(),
                            ctx.sampling.games.size());
    f.details = open;
    ctx.note_time(f, ctx.clock);
  }
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.push_back(std::move(f));
}

void check_winnability(Context& ctx, std::vector<Finding>& out) {
  const auto started = std::chrono::steady_clock::now();
  ctx.start_clock();
  const std::int32_t seats = ctx.setting.seats;
  std::vector<const ri::GameResult*> witness(static_cast<std::size_t>(seats), nullptr);
  for (const ri::GameResult& g : ctx.sampling.games) {
    for (const ri::PlayerId p : g.winners) {
      if (p >= 0 && p < seats && witness[static_cast<std::size_t>(p)] == nullptr) witness[static_cast<std::size_t>(p)] = &g;
    }
  }
  std::vector<std::string> never, open, shown;
  for (std::int32_t p = 0; p < seats; ++p) {
    if (witness[static_cast<std::size_t>(p)] == nullptr) {
      const auto hit = std::find_if(ctx.search.hits.begin(), ctx.search.hits.end(), [&](const SearchHit& h) {
        return h.what == SearchHit::What::kWon && h.index == p;
      });
      if (hit != ctx.search.hits.end()) {
        shown.push_back(fmt::format("seat {}: wins after {} moves found by the exhaustive search (seed {})", p, hit->moves.size(),
                                    ctx.config.seed));
        continue;
      }
    }
    if (witness[static_cast<std::size_t>(p)] != nullptr) {
      shown.push_back(fmt::format("seat {}: wins the simulated game with seed {}", p, witness[static_cast<std::size_t>(p)]->seed));
      continue;
    }
    bool possible = false;
    for (std::size_t pc = 0; pc < ctx.ir.code.size() && !possible; ++pc) {
      const ir::Instr& in = ctx.ir.code[pc];
      if (in.code != ir::OpCode::kEndGame || in.a < 0) continue;
      std::size_t way = 0;
      for (Invariants::Reach& r : ctx.invariants.reach(static_cast<std::int32_t>(pc))) {
        Step scratch;
        const auto bits = ctx.encoder.players(in.a, r.state, fmt::format("win{}_{}_{}", p, pc, way++), scratch);
        if (!bits) {
          possible = true;
          break;
        }
        r.facts.push_back((*bits)[static_cast<std::size_t>(p)]);
        r.facts.insert(r.facts.end(), scratch.assumptions.begin(), scratch.assumptions.end());
        if (ctx.check(r.facts) != z3::unsat) {
          possible = true;
          break;
        }
      }
    }
    (possible ? open : never).push_back(fmt::format("seat {}", p));
  }
  Finding f;
  f.property = "winnability";
  f.details = shown;
  if (!never.empty()) {
    f.status = Status::kRefuted;
    f.method = "Z3: no end of the game names the seat among the winners in any reachable state";
    f.message = fmt::format("{} can never win", fmt::join(never, ", "));
  } else if (open.empty()) {
    f.status = Status::kProved;
    f.method = "witness games (replayable with their seeds)";
    f.message = fmt::format("every one of the {} seats wins some game", seats);
  } else {
    f.status = Status::kUnknown;
    f.method = "witness games and Z3";
    f.message = fmt::format("{} never won in {} simulated games and are not proved unable to win", fmt::join(open, ", "),
                            ctx.sampling.games.size());
    ctx.note_time(f, ctx.clock);
  }
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.push_back(std::move(f));
}

}  // namespace

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
    std::vector<bool> fired(ir.labels.size(), false), won(static_cast<std::size_t>(setting.seats), false);
    for (const ri::GameResult& g : sampling.games) {
      for (std::size_t l = 0; l < fired.size() && l < g.reached.size(); ++l) fired[l] = fired[l] || g.reached[l] > 0;
      for (const ri::PlayerId p : g.winners) {
        if (p >= 0 && p < setting.seats) won[static_cast<std::size_t>(p)] = true;
      }
    }
    for (std::size_t l = 0; l < fired.size(); ++l) {
      if (!fired[l]) goal.labels.push_back(static_cast<std::int32_t>(l));
    }
    for (std::int32_t p = 0; p < setting.seats; ++p) {
      if (!won[static_cast<std::size_t>(p)]) goal.winners.push_back(p);
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
                 static_cast<int>(ir.code[pc].code), machine.where(ir.code[pc].span), inv.samples, inv.hull.rank(),
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
  report.notes.push_back("kept: cards per zone and class, scalar variables, seats, loop state; not kept: which card "
                         "of a class, facing, order within a pile, sets held in variables (read as any value)");
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
  if (sampling.long_games > 0) {
    report.notes.push_back(fmt::format("sampling stopped {} game(s) at their last decision after {} instructions (the first: "
                                       "game {}, seed {}): a game may run that many; their states up to there are kept",
                                       sampling.long_games, kStepsPerGame, sampling.first_long + 1,
                                       ri::game_seed(config.seed, static_cast<std::uint64_t>(sampling.first_long))));
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
    report.notes.push_back(fmt::format("exhaustive search over decisions (seed {}): {} states{}", config.seed, searched.states,
                                       searched.exhausted ? ", every reachable one"
                                       : searched.cut    ? fmt::format(", cut by --search-states {} or --search-seconds {}",
                                                                       options.search_states, options.search_seconds)
                                                         : fmt::format(", to depth {}", options.bound)));
  }
  if (stats.gave_up > 0) {
    report.notes.push_back(fmt::format("Z3 gave up on {} induction queries; the invariants there were dropped", stats.gave_up));
  }

  if (options.show_invariants) {
    for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
      if (ir.code[pc].code != ir::OpCode::kChoose) continue;
      const ir::Instr& in = ir.code[pc];
      const std::string where = fmt::format("{} {}", machine.where(in.span),
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
