// One file's differential check (see check.hpp). Each finding is compared with the facts of
// exhaustive play its property is about; only `proved` and `refuted` can be wrong (`unknown`
// is always allowed). A refutation must also come with a counterexample that `replay`
// accepts and that shows the violation, where the property has one.
#include "rulebook/differential/check.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "rulebook/grammar/check.hpp"
#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/parse.hpp"
#include "rulebook/ir/lower.hpp"
#include "rulebook/logs/replay.hpp"
#include "rulebook/verifier/verify.hpp"
#include "oracle.hpp"  // verifier/src: the soundness oracle

namespace rulebook::differential {

namespace ri = interpreter;
namespace rv = verifier;

bool same_kind(const Disagreement& a, const Disagreement& b) {
  return a.property == b.property && a.subject == b.subject && a.verifier.substr(0, 6) == b.verifier.substr(0, 6);
}

namespace {

bool is_fault_property(const std::string& p) { return p == "conservation" || p == "playability" || p == "well-defined"; }

// `label (file:line)` -> `label`.
std::string before_paren(const std::string& text) { return text.substr(0, text.find(" (")); }

class Comparison {
 public:
  Comparison(const ri::Machine& machine, const Truth& truth, FileCheck& out) : machine_(machine), truth_(truth), out_(out) {}

  void finding(const rv::Finding& f) {
    if (f.status == rv::Status::kUnknown) {
      ++out_.unknown;
      return;
    }
    ++out_.properties;
    ++(f.status == rv::Status::kProved ? out_.proved : out_.refuted);
    const bool proved = f.status == rv::Status::kProved;
    const std::string said = fmt::format("{}: {}", proved ? "proved" : "refuted", f.message);
    auto wrong = [&](const std::string& subject, const std::string& truth) {
      out_.disagreements.push_back(Disagreement{f.property, subject, said, truth});
    };
    if (!proved && f.counterexample) replay(f, wrong);
    const std::string& p = f.property;
    if (is_fault_property(p)) {
      const bool fails = truth_.has_fault_of(p);
      if (proved && fails) wrong("", fmt::format("a game faults: {}", first_fault(p)));
      if (!proved && truth_.complete && !fails) wrong("", "no game faults so (every state explored)");
    } else if (p == "game-termination" || (p == "terminates" && f.subject == "game")) {
      const bool fails = truth_.game_cycle || truth_.endless_loop;
      if (proved && fails) wrong(f.subject, truth_.endless_loop ? "a game runs without end between decisions" : "a state of a game comes back");
      if (!proved && p == "game-termination" && truth_.complete && !fails) wrong(f.subject, "every game ends (every state explored)");
    } else if (p == "terminates" && f.subject == "round") {
      // Every round ends: no cycle without a round starting (the generator puts no loop in
      // the setup, where such a cycle would not be a round's).
      const bool fails = truth_.round_cycle || truth_.endless_in_round;
      if (proved && fails) wrong(f.subject, "a round can go on for ever (a cycle of its decisions, or without a decision)");
      if (!proved && truth_.complete && !fails) wrong(f.subject, "every round ends (every state explored)");
    } else if (p == "round-termination") {
      // One finding per loop (its span is the loop's head): wrong when exhaustive play shows
      // that very loop going round for ever; a refutation, when no loop of any round can.
      const bool loops = std::find(truth_.looping.begin(), truth_.looping.end(), f.where) != truth_.looping.end();
      if (proved && loops) wrong(f.subject, "this loop can go round for ever (a cycle of its decisions, or without a decision)");
      if (!proved && truth_.complete && !truth_.round_cycle && !truth_.endless_in_round) {
        wrong(f.subject, "every loop of a round ends (every state explored)");
      }
    } else if (p == "reachability") {
      reachability(f, proved, wrong);
    } else if (p == "winnability") {
      winnability(f, proved, wrong);
    } else if (p == "knowable-moves") {
      if (proved && truth_.knowable_conflict) wrong("", truth_.knowable_example);
    } else if (p == "invariant") {
      const auto& invariants = machine_.ir().invariants;
      for (std::size_t i = 0; i < invariants.size(); ++i) {
        if (invariants[i].name != f.subject) continue;
        const bool fails = truth_.invariant_broken[i];
        if (proved && fails) wrong(f.subject, "false where a game waits or at its end");
        if (!proved && truth_.complete && !fails) wrong(f.subject, "true at every decision and end (every state explored)");
      }
    }
  }

