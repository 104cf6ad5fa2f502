// Random choices in logs: `simulate --logs` writes a draw line for each, `replay` takes the
// result from it, explains a draw that is not legal, and refuses a log without one.
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "support.hpp"

using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::write_text;

namespace logs_chance_log_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

// Each round the generator draws a card above 5 from the deck for seat 1, then seat 0 puts
// a card of its hand back.
const char* const kChanceRules =
    "game \"chance\"\nplayers 2\ncards { standard52 }\nzone deck: pile public\nzone hand(p): set owner\n"
    "setup {\n  move box to deck\n  shuffle deck\n  deal 3 from deck to hand(seat 0)\n}\n"
    "round {\n  rule pick: choose c in deck at random where rank(c) > 5\n  move c to hand(seat 1)\n"
    "  rule play: choose d in hand(seat 0) by seat 0\n  move d to deck at bottom\n"
    "  if count(hand(seat 1)) >= 3 {\n    end game\n  }\n}\n";

struct Logged {
  std::string folder, rules, log;
};

Logged simulate_one(std::uint64_t seed) {
  Logged l;
  l.folder = rulebook::test::temp_folder();
  l.rules = l.folder + "/chance.rules";
  write_text(l.rules, kChanceRules);
  const auto r = run_rulebook(fmt::format("simulate {} --games 1 --seed {} --logs {}", quoted_path(l.rules), seed, quoted_path(l.folder + "/logs")));
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  l.log = read_text(l.folder + "/logs/game-000000.jsonl");
  return l;
}

// The position of the first draw line's choice value in `log`, and its text.
std::pair<std::size_t, std::string> first_draw(const std::string& log) {
  const std::string key = "{\"draw\":{\"choice\":\"";
  const std::size_t at = log.find(key);
  REQUIRE(at != std::string::npos);
  const std::size_t begin = at + key.size();
  return {begin, log.substr(begin, log.find('"', begin) - begin)};
}

}  // namespace

TEST_CASE("chance logs: simulate writes a draw line per random choice and the log replays", "[chance][replay]") {
  const Logged l = simulate_one(3);
  CHECK(l.log.find("{\"draw\":{\"choice\":") != std::string::npos);
  CHECK(l.log.find("\"rule\":\"pick\"}}") != std::string::npos);
  const auto r = run_rulebook(fmt::format("replay {} {}", quoted_path(l.rules), quoted_path(l.folder + "/logs/game-000000.jsonl")));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  // The same seed draws the same: the log is byte-identical.
  CHECK(simulate_one(3).log == l.log);
  CHECK(simulate_one(4).log != l.log);
}

TEST_CASE("chance logs: a tampered draw is an illegal step, explained", "[chance][replay]") {
  const Logged l = simulate_one(3);
  const auto [at, card] = first_draw(l.log);
  std::string log = l.log;
  log.replace(at, card.size(), "2C");  // rank 2: the filter rules it out
  write_text(l.folder + "/tampered.jsonl", log);
  const auto r = run_rulebook(fmt::format("replay {} {}", quoted_path(l.rules), quoted_path(l.folder + "/tampered.jsonl")));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("the random choice in rule 'pick' may not draw 2C"));
  // Why: the filter, or (had 2C been dealt) the zone it lies in.
  CHECK((r.err.find("`rank(c) > 5` is false") != std::string::npos || r.err.find("2C is in hand") != std::string::npos));
  CHECK_THAT(r.err, Catch::Contains("legal draws here:"));
}

TEST_CASE("chance logs: a log without the draw is an error at its line", "[chance][replay]") {
  const Logged l = simulate_one(3);
  const std::size_t line_start = l.log.find("{\"draw\"");
  REQUIRE(line_start != std::string::npos);
  std::string log = l.log;
  log.erase(line_start, log.find('\n', line_start) + 1 - line_start);
  std::size_t line = 1;
  for (std::size_t i = 0; i < line_start; ++i) {
    if (log[i] == '\n') ++line;
  }
  write_text(l.folder + "/missing.jsonl", log);
  const auto r = run_rulebook(fmt::format("replay {} {}", quoted_path(l.rules), quoted_path(l.folder + "/missing.jsonl")));
  INFO(r.out << r.err);
  CHECK(r.exit_code != 0);
  CHECK_THAT(r.err, Catch::Contains(fmt::format("missing.jsonl:{}:", line)));
  CHECK_THAT(r.err, Catch::Contains("a log gives the result of every random choice"));
}

}  // namespace logs_chance_log_test
