// Hostile input, round two (issue 34): what the ninth independent probe found (about 200
// cases against the binary of the eighth round's fixes): a file outside an output folder
// replaced through a link, comments lost to `undo`, log lines whose unknown members or
// missing counts let a log pass, and messages that named the wrong cause.
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

namespace reliability_hostile_ninth_probe_test {  // this file's own names (unity builds put several files in one)
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::string kWar = source_path("rulesets/library/war.rules");
const std::string kHearts = source_path("rulesets/library/hearts.rules");
const std::string kHighCard = source_path("tests/cli/data/record-high-card.rules");

rulebook::test::RunResult record(const std::string& log, const std::string& answers, const std::string& extra = "") {
  return run_rulebook(fmt::format("record {} {} -o {}", quoted_path(kHighCard), extra, quoted_path(log)), answers);
}

// `text` with its first `from` replaced by `to` (which must be there).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("hostile 4: a link in an output folder is not written through", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/victim.txt", "precious\n");
  fs::create_directory(dir + "/L");
  fs::create_symlink("../victim.txt", dir + "/L/game-000000.jsonl");
  // Before: the first game's log replaced victim.txt, outside the folder.
  const auto logs = run_rulebook(fmt::format("simulate {} --games 2 --logs {} --force", quoted_path(kWar), quoted_path(dir + "/L")));
  CHECK(logs.exit_code == 2);
  CHECK(contains(logs.err, "is a symbolic link: a file the command names in its output folder is not written through a link"));
  CHECK(read_text(dir + "/victim.txt") == "precious\n");
  // The charts of --plot, the same way.
  fs::create_directory(dir + "/P");
  fs::create_symlink("../victim.txt", dir + "/P/win-rates.svg");
  const auto plot = run_rulebook(fmt::format("simulate {} --games 2 --plot {}", quoted_path(kWar), quoted_path(dir + "/P")));
  CHECK(plot.exit_code == 2);
  CHECK(read_text(dir + "/victim.txt") == "precious\n");
  // A path given as an option is still written through its link, as documented.
  fs::create_symlink("victim.txt", dir + "/stats-link.json");
  CHECK(run_rulebook(fmt::format("simulate {} --games 2 --stats {}", quoted_path(kWar), quoted_path(dir + "/stats-link.json"))).exit_code == 0);
  CHECK(contains(read_text(dir + "/victim.txt"), "rulebook-stats"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 4: record's undo keeps a person's notes, and a session that changes nothing leaves the log as it was", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string log = dir + "/game.jsonl";
  REQUIRE(record(log, "7H 8C\nKS 2D\n9D\n7H\n2D\nquit\n", "--names Ann,Bob").exit_code == 0);
  write_text(log, replaced(read_text(log), "{\"move\":{\"choice\":\"2D\"", "// before Bob's move\n{\"move\":{\"choice\":\"2D\""));
  // Before: undo took the note with the answer.
  REQUIRE(record(log, "undo\nquit\n").exit_code == 0);
  const std::string undone = read_text(log);
  CHECK(contains(undone, "// before Bob's move\n"));
  CHECK_FALSE(contains(undone, "\"choice\":\"2D\""));
  // A log of other rule files, gone on with and left at once: before, it was written anew
  // with these rules' hash, and a later replay no longer warned.
  const std::string other = replaced(undone, "\"hash\":\"", "\"hash\":\"f");
  write_text(log, other);
  const auto left = record(log, "quit\n");
  CHECK(left.exit_code == 0);
  CHECK(contains(left.err, "the log was written for other rule files"));
  CHECK(read_text(log) == other);
  fs::remove_all(dir);
}

TEST_CASE("hostile 4: a member replay does not know makes a log line malformed", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 1 --seed 3 --logs {}", quoted_path(kWar), quoted_path(dir + "/W"))).exit_code == 0);
  const std::string text = read_text(dir + "/W/game-000000.jsonl");
  const std::size_t end = text.rfind("{\"end\":");
  REQUIRE(end != std::string::npos);
  const auto replay_of = [&](const std::string& changed) {
    write_text(dir + "/x.jsonl", changed);
    return run_rulebook(fmt::format("replay {} {}", quoted_path(kWar), quoted_path(dir + "/x.jsonl")));
  };
  // Before: "ok", exit 0, the winners and scores unchecked.
  const auto misspelt = replay_of(text.substr(0, end) + "{\"end\":{\"winner\":[1],\"score\":{\"held\":[0,9]}}}\n");
  CHECK(misspelt.exit_code == 2);
  CHECK(contains(misspelt.err, "the object of a 'end' line has no member 'winner': its members are winners, scores, payoffs"));
  const auto top = replay_of(replaced(text, "{\"round\":1}", "{\"round\":1,\"note\":\"x\"}"));
  CHECK(top.exit_code == 2);
  CHECK(contains(top.err, "a 'round' line has no member 'note'"));
  const auto deal = replay_of(replaced(text, "\"to\":", "\"player\":0,\"to\":"));
  CHECK(deal.exit_code == 2);
  CHECK(contains(deal.err, "the object of a 'deal' line has no member 'player': its members are cards, from, to"));
  CHECK(replay_of(text).exit_code == 0);
  fs::remove_all(dir);
}

TEST_CASE("hostile 4: a stopped line gives the counts where the replay is", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 1 --max-moves 20 --logs {}", quoted_path(kHearts), quoted_path(dir + "/H"))).exit_code == 0);
  const std::string text = read_text(dir + "/H/game-000000.jsonl");
  const std::size_t last = text.rfind("{\"stopped\":");
  REQUIRE(last != std::string::npos);
  const auto replay_with = [&](const std::string& line) {
    write_text(dir + "/x.jsonl", text.substr(0, last) + line + "\n");
    return run_rulebook(fmt::format("replay {} {}", quoted_path(kHearts), quoted_path(dir + "/x.jsonl")));
  };
  CHECK(replay_with(text.substr(last, text.size() - last - 1)).exit_code == 0);
  // Before: exit 0 for each, "then the game was stopped".
  const auto empty = replay_with("{\"stopped\":{}}");
  CHECK(empty.exit_code == 2);
  CHECK(contains(empty.err, "a stopped line gives \"moves\" and \"rounds\", where the game was stopped"));
  const auto moves = replay_with("{\"stopped\":{\"max_moves\":20,\"moves\":500,\"reason\":\"move cap\",\"rounds\":1}}");
  CHECK(moves.exit_code == 1);
  CHECK(contains(moves.err, "the log says the game was stopped after 500 moves; by the rules it is at 20"));
  const auto cap = replay_with("{\"stopped\":{\"max_moves\":30,\"moves\":20,\"reason\":\"move cap\",\"rounds\":1}}");
  CHECK(cap.exit_code == 1);
  CHECK(contains(cap.err, "stopped at a cap of 30 moves, but 20 moves were made"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 4: record's // seen notes: either name of a zone, a hint for a card, a note with nothing in it", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string log = dir + "/game.jsonl";
  REQUIRE(record(log, "7H 8C\nKS 2D\nquit\n", "--names Ann,Bob").exit_code == 0);
  const std::string text = read_text(log);
  const auto going_on = [&](const std::string& note) {
    write_text(log, replaced(text, "// seen hand(Ann): 7H 8C", note));
    return record(log, "quit\n");
  };
  // Before: "seen in hand(0), but the rules show new cards in hand(Ann)".
  CHECK(going_on("// seen hand(0): 7H 8C").exit_code == 0);
  const auto ten = going_on("// seen hand(Ann): 7H TC");
  CHECK(ten.exit_code == 2);
  CHECK(contains(ten.err, "no card 'TC' in this game (did you mean '10C'?)"));
  CHECK_FALSE(contains(ten.err, "? lists"));  // the prompt's word means nothing in a file
  const auto empty = going_on("// seen hand(Ann):");
  CHECK(empty.exit_code == 2);
  CHECK(contains(empty.err, "names no zone or no card"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 4: merge names the count that disagrees, and explain takes a code or --list", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 30 --shard 0/3 --seed 7 --stats {}", quoted_path(kHearts), quoted_path(dir + "/s.json"))).exit_code == 0);
  const std::string text = read_text(dir + "/s.json");
  write_text(dir + "/x.json", replaced(text, "\"played\": 10", "\"played\": 9"));
  // Before: "the sum and sum_sq of payoff share of player 1 cannot both be right".
  const auto played = run_rulebook(fmt::format("merge {}", quoted_path(dir + "/x.json")));
  CHECK(played.exit_code == 2);
  CHECK(contains(played.err, "\"rounds\" counts 10 games, but 9 were finished"));
  write_text(dir + "/x.json", replaced(text, "\"interrupted\": false", "\"interrupted\": true"));
  const auto interrupted = run_rulebook(fmt::format("merge {}", quoted_path(dir + "/x.json")));
  CHECK(interrupted.exit_code == 2);
  CHECK(contains(interrupted.err, "\"interrupted\" is true, but all 10 games of the shard were played"));
  const auto both = run_rulebook("explain --list E0302");
  CHECK(both.exit_code == 2);
  CHECK(contains(both.err, "give a code or --list, not both"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 4: a number beyond 64 bits in a log, and a file name that is not UTF-8 in a graph", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string log = dir + "/game.jsonl";
  REQUIRE(record(log, "7H 8C\nquit\n").exit_code == 0);
  write_text(log, replaced(read_text(log), "\"players\":2", "\"players\":18446744073709551620"));
  const auto big = run_rulebook(fmt::format("replay {} {} --partial", quoted_path(kHighCard), quoted_path(log)));
  CHECK(big.exit_code == 2);
  CHECK(contains(big.err, "a number in this line cannot be read: it is malformed, or a whole number beyond 64 bits"));
  CHECK_FALSE(contains(big.err, "not JSON"));
  const std::string latin1 = dir + "/caf\xe9.rules";
  fs::copy_file(kWar, latin1);
  const auto graph = run_rulebook(fmt::format("graph {} --format dot", quoted_path(latin1)));
  CHECK(graph.exit_code == 0);
  CHECK(contains(graph.out, "caf?.rules"));
  CHECK_FALSE(contains(graph.out, "\xe9"));
  fs::remove_all(dir);
}

}  // namespace reliability_hostile_ninth_probe_test
