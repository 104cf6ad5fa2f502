// Scale-out: `simulate --shard I/N --stats FILE` runs disjoint ranges of one run's games, and
// `rulebook merge` adds the shards up to exactly the report of one run of all the games.
#include <catch2/catch.hpp>

#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;

namespace cli_shard_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

std::string simulate_args(const std::string& ruleset, std::int64_t games) {
  const int players = ruleset.find("clusterfk") != std::string::npos ? 5 : 3;
  return fmt::format("simulate {} --games {} --players {} --seed 42 --jobs 2", quoted_path(source_path(ruleset)), games,
                     players);
}

// Runs the 4 shards of `games` games, saving shard i's statistics to dir/i.json.
void run_shards(const std::string& dir, const std::string& ruleset, std::int64_t games, const std::string& extra = "") {
  for (int i = 0; i < 4; ++i) {
    const auto r = run_rulebook(simulate_args(ruleset, games) + extra +
                                fmt::format(" --shard {}/4 --stats {}", i, quoted_path(fmt::format("{}/{}.json", dir, i))));
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find(fmt::format("shard {} of 4: games ", i)) != std::string::npos);
  }
}

std::string shard_files(const std::string& dir, std::vector<int> order) {
  std::string out;
  for (const int i : order) out += fmt::format(" '{}/{}.json'", dir, i);
  return out;
}

}  // namespace

TEST_CASE("shards: 4 shards merged give one run's report, text and JSON, in any order", "[cli][shard]") {
  const std::string dir = rulebook::test::temp_folder();
  for (const char* ruleset : {"rulesets/molestation-game.rules", "rulesets/clusterfk.rules"}) {
    INFO(ruleset);
    const std::int64_t games = rulebook::test::games(403);  // not a multiple of 4: uneven shards
    run_shards(dir, ruleset, games);
    const auto one = run_rulebook(simulate_args(ruleset, games));
    REQUIRE(one.exit_code == 0);
    const auto merged = run_rulebook("merge" + shard_files(dir, {2, 0, 3, 1}));
    REQUIRE(merged.exit_code == 0);
    CHECK(merged.out == one.out);

    const auto one_json = run_rulebook(simulate_args(ruleset, games) + " --format json");
    const auto merged_json = run_rulebook("merge --format json" + shard_files(dir, {0, 1, 2, 3}));
    REQUIRE(merged_json.exit_code == 0);
    CHECK(merged_json.out == one_json.out);
    CHECK(nlohmann::json::parse(merged_json.out)["games"] == games);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("shards: merged statistics merge again (a merge of merges is the same run)", "[cli][shard]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::int64_t games = rulebook::test::games(200);
  run_shards(dir, "rulesets/molestation-game.rules", games);
  const auto merged = run_rulebook("merge" + shard_files(dir, {0, 1, 2, 3}) + " --stats " + quoted_path(dir + "/all.json"));
  REQUIRE(merged.exit_code == 0);
  const auto again = run_rulebook("merge " + quoted_path(dir + "/all.json"));
  CHECK(again.exit_code == 0);
  CHECK(again.out == merged.out);
  std::filesystem::remove_all(dir);
}

TEST_CASE("shards: merge refuses shards that are not one whole run, and says why", "[cli][shard]") {
  const std::string dir = rulebook::test::temp_folder();
  run_shards(dir, "rulesets/molestation-game.rules", 40);

  auto r = run_rulebook("merge" + shard_files(dir, {0, 1, 3}));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("shard 2 of 4 is missing") != std::string::npos);

  r = run_rulebook("merge" + shard_files(dir, {0, 1, 2, 3, 1}));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("shard 1 of 4 is given 2 times") != std::string::npos);

  // Shard 3 of another seed.
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 40 --players 3 --seed 43 --shard 3/4 --stats {}",
                                   quoted_path(source_path("rulesets/molestation-game.rules")), quoted_path(dir + "/3.json")))
              .exit_code == 0);
  r = run_rulebook("merge" + shard_files(dir, {0, 1, 2, 3}));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("differ in --seed") != std::string::npos);

  rulebook::test::write_text(dir + "/junk.json", "{\"rulebook-stats\": 1, \"ruleset\": 5}");
  r = run_rulebook("merge " + quoted_path(dir + "/junk.json"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("junk.json: \"ruleset\" has the wrong type") != std::string::npos);

  rulebook::test::write_text(dir + "/text.json", "wins: 3");
  r = run_rulebook("merge " + quoted_path(dir + "/text.json"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("text.json: not JSON") != std::string::npos);

  r = run_rulebook("merge " + quoted_path(dir + "/absent.json"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("cannot read") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("shards: --shard takes I/N with I below N", "[cli][shard]") {
  for (const char* bad : {"4/4", "-1/4", "1/0", "1", "a/b", "1/4x"}) {
    INFO(bad);
    const auto r = run_rulebook(fmt::format("simulate {} --games 10 --shard {}",
                                            quoted_path(source_path("rulesets/molestation-game.rules")), bad));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--shard takes I/N") != std::string::npos);
  }
}

}  // namespace cli_shard_test
