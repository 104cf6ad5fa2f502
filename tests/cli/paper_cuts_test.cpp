// Issue 22's small items in simulate: seed streams that do not overlap, rule coverage that
// tells reached from fired, and no fault log written unasked (hostile_simulate_test.cpp).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "interpreter/game_fixture.hpp"
#include "rulebook/interpreter/simulate.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::source_path;
using rulebook::test::start_game;
using rulebook::test::write_text;

TEST_CASE("seeds: runs under neighbouring seeds share no games", "[papercuts]") {
  // Before, game i of seed s was game i-1 of seed s+1: "three seeds" were one sample.
  std::set<std::uint64_t> seen;
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    for (std::uint64_t g = 0; g < 200; ++g) {
      CHECK(seen.insert(ri::game_seed(seed, g)).second);
    }
  }
  CHECK(ri::game_seed(1, 1) != ri::game_seed(2, 0));
  CHECK(ri::game_seed(2, 1) != ri::game_seed(1, 2));
}

TEST_CASE("seeds: simulate under two seeds plays different first games, and the same seed the same", "[papercuts]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = source_path("rulesets/clusterfk.rules");
  for (const char* seed : {"1", "2"}) {
    const auto r = run_rulebook(fmt::format("simulate '{}' --games 2 --seed {} --logs '{}/s{}'", rules, seed, dir, seed));
    REQUIRE(r.exit_code == 0);
  }
  const auto game_seed = [&](const std::string& file) {
    const std::string text = read_text(file);
    return nlohmann::json::parse(text.substr(0, text.find('\n')))["seed"].get<std::string>();
  };
  const std::set<std::string> first{game_seed(dir + "/s1/game-000000.jsonl"), game_seed(dir + "/s1/game-000001.jsonl")};
  CHECK(first.count(game_seed(dir + "/s2/game-000000.jsonl")) == 0);
  CHECK(first.count(game_seed(dir + "/s2/game-000001.jsonl")) == 0);
  CHECK(game_seed(dir + "/s1/game-000001.jsonl") == std::to_string(ri::game_seed(1, 1)));
}

namespace cli_paper_cuts_test {  // this file's own names (unity builds put several files in one)
namespace {

// A labelled `if` that tests every round but acts only when its condition holds, a labelled
// rule around another (acting only through the inner one), and a rule never reached.
const char* const kCoverageRules =
    "game \"coverage\"\nplayers 2\ncards {\n  standard52\n}\nzone deck: pile hidden\nzone table: pile public\n"
    "var n: int = 0\n"
    "setup {\n  move box to deck\n}\n"
    "round {\n"
    "  rule tick: add 1 to n\n"
    "  rule rare: if n > 1000 {\n    move top(deck) to table\n  }\n"
    "  rule outer: if n > 1 {\n    rule inner: move top(deck) to table\n  }\n"
    "  rule quiet: if n > 2000 {\n    rule never: end game\n  }\n"
    "  if n >= 3 {\n    end game\n  }\n"
    "}\n";

}  // namespace

TEST_CASE("coverage: a labelled rule fires when it acts, not when it is only reached", "[papercuts]") {
  rulebook::test::Game g = start_game(kCoverageRules);
  REQUIRE(g.state.finished);
  const auto label = [&](const std::string& name) {
    const auto& labels = g.machine->ir().labels;
    return static_cast<std::size_t>(std::find(labels.begin(), labels.end(), name) - labels.begin());
  };
  CHECK(g.state.reached[label("tick")] == 3);
  CHECK(g.state.fired[label("tick")] == 3);
  CHECK(g.state.reached[label("rare")] == 3);
  CHECK(g.state.fired[label("rare")] == 0);
  // `outer` acts only through `inner`, in rounds 2 and 3.
  CHECK(g.state.reached[label("outer")] == 3);
  CHECK(g.state.fired[label("outer")] == 2);
  CHECK(g.state.fired[label("inner")] == 2);
  CHECK(g.state.reached[label("never")] == 0);
}

TEST_CASE("coverage: simulate reports rules reached but never fired apart from rules never reached", "[papercuts]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/coverage.rules", kCoverageRules);
  const auto r = run_rulebook(fmt::format("simulate '{}/coverage.rules' --games 3", dir));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("rule coverage: 3 of 6 labelled rules fired, 5 reached\n") != std::string::npos);
  CHECK(r.out.find("  reached, never fired: rare (") != std::string::npos);
  CHECK(r.out.find("  reached, never fired: quiet (") != std::string::npos);
  CHECK(r.out.find("  never reached: never (") != std::string::npos);
  CHECK(r.out.find("never fired: tick") == std::string::npos);
  const auto json = run_rulebook(fmt::format("simulate '{}/coverage.rules' --games 3 --format json", dir));
  REQUIRE(json.exit_code == 0);
  const auto report = nlohmann::json::parse(json.out);
  CHECK(report["rule_coverage"]["rare"] == 0);
  CHECK(report["rule_reached"]["rare"] == 9);
  CHECK(report["rule_coverage"]["inner"] == 6);
}

TEST_CASE("coverage: stats files keep reached and fired, an old file reads its counts as reached", "[papercuts]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/coverage.rules", kCoverageRules);
  for (int i = 0; i < 2; ++i) {
    REQUIRE(run_rulebook(fmt::format("simulate '{0}/coverage.rules' --games 4 --shard {1}/2 --stats '{0}/{1}.json'", dir, i))
                .exit_code == 0);
  }
  const auto merged = run_rulebook(fmt::format("merge '{0}/0.json' '{0}/1.json'", dir));
  REQUIRE(merged.exit_code == 0);
  const auto whole = run_rulebook(fmt::format("simulate '{}/coverage.rules' --games 4", dir));
  CHECK(merged.out == whole.out);
  // `from` as version 2 wrote it: "fired" counted starts.
  const auto save_as_version_2 = [&](const std::string& from, const std::string& to) {
    auto old = nlohmann::json::parse(read_text(dir + "/" + from));
    old["rulebook-stats"] = 2;
    old["fired"] = old["reached"];
    old.erase("reached");
    write_text(dir + "/" + to, old.dump());
  };
  save_as_version_2("0.json", "old.json");
  const auto read_old = run_rulebook(fmt::format("merge '{}/old.json' --format text", dir));
  CHECK(read_old.exit_code == 2);  // one shard of two
  // Shards of different versions are not one run (their games are seeded differently).
  const auto mixed = run_rulebook(fmt::format("merge '{0}/old.json' '{0}/1.json'", dir));
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.err.find("version of the statistics format") != std::string::npos);
  // A whole run of version 2 still reports, with reached rules only.
  REQUIRE(run_rulebook(fmt::format("simulate '{0}/coverage.rules' --games 4 --stats '{0}/all.json'", dir)).exit_code == 0);
  save_as_version_2("all.json", "all2.json");
  const auto v2 = run_rulebook(fmt::format("merge '{}/all2.json'", dir));
  CHECK(v2.exit_code == 0);
  CHECK(v2.out.find("rule coverage: 5 of 6 labelled rules reached (statistics from files of version 1 or 2 do not say which fired)") !=
        std::string::npos);
  // Fired more often than reached is refused.
  auto bad = nlohmann::json::parse(read_text(dir + "/all.json"));
  bad["fired"][0] = 1000;
  write_text(dir + "/bad.json", bad.dump());
  const auto refused = run_rulebook(fmt::format("merge '{}/bad.json'", dir));
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("\"fired\" of label 0 is more than \"reached\"") != std::string::npos);
}

}  // namespace cli_paper_cuts_test
