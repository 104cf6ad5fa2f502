// `verify` on games that keep the sampler busy (issue 22): a loop without decisions, a game
// whose rounds each run long, a game under way when the budget is spent. Each run must end
// promptly and its notes (text and JSON) must say which game sampling stopped, and why.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;

namespace cli_verify_sampling_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

// Runs `verify` with `args` and the seconds it took.
std::pair<rulebook::test::RunResult, double> timed(const std::string& args) {
  const auto started = std::chrono::steady_clock::now();
  auto r = run_rulebook("verify " + args);
  return {r, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()};
}

std::string notes_of(const std::string& json_text) {
  const auto doc = nlohmann::json::parse(json_text);
  std::string all;
  for (const auto& note : doc["reports"][0]["notes"]) all += note.get<std::string>() + "\n";
  return all;
}

}  // namespace

TEST_CASE("verify: a loop without decisions stops the sampling promptly, and the notes say so", "[vgraph][verify][long]") {
  const std::string file = quoted_path(source_path("tests/cli/data/endless-loop.rules"));
  const auto [text, seconds] = timed(file + " --players 2");
  INFO(text.out);
  CHECK(text.exit_code == 1);  // game-termination refuted by the looping game
  CHECK(seconds < 120);        // about 6 s of CPU: 2,000,000 instructions, then the replay to the fault
  CHECK(text.out.find("note: sampling stopped game 1 (seed ") != std::string::npos);
  CHECK(text.out.find("it ran 2000000 instructions without a decision") != std::string::npos);
  CHECK(text.out.find("refuted  game-termination") != std::string::npos);
  // One run only: each plays the looping game to the interpreter's fault (50,000,000
  // instructions, 100 s under the sanitizers). The JSON form of such notes is checked below.
}

TEST_CASE("verify: a game that runs long is stopped at its last decision, and the notes say so", "[vgraph][verify][long]") {
  const std::string file = quoted_path(source_path("tests/cli/data/long-game.rules"));
  const auto [r, seconds] = timed(file + " --players 2 --games 2 --property reachability --format json");
  INFO(r.out);
  CHECK(r.exit_code == 0);  // both rules fire in the part of the games that was played
  CHECK(seconds < 120);     // without the stop: 100 rounds of 200,000 repetitions per game
  CHECK(notes_of(r.out).find("sampling stopped 2 game(s) at their last decision after 20000000 instructions (the "
                             "first: game 1, seed ") != std::string::npos);
  const auto text = run_rulebook("verify " + file + " --players 2 --games 2 --property reachability");
  CHECK(text.out.find("note: sampling stopped 2 game(s)") != std::string::npos);
}

TEST_CASE("verify: the budget stops sampling, also a game under way", "[vgraph][verify]") {
  const std::string file = quoted_path(source_path("tests/cli/data/long-game.rules"));
  const auto [r, seconds] = timed(file + " --players 2 --games 1000 --budget 1 --property reachability --format json");
  INFO(r.out);
  CHECK(seconds < 120);
  // The first game is always played (20,000,000 instructions); no other starts after it, or
  // one under way is stopped at its last decision.
  const std::string notes = notes_of(r.out);
  CHECK(notes.find("the budget (1 s, --budget) was spent") != std::string::npos);
}

}  // namespace cli_verify_sampling_test
