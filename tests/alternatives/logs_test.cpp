// Decisions with alternatives in logs: a move line names its alternative, a simulated game's
// log replays to the same state, and an illegal move is explained (no such alternative, a
// false guard, an element the alternative does not allow).
#include <sstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rulebook/grammar/load.hpp"
#include "rulebook/interpreter/agent.hpp"
#include "rulebook/interpreter/simulate.hpp"
#include "rulebook/ir/lower.hpp"
#include "rulebook/logs/log.hpp"
#include "rulebook/logs/narrator.hpp"
#include "rulebook/logs/replay.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace rg = rulebook::grammar;
using nlohmann::json;

namespace alternatives_logs_test {  // this file's own names (unity builds put several files in one)
namespace {

struct Rules {
  rg::SourceManager sources;
  std::shared_ptr<ri::Machine> machine;
};

Rules load() {
  Rules r;
  rg::Diagnostics diagnostics;
  const auto result = rg::load_ruleset(rulebook::test::source_path("tests/alternatives/alternatives.rules"), r.sources, diagnostics);
  REQUIRE(result.status == rg::LoadStatus::kOk);
  r.machine = std::make_shared<ri::Machine>(ri::lower(*result.program, r.sources));
  return r;
}

struct Recorded {
  std::string log;
  ri::State end;
};

Recorded record(const ri::Machine& machine, std::uint64_t seed, const std::string& draws = "5") {
  ri::GameConfig config;
  config.players = 2;
  config.seed = seed;
  config.options["draws"] = draws;
  ri::LogWriter writer(machine, config);
  ri::State state = machine.start(config, &writer);
  ri::RandomAgent agent(ri::agent_seed(seed));
  while (!state.finished) {
    machine.apply(state, agent.choose(machine.view(state, state.decision->player, agent.detail())), &writer);
  }
  return {writer.text(), std::move(state)};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

struct Replayed {
  ri::ReplayResult result;
  std::string text;
};

Replayed replay(const Rules& rules, const std::string& log) {
  rg::SourceManager sources = rules.sources;
  const rg::FileId id = sources.add("game.jsonl", log);
  Replayed r{ri::replay(*rules.machine, sources, id, {}), ""};
  for (const auto& d : r.result.diagnostics.items()) r.text += rg::render_text(d, sources, false);
  return r;
}

// The log up to (not including) the first move line, then `move` as the first move.
std::string with_first_move(const std::string& log, const std::string& move) {
  std::string out;
  for (const std::string& line : lines_of(log)) {
    if (line.rfind("{\"move\"", 0) == 0) return out + move + "\n";
    out += line + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("alternatives: a move line names the alternative, and the log replays to the same state", "[alternatives][replay]") {
  const Rules rules = load();
  int games_with_play = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Recorded game = record(*rules.machine, seed, "40");
    bool saw_draw = false;
    for (const std::string& line : lines_of(game.log)) {
      if (line.rfind("{\"move\"", 0) != 0) continue;
      const json move = json::parse(line)["move"];
      REQUIRE(move.contains("alternative"));
      const std::string alt = move["alternative"];
      if (alt == "draw" || alt == "pass") {
        CHECK(move["choice"].is_null());
        saw_draw |= alt == "draw";
      } else {
        CHECK(alt == "play");
        CHECK(move["choice"].is_string());
      }
      if (alt == "play") ++games_with_play;
    }
    CHECK(saw_draw);
    const Replayed r = replay(rules, game.log);
    INFO(r.text);
    REQUIRE(r.result.outcome == (game.end.fault ? ri::ReplayOutcome::kFault : ri::ReplayOutcome::kOk));
    REQUIRE(r.result.final_state);
    CHECK(r.result.final_state->zones == game.end.zones);
    CHECK(r.result.final_state->moves == game.end.moves);
  }
  CHECK(games_with_play > 0);
  // The exact line of a draw (keys in order, `null` for no element).
  const Recorded game = record(*rules.machine, 3);
  CHECK(game.log.find("{\"move\":{\"alternative\":\"draw\",\"choice\":null,\"player\":0,\"rule\":\"turn\"}}") != std::string::npos);
}

TEST_CASE("alternatives: an illegal move is explained: no such alternative, a false guard, an element not legal", "[alternatives][replay]") {
  const Rules rules = load();
  const Recorded game = record(*rules.machine, 1);
  SECTION("no such alternative") {
    const Replayed r = replay(rules, with_first_move(game.log, R"({"move":{"alternative":"steal","choice":null,"player":0}})"));
    CHECK(r.result.outcome == ri::ReplayOutcome::kIllegal);
    CHECK(r.text.find("rule 'turn' has no alternative 'steal'; its alternatives are play, draw, pass") != std::string::npos);
  }
  SECTION("a false guard") {
    // At the first move the deck is full: pass is not legal, and the note quotes its guard.
    const Replayed r = replay(rules, with_first_move(game.log, R"({"move":{"alternative":"pass","choice":null,"player":0}})"));
    CHECK(r.result.outcome == ri::ReplayOutcome::kIllegal);
    CHECK(r.text.find("step 1: player 0 may not pass in rule 'turn'") != std::string::npos);
    CHECK(r.text.find("`count(deck) == 0` is false") != std::string::npos);
    CHECK(r.text.find("legal here for player 0: draw") != std::string::npos);
  }
  SECTION("an element not legal") {
    // The hands are empty at the first move: 7H is in the deck, not in seat 0's hand.
    const Replayed r = replay(rules, with_first_move(game.log, R"({"move":{"alternative":"play","choice":"7H","player":0}})"));
    CHECK(r.result.outcome == ri::ReplayOutcome::kIllegal);
    CHECK(r.text.find("may not play 7H in rule 'turn'") != std::string::npos);
    CHECK(r.text.find("7H is in deck") != std::string::npos);
  }
  SECTION("an element for an alternative that has none") {
    const Replayed r = replay(rules, with_first_move(game.log, R"({"move":{"alternative":"draw","choice":"7H","player":0}})"));
    CHECK(r.result.outcome == ri::ReplayOutcome::kBadLog);
    CHECK(r.text.find("alternative 'draw' takes no element") != std::string::npos);
  }
  SECTION("a move line without its alternative") {
    const Replayed r = replay(rules, with_first_move(game.log, R"({"move":{"choice":null,"player":0}})"));
    CHECK(r.result.outcome == ri::ReplayOutcome::kBadLog);
    CHECK(r.text.find("\"alternative\"") != std::string::npos);
  }
}

}  // namespace alternatives_logs_test
