// The statistics library (stats/), called directly: Wilson intervals, folding games in,
// shards, merging, the statistics file and its old versions, the report. The charts are in
// stats_plots_test.cpp; the command line's use of all this is in tests/cli/shard_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rulebook/stats/merge.hpp"
#include "rulebook/stats/report.hpp"
#include "rulebook/stats/simulation_stats.hpp"
#include "rulebook/stats/stats_file.hpp"
#include "rulebook/stats/wilson.hpp"
#include "stats/stats_fixture.hpp"

namespace rs = rulebook::stats;
using rulebook::stats::test::game;
using rulebook::stats::test::run;

namespace stats_stats_test {  // this file's own names (unity builds put several files in one)
namespace {

// The message of the StatsError that `f` throws, or "" when it throws none.
template <typename F>
std::string refusal(F f) {
  try {
    f();
  } catch (const rs::StatsError& e) {
    return e.what();
  }
  return "";
}

std::vector<rs::SimulationStats> shards_of(std::int64_t games, std::int64_t count) {
  std::vector<rs::SimulationStats> out;
  for (std::int64_t i = 0; i < count; ++i) out.push_back(run(games, i, count));
  return out;
}

// A file's JSON, edited, read back.
template <typename Edit>
std::string refusal_of_edited(const rs::SimulationStats& stats, Edit edit) {
  nlohmann::json j = rs::stats_to_json(stats);
  edit(j);
  return refusal([&] { (void)rs::stats_from_text(j.dump()); });
}

}  // namespace

TEST_CASE("stats: the Wilson interval at 95% gives the published figures", "[stats]") {
  // Wilson (1927), as tabulated by Newcombe (1998): 0/10, 5/10, 10/10, and 500/1000.
  const auto [lo0, hi0] = rs::wilson_interval(0, 10);
  CHECK(lo0 == Approx(0).margin(1e-12));
  CHECK(hi0 == Approx(0.2775).margin(1e-4));
  const auto [lo5, hi5] = rs::wilson_interval(5, 10);
  CHECK(lo5 == Approx(0.2366).margin(1e-4));
  CHECK(hi5 == Approx(0.7634).margin(1e-4));
  const auto [lo10, hi10] = rs::wilson_interval(10, 10);
  CHECK(lo10 == Approx(0.7225).margin(1e-4));
  CHECK(hi10 == Approx(1).margin(1e-12));
  const auto [lo, hi] = rs::wilson_interval(500, 1000);
  CHECK(lo == Approx(0.4691).margin(1e-4));
  CHECK(hi == Approx(0.5309).margin(1e-4));
  // No finished game: no interval, rather than a division by zero.
  CHECK(rs::wilson_interval(0, 0) == std::pair{0.0, 0.0});
}

TEST_CASE("stats: folding in games counts wins, games without a winner, capped games and rule starts", "[stats]") {
  rs::SimulationStats s = run(0, 0, 1);
  rulebook::interpreter::GameResult won = game(1);
  won.winners = {1};
  won.rounds = 4;
  won.moves = 30;
  won.reached = {3, 1};
  won.fired = {2, 0};
  rulebook::interpreter::GameResult shared = won;
  shared.winners = {0, 1};
  shared.rounds = 6;
  rulebook::interpreter::GameResult nobody = won;
  nobody.winners = {};
  rulebook::interpreter::GameResult capped = won;
  capped.capped = true;
  capped.rounds = 99;
  s.add(won, 0);
  s.add(shared, 1);
  s.add(nobody, 2);
  s.add(capped, 3);
  CHECK(s.played == 4);
  CHECK(s.capped == 1);
  CHECK(s.capped_games == std::vector<std::int64_t>{3});
  CHECK(s.finished() == 3);
  CHECK(s.no_winner == 1);
  CHECK(s.wins == std::vector<std::int64_t>{1, 2, 0});
  CHECK(s.automated == std::vector<bool>{false, false, true});
  CHECK(s.human_players() == 2);
  CHECK(s.win_rate(1) == Approx(2.0 / 3.0));
  // Lengths of finished games only: the capped game's 99 rounds are not a game length.
  CHECK(s.rounds == std::map<std::int64_t, std::int64_t>{{4, 2}, {6, 1}});
  CHECK(s.moves == std::map<std::int64_t, std::int64_t>{{30, 3}});
  // Rule starts and firings of every game, capped ones included.
  CHECK(s.reached == std::vector<std::uint64_t>{12, 4});
  CHECK(s.fired == std::vector<std::uint64_t>{8, 0});
}

TEST_CASE("stats: only the first 100 capped games are listed, all are counted", "[stats]") {
  rs::SimulationStats s = run(0, 0, 1);
  rulebook::interpreter::GameResult capped = game(0);
  capped.capped = true;
  for (std::int64_t g = 0; g < 250; ++g) s.add(capped, 1000 + g);
  CHECK(s.capped == 250);
  REQUIRE(s.capped_games.size() == rs::kCappedListed);
  CHECK(s.capped_games.front() == 1000);
  CHECK(s.capped_games.back() == 1099);
  CHECK(rs::stats_report(s, false).find("(games 1000, 1001, ") != std::string::npos);
  CHECK(rs::stats_report(s, false).find(", 1099, and 150 more, not listed)") != std::string::npos);
}

TEST_CASE("stats: shards cover every game once, in order, even for 2^63 - 1 games", "[stats]") {
  for (const std::int64_t games : {std::int64_t{1}, std::int64_t{7}, std::int64_t{1000},
                                   std::numeric_limits<std::int64_t>::max()}) {
    for (const std::int64_t shards : {std::int64_t{1}, std::int64_t{3}, std::int64_t{7}, rs::kMaxShards}) {
      std::int64_t next = 0;
      bool contiguous = true, even = true;
      for (std::int64_t shard = 0; shard < shards; ++shard) {
        const auto [first, last] = rs::shard_range(games, shard, shards);
        contiguous = contiguous && first == next;
        // Shards differ by at most one game.
        even = even && last - first >= games / shards && last - first - games / shards <= 1;
        next = last;
      }
      INFO(games << " games in " << shards << " shards");
      CHECK(contiguous);
      CHECK(even);
      CHECK(next == games);
    }
  }
}

TEST_CASE("stats: shards given in any order merge into exactly the statistics of one run", "[stats]") {
  // 800 games, every seventh capped: 114 capped, more than the 100 listed, in no single shard,
  // so the list of the merge is the run's first 100 only if shards are added in order.
  const std::int64_t games = 800;
  const rs::SimulationStats whole = run(games, 0, 1);
  REQUIRE(whole.capped > static_cast<std::int64_t>(rs::kCappedListed));
  std::vector<rs::SimulationStats> shards = shards_of(games, 4);
  std::reverse(shards.begin(), shards.end());
  std::swap(shards[0], shards[2]);
  const rs::SimulationStats merged = rs::merge_stats(shards);
  CHECK(merged == whole);
  // What a user compares: the saved file and both reports, byte for byte.
  CHECK(rs::stats_file_text(merged) == rs::stats_file_text(whole));
  CHECK(rs::stats_report(merged, false) == rs::stats_report(whole, false));
  CHECK(rs::stats_report(merged, true) == rs::stats_report(whole, true));
  // One shard alone is its own run only when there is one shard.
  CHECK(rs::merge_stats({run(games, 0, 1)}) == whole);
}

TEST_CASE("stats: shards of different runs do not merge", "[stats]") {
  std::vector<rs::SimulationStats> shards = shards_of(90, 3);
  const auto differs = [&](const char* what, auto edit) {
    std::vector<rs::SimulationStats> edited = shards;
    edit(edited[1]);
    CHECK(refusal([&] { (void)rs::merge_stats(edited); }) ==
          std::string("shard 0 and shard 1 differ in ") + what + ": they are not parts of one run");
  };
  differs("--seed", [](rs::SimulationStats& s) { s.seed = 8; });
  differs("the rules", [](rs::SimulationStats& s) { s.source_hash = "other"; });
  differs("the version of the statistics format (games are seeded differently)",
          [](rs::SimulationStats& s) { s.version = 2; });
  differs("--option", [](rs::SimulationStats& s) { s.options["notes"] = "64"; });
  differs("--players", [](rs::SimulationStats& s) { s.players_requested = 4; });
  differs("--max-moves", [](rs::SimulationStats& s) { s.max_moves = 5; });
  differs("the rule file's path", [](rs::SimulationStats& s) { s.file = "other.rules"; });
  differs("the rule labels", [](rs::SimulationStats& s) { s.labels[0] = "other"; });
}

TEST_CASE("stats: a shard missing, given twice or interrupted is refused", "[stats]") {
  const std::vector<rs::SimulationStats> shards = shards_of(90, 3);
  CHECK(refusal([&] { (void)rs::merge_stats({shards[0], shards[2]}); }) == "shard 1 of 3 is missing");
  CHECK(refusal([&] { (void)rs::merge_stats({shards[0], shards[1], shards[1], shards[2]}); }) ==
        "shard 1 of 3 is given 2 times");
  rs::SimulationStats cut = run(90, 1, 3, 20);
  cut.interrupted = true;
  CHECK(refusal([&] { (void)rs::merge_stats({shards[0], cut, shards[2]}); }) ==
        "shard 1 of 3 was interrupted after 20 of its 30 games; run it again");
  CHECK(refusal([] { (void)rs::merge_stats({}); }) == "no statistics to merge");
  // Statistics not made by `add` or read from a file, with a count missing: refused, not
  // added past the end.
  std::vector<rs::SimulationStats> short_wins = shards;
  short_wins[2].wins.pop_back();
  CHECK(refusal([&] { (void)rs::merge_stats(short_wins); }) ==
        "shard 2: \"wins\", \"reached\" or \"fired\" do not fit its seats and labels");
  std::vector<rs::SimulationStats> no_firings = shards;
  no_firings[0].fired.clear();
  CHECK(refusal([&] { (void)rs::merge_stats(no_firings); }) ==
        "shard 1: \"wins\", \"reached\" or \"fired\" do not fit its seats and labels");
}

TEST_CASE("stats: a sum past the largest count is refused, naming the file and the field", "[stats]") {
  std::vector<rs::SimulationStats> shards = shards_of(90, 3);
  shards[0].reached[0] = std::numeric_limits<std::uint64_t>::max() - 5;
  CHECK(refusal([&] { (void)rs::merge_stats(shards, {"a.json", "b.json", "c.json"}); }) ==
        "b.json: \"reached\" of label 0: the sum passes 18446744073709551615");
  shards = shards_of(90, 3);
  shards[1].wins[2] = std::numeric_limits<std::int64_t>::max() - 1;
  CHECK(refusal([&] { (void)rs::merge_stats(shards); }) ==
        "shard 1: \"wins\" of player 2: the sum passes 9223372036854775807");
}

TEST_CASE("stats: a statistics file saved and read back gives the same statistics", "[stats]") {
  rs::SimulationStats s = run(500, 2, 3);
  s.seed = std::numeric_limits<std::uint64_t>::max();  // past 2^53: saved as a string
  s.options = {{"notes", "64"}, {"variant", "fast"}};
  s.players_requested = 3;
  const std::string text = rs::stats_file_text(s);
  CHECK(nlohmann::json::parse(text)["rulebook-stats"] == 4);
  CHECK(text.find("\"seed\": \"18446744073709551615\"") != std::string::npos);
  const rs::SimulationStats back = rs::stats_from_text(text);
  CHECK(back == s);
  CHECK(rs::stats_file_text(back) == text);
}

TEST_CASE("stats: a file whose counts do not fit together is refused, naming the field", "[stats]") {
  const rs::SimulationStats s = run(90, 0, 1);
  const std::int64_t with_winner = s.finished() - s.no_winner;
  CHECK(refusal_of_edited(s, [&](nlohmann::json& j) { j["wins"][0] = with_winner + 1; }) ==
        "\"wins\" of player 0 is more than the games with a winner (" + std::to_string(with_winner) + ")");
  CHECK(refusal_of_edited(s, [](nlohmann::json& j) { j["played"] = -1; }) == "\"played\" is negative");
  CHECK(refusal_of_edited(s, [](nlohmann::json& j) { j["capped"] = 1.5; }) == "\"capped\" is not a whole number");
  CHECK(refusal_of_edited(s, [](nlohmann::json& j) { j["fired"][1] = 1000000; }) ==
        "\"fired\" of label 1 is more than \"reached\"");
  CHECK_THAT(refusal_of_edited(s, [](nlohmann::json& j) { j["rounds"].erase(0); }),
             Catch::Matchers::StartsWith("\"rounds\" counts ") &&
                 Catch::Matchers::EndsWith(fmt::format("but {} were finished (\"played\" {} less \"capped\" {})", s.finished(),
                                                       s.played, s.capped)));
  CHECK(refusal_of_edited(s, [](nlohmann::json& j) { j.erase("hash"); }) == "\"hash\" is missing");
  CHECK(refusal_of_edited(s, [](nlohmann::json& j) { j["rulebook-stats"] = 5; }) ==
        "an unknown version of the statistics format (5; this rulebook reads 1 to 4)");
  CHECK(refusal([] { (void)rs::stats_from_text("[1, 2]"); }) == "not a statistics file of 'rulebook simulate --stats'");
  CHECK(refusal([] { (void)rs::stats_from_text("{\"rulebook-stats\": 3, "); }).rfind("not JSON: ", 0) == 0);
}

TEST_CASE("stats: a version 2 file reads its rule starts as reached, and says it has no firings", "[stats]") {
  const rs::SimulationStats s = run(90, 0, 1);
  nlohmann::json j = rs::stats_to_json(s);
  j["rulebook-stats"] = 2;
  j["fired"] = j["reached"];  // version 2 called the starts "fired"
  j.erase("reached");
  const rs::SimulationStats old = rs::stats_from_text(j.dump());
  CHECK(old.version == 2);
  CHECK(old.reached == s.reached);
  CHECK(old.fired.empty());
  CHECK(rs::stats_report(old, false).find(
            "rule coverage: 2 of 2 labelled rules reached (statistics from files of version 1 or 2 do not say which fired)\n") !=
        std::string::npos);
  // Saved again, it is a version 4 file that still has no firings (it does not invent them).
  const nlohmann::json saved = rs::stats_to_json(old);
  CHECK(saved["rulebook-stats"] == 4);
  CHECK(saved["fired"].empty());
  // And it reads back (the fifth probe: merge refused the file it had saved from a version 2 one).
  const rs::SimulationStats again = rs::stats_from_text(saved.dump());
  CHECK(again.reached == s.reached);
  CHECK(again.fired.empty());
}

TEST_CASE("stats: a version 1 file lists every capped game and reads the first 100", "[stats]") {
  const rs::SimulationStats s = run(1000, 0, 1);
  REQUIRE(s.capped == 143);
  nlohmann::json j = rs::stats_to_json(s);
  j["fired"] = j["reached"];
  j.erase("reached");
  nlohmann::json every = nlohmann::json::array();
  for (std::int64_t g = 0; g < 1000; ++g) {
    if (game(g).capped) every.push_back(g);
  }
  j["capped_games"] = every;
  j["rulebook-stats"] = 1;
  const rs::SimulationStats old = rs::stats_from_text(j.dump());
  CHECK(old.version == 1);
  CHECK(old.capped == s.capped);
  CHECK(old.capped_games == s.capped_games);  // the first 100, as simulate keeps them now
  // The first 100 only is a version 2 file's list, not a version 1 file's.
  j["capped_games"] = rs::stats_to_json(s)["capped_games"];
  CHECK(refusal([&] { (void)rs::stats_from_text(j.dump()); }) ==
        "\"capped_games\" lists 100 games, but \"capped\" is 143 (version 1 lists every capped game)");
  j["rulebook-stats"] = 2;
  j["capped_games"] = every;
  CHECK(refusal([&] { (void)rs::stats_from_text(j.dump()); }) ==
        "\"capped_games\" lists 143 games, but \"capped\" is 143 (the first 100 are listed)");
}

TEST_CASE("stats: the JSON report gives each seat its wins, share and Wilson interval", "[stats]") {
  const rs::SimulationStats s = run(300, 0, 1);
  const nlohmann::json report = nlohmann::json::parse(rs::stats_report(s, true));
  CHECK(report["games"] == 300);
  CHECK(report["finished"] == s.finished());
  REQUIRE(report["players_results"].size() == 3);
  for (std::size_t p = 0; p < 3; ++p) {
    const nlohmann::json& seat = report["players_results"][p];
    const auto [lo, hi] = rs::wilson_interval(s.wins[p], s.finished());
    CHECK(seat["wins"] == s.wins[p]);
    CHECK(seat["win_rate"].get<double>() == Approx(static_cast<double>(s.wins[p]) / static_cast<double>(s.finished())));
    CHECK(seat["ci95"][0].get<double>() == lo);
    CHECK(seat["ci95"][1].get<double>() == hi);
  }
  CHECK(report["rule_coverage"]["deal"] == s.fired[0]);
  CHECK(report["rule_reached"]["play"] == s.reached[1]);
}

TEST_CASE("stats: a run without a finished game gives no win share and no interval", "[stats]") {
  // Found by the fifth probe: `0.0% [0.0%, 0.0%]` read as if measured.
  rs::SimulationStats s = run(0, 0, 1);
  s.automated.assign(2, 0);
  s.wins.assign(2, 0);
  REQUIRE(s.finished() == 0);
  const std::string text = rs::stats_report(s, false);
  INFO(text);
  CHECK(text.find("player 0: no finished game") != std::string::npos);
  CHECK(text.find("player 1: no finished game") != std::string::npos);
  CHECK(text.find("0.0%") == std::string::npos);
}

}  // namespace stats_stats_test
