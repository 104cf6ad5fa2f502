// The verifier on small rule files, each broken in one way (tests/verifier/cases/): the right
// property is refuted, its counterexample replays in the interpreter and shows the
// violation; the fixed twin of each file is proved.
#include <algorithm>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "rulebook/interpreter/simulate.hpp"
#include "rulebook/logs/replay.hpp"
#include "rulebook/verifier/verify.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;
using rulebook::test::machine_for_file;

namespace verifier_verify_test {  // this file's own names (unity builds put several files in one)
namespace {

struct Verified {
  std::shared_ptr<ri::Machine> machine;
  rv::VerifyReport report;
};

Verified verify_case(const std::string& name, std::vector<std::string> properties = {}) {
  Verified v{machine_for_file("tests/verifier/cases/" + name + ".rules"), {}};
  rv::VerifyOptions options;
  options.games = 100;
  options.properties = std::move(properties);
  v.report = rv::verify(*v.machine, options);
  return v;
}

const rv::Finding& finding(const rv::VerifyReport& report, const std::string& property) {
  const auto it = std::find_if(report.findings.begin(), report.findings.end(),
                               [&](const rv::Finding& f) { return f.property == property; });
  REQUIRE(it != report.findings.end());
  return *it;
}

// Replays a counterexample's log (a game in progress is fine).
ri::ReplayResult replay(const ri::Machine& machine, const std::string& log) {
  rulebook::grammar::SourceManager sources;
  const auto id = sources.add("counterexample.jsonl", log);
  ri::ReplayOptions options;
  options.partial = true;
  return ri::replay(machine, sources, id, options);
}

// The property is refuted by a game that ends in a rule fault, and replaying its log ends
// in the same fault.
const rv::Finding& require_fault_refutes(const Verified& v, const std::string& property, const std::string& message) {
  const rv::Finding& f = finding(v.report, property);
  REQUIRE(f.status == rv::Status::kRefuted);
  CHECK_THAT(f.message, Catch::Contains(message));
  REQUIRE(f.counterexample);
  const ri::ReplayResult r = replay(*v.machine, f.counterexample->log);
  CHECK(r.outcome == ri::ReplayOutcome::kFault);
  REQUIRE(r.final_state);
  REQUIRE(r.final_state->fault);
  CHECK_THAT(f.message, Catch::Contains(r.final_state->fault->message));
  return f;
}

void require_all_proved(const rv::VerifyReport& report, const std::vector<std::string>& properties) {
  for (const std::string& p : properties) {
    INFO(p << ": " << finding(report, p).message);
    CHECK(finding(report, p).status == rv::Status::kProved);
  }
}

// A lasso's log replays and closes: the log up to the start of the cycle ("the state it was
// in after move M") replays to the state at its end (zones, facings, variables, position),
// and the game goes on. Returns the final state's round.
std::int64_t require_lasso_closes(const ri::Machine& machine, const rv::Finding& f) {
  REQUIRE(f.status == rv::Status::kRefuted);
  REQUIRE(f.counterexample);
  const ri::ReplayResult r = replay(machine, f.counterexample->log);
  REQUIRE(r.outcome == ri::ReplayOutcome::kOk);
  CHECK(!r.ended);
  REQUIRE(r.final_state);
  const std::string marker = "the state it was in after move ";
  const auto at = f.counterexample->violation.find(marker);
  REQUIRE(at != std::string::npos);
  const long start = std::stol(f.counterexample->violation.substr(at + marker.size()));
  std::string prefix;
  long moves = 0;
  std::istringstream lines(f.counterexample->log);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("\"move\"") != std::string::npos && moves++ == start) break;
    prefix += line + "\n";
  }
  CHECK(moves > start);
  const ri::ReplayResult before = replay(machine, prefix);
  REQUIRE(before.final_state);
  CHECK(before.final_state->pc == r.final_state->pc);
  CHECK(before.final_state->zones == r.final_state->zones);
  CHECK(before.final_state->card_face_up == r.final_state->card_face_up);
  const auto& x = before.final_state->vars;
  const auto& y = r.final_state->vars;
  REQUIRE(x.size() == y.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    CHECK(x[i].kind == y[i].kind);
    CHECK(x[i].scalar == y[i].scalar);
    CHECK(x[i].items == y[i].items);
  }
  return r.final_state->rounds;
}

}  // namespace

