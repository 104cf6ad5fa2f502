// Default player counts (`players 2..5 default 3`) and payoffs (`payoff NAME(p): N over D`):
// exact values, faults, the simulate report, stats files and merge, logs and replay.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rulebook/interpreter/rational.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
using rulebook::test::run_rulebook;
using rulebook::test::source_path;

namespace payoffs_payoffs_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;
std::string share_rules() { return quoted_path(source_path("tests/payoffs/share.rules")); }
std::string safe_rules() { return quoted_path(source_path("tests/payoffs/safe.rules")); }

// The first line of `path` that holds `needle`, or "".
std::string line_with(const std::string& text, const std::string& needle) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    if (line.find(needle) != std::string::npos) return line;
    start = end + 1;
  }
  return "";
}

}  // namespace

TEST_CASE("payoffs: exact fractions reduce, keep the sign on the numerator, and refuse what does not fit", "[payoffs]") {
  constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
  CHECK(ri::make_rational(6, 4) == ri::Rational{3, 2});
  CHECK(ri::make_rational(3, -6) == ri::Rational{-1, 2});
  CHECK(ri::make_rational(0, -5) == ri::Rational{0, 1});
  CHECK(ri::make_rational(kMin, 2) == ri::Rational{kMin / 2, 1});
  CHECK(ri::make_rational(kMin, -2) == ri::Rational{-(kMin / 2), 1});
  CHECK_FALSE(ri::make_rational(1, 0));
  CHECK_FALSE(ri::make_rational(kMin, -1));
  CHECK_FALSE(ri::make_rational(1, kMin));  // the denominator's sign cannot move
  CHECK(ri::to_string(ri::Rational{3, 2}) == "3/2");
  CHECK(ri::to_string(ri::Rational{-2, 1}) == "-2");
  CHECK(ri::parse_rational("6/4") == ri::Rational{3, 2});
  CHECK(ri::parse_rational("-7") == ri::Rational{-7, 1});
  CHECK_FALSE(ri::parse_rational("1/0"));
  CHECK_FALSE(ri::parse_rational("1/-2"));
  CHECK_FALSE(ri::parse_rational("1.5"));
  CHECK_FALSE(ri::parse_rational("3/2x"));
}

TEST_CASE("payoffs: without --players, simulate, verify, play and record use the declared default", "[payoffs]") {
  const auto sim = run_rulebook("simulate " + safe_rules() + " --games 3 --seed 1");
  REQUIRE(sim.exit_code == 0);
  CHECK(sim.out.find("3 games, 3 players") != std::string::npos);
  const auto sim5 = run_rulebook("simulate " + safe_rules() + " --games 3 --seed 1 --players 5");
  CHECK(sim5.out.find("3 games, 5 players") != std::string::npos);
  // play: seat 0 answers; the log's header says three players, and the end gives payoffs.
  const std::string dir = rulebook::test::temp_folder();
  const auto play = run_rulebook("play " + safe_rules() + " --seed 1 --log " + quoted_path(dir + "/play.jsonl"), "1\n");
  INFO(play.out << play.err);
  REQUIRE(play.exit_code == 0);
  CHECK(play.out.find("  payoff third: 1/3, 1/3, 1/3\n") != std::string::npos);
  const auto header = nlohmann::json::parse(line_with(rulebook::test::read_text(dir + "/play.jsonl"), "\"players\""));
  CHECK(header.at("players") == 3);
  // verify without --players checks every count of the range, the default among them.
  const auto verify = run_rulebook("verify " + safe_rules() + " --property game-termination --format json");
  INFO(verify.out << verify.err);
  const auto j = nlohmann::json::parse(verify.out);
  std::vector<std::int64_t> counts;
  for (const auto& r : j.at("reports")) counts.push_back(r.at("players").get<std::int64_t>());
  CHECK(counts == std::vector<std::int64_t>{2, 3, 4, 5});
}

TEST_CASE("payoffs: a default outside the player range is refused at its place", "[payoffs]") {
  const auto r = rulebook::test::check_text("game \"t\"\nplayers 2..10 default 11\ncards { chip: 1 }\nround { end game }\n");
  CHECK(r.find("test.rules:2:15: error: the default of 11 players is outside the range 2..10 [E0205]") != std::string::npos);
  const auto ok = rulebook::test::check_text("game \"t\"\nplayers 2..10 default 4\ncards { chip: 1 }\nround { end game }\n");
  CHECK(ok.find("error") == std::string::npos);
}

