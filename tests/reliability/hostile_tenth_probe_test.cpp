// Hostile input, round two (issue 34): what the tenth independent probe found (about 170
// cases, no crash, hang or lost file): log lines that still passed unchecked (an alternative
// where there is none, "unrecorded", the last line after a cut), an output onto standard
// error, charts skipped without a word, and messages that named the wrong cause.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support.hpp"

using rulebook::test::quoted_path;
using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::source_path;
using rulebook::test::write_text;

namespace reliability_hostile_tenth_probe_test {  // this file's own names (unity builds put several files in one)
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::string kWar = source_path("rulesets/library/war.rules");
const std::string kHighCard = source_path("tests/cli/data/record-high-card.rules");

// A game whose second round faults (`top` of an empty pile) unless player 0 keeps choosing 1.
constexpr const char* kFaultRules = R"(game "Fault test"
players 2
cards { chip: 3 }
zone deck: pile hidden
zone pot: pile public
var n: int = 0
setup { move box to deck
  shuffle deck }
round {
  rule pick: choose c in {1, 2} by seat 0
  add c to n
  rule boom: if n >= 3 {
    move top(pot) to deck
  }
}
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("hostile 5: log lines that passed unchecked are checked", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 1 --logs {}", quoted_path(kHighCard), quoted_path(dir + "/G"))).exit_code == 0);
  const std::string text = read_text(dir + "/G/game-000000.jsonl");
  const std::string header = text.substr(0, text.find('\n') + 1);
  const auto replay_of = [&](const std::string& log) {
    write_text(dir + "/x.jsonl", log);
    return run_rulebook(fmt::format("replay {} {}", quoted_path(kHighCard), quoted_path(dir + "/x.jsonl")));
  };
  // Each of these replayed with exit 0 before.
  const auto alternative = replay_of(replaced(text, "\"rule\":\"play_card\"}", "\"rule\":\"play_card\",\"alternative\":7}"));
  CHECK(alternative.exit_code == 2);
  CHECK(contains(alternative.err, "rule 'play_card' has no alternatives"));
  const std::size_t end = text.rfind("{\"end\":");
  const std::string end_line = text.substr(end);
  const auto unrecorded = replay_of(text.substr(0, end) + replaced(end_line, "\"moves\":", "\"unrecorded\":3,\"moves\":"));
  CHECK(unrecorded.exit_code == 2);
  CHECK(contains(unrecorded.err, "\"unrecorded\" counts what a cut line left out, but no cut line comes before"));
  const std::string cut = "{\"cut\":{\"moves\":0,\"rounds\":0}}\n";
  const auto after_cut = replay_of(header + cut + "{\"end\":{\"moves\":1,\"rounds\":7,\"scores\":{\"zork\":[5,0]},\"winners\":[1]}}\n");
  CHECK(after_cut.exit_code == 2);
  CHECK(contains(after_cut.err, "no score 'zork' in these rules"));
  const auto fault_after_cut = replay_of(header + cut + "{\"fault\":{\"at\":7,\"message\":[\"x\"]}}\n");
  CHECK(fault_after_cut.exit_code == 2);
  const auto stopped_after_cut = replay_of(header + cut + "{\"stopped\":{\"max_moves\":0,\"moves\":0,\"reason\":5,\"rounds\":0}}\n");
  CHECK(stopped_after_cut.exit_code == 2);
  CHECK(contains(stopped_after_cut.err, "\"reason\" is a string, not 5"));
  // A cut and a well-formed last line still replay as a game the log stops following.
  CHECK(replay_of(header + cut + "{\"end\":{\"moves\":1,\"rounds\":7,\"unrecorded\":4,\"winners\":[1]}}\n").exit_code == 0);
  const auto round = replay_of(replaced(text, "{\"round\":1}", "{\"round\":\"1\"}"));
  CHECK(round.exit_code == 2);
  CHECK(contains(round.err, "\"round\" is the round's number, not the string \"1\""));
  const auto automated = replay_of(replaced(text, "\"automated\":[false,false]", "\"automated\":\"no\""));
  CHECK(automated.exit_code == 2);
  CHECK(contains(automated.err, "\"automated\" is a list of true or false, one a seat"));
  const auto twice = run_rulebook(fmt::format("replay {} - -", quoted_path(kHighCard)), text);
  CHECK(twice.exit_code == 2);
  CHECK(contains(twice.err, "'-' (standard input) is given more than once"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 5: outputs onto standard error are refused, before the work", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // Before: the statistics replaced the file standard error goes to (here the harness's
  // capture of it), and the messages written there were lost.
  const auto onto_stderr = run_rulebook(fmt::format("simulate {} --games 3 --stats /dev/stderr", quoted_path(kWar)));
  CHECK(onto_stderr.exit_code == 2);
  CHECK(contains(onto_stderr.err, "'/dev/stderr' is where standard error goes; writing there would replace it"));
  // Refused before the games (no speed line) and before record's banner.
  CHECK_FALSE(contains(onto_stderr.err, "games/s"));
  const auto record = run_rulebook(fmt::format("record {} -o /dev/stdout", quoted_path(kHighCard)));
  CHECK(record.exit_code == 2);
  CHECK(record.out.empty());
  CHECK(contains(record.err, "'/dev/stdout' is where standard output goes"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 5: verify's text report writes out a --cex-out path and says when a log was not written", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/fault.rules", kFaultRules);
  const std::string verify = fmt::format("verify {} --property conservation --budget 2 --timeout 2", quoted_path(dir + "/fault.rules"));
  const auto escaped = run_rulebook(verify + " --cex-out " + quoted_path(dir + "/cx\x1b[7m"));
  CHECK(escaped.exit_code == 1);
  CHECK(contains(escaped.out, "cx\\x1b[7m/conservation-2p.jsonl (rulebook replay --partial accepts it)"));
  CHECK_FALSE(contains(escaped.out, "\x1b"));
  fs::create_directories(dir + "/C/conservation-2p.jsonl");
  const auto unwritten = run_rulebook(verify + " --cex-out " + quoted_path(dir + "/C"));
  CHECK(unwritten.exit_code == 2);
  CHECK(contains(unwritten.out, "log: not written (the error is above)"));
  CHECK_FALSE(contains(unwritten.out, "run with --cex-out DIR"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 5: merge, --shard, explain and record say what the input holds", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 10 --shard 0/2 --stats {}", quoted_path(kWar), quoted_path(dir + "/p0.json"))).exit_code == 0);
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 10 --shard 1/2 --stats {}", quoted_path(kWar), quoted_path(dir + "/p1.json"))).exit_code == 0);
  // A shard short of games that does not say it was interrupted: before, "was interrupted".
  SECTION("merge") {
    nlohmann::json j = nlohmann::json::parse(read_text(dir + "/p0.json"));
    for (const char* key : {"played", "capped", "no_winner"}) j[key] = 0;
    for (const char* key : {"rounds", "moves", "capped_games"}) j[key] = nlohmann::json::array();
    for (auto& w : j["wins"]) w = 0;
    for (const char* key : {"reached", "fired"}) {
      for (auto& n : j[key]) n = 0;
    }
    write_text(dir + "/p0.json", j.dump(1));
    const auto merged = run_rulebook(fmt::format("merge {} {}", quoted_path(dir + "/p0.json"), quoted_path(dir + "/p1.json")));
    CHECK(merged.exit_code == 2);
    CHECK(contains(merged.err, "shard 0 of 2 holds 0 of its 5 games (\"played\"), yet does not say it was interrupted"));
  }
  SECTION("shard") {
    const auto shard = run_rulebook(fmt::format("simulate {} --games 100 --shard 0/10000000", quoted_path(kWar)));
    CHECK(shard.exit_code == 2);
    CHECK(contains(shard.err, "N from 1 to 1000000"));
  }
  SECTION("record") {
    // A log of a byte-order mark alone is an empty file: a new game (it was "not JSON").
    const std::string log = dir + "/my game.jsonl";
    write_text(log, "\xEF\xBB\xBF");
    const auto started = run_rulebook(fmt::format("record {} -o {}", quoted_path(kHighCard), quoted_path(log)), "quit\n");
    CHECK(started.exit_code == 0);
    // The hint can be pasted back: the path with a space is quoted.
    CHECK(contains(started.out, "-o '" + log + "'` goes on from here"));
  }
  fs::remove_all(dir);
}

}  // namespace reliability_hostile_tenth_probe_test