TEST_CASE("verify: a draw from an empty deck is refuted by conservation, and the log replays to the fault") {
  const Verified v = verify_case("draw-from-empty");
  const rv::Finding& f = require_fault_refutes(v, "conservation", "deal 1 from deck, which holds 0 cards");
  const ri::ReplayResult r = replay(*v.machine, f.counterexample->log);
  CHECK(r.final_state->zones[1].empty());  // the deck
}

TEST_CASE("verify: the fixed draw (only while the deck has cards) is proved") {
  const Verified v = verify_case("draw-from-empty-fixed");
  require_all_proved(v.report, {"conservation", "playability", "well-defined", "round-termination", "game-termination",
                                "reachability", "winnability", "knowable-moves"});
}

TEST_CASE("verify: a player with an empty hand and a forced choice is refuted by playability") {
  const Verified v = verify_case("no-legal-move");
  require_fault_refutes(v, "playability", "has no legal choice in rule 'give'");
  // Conservation is not what is wrong here.
  CHECK(finding(v.report, "conservation").status == rv::Status::kProved);
}

TEST_CASE("verify: with a pass for an empty hand every choice has a legal option (proved)") {
  const Verified v = verify_case("no-legal-move-fixed");
  require_all_proved(v.report, {"conservation", "playability", "well-defined", "round-termination", "game-termination",
                                "reachability", "winnability", "knowable-moves"});
}

TEST_CASE("verify: a loop that nobody has to leave is refuted by a lasso that replays") {
  const Verified v = verify_case("endless-loop");
  const rv::Finding& f = finding(v.report, "round-termination");
  REQUIRE(f.status == rv::Status::kRefuted);
  CHECK(f.key == "pass_around");
  CHECK(require_lasso_closes(*v.machine, f) == 1);
  // The game need not end either, for the same reason.
  CHECK(finding(v.report, "game-termination").status == rv::Status::kRefuted);
}

TEST_CASE("verify: a pass-around loop is refuted though a card passed back lies last in the hand") {
  // The state the loop starts in never comes back (the card passed round ends up last in
  // the hand); the state after the first turn of the cycle does. Without the exhaustive
  // search, the sampled games' cycle search finds it at 3 and at 6 players.
  for (const std::int64_t players : {3, 6}) {
    CAPTURE(players);
    auto machine = machine_for_file("tests/verifier/cases/pass-back.rules");
    rv::VerifyOptions options;
    options.games = 100;
    options.players = players;
    options.search_states = 0;
    options.properties = {"round-termination"};
    const rv::VerifyReport report = rv::verify(*machine, options);
    const auto it = std::find_if(report.findings.begin(), report.findings.end(),
                                 [](const rv::Finding& f) { return f.key == "pass_notes"; });
    REQUIRE(it != report.findings.end());
    CHECK(require_lasso_closes(*machine, *it) == 1);
  }
}

TEST_CASE("verify: a game that repeats only through a reshuffle is refuted by a lasso through chance") {
  // The exhaustive search cannot close this cycle: its states keep the random generator,
  // which every shuffle moves on. The lasso fixes the shuffles' results in its log.
  const Verified v = verify_case("reshuffle-loop", {"game-termination"});
  const rv::Finding& f = finding(v.report, "game-termination");
  CHECK_THAT(f.method, Catch::Contains("through chance"));
  require_lasso_closes(*v.machine, f);
  CHECK_THAT(f.counterexample->log, Catch::Contains("shuffle"));
}

TEST_CASE("verify: a game that ends at the third reshuffle is not refuted by a lasso through chance") {
  // Every shuffle brings back the deck, the discards and the hands, but not the count of
  // shuffles, which ends the game: no state repeats.
  const Verified v = verify_case("reshuffle-loop-fixed", {"game-termination"});
  CHECK(finding(v.report, "game-termination").status != rv::Status::kRefuted);
}

TEST_CASE("verify: a cycle that leaves an inner loop and comes back through the outer one refutes only the outer") {
  const Verified v = verify_case("inner-loop-ends", {"round-termination"});
  bool outer = false;
  for (const rv::Finding& f : v.report.findings) {
    if (f.key == "inner") CHECK(f.status != rv::Status::kRefuted);
    if (f.key != "outer") continue;
    outer = true;
    require_lasso_closes(*v.machine, f);
  }
  CHECK(outer);
}

