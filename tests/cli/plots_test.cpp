// `simulate --plot DIR`: SVG charts whose bars are the report's numbers.
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;

namespace cli_plots_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

// The numbers in the bars' tooltips: "seat 2: 57 wins, ..." or "193 to 204: 10 games".
std::vector<std::int64_t> bar_numbers(const std::string& svg, const std::regex& pattern) {
  std::vector<std::int64_t> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), pattern); it != std::sregex_iterator(); ++it) {
    out.push_back(std::stoll((*it)[1]));
  }
  return out;
}

void check_svg(const std::string& svg) {
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(svg.size() > 200);
  CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
}

}  // namespace

TEST_CASE("plots: win-rate and game-length charts agree with the report", "[cli][plot]") {
  const std::string dir = rulebook::test::temp_folder();
  const auto r = run_rulebook(fmt::format("simulate {} --games 300 --players 3 --format json --plot {}",
                                          quoted_path(source_path("rulesets/molestation-game.rules")), quoted_path(dir + "/charts")));
  REQUIRE(r.exit_code == 0);
  const auto report = nlohmann::json::parse(r.out);

  const std::string wins_svg = rulebook::test::read_text(dir + "/charts/win-rates.svg");
  check_svg(wins_svg);
  std::vector<std::int64_t> wins;
  for (const auto& p : report["players_results"]) wins.push_back(p["wins"]);
  CHECK(bar_numbers(wins_svg, std::regex(R"(<title>seat \d+: (\d+) wins)")) == wins);
  CHECK(wins_svg.find("Molestation Game v3.0: wins by seat") != std::string::npos);

  for (const char* unit : {"rounds", "moves"}) {
    INFO(unit);
    const std::string svg = rulebook::test::read_text(fmt::format("{}/charts/{}.svg", dir, unit));
    check_svg(svg);
    const auto counts = bar_numbers(svg, std::regex(R"(<title>[\d to]+: (\d+) games</title>)"));
    CHECK(!counts.empty());
    CHECK(counts.size() <= 40);
    std::int64_t total = 0;
    for (const std::int64_t c : counts) total += c;
    CHECK(total == report["finished"].get<std::int64_t>());
    CHECK(svg.find(fmt::format("<title>{}", report[unit]["min"].get<std::int64_t>())) != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("plots: merge --plot draws the same charts as one run", "[cli][plot]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = quoted_path(source_path("rulesets/molestation-game.rules"));
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 100 --plot {}", rules, quoted_path(dir + "/one"))).exit_code == 0);
  for (int i = 0; i < 2; ++i) {
    REQUIRE(run_rulebook(fmt::format("simulate {} --games 100 --shard {}/2 --stats '{}/{}.json'", rules, i, dir, i))
                .exit_code == 0);
  }
  REQUIRE(run_rulebook(fmt::format("merge '{0}/0.json' '{0}/1.json' --plot '{0}/merged'", dir)).exit_code == 0);
  for (const char* chart : {"win-rates.svg", "rounds.svg", "moves.svg"}) {
    INFO(chart);
    CHECK(rulebook::test::read_text(fmt::format("{}/merged/{}", dir, chart)) ==
          rulebook::test::read_text(fmt::format("{}/one/{}", dir, chart)));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("plots: a --plot folder that cannot be made is an error, exit 2", "[cli][plot]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/file", "not a folder");
  const auto r = run_rulebook(fmt::format("simulate {} --games 10 --plot '{}/file'",
                                          quoted_path(source_path("rulesets/molestation-game.rules")), dir));
  CHECK(r.exit_code == 2);
  // Found before any game is played (docs/reliability.md).
  CHECK(r.err.find(fmt::format("error: --plot {0}/file: '{0}/file' is not a folder", dir)) != std::string::npos);
  CHECK(r.err.find("games in") == std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace cli_plots_test
