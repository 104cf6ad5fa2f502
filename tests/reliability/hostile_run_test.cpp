// Hostile input (issue 21) for running rules: definitions that expand without bound, rules
// that loop with no decision, and huge names in a game log. Each case runs the built
// executable, as a user would, and checks the exit code, the message, the time and what is
// written.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <string>

#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;
using rulebook::test::temp_folder;
using rulebook::test::write_text;

namespace reliability_hostile_run_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

const std::string kHeader = "game \"t\"\nplayers 2\ncards { standard52 }\nvar n: int = 0\n";  // lines 1 to 4

// `layers` definitions, each calling the one before twice: f_k expands to about 2^k nodes.
// f0 is on line 5, f_k on line 5 + k; the round reads f_layers on line 7 + layers.
std::string doubling(int layers) {
  std::string text = kHeader + "def f0(x: int): int = x + 1\n";
  for (int k = 1; k <= layers; ++k) {
    text += "def f" + std::to_string(k) + "(x: int): int = f" + std::to_string(k - 1) + "(x) + f" + std::to_string(k - 1) + "(x)\n";
  }
  return text + "round {\n  set n := f" + std::to_string(layers) + "(1)\n  end game\n}\n";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("hostile: definitions that double at every layer are refused where they pass the limit, by every command",
          "[hostile]") {
  const std::string dir = temp_folder();
  write_text(dir + "/doubling.rules", doubling(40));
  // f0 is 3 nodes (x + 1) and f_k is 2 f_(k-1) + 5 (two calls with their argument, and the
  // sum) = 8 * 2^k - 5: f14 has 131,067, more than 100,000, and f13 65,531. The error is at
  // f14's body, line 19, where its first call of f13 begins.
  const std::string where = "doubling.rules:19:24: error: expanding the definitions used here gives an expression of 131,067 nodes";
  const std::string rules = quoted_path(dir + "/doubling.rules");
  write_text(dir + "/game.jsonl", "{\"log\": \"rulebook\", \"version\": 1, \"players\": 2}\n");
  // `verify` exits 2 on errors in the rules, since its 1 says a property is refuted.
  const std::pair<std::string, int> commands[] = {{"check " + rules, 1},
                                                  {"simulate " + rules + " --games 1", 1},
                                                  {"replay " + rules + " " + quoted_path(dir + "/game.jsonl"), 1},
                                                  {"verify " + rules + " --timeout 1 --budget 1", 2}};
  for (const auto& [command, exit_code] : commands) {
    SECTION(command.substr(0, command.find(' '))) {
      const auto start = std::chrono::steady_clock::now();
      const auto r = run_rulebook(command);
      CHECK(seconds_since(start) < 5);
      CHECK(r.exit_code == exit_code);
      CHECK(r.err.find(where) != std::string::npos);
      CHECK(r.err.find("more than the limit of 100,000 [E0308]") != std::string::npos);
      // The note names the largest definition the expression calls; the layers above f14 are
      // not reported again.
      CHECK(r.err.find("note: 'f13' alone expands to 65,531 nodes") != std::string::npos);
      CHECK(r.err.find("1 error, 0 warnings") != std::string::npos);
    }
  }
  // Nothing but the two files written here: no fault log, no counterexample.
  CHECK(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()) == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: definitions that nest deeper at every layer are refused past 500 levels, 493 levels run",
          "[hostile]") {
  const std::string dir = temp_folder();
  // g_k(x) = g_(k-1)(x + 1 + ... + 1) with `per_layer` additions: the argument is per_layer + 1
  // levels deep and takes the place of x at the bottom of g_(k-1), so g_k expands to
  // 1 + k (per_layer + 2) levels (the call adds one). No parentheses: the chain stays far
  // from the parser's own nesting limit.
  const auto nesting = [](int layers, int per_layer) {
    std::string text = kHeader + "def g0(x: int): int = x\n";
    for (int k = 1; k <= layers; ++k) {
      std::string argument = "x";
      for (int i = 0; i < per_layer; ++i) argument += " + 1";
      text += "def g" + std::to_string(k) + "(x: int): int = g" + std::to_string(k - 1) + "(" + argument + ")\n";
    }
    return text + "round {\n  set n := g" + std::to_string(layers) + "(0)\n  end game winners players\n}\n";
  };
  SECTION("past the limit") {
    // g5 is 491 levels, g6 589: the error is at g6's body, line 11.
    write_text(dir + "/deep.rules", nesting(8, 96));
    const auto r = run_rulebook("check " + quoted_path(dir + "/deep.rules"));
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("deep.rules:11:23: error: expanding the definitions used here nests the expression 589 levels deep, "
                     "more than the limit of 500 [E0308]") != std::string::npos);
    CHECK(r.err.find("note: 'g5' alone expands to 491 levels") != std::string::npos);
    CHECK(r.err.find("1 error, 0 warnings") != std::string::npos);
  }
  SECTION("under the limit, the deepest expression runs and replays") {
    // The round's expression is g5's 491 levels, its call and its argument: 493.
    write_text(dir + "/deep.rules", nesting(5, 96));
    CHECK(run_rulebook("check " + quoted_path(dir + "/deep.rules")).exit_code == 0);
    const auto r = run_rulebook("simulate " + quoted_path(dir + "/deep.rules") + " --games 3 --logs " + quoted_path(dir + "/logs"));
    CHECK(r.exit_code == 0);
    CHECK(run_rulebook("replay " + quoted_path(dir + "/deep.rules") + " " + quoted_path(dir + "/logs/game-000000.jsonl")).exit_code == 0);
    const auto verified = run_rulebook("verify " + quoted_path(dir + "/deep.rules") + " --timeout 10");
    CHECK(verified.exit_code == 0);
    CHECK(verified.out.find("8 proved, 0 refuted, 0 unknown") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: the calls of a whole ruleset are bounded in total, at the call that passes", "[hostile]") {
  const std::string dir = temp_folder();
  // f13 expands to 65,531 nodes, under the limit for one expression. The calls inside f1 to
  // f13 add 130,926 nodes; the round's calls of f13 add 65,531 each, and the fourteenth
  // passes 1,000,000.
  std::string text = doubling(13);
  std::string round = "round {\n";
  for (int i = 0; i < 16; ++i) round += "  set n := f13(" + std::to_string(i) + ")\n";
  text = text.substr(0, text.find("round {")) + round + "  end game\n}\n";
  write_text(dir + "/wide.rules", text);
  const auto r = run_rulebook("check " + quoted_path(dir + "/wide.rules"));
  CHECK(r.exit_code == 1);
  // The round is on line 19 (4 lines of header, f0 to f13): its fourteenth call on line 33.
  CHECK(r.err.find("wide.rules:33:12: error: expanding every call of a definition in this ruleset gives more than "
                   "1,000,000 nodes; this call of 'f13' passes the limit [E0308]") != std::string::npos);
  CHECK(r.err.find("1 error, 0 warnings") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: a round with no decision faults naming the round, its log is cut at 1 MiB and replays to the fault",
          "[hostile]") {
  const std::string dir = temp_folder();
  write_text(dir + "/loop.rules", kHeader + "round {\n  add 1 to n\n}\n");
  const std::string rules = quoted_path(dir + "/loop.rules");
  const auto r = run_rulebook("simulate " + rules + " --games 1 --logs " + quoted_path(dir + "/logs"));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("no decision and no end after 50000000 steps: the rules loop; the round at line 5, column 1 goes round "
                   "with no decision") != std::string::npos);
  CHECK(r.err.find("  at: " + dir + "/loop.rules:5\n") != std::string::npos);
  // The log was 300 MB of round lines: it now stops at 1 MiB with a cut line, and the fault
  // line counts the events left out.
  const std::string log = rulebook::test::read_text(dir + "/logs/fault-game-0.jsonl");
  CHECK(log.size() < (std::size_t{1} << 20) + 4096);
  CHECK(log.find("\n{\"cut\":{\"moves\":0,\"reason\":\"more than 1048576 bytes of log with no decision\",\"rounds\":") !=
        std::string::npos);
  const std::string last = log.substr(log.rfind('\n', log.size() - 2) + 1);
  CHECK(last.find("{\"fault\":{\"at\":\"loop.rules:5\",") == 0);  // the file's name, without its folder
  CHECK(last.find("\"unrecorded\":166") != std::string::npos);  // some 16.6 million rounds
  // The replay checks every line up to the cut, then runs the rules on to the same fault.
  const auto replayed = run_rulebook("replay " + rules + " " + quoted_path(dir + "/logs/fault-game-0.jsonl"));
  CHECK(replayed.exit_code == 1);
  CHECK(replayed.out.find("rule fault") != std::string::npos);
  CHECK(replayed.err.find("the round at line 5, column 1 goes round with no decision") != std::string::npos);
  CHECK(replayed.err.find("the log records this fault") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: a loop with no decision inside a rule is named by its line, column and rule", "[hostile]") {
  const std::string dir = temp_folder();
  // The loop is on line 7, column 14, in rule 'spin'; the repeat before it, which ends, is
  // not the one named.
  write_text(dir + "/spin.rules", kHeader + "round {\n  repeat 3 { add 1 to n }\n  rule spin: while n >= 0 {\n    add 1 to n\n  }\n}\n");
  const auto r = run_rulebook("simulate " + quoted_path(dir + "/spin.rules") + " --games 1 --logs " + quoted_path(dir + "/logs"));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("the rules loop; the loop at line 7, column 14 goes round with no decision") != std::string::npos);
  CHECK(r.err.find("  rule: spin\n  at: " + dir + "/spin.rules:7\n") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: a name of 4 MB in a log is quoted in 80 characters, and found unknown at once", "[hostile]") {
  const std::string dir = temp_folder();
  const std::string example = rulebook::test::read_text(source_path("rulesets/examples/clusterfk-table-game.jsonl"));
  const std::string move = "\"rule\": \"pass_note\", \"choice\": \"note3\"";
  REQUIRE(example.find(move) != std::string::npos);
  const std::string huge(4'000'000, 'x');
  const std::pair<const char*, std::string> cases[] = {
      {"a rule label", "\"rule\": \"pass_note" + huge + "\", \"choice\": \"note3\""},
      {"a card", "\"rule\": \"pass_note\", \"choice\": \"note3" + huge + "\""},
      {"a seat name", "\"rule\": \"pass_note\", \"choice\": \"note3\""},
  };
  for (const auto& [name, replacement] : cases) {
    SECTION(name) {
      std::string log = example;
      log.replace(log.find(move), move.size(), replacement);
      // Seat names are repeated in the messages of every step: one of 4 MB is refused.
      if (std::string(name) == "a seat name") log.replace(log.find("\"Cy\""), 4, "\"Cy" + huge + "\"");
      write_text(dir + "/huge.jsonl", log);
      const auto start = std::chrono::steady_clock::now();
      const auto r = run_rulebook("replay " + quoted_path(source_path("rulesets/clusterfk.rules")) + " " + quoted_path(dir + "/huge.jsonl"));
      CHECK(seconds_since(start) < 5);
      CHECK(r.exit_code == 2);
      CHECK(r.err.find(std::string(name) == "a seat name" ? "huge.jsonl:3:" : "huge.jsonl:13:") != std::string::npos);
      // The message quotes the first 80 characters and the size; the line is shown as a window.
      CHECK(r.err.find("xxxxxxxx... (400000") != std::string::npos);
      CHECK(r.err.size() < 2000);
    }
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: replay stops at a cut line where the rules need a shuffle the log left out", "[hostile]") {
  const std::string dir = temp_folder();
  // A round that shuffles with no decision: its log is cut after 1 MiB of shuffle lines
  // (simulating it takes 10 s, so the log is written here as the writer writes it).
  write_text(dir + "/shuffle.rules", "game \"t\"\nplayers 2\ncards { standard52 }\nzone deck: pile hidden\n"
                                     "setup {\n  move all_cards to deck\n}\nround {\n  shuffle deck\n}\n");
  write_text(dir + "/cut.jsonl",
             "{\"log\":\"rulebook\",\"version\":1,\"players\":2}\n"
             "{\"round\":1}\n"
             "{\"cut\":{\"moves\":0,\"reason\":\"more than 1048576 bytes of log with no decision\",\"rounds\":1}}\n"
             "{\"fault\":{\"at\":\"shuffle.rules:8\",\"message\":\"no decision and no end after 50000000 steps: the rules loop\","
             "\"moves\":0,\"rounds\":16666667,\"rule\":null,\"unrecorded\":33326517}}\n");
  const auto r = run_rulebook("replay " + quoted_path(dir + "/shuffle.rules") + " " + quoted_path(dir + "/cut.jsonl"));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("ok: 0 steps, then the game was stopped (the log is cut at line 3, more than 1048576 bytes of log with "
                   "no decision, and the rules go on past what it records)") != std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace reliability_hostile_run_test