TEST_CASE("verify: a game's cycle through a loop's first iteration does not refute the loop") {
  const Verified v = verify_case("repeat-each-round", {"round-termination", "game-termination"});
  CHECK(finding(v.report, "round-termination").status == rv::Status::kProved);
  require_lasso_closes(*v.machine, finding(v.report, "game-termination"));
}

TEST_CASE("verify: a setup that never ends refutes the game's termination and its claimed measure") {
  const Verified v = verify_case("setup-forever", {"game-termination", "terminates"});
  require_lasso_closes(*v.machine, finding(v.report, "game-termination"));
  CHECK(finding(v.report, "terminates").status == rv::Status::kRefuted);
  // Without a decision the interpreter stops the game: that game is the counterexample.
  const Verified w = verify_case("setup-forever-no-decision", {"game-termination"});
  const rv::Finding& f = finding(w.report, "game-termination");
  REQUIRE(f.status == rv::Status::kRefuted);
  REQUIRE(f.counterexample);
  CHECK(replay(*w.machine, f.counterexample->log).outcome == ri::ReplayOutcome::kFault);
}

TEST_CASE("verify: a loop bounded by repeat ends, with its ranking function") {
  const Verified v = verify_case("endless-loop-fixed");
  const rv::Finding& f = finding(v.report, "round-termination");
  CHECK(f.status == rv::Status::kProved);
  CHECK_THAT(f.message, Catch::Contains("ranking function"));
  require_all_proved(v.report, {"conservation", "playability", "well-defined", "game-termination", "reachability"});
}

TEST_CASE("verify: a loop's `terminates LABEL by M` measure also decides its round-termination") {
  // docs/verification.md, round-termination: the candidates include a claim's measure.
  const Verified v = verify_case("claimed-measure", {"round-termination", "terminates"});
  const rv::Finding& loop = finding(v.report, "round-termination");
  CHECK(loop.status == rv::Status::kProved);
  CHECK_THAT(loop.message, Catch::Contains("the measure of `terminates drain`"));
  CHECK(finding(v.report, "terminates").status == rv::Status::kProved);
  // A measure that grows proves neither; the loop's finding says which candidate failed.
  const Verified wrong = verify_case("claimed-measure-wrong", {"round-termination", "terminates"});
  const rv::Finding& wrong_loop = finding(wrong.report, "round-termination");
  CHECK(wrong_loop.status == rv::Status::kUnknown);
  REQUIRE_FALSE(wrong_loop.details.empty());
  CHECK_THAT(wrong_loop.details.front(), Catch::Contains("the measure of `terminates drain`") && Catch::Contains("can increase"));
  CHECK(finding(wrong.report, "terminates").status == rv::Status::kUnknown);
}

TEST_CASE("verify: a card's rank is bounded by the ranks of the cards, so rank(c) + N is proved to fit where it does") {
  // docs/language.md: standard cards have a rank from 2 to 14. One card class holds all 52
  // cards, so the rank of the deck's top is not one value; it is still at most 14.
  const Verified fits = verify_case("rank-bound", {"well-defined"});
  CHECK(finding(fits.report, "well-defined").status == rv::Status::kProved);
  const Verified over = verify_case("rank-bound-over", {"well-defined"});
  require_fault_refutes(over, "well-defined", "integer overflow");
}

TEST_CASE("verify: a bound past what the sampled games saw is found by widening, so points(p) * 10^18 is proved to fit") {
  // docs/verification.md, "How it works": a broken high bound widens to the sampled high,
  // then to twice that and one. The games rarely see more than 3 points; 5 is reachable.
  const Verified fits = verify_case("bounded-gain", {"well-defined"});
  CHECK(finding(fits.report, "well-defined").status == rv::Status::kProved);
  const Verified over = verify_case("bounded-gain-over", {"well-defined"});
  require_fault_refutes(over, "well-defined", "integer overflow");
}