 private:
  std::string first_fault(const std::string& property) const {
    for (const SeenFault& s : truth_.faults) {
      if (s.property == property) return fmt::format("{}: {}", s.where, s.message);
    }
    return "?";
  }

  template <typename Wrong>
  void reachability(const rv::Finding& f, bool proved, const Wrong& wrong) {
    const auto& labels = machine_.ir().labels;
    if (proved) {
      if (!truth_.complete) return;
      for (std::size_t l = 0; l < labels.size(); ++l) {
        if (!truth_.fired[l]) wrong(labels[l], "never fires (every state explored)");
      }
      return;
    }
    for (const std::string& d : f.details) {
      if (d.rfind("not shown either way", 0) == 0) continue;
      const std::string label = before_paren(d);
      for (std::size_t l = 0; l < labels.size(); ++l) {
        if (labels[l] == label && truth_.fired[l]) wrong(label, "fires in a game");
      }
    }
  }

  template <typename Wrong>
  void winnability(const rv::Finding& f, bool proved, const Wrong& wrong) {
    const auto won = [&](std::size_t p) { return p < truth_.won.size() && truth_.won[p]; };
    if (proved) {
      if (!truth_.complete) return;
      for (std::size_t p = 0; p < static_cast<std::size_t>(seats_); ++p) {
        if (!won(p)) wrong(fmt::format("player {}", p), "never wins (every state explored)");
      }
      return;
    }
    // "player 0, player 2 can never win"; a refutation in other words would go unchecked.
    if (f.message.find(" can never win") == std::string::npos || f.message.rfind("player ", 0) != 0) {
      wrong("", "the check cannot read which players the refutation names");
      return;
    }
    const std::string list = f.message.substr(0, f.message.find(" can never win"));
    for (std::size_t at = 0; at < list.size();) {
      const std::size_t comma = list.find(", ", at);
      const std::string player = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      if (player.rfind("player ", 0) == 0) {
        const auto p = static_cast<std::size_t>(std::stoll(player.substr(7)));
        if (won(p)) wrong(player, "wins a game");
      }
      if (comma == std::string::npos) break;
      at = comma + 2;
    }
  }

  // The counterexample must replay (a partial log) and, for a fault, stop at a fault of the
  // property; for an invariant, stop where it is false.
  template <typename Wrong>
  void replay(const rv::Finding& f, const Wrong& wrong) {
    grammar::SourceManager sources;
    const auto id = sources.add(fmt::format("{}.jsonl", f.property), f.counterexample->log);
    ri::ReplayOptions options;
    options.partial = true;
    const ri::ReplayResult r = ri::replay(machine_, sources, id, options);
    if (r.outcome == ri::ReplayOutcome::kIllegal || r.outcome == ri::ReplayOutcome::kBadLog) {
      std::string why;
      for (const auto& d : r.diagnostics.items()) {
        if (d.severity == grammar::Severity::kError) why = d.message;
      }
      wrong(f.subject, fmt::format("its counterexample does not replay: {}", why));
      return;
    }
    if (is_fault_property(f.property) && !f.counterexample->log.empty()) {
      const bool shown = r.final_state && r.final_state->fault &&
                         ir::fault_kind_info(r.final_state->fault->kind).property == f.property;
      // A refutation by Z3 alone (impossible things) has no log; a fault property always has one.
      if (!shown) wrong(f.subject, "its counterexample replays without a fault of the property");
    }
    if (f.property == "knowable-moves") knowable_twin(f, r, wrong);
    if (f.property == "invariant" && r.final_state && !r.final_state->fault) {
      for (const auto& inv : machine_.ir().invariants) {
        if (inv.name != f.subject) continue;
        const auto v = machine_.evaluate(*r.final_state, inv.condition);
        if (v && v->truthy()) wrong(f.subject, "its counterexample ends where the invariant holds");
      }
    }
  }

