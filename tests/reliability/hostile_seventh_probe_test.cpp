// Hostile input, round two (issue 34): what the seventh, independent probe found (about 300
// cases against the binary of the sixth round's fixes): two crashes of `merge`, two ways to
// lose output, and messages that hid what was wrong. docs/reliability.md lists the promises.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "support.hpp"

using rulebook::test::quoted_path;
using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::source_path;
using rulebook::test::write_text;

namespace reliability_hostile_seventh_probe_test {  // this file's own names (unity builds put several files in one)
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::string kWar = source_path("rulesets/library/war.rules");

// A log of one game of War (seed 3), its lines.
std::vector<std::string> war_log_lines(const std::string& dir) {
  const auto played = run_rulebook(fmt::format("simulate {} --games 1 --seed 3 --logs {}", quoted_path(kWar), quoted_path(dir + "/logs")));
  REQUIRE(played.exit_code == 0);
  const std::string text = read_text(dir + "/logs/game-000000.jsonl");
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  REQUIRE(lines.size() > 10);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

}  // namespace

TEST_CASE("hostile 2: merge refuses numbers beyond a double and files past 64 MiB, without aborting", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // SIGABRT before: nlohmann's out_of_range 406 was not caught.
  for (const std::string& text : {std::string("1e400"), std::string(R"({"rulebook-stats":1e309})"), std::string(200000, '7')}) {
    write_text(dir + "/x.json", text);
    const auto merged = run_rulebook(fmt::format("merge {}", quoted_path(dir + "/x.json")));
    CHECK(merged.exit_code == 2);
    CHECK(contains(merged.err, "not JSON"));
    CHECK(!contains(merged.err, "terminate"));
  }
  // A statistics file holds kilobytes; /dev/zero was read up to 1 GiB (1.6 GB of memory).
  const auto zero = run_rulebook("merge /dev/zero");
  CHECK(zero.exit_code == 2);
  CHECK(contains(zero.err, "64 MiB"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: verify --cex-out gives findings whose names share 40 characters a file each", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/inv.rules",
             "game \"t\"\nplayers 2\ncards { k: 4 }\nvar n: int = 0\nround {\n  add 1 to n\n"
             "  rule stop: if n >= 5 {\n    end game winners players\n  }\n}\n"
             "invariant counter_stays_below_the_limit_in_round_number_one: n < 2\n"
             "invariant counter_stays_below_the_limit_in_round_number_two: n < 3\n");
  // The player count twice is verified once.
  const auto verified = run_rulebook(fmt::format("verify {} --players 2 --players 2 --property invariant --cex-out {}",
                                                 quoted_path(dir + "/inv.rules"), quoted_path(dir + "/cex")));
  REQUIRE(verified.exit_code == 1);
  std::size_t reports = 0;
  for (std::size_t at = 0; (at = verified.out.find("t, 2 players", at)) != std::string::npos; ++at) ++reports;
  CHECK(reports == 1);
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir + "/cex")) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() == 2);  // one before: the second overwrote the first
  CHECK(files[0] != files[1]);
  for (const std::string& file : files) {
    CHECK(contains(verified.out, fs::path(file).filename().string()));
    // Each log is its own counterexample, and replays.
    const auto replayed = run_rulebook(fmt::format("replay {} {} --partial", quoted_path(dir + "/inv.rules"), quoted_path(file)));
    CHECK(replayed.exit_code == 0);
  }
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: no output replaces a rule file the command reads", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = dir + "/war.rules";
  const std::string original = read_text(kWar);
  write_text(rules, original);
  fs::create_symlink(rules, dir + "/other-name.rules");
  const std::string r = quoted_path(rules), link = quoted_path(dir + "/other-name.rules");
  for (const std::string& args : {fmt::format("check --dump-ir {} {}", r, r), fmt::format("graph -o {} {}", link, r),
                                  fmt::format("simulate {} --games 2 --stats {}", r, r), fmt::format("play {} --log {}", r, link)}) {
    INFO(args);
    const auto run = run_rulebook(args, "1\n");
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "would replace the rules"));
    CHECK(read_text(rules) == original);  // each of them wrote over the rules before
  }
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: graph writes control characters of a file name as text in its labels", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string name = dir + "/a\nb\x1b[31m.rules";
  write_text(name, read_text(kWar));
  const auto dot = run_rulebook(fmt::format("graph {}", quoted_path(name)));
  REQUIRE(dot.exit_code == 0);
  CHECK(dot.out.find('\x1b') == std::string::npos);
  CHECK(contains(dot.out, "a\\\\nb\\\\x1b[31m.rules:"));  // DOT's "\\" is a backslash shown
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: a syntax error at a character of several bytes quotes it whole, with its code point", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/u.rules", "game \"t\"\nplayers 2\ncards { k: 4 }\nvar n\xc3\xa9: int = 0\nround {\n  end game\n}\n");
  const auto checked = run_rulebook(fmt::format("check {}", quoted_path(dir + "/u.rules")));
  CHECK(checked.exit_code == 1);
  CHECK(contains(checked.err, "but got '\xc3\xa9' (U+00E9)"));  // was '\xC3', a byte of it
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: old Mac line endings (CR alone) count lines", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/cr.rules", "game \"t\"\rplayers 2\rcards { k: 4 }\rround {\r  add 1 to nowhere\r  end game\r}\r");
  const auto checked = run_rulebook(fmt::format("check {}", quoted_path(dir + "/cr.rules")));
  CHECK(checked.exit_code == 1);
  CHECK(contains(checked.err, "cr.rules:5:"));  // was 1:44, the file one line
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: bidirectional controls in a rule file's strings are refused, and written out elsewhere", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/b.rules", "game \"ab\xe2\x80\xae" "cd\"\nplayers 2\ncards { k: 4 }\nround {\n  end game\n}\n");
  const auto checked = run_rulebook(fmt::format("check {}", quoted_path(dir + "/b.rules")));
  CHECK(checked.exit_code == 1);
  CHECK(contains(checked.err, "a control character (\\u202e) in a string"));
  CHECK(!contains(checked.err, "\xe2\x80\xae"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: a log's header: players of the wrong type, a byte-order mark, seat names that name other seats, the seed", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::vector<std::string> lines = war_log_lines(dir);
  const std::string log = dir + "/game.jsonl";
  auto replay = [&](const std::string& header) {
    std::vector<std::string> changed = lines;
    changed[0] = header;
    write_text(log, joined(changed));
    return run_rulebook(fmt::format("replay {} {}", quoted_path(kWar), quoted_path(log)));
  };
  const std::string& header = lines[0];
  auto with = [&](const std::string& from, const std::string& to) {
    std::string h = header;
    const std::size_t at = h.find(from);
    REQUIRE(at != std::string::npos);
    return h.replace(at, from.size(), to);
  };
  CHECK(replay(header).exit_code == 0);
  // "4" and 4.0 read as a count out of range, "not 4".
  const auto typed = replay(with("\"players\":2", "\"players\":\"2\""));
  CHECK(typed.exit_code == 2);
  CHECK(contains(typed.err, "\"players\" is a whole number"));
  // A byte-order mark before the header, as an editor saves a log written by hand.
  CHECK(replay("\xef\xbb\xbf" + header).exit_code == 0);
  // "player 1" for seat 0 made "player 1" mean two seats; "table" is an answer's word.
  for (const std::string& names : {std::string(R"("names":["player 1","player 0"],)"), std::string(R"("names":["table","Bo"],)"),
                                   std::string(R"("names":["Al","Seat 0"],)")}) {
    const auto named = replay(with("\"options\"", names + "\"options\""));
    CHECK(named.exit_code == 2);
    CHECK(contains(named.err, "seat name"));
  }
  CHECK(replay(with("\"options\"", R"("names":["player 0","Bo"],"options")")).exit_code == 0);
  // A malformed seed was passed over (replay) and written back as "0" (record).
  for (const std::string& seed : {std::string("\"-1\""), std::string("5"), std::string("\"\""), std::string("\"99999999999999999999999\"")}) {
    const std::size_t at = header.find("\"seed\":");
    REQUIRE(at != std::string::npos);
    std::string h = header;
    h.replace(at, h.find(',', at) - at, "\"seed\":" + seed);
    const auto seeded = replay(h);
    CHECK(seeded.exit_code == 2);
    CHECK(contains(seeded.err, "\"seed\" is the game's seed"));
  }
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: a cut line is followed by the log's last line only, and its counts are checked", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::vector<std::string> lines = war_log_lines(dir);
  const std::string log = dir + "/game.jsonl";
  // A cut in the middle, moves after it: replayed with exit 0 before.
  std::vector<std::string> middle = lines;
  middle.insert(middle.begin() + 5, R"({"cut":{"moves":0,"reason":"test","rounds":1}})");
  write_text(log, joined(middle));
  const auto cut = run_rulebook(fmt::format("replay {} {}", quoted_path(kWar), quoted_path(log)));
  CHECK(cut.exit_code == 2);
  CHECK(contains(cut.err, "only the log's last line (end, fault or stopped) follows a cut"));
  // A cut before the last line, with counts that are no counts.
  std::vector<std::string> at_end = lines;
  at_end.insert(at_end.end() - 1, R"({"cut":{"moves":-1,"reason":"test","rounds":1e300}})");
  write_text(log, joined(at_end));
  const auto counts = run_rulebook(fmt::format("replay {} {}", quoted_path(kWar), quoted_path(log)));
  CHECK(counts.exit_code == 2);
  CHECK(contains(counts.err, "is a whole number, at least 0"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: SIGHUP stops simulate as SIGTERM does, keeping its report and statistics", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string command = fmt::format(
      "cd {} && ( '{}' simulate {} --games 100000000 --stats s.json >out.txt 2>err.txt & pid=$!; sleep 1; kill -HUP $pid; "
      "wait $pid; echo $? >rc.txt )",
      quoted_path(dir), RULEBOOK_EXECUTABLE, quoted_path(kWar));
  REQUIRE(std::system(command.c_str()) == 0);
  CHECK(read_text(dir + "/rc.txt") == "129\n");  // 128 + SIGHUP
  CHECK(contains(read_text(dir + "/err.txt"), "hung up (SIGHUP)"));
  CHECK(contains(read_text(dir + "/out.txt"), "games"));  // the report of the games played
  REQUIRE(fs::exists(dir + "/s.json"));
  CHECK(contains(read_text(dir + "/s.json"), "\"interrupted\": true"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: arguments quoted in messages are cut at 80 bytes", "[hostile]") {
  const std::string long_code(130000, 'E');
  const auto explained = run_rulebook("explain " + long_code);
  CHECK(explained.exit_code == 2);
  CHECK(contains(explained.err, "... (130000 bytes)"));
  CHECK(explained.err.size() < 1000);
  const auto option = run_rulebook(fmt::format("simulate {} --games 1 --option {}=1", quoted_path(kWar), long_code));
  CHECK(option.exit_code == 2);
  CHECK(option.err.size() < 1000);
}

// The eighth probe, on the binary with the fixes above.

TEST_CASE("hostile 2: record refuses at the start the seat names a log may not have", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = source_path("rulesets/library/blackjack.rules");
  // Saved, then refused by replay and by record itself: the session was lost.
  for (const std::string& names : {std::string("table,Bob"), std::string("'Ann,player 0'"), std::string("undo,Bob")}) {
    INFO(names);
    const auto recorded = run_rulebook(fmt::format("record {} --players 2 --names {} -o {}", quoted_path(rules), names,
                                                   quoted_path(dir + "/r.jsonl")), "AS\nKD\n");
    CHECK(recorded.exit_code == 2);
    CHECK(contains(recorded.err, "seat name"));
    CHECK(!fs::exists(dir + "/r.jsonl"));
  }
  // An answer is quoted with its escape codes written out.
  const auto typed = run_rulebook(fmt::format("record {} --players 2 -o {}", quoted_path(rules), quoted_path(dir + "/t.jsonl")),
                                  "A\x1b[31mS\n");
  CHECK(contains(typed.out, "no card 'A\\x1b[31mS'"));
  CHECK(typed.out.find('\x1b') == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: a file written into an output folder, or where standard output goes, replaces no input", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string original = read_text(kWar);
  // The rule file under the name of the first game's log, logs written into its folder.
  write_text(dir + "/game-000000.jsonl", original);
  const auto logs = run_rulebook("simulate game-000000.jsonl --games 2 --logs . --force", "", "cd " + quoted_path(dir) + " &&");
  CHECK(logs.exit_code == 2);
  CHECK(contains(logs.err, "would replace the rules"));
  CHECK(read_text(dir + "/game-000000.jsonl") == original);
  // The rule file under a chart's name.
  write_text(dir + "/win-rates.svg", original);
  const auto plot = run_rulebook("simulate win-rates.svg --games 2 --plot .", "", "cd " + quoted_path(dir) + " &&");
  CHECK(plot.exit_code == 2);
  CHECK(read_text(dir + "/win-rates.svg") == original);
  // --stats /dev/stdout replaced the report stdout was writing. It is refused before the
  // games now (the tenth probe), so stdout holds nothing but what was there.
  const auto stdout_stats = run_rulebook(fmt::format("simulate {} --games 2 --stats /dev/stdout", quoted_path(kWar)));
  CHECK(stdout_stats.exit_code == 2);
  CHECK(stdout_stats.out.empty());
  CHECK(contains(stdout_stats.err, "where standard output goes"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: one output of a command does not take another's place, and stdout holds one of them", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // The statistics replaced the second game's log.
  const auto logs = run_rulebook(fmt::format("simulate {} --games 3 --logs {} --stats {}", quoted_path(kWar),
                                             quoted_path(dir + "/L"), quoted_path(dir + "/L/game-000001.jsonl")));
  CHECK(logs.exit_code == 2);
  CHECK(contains(logs.err, "is in the --logs folder"));
  fs::create_directory(dir + "/P");
  const auto plot = run_rulebook(fmt::format("simulate {} --games 3 --plot {} --stats {}", quoted_path(kWar),
                                             quoted_path(dir + "/P"), quoted_path(dir + "/P/win-rates.svg")));
  CHECK(plot.exit_code == 2);
  CHECK(contains(plot.err, "is in the --plot folder"));
  // The IR after the JSON report made it no JSON.
  const auto dumped = run_rulebook(fmt::format("check --format json --dump-ir - {}", quoted_path(kWar)));
  CHECK(dumped.exit_code == 2);
  CHECK(dumped.out.empty());
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: a stopped line's counts are checked", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // Hearts (War has no decisions, so its log has no place to stop): up to its third move.
  const std::string hearts = source_path("rulesets/library/hearts.rules");
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 1 --seed 3 --logs {}", quoted_path(hearts), quoted_path(dir + "/h"))).exit_code == 0);
  std::vector<std::string> lines;
  const std::string text = read_text(dir + "/h/game-000000.jsonl");
  for (std::size_t at = 0, moves = 0; at < text.size() && moves < 3;) {
    const std::size_t end = text.find('\n', at);
    lines.push_back(text.substr(at, end - at));
    if (contains(lines.back(), "\"move\"")) ++moves;
    at = end + 1;
  }
  const std::string log = dir + "/game.jsonl";
  for (const std::string& stopped : {std::string(R"({"stopped":null})"), std::string(R"({"stopped":[1,2]})"),
                                     std::string(R"({"stopped":{"moves":999,"max_moves":-1,"rounds":"x"}})")}) {
    std::vector<std::string> changed = lines;
    changed.push_back(stopped);
    write_text(log, joined(changed));
    const auto replayed = run_rulebook(fmt::format("replay {} {}", quoted_path(hearts), quoted_path(log)));
    CHECK(replayed.exit_code == 2);  // 0 before: "ok: ..., then the game was stopped"
  }
  fs::remove_all(dir);
}

}  // namespace reliability_hostile_seventh_probe_test