TEST_CASE("verify: a walk that adds to each player in turn keeps the players it has not reached at their old bound") {
  // docs/verification.md, "How it works": a player's points are at most 2 until the bonus
  // walk reaches them and at most 5 after. Widening one player's bound must not widen the
  // bound of a player the walk has still to reach, or each turn adds 3 again and the bound
  // is lost. The exhaustive search is off: the proof is the invariants'.
  for (const auto& [name, holds] : {std::pair{"walk-bonus", true}, std::pair{"walk-bonus-over", false}}) {
    INFO(name);
    Verified v{machine_for_file(std::string("tests/verifier/cases/") + name + ".rules"), {}};
    rv::VerifyOptions options;
    options.games = 100;
    options.search_states = 0;
    options.properties = {"well-defined"};
    v.report = rv::verify(*v.machine, options);
    if (holds) {
      CHECK(finding(v.report, "well-defined").status == rv::Status::kProved);
    } else {
      const rv::Finding& f = require_fault_refutes(v, "well-defined", "integer overflow");
      // The trace shows the points as they change, and not the walk's own bookkeeping (a
      // value read through the walk's player, `points(local p#7)`).
      bool points_shown = false;
      for (const rv::TraceStep& step : f.counterexample->steps) {
        for (const std::string& change : step.changes) {
          CHECK_THAT(change, !Catch::Contains("local "));
          points_shown = points_shown || change.starts_with("points(");
        }
      }
      CHECK(points_shown);
    }
  }
}

TEST_CASE("verify: a rule that fires only in games longer than the sampled ones is shown by a long witness game") {
  // docs/verification.md, "Long witness games": the sampled games stop at --bound moves; when
  // some did and a rule or seat is not shown, games played as `rulebook simulate` plays them,
  // up to 100,000 moves, show it, and each witness names its game.
  const auto machine = machine_for_file("tests/verifier/cases/late-rule.rules");
  rv::VerifyOptions options;
  options.games = 20;
  options.bound = 50;
  options.properties = {"reachability", "winnability"};
  const rv::VerifyReport report = rv::verify(*machine, options);
  const rv::Finding& reach = finding(report, "reachability");
  REQUIRE(reach.status == rv::Status::kProved);
  CHECK(finding(report, "winnability").status == rv::Status::kProved);
  const auto late = std::find_if(reach.details.begin(), reach.details.end(),
                                 [](const std::string& d) { return d.starts_with("late: fires in a long simulated game"); });
  REQUIRE(late != reach.details.end());
  // "game N of `rulebook simulate --seed 1 --games N+1`": that game, played as simulate plays
  // it, fires the rule.
  const std::size_t at = late->find("game ", late->find("long simulated game") + 19);
  REQUIRE(at != std::string::npos);
  const std::int64_t index = std::stoll(late->substr(at + 5));
  CHECK(index >= options.games);
  CHECK_THAT(*late, Catch::Contains(fmt::format("rulebook simulate --seed 1 --games {}`", index + 1)));
  ri::GameConfig config;
  config.players = 2;
  config.seed = ri::game_seed(1, static_cast<std::uint64_t>(index));
  const ri::GameResult game = ri::play_random_game(*machine, config, 100000);
  const auto label = std::find(machine->ir().labels.begin(), machine->ir().labels.end(), "late");
  REQUIRE(label != machine->ir().labels.end());
  CHECK(game.fired[static_cast<std::size_t>(label - machine->ir().labels.begin())] > 0);
  const auto played_long = [](const rv::VerifyReport& r) {
    return std::any_of(r.notes.begin(), r.notes.end(),
                       [](const std::string& n) { return n.find("long game(s) played") != std::string::npos; });
  };
  CHECK(played_long(report));

  // Without the time for them (--search-seconds 0) the rule is not shown; with sampled games
  // that end by themselves none is played (the rule fires in those).
  options.search_seconds = 0;
  CHECK(finding(rv::verify(*machine, options), "reachability").status == rv::Status::kUnknown);
  options.search_seconds = 20;
  options.bound = 2000;
  options.rounds = 1000;
  const rv::VerifyReport whole = rv::verify(*machine, options);
  CHECK(finding(whole, "reachability").status == rv::Status::kProved);
  CHECK_FALSE(played_long(whole));
}