TEST_CASE("payoffs: the report gives exact means per seat with a 95% interval, text and JSON", "[payoffs]") {
  const auto text = run_rulebook("simulate " + safe_rules() + " --games 200 --seed 7");
  REQUIRE(text.exit_code == 0);
  INFO(text.out);
  CHECK(text.out.find("payoffs (mean per finished game, 95% confidence interval: mean +- 1.96 standard errors):") !=
        std::string::npos);
  CHECK(text.out.find("  third:\n    player 0:   0.3333  [0.3333, 0.3333]\n") != std::string::npos);
  const auto json = run_rulebook("simulate " + safe_rules() + " --games 200 --seed 7 --format json");
  REQUIRE(json.exit_code == 0);
  const auto j = nlohmann::json::parse(json.out);
  REQUIRE(j.at("payoffs").size() == 3);
  const auto& third = j.at("payoffs")[0];
  CHECK(third.at("name") == "third");
  CHECK(third.at("games") == 200);
  for (const auto& seat : third.at("players")) {
    CHECK(seat.at("mean").get<double>() == Approx(1.0 / 3).epsilon(1e-12));
    CHECK(seat.at("ci95")[1].get<double>() - seat.at("ci95")[0].get<double>() < 1e-9);
  }
  // sixths: 3/6 for a leader, 1/6 otherwise; the mean lies between and has an interval.
  for (const auto& seat : j.at("payoffs")[2].at("players")) {
    const double mean = seat.at("mean").get<double>();
    CHECK(mean > 1.0 / 6);
    CHECK(mean < 0.5);
    CHECK(seat.at("ci95")[0].get<double>() < mean);
    CHECK(seat.at("ci95")[1].get<double>() > mean);
  }
  // split: the leaders' shares add up to 1 in every game without an all-round tie, so the
  // seats' means add up to the share of such games.
  CHECK(j.at("payoff_interval").get<std::string>().find("1.96") != std::string::npos);
}

TEST_CASE("payoffs: a zero denominator is a rule fault at its place, never a payoff of 0", "[payoffs]") {
  const auto r = run_rulebook("simulate " + share_rules() + " --games 200 --seed 3");
  INFO(r.out << r.err);
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("share.rules:19") != std::string::npos);
  CHECK(r.err.find("payoff 'per_point' of seat ") != std::string::npos);
  CHECK(r.err.find(": 1 over 0 (a zero denominator)") != std::string::npos);
}

TEST_CASE("payoffs: logs give payoffs exactly, replay checks them and refuses a tampered one", "[payoffs]") {
  const std::string dir = rulebook::test::temp_folder();
  const auto sim = run_rulebook("simulate " + safe_rules() + " --games 4 --seed 2 --logs " + quoted_path(dir + "/logs"));
  REQUIRE(sim.exit_code == 0);
  const std::string log_path = dir + "/logs/game-000000.jsonl";
  REQUIRE(std::filesystem::exists(log_path));
  const std::string log = rulebook::test::read_text(log_path);
  const std::string end = line_with(log, "\"end\"");
  INFO(end);
  CHECK(end.find("\"third\":[\"1/3\",\"1/3\",\"1/3\"]") != std::string::npos);
  const auto ok = run_rulebook("replay " + safe_rules() + " " + quoted_path(log_path));
  INFO(ok.out << ok.err);
  CHECK(ok.exit_code == 0);

  std::string tampered = log;
  tampered.replace(tampered.find("\"third\":[\"1/3\""), std::string("\"third\":[\"1/3\"").size(), "\"third\":[\"2/6\"");
  rulebook::test::write_text(dir + "/same.jsonl", tampered);  // 2/6 is 1/3: accepted
  CHECK(run_rulebook("replay " + safe_rules() + " " + quoted_path(dir + "/same.jsonl")).exit_code == 0);
  tampered = log;
  tampered.replace(tampered.find("\"third\":[\"1/3\""), std::string("\"third\":[\"1/3\"").size(), "\"third\":[\"1/2\"");
  rulebook::test::write_text(dir + "/bad.jsonl", tampered);
  const auto bad = run_rulebook("replay " + safe_rules() + " " + quoted_path(dir + "/bad.jsonl"));
  INFO(bad.out << bad.err);
  CHECK(bad.exit_code != 0);
  CHECK((bad.out + bad.err).find("the log gives payoff third as [\"1/2\",\"1/3\",\"1/3\"]; by the rules it is [1/3, 1/3, 1/3]") !=
        std::string::npos);
  tampered = log;
  tampered.replace(tampered.find("\"third\":[\"1/3\""), std::string("\"third\":[\"1/3\"").size(), "\"third\":[\"1/0\"");
  rulebook::test::write_text(dir + "/zero.jsonl", tampered);
  const auto zero = run_rulebook("replay " + safe_rules() + " " + quoted_path(dir + "/zero.jsonl"));
  CHECK(zero.exit_code != 0);
  CHECK((zero.out + zero.err).find("is not a fraction such as \"3/2\"") != std::string::npos);
}

