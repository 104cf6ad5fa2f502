// Hostile input, round two (issue 34): what the eighth independent probe found and the
// seventh round's fixes left (docs/reliability.md): a person's comments lost when `record`
// goes on with a log, result lines compared in part, values of the wrong type taken as wrong
// counts, statistics files checked in part, messages that named the wrong cause, and
// commands that went on, or left a folder behind, after refusing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "support.hpp"

using rulebook::test::quoted_path;
using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::source_path;
using rulebook::test::write_text;

namespace reliability_hostile_eighth_probe_test {  // this file's own names (unity builds put several files in one)
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

const std::string kWar = source_path("rulesets/library/war.rules");
const std::string kHighCard = source_path("tests/cli/data/record-high-card.rules");
const std::string kLiteral = source_path("rulesets/variants/molestation-literal.rules");

// `record` on the high-card test game with these answers on standard input.
rulebook::test::RunResult record(const std::string& log, const std::string& answers, const std::string& extra = "") {
  return run_rulebook(fmt::format("record {} {} -o {}", quoted_path(kHighCard), extra, quoted_path(log)), answers);
}

}  // namespace

TEST_CASE("hostile 3: record going on with a log keeps the comments a person wrote, where they were", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string log = dir + "/game.jsonl";
  REQUIRE(record(log, "AS KS\n2C 3C\n4D\n").exit_code == 0);
  std::string text = read_text(log);
  const std::size_t seen = text.find("// seen hand(1)");
  REQUIRE(seen != std::string::npos);
  // A note before the second reveal, and one after the last answer.
  text.insert(seen, "// Ann was dealing\n");
  text += "// a break for coffee\n";
  write_text(log, text);
  // Before: the log was written anew from the answers alone, without both notes.
  const auto going_on = record(log, "AS\n");
  CHECK(going_on.exit_code == 0);
  const std::string after = read_text(log);
  CHECK(contains(after, "// Ann was dealing\n// seen hand(1): 2C 3C\n"));
  // The note after the last answer stays before the answer typed next.
  CHECK(contains(after, "// a break for coffee\n{\"move\":{\"choice\":\"AS\""));
  const auto replayed = run_rulebook(fmt::format("replay {} {} --partial", quoted_path(kHighCard), quoted_path(log)));
  CHECK(replayed.exit_code == 0);

  // `//seen` is read as a comment by replay; record refused nothing and dropped the cards it
  // names. It is refused now, and the log left as it was.
  std::string misspelt = after;
  const std::size_t note = misspelt.find("// seen table: 4D");
  REQUIRE(note != std::string::npos);
  misspelt.replace(note, 7, "//seen");
  write_text(log, misspelt);
  const auto refused = record(log, "");
  CHECK(refused.exit_code == 2);
  CHECK(contains(refused.err, "'//seen table: 4D' looks like a note of cards seen, which is written `// seen ZONE: CARDS`"));
  CHECK(read_text(log) == misspelt);
  fs::remove_all(dir);
}