TEST_CASE("verify: a member of a set of players held in a variable is a player, not none") {
  // docs/language.md: a set cannot hold none (a set literal faults on it).
  Verified v{machine_for_file("tests/verifier/cases/set-members-are-players.rules"), {}};
  rv::VerifyOptions options;
  options.players = 3;
  options.games = 100;
  options.properties = {"well-defined"};
  v.report = rv::verify(*v.machine, options);
  CHECK(finding(v.report, "well-defined").status == rv::Status::kProved);
}

TEST_CASE("verify: a rule that waits for a hand no player can have is dead (refuted by Z3, no log)") {
  const Verified v = verify_case("dead-rule", {"reachability"});
  const rv::Finding& f = finding(v.report, "reachability");
  REQUIRE(f.status == rv::Status::kRefuted);
  CHECK_THAT(f.message, Catch::Contains("bonus"));
  CHECK(!f.counterexample);
}

TEST_CASE("verify: the same rule with a reachable condition fires") {
  const Verified v = verify_case("dead-rule-fixed", {"reachability"});
  CHECK(finding(v.report, "reachability").status == rv::Status::kProved);
}

TEST_CASE("verify: a card put back in the box breaks the declared invariant, shown by a replayable game") {
  const Verified v = verify_case("lost-card", {"invariant"});
  const rv::Finding& f = finding(v.report, "invariant");
  REQUIRE(f.status == rv::Status::kRefuted);
  CHECK(f.subject == "all_in_play");
  REQUIRE(f.counterexample);
  const ri::ReplayResult r = replay(*v.machine, f.counterexample->log);
  REQUIRE(r.outcome == ri::ReplayOutcome::kOk);
  REQUIRE(r.final_state);
  const auto value = v.machine->evaluate(*r.final_state, v.machine->ir().invariants[0].condition);
  REQUIRE(value);
  CHECK(!value->truthy());
}

TEST_CASE("verify: with a discard pile the invariant is proved") {
  const Verified v = verify_case("lost-card-fixed", {"invariant", "conservation"});
  require_all_proved(v.report, {"invariant", "conservation"});
}

TEST_CASE("verify: the same options and seed give the same results") {
  const Verified a = verify_case("endless-loop");
  const Verified b = verify_case("endless-loop");
  REQUIRE(a.report.findings.size() == b.report.findings.size());
  for (std::size_t i = 0; i < a.report.findings.size(); ++i) {
    CHECK(a.report.findings[i].status == b.report.findings[i].status);
    CHECK(a.report.findings[i].message == b.report.findings[i].message);
    if (a.report.findings[i].counterexample) {
      REQUIRE(b.report.findings[i].counterexample);
      CHECK(a.report.findings[i].counterexample->log == b.report.findings[i].counterexample->log);
    }
  }
}

TEST_CASE("verify: an unknown property name is an error") {
  const auto machine = machine_for_file("tests/verifier/cases/lost-card.rules");
  rv::VerifyOptions options;
  options.properties = {"conservaton"};
  CHECK_THROWS_WITH(rv::verify(*machine, options), Catch::Contains("unknown property 'conservaton'"));
}

TEST_CASE("verify: --timeout is Z3 time per property: a pigeonhole invariant is unknown, and says why") {
  // The claim holds in every state, but refuting its negation is the pigeonhole principle for
  // eleven values in ten: far more than two seconds of Z3's time.
  const auto machine = machine_for_file("tests/verifier/cases/pigeonhole-hard.rules");
  rv::VerifyOptions options;
  options.games = 50;
  options.timeout_seconds = 2;
  options.properties = {"invariant", "reachability"};
  const rv::VerifyReport report = rv::verify(*machine, options);
  const rv::Finding& f = finding(report, "invariant");
  CHECK(f.status == rv::Status::kUnknown);
  CHECK_THAT(f.message, Catch::Contains("the property's 2 s of Z3 time, --timeout, ran out"));
  CHECK(std::any_of(f.details.begin(), f.details.end(),
                    [](const std::string& d) { return d.find("the queries left were not run") != std::string::npos; }));
  // Its queries stopped when its time was spent (the bound leaves room for a slow machine).
  CHECK(f.seconds < 10);
  // The other property has its own time, and is decided.
  CHECK(finding(report, "reachability").status == rv::Status::kProved);
}

}  // namespace verifier_verify_test