TEST_CASE("payoffs: stats files keep the sums, and shards merge into one run's report", "[payoffs]") {
  const std::string dir = rulebook::test::temp_folder();
  const auto whole = run_rulebook("simulate " + safe_rules() + " --games 301 --seed 5");
  REQUIRE(whole.exit_code == 0);
  for (int i = 0; i < 3; ++i) {
    const auto r = run_rulebook("simulate " + safe_rules() + fmt::format(" --games 301 --seed 5 --shard {}/3 --stats ", i) +
                                quoted_path(fmt::format("{}/{}.json", dir, i)));
    REQUIRE(r.exit_code == 0);
  }
  const auto j = nlohmann::json::parse(rulebook::test::read_text(dir + "/0.json"));
  CHECK(j.at("rulebook-stats") == 4);
  CHECK(j.at("payoffs")[0].at("name") == "third");
  CHECK(j.at("payoffs")[0].at("sum").size() == 3);
  const auto merged = run_rulebook("merge " + quoted_path(dir + "/2.json") + " " + quoted_path(dir + "/0.json") + " " + quoted_path(dir + "/1.json"));
  INFO(merged.out << merged.err);
  REQUIRE(merged.exit_code == 0);
  CHECK(merged.out == whole.out);
  // A version-3 file (no payoffs) still reads.
  REQUIRE(run_rulebook("simulate " + safe_rules() + " --games 5 --seed 5 --stats " + quoted_path(dir + "/whole.json")).exit_code == 0);
  nlohmann::json old = nlohmann::json::parse(rulebook::test::read_text(dir + "/whole.json"));
  old["rulebook-stats"] = 3;
  old.erase("payoffs");
  rulebook::test::write_text(dir + "/old.json", old.dump());
  const auto old_report = run_rulebook("merge " + quoted_path(dir + "/old.json") + " --format json");
  INFO(old_report.err);
  CHECK(old_report.exit_code == 0);
  CHECK(old_report.err.find("not a statistics file") == std::string::npos);
  CHECK(old_report.err.find("unknown version") == std::string::npos);
}

TEST_CASE("payoffs: verify proves well-defined or winnability for rules with payoffs only by replayed games", "[payoffs]") {
  const auto r = run_rulebook("verify " + share_rules() + " --players 2 --property well-defined --property winnability --format json");
  INFO(r.out << r.err);
  const auto j = nlohmann::json::parse(r.out);
  int seen = 0;
  for (const auto& f : j.at("reports")[0].at("findings")) {
    ++seen;
    // `per_point` divides by 0 for a player with 0 points: well-defined is refuted by a game
    // (the encoding of payoffs, tests/verifier/payoff_encoding_test.cpp, cannot prove it). A win
    // shown by a replayed game evaluated every payoff, so it stands.
    if (f.at("status") == "proved") {
      CHECK(f.at("property") == "winnability");
      CHECK(f.at("method").get<std::string>().rfind("witness games (", 0) == 0);
    }
  }
  CHECK(seen == 2);
}

TEST_CASE("payoffs: fmt writes payoffs and a default count back as they parse", "[payoffs]") {
  const auto r = run_rulebook("fmt --check " + safe_rules());
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  const auto share = run_rulebook("fmt --check " + share_rules());
  INFO(share.out << share.err);
  CHECK(share.exit_code == 0);
}

// Found by an independent probe: `end game` named the winners, then a payoff faulted, and the
// faulted game still counted as a win for the winnability witness (proved while seat 1 can never
// win). A faulted game has no winners.
TEST_CASE("payoffs: a game whose payoff faults has no winners, and is no witness of a win", "[payoffs]") {
  const std::string rules = quoted_path(source_path("tests/payoffs/faulting-win.rules"));
  const auto r = run_rulebook("verify " + rules + " --players 2 --property winnability --format json");
  INFO(r.out << r.err);
  const auto j = nlohmann::json::parse(r.out);
  const auto& f = j.at("reports")[0].at("findings")[0];
  CHECK(f.at("property") == "winnability");
  CHECK(f.at("status") != "proved");
  for (const auto& d : f.at("details")) CHECK(d.get<std::string>().find("player 1: wins") == std::string::npos);
  const auto sim = run_rulebook("simulate " + rules + " --games 50 --seed 1 --format json");
  INFO(sim.out << sim.err);
  CHECK(sim.exit_code != 0);  // a rule fault stops simulate
}

}  // namespace payoffs_payoffs_test