TEST_CASE("hostile 3: record warns, as replay does, when the log it goes on with is of other rule files", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string log = dir + "/game.jsonl";
  REQUIRE(record(log, "AS KS\n").exit_code == 0);
  std::string text = read_text(log);
  const std::size_t hash = text.find("\"hash\":\"");
  REQUIRE(hash != std::string::npos);
  text.replace(hash + 8, 16, "0123456789abcdef");
  write_text(log, text);
  const auto going_on = record(log, "");
  CHECK(going_on.exit_code == 0);
  CHECK(contains(going_on.err, "the log was written for other rule files"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 3: a fault line is compared member by member, and a count of the wrong type is a malformed log", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 1 --logs {}", quoted_path(kLiteral), quoted_path(dir + "/L"))).exit_code == 1);
  const std::string text = read_text(dir + "/L/fault-game-0.jsonl");
  const std::size_t last = text.rfind("{\"fault\":");
  REQUIRE(last != std::string::npos);
  const std::string line = text.substr(last);
  REQUIRE(contains(line, "\"rule\":\"turn_next_role\""));
  const auto replay_with = [&](const std::string& from, const std::string& to) {
    std::string changed = line;
    const std::size_t at = changed.find(from);
    REQUIRE(at != std::string::npos);
    changed.replace(at, from.size(), to);
    write_text(dir + "/x.jsonl", text.substr(0, last) + changed);
    return run_rulebook(fmt::format("replay {} {}", quoted_path(kLiteral), quoted_path(dir + "/x.jsonl")));
  };
  const auto same = replay_with("\"rule\"", "\"rule\"");
  CHECK(same.exit_code == 1);
  CHECK(contains(same.err, "the log records this fault"));
  // Before, only the message was compared: each of these passed as "this fault".
  const auto rule = replay_with("\"rule\":\"turn_next_role\"", "\"rule\":\"deal\"");
  CHECK(contains(rule.err, "the log records another fault: rule 'deal', by the rules 'turn_next_role'"));
  const auto at = replay_with("\"at\":\"", "\"at\":\"other.rules:1 ");
  CHECK(contains(at.err, "the log records another fault: at 'other.rules:1 "));
  const auto rounds = replay_with("\"rounds\":1", "\"rounds\":7");
  CHECK(contains(rounds.err, "the log records another fault: rounds 7, by the rules 1"));
  // A string where a number goes: malformed (2), not a wrong count (1).
  const auto typed = replay_with("\"rounds\":1", "\"rounds\":\"1\"");
  CHECK(typed.exit_code == 2);
  CHECK(contains(typed.err, "\"rounds\" is a whole number"));

  // The same for an end line's counts.
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 1 --seed 3 --logs {}", quoted_path(kWar), quoted_path(dir + "/W"))).exit_code == 0);
  std::string war = read_text(dir + "/W/game-000000.jsonl");
  const std::size_t end = war.find("\"rounds\":", war.rfind("{\"end\":"));
  REQUIRE(end != std::string::npos);
  war.insert(end + 9, "\"");
  war.insert(war.find_first_of(",}", end + 10), "\"");
  write_text(dir + "/w.jsonl", war);
  const auto end_typed = run_rulebook(fmt::format("replay {} {}", quoted_path(kWar), quoted_path(dir + "/w.jsonl")));
  CHECK(end_typed.exit_code == 2);
  CHECK(contains(end_typed.err, "\"rounds\" is a whole number"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 3: merge checks a statistics file's first game and takes a seed of digits only", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 10 --shard 1/2 --stats {}", quoted_path(kWar), quoted_path(dir + "/s.json"))).exit_code == 0);
  const std::string text = read_text(dir + "/s.json");
  const auto merged_with = [&](const std::string& from, const std::string& to) {
    std::string changed = text;
    const std::size_t at = changed.find(from);
    REQUIRE(at != std::string::npos);
    changed.replace(at, from.size(), to);
    write_text(dir + "/x.json", changed);
    return run_rulebook(fmt::format("merge {}", quoted_path(dir + "/x.json")));
  };
  const auto first = merged_with("\"first\": 5", "\"first\": 3");
  CHECK(first.exit_code == 2);
  CHECK(contains(first.err, "\"first\" is 3, but shard 1 of 2 of 10 games begins at game 5"));
  for (const std::string seed : {" 1", "+1", "1 "}) {
    const auto signed_seed = merged_with("\"seed\": \"1\"", fmt::format("\"seed\": \"{}\"", seed));
    CHECK(signed_seed.exit_code == 2);
    CHECK(contains(signed_seed.err, "\"seed\" is not a whole number"));
  }
  fs::remove_all(dir);
}

TEST_CASE("hostile 3: a link loop is reported as one, not as a missing file", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  fs::create_symlink(dir + "/b.rules", dir + "/a.rules");
  fs::create_symlink(dir + "/a.rules", dir + "/b.rules");
  const auto r = run_rulebook(fmt::format("check {}", quoted_path(dir + "/a.rules")));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "too many levels of symbolic links"));
  CHECK_FALSE(contains(r.err, "no such file"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 3: text shows the first 100 errors and warnings, JSON all of them", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  std::string text = "game \"t\"\nplayers 2\ncards { standard52 }\nround {\n  end game\n}\n";
  for (int i = 0; i < 3000; ++i) text += fmt::format("def d{} = zz{}\ndef w{} = 1\n", i, i, i);
  write_text(dir + "/many.rules", text);
  const auto shown = run_rulebook(fmt::format("check {}", quoted_path(dir + "/many.rules")));
  CHECK(shown.exit_code == 1);
  CHECK(count_of(shown.err, ": error: ") == 100);
  CHECK(count_of(shown.err, ": warning: ") == 100);
  CHECK(contains(shown.err, "the first 100 errors and the first 100 warnings are shown; `rulebook check --format json` lists them all"));
  CHECK(contains(shown.err, "3000 errors, 6000 warnings"));
  const auto all = run_rulebook(fmt::format("check --format json {}", quoted_path(dir + "/many.rules")));
  CHECK(count_of(all.out, "\"severity\": \"error\"") == 3000);
  fs::remove_all(dir);
}

TEST_CASE("hostile 3: record's --names and -o say what is wrong with them", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string log = dir + "/game.jsonl";
  // `--names ,` took -o as the names and then said --output was missing.
  for (const std::string names : {",", "''", "Ann,"}) {
    const auto r = record(log, "", "--names " + names);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "--names has an empty name"));
    CHECK_FALSE(fs::exists(log));
  }
  CHECK(contains(record(log, "", "--names Ann").err, "--names gives 1 name: give one per seat (2)"));
  const auto two = record(log, "", "--names Ann,Bob");
  CHECK(two.exit_code == 0);
  CHECK(contains(read_text(log), "\"names\":[\"Ann\",\"Bob\"]"));
  // A file that is not a log was said to hold "a game already".
  write_text(dir + "/stats.json", "{\n  \"rulebook-stats\": 4\n}\n");
  const auto stats = record(dir + "/stats.json", "", "--players 2");
  CHECK(stats.exit_code == 2);
  CHECK(contains(stats.err, "is not a game log to go on from"));
  CHECK_FALSE(contains(stats.err, "holds a game already"));
  CHECK(read_text(dir + "/stats.json") == "{\n  \"rulebook-stats\": 4\n}\n");
  fs::remove_all(dir);
}