  // A knowable-moves refutation: its twin replays too, to a decision of the same chooser,
  // who sees the same cards and scores there (zone by zone, facing included) and has other options.
  template <typename Wrong>
  void knowable_twin(const rv::Finding& f, const ri::ReplayResult& game, const Wrong& wrong) {
    if (!f.twin) {
      wrong(f.subject, "a knowable-moves refutation without its twin game");
      return;
    }
    grammar::SourceManager sources;
    const auto id = sources.add("twin.jsonl", f.twin->log);
    ri::ReplayOptions options;
    options.partial = true;
    const ri::ReplayResult twin = ri::replay(machine_, sources, id, options);
    const auto at_decision = [](const ri::ReplayResult& r) {
      return r.outcome == ri::ReplayOutcome::kOk && r.final_state && r.final_state->decision && !r.final_state->finished;
    };
    if (!at_decision(game) || !at_decision(twin)) {
      wrong(f.subject, "its two games do not both replay to a decision");
      return;
    }
    const ri::PlayerId chooser = game.final_state->decision->player;
    const auto seen = [&](const ri::State& state) {
      std::vector<std::vector<std::pair<std::int64_t, bool>>> out;
      for (const ri::ZoneView& z : machine_.view(state, chooser).zones) {
        out.emplace_back();
        for (std::size_t i = 0; i < z.cards.size(); ++i) out.back().emplace_back(z.cards[i] ? *z.cards[i] : -1, z.face_up[i]);
      }
      return out;
    };
    const auto options_of = [&](const ri::State& state) {
      std::vector<std::string> texts;
      for (std::size_t m = 0; m < machine_.legal_moves(state).size(); ++m) texts.push_back(machine_.move_text(state, m));
      std::sort(texts.begin(), texts.end());
      return texts;
    };
    if (twin.final_state->decision->player != chooser || seen(*game.final_state) != seen(*twin.final_state) ||
        machine_.scores(*game.final_state) != machine_.scores(*twin.final_state)) {
      wrong(f.subject, "its two games show the chooser different things at the decision");
    } else if (options_of(*game.final_state) == options_of(*twin.final_state)) {
      wrong(f.subject, "its two games give the chooser the same options");
    }
  }

  const ri::Machine& machine_;
  const Truth& truth_;
  FileCheck& out_;

 public:
  std::int64_t seats_ = 0;
};

}  // namespace

FileCheck check_rules(const std::string& text, const std::string& name, const CheckOptions& options) {
  FileCheck out;
  grammar::SourceManager sources;
  grammar::Diagnostics diagnostics;
  const grammar::FileId id = sources.add(name, text);
  auto file = grammar::parse_rules(sources, id, diagnostics);
  std::optional<grammar::Program> program;
  if (!diagnostics.has_errors()) program = grammar::check_program(std::move(file), diagnostics);
  if (!program || diagnostics.has_errors()) {
    for (const auto& d : diagnostics.items()) out.message += grammar::render_text(d, sources, false);
    return out;
  }
  out.checked = true;
  const ri::Machine machine(ir::lower(*program, sources));
  ri::GameConfig config;
  config.seed = 1;
  const auto t0 = std::chrono::steady_clock::now();
  out.truth = explore(machine, config, options.explore);
  const auto t1 = std::chrono::steady_clock::now();
  rv::VerifyOptions vo;
  vo.games = options.games;
  vo.search_states = options.search_states;
  vo.timeout_seconds = options.timeout_seconds;
  vo.budget_seconds = options.budget_seconds;
  vo.search_seconds = 5;
  const rv::VerifyReport report = rv::verify(machine, vo);
  out.verify_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  out.explore_seconds = std::chrono::duration<double>(t1 - t0).count();
  Comparison compare(machine, out.truth, out);
  compare.seats_ = machine.ir().seats;
  for (const rv::Finding& f : report.findings) compare.finding(f);
  if (options.oracle && !out.truth.long_moves) {
    // The soundness oracle on the same file: a concrete step, from a state of a game or a
    // mutated one, that the encoding does not allow is a bug even where no finding is wrong.
    // Not where a move runs long: the oracle runs each of its states to the interpreter's
    // limit (tens of seconds a file).
    rv::OracleOptions oracle;
    oracle.games = 20;
    const auto t2 = std::chrono::steady_clock::now();
    const rv::OracleReport steps = rv::check_abstraction(machine, config, oracle);
    out.oracle_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t2).count();
    out.oracle_steps = steps.steps;
    for (const std::string& failure : steps.failures) {
      out.disagreements.push_back(Disagreement{"oracle", "", "encodes a step", fmt::format("the interpreter takes a step the encoding does not allow: {}", failure)});
    }
  }
  return out;
}

}  // namespace rulebook::differential