TEST_CASE("hostile 3: replay --as naming nobody replays nothing of that log", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 1 --seed 3 --logs {}", quoted_path(kWar), quoted_path(dir + "/W"))).exit_code == 0);
  const std::string log = quoted_path(dir + "/W/game-000000.jsonl");
  // Before: the error, then the whole replay without the states asked for, and "ok".
  const auto r = run_rulebook(fmt::format("replay {} {} --show-state step --as Zed", quoted_path(kWar), log));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "--as Zed: the log's players are player 0, player 1"));
  CHECK(contains(r.err, "the log is not replayed"));
  CHECK(r.out.empty());
  const auto named = run_rulebook(fmt::format("replay {} {} --show-state round --as 1", quoted_path(kWar), log));
  CHECK(named.exit_code == 0);
  CHECK(contains(named.out, "states as player 1 sees them"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 3: simulate refuses --stats at its --logs folder before making the folder", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const auto r = run_rulebook(fmt::format("simulate {} --games 2 --logs {} --stats {}", quoted_path(kWar), quoted_path(dir + "/D"),
                                          quoted_path(dir + "/D")));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "is the --logs folder itself"));
  CHECK_FALSE(fs::exists(dir + "/D"));  // it was made, then the command refused
  fs::remove_all(dir);
}

}  // namespace reliability_hostile_eighth_probe_test
