// Hostile input at the limits: each case is handled or rejected with a clear message and the
// documented exit code (docs/reliability.md, "Limits"); none may crash, hang or overflow the
// stack. Each runs the built executable, as a user would.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;

namespace reliability_limits_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

// A file with `body` as a def's value, in a game that checks otherwise.
std::string def_file(const std::string& body) {
  return "game \"t\"\nplayers 2\ncards { standard52 }\ndef f: int = " + body + "\nround {\n  end game\n}\n";
}

}  // namespace

TEST_CASE("limits: expressions nested 100,000 deep are a syntax error, not a stack overflow", "[limits]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::size_t n = 100000;
  const std::pair<const char*, std::string> cases[] = {
      {"parentheses", std::string(n, '(') + "1" + std::string(n, ')')},
      {"negations", std::string(n, '-') + "1"},
      {"nots", [&] {
         std::string s;
         for (std::size_t i = 0; i < n; ++i) s += "not ";
         return s + "true";
       }()},
  };
  for (const auto& [name, body] : cases) {
    SECTION(name) {
      rulebook::test::write_text(dir + "/deep.rules", def_file(body));
      const auto r = run_rulebook("check " + quoted_path(dir + "/deep.rules"));
      CHECK(r.exit_code == 1);
      CHECK(r.err.find("deep.rules:4:") != std::string::npos);
      CHECK(r.err.find("error: nesting deeper than 200 levels") != std::string::npos);
      CHECK(r.err.find("[E0103]") != std::string::npos);
    }
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("limits: blocks nested 300 deep are a syntax error at the 201st level", "[limits]") {
  const std::string dir = rulebook::test::temp_folder();
  const auto nested_ifs = [](int depth) {
    std::string text = "game \"t\"\nplayers 2\ncards { standard52 }\nround {\n";
    for (int i = 0; i < depth; ++i) text += "if true {\n";
    text += "end game\n";
    for (int i = 0; i < depth; ++i) text += "}\n";
    return text + "}\n";
  };
  rulebook::test::write_text(dir + "/deep.rules", nested_ifs(300));
  const auto r = run_rulebook("check " + quoted_path(dir + "/deep.rules"));
  CHECK(r.exit_code == 1);
  // The round's block is level 1; line 5 holds the first `if`.
  CHECK(r.err.find("deep.rules:203:") != std::string::npos);
  CHECK(r.err.find("nesting deeper than 200 levels") != std::string::npos);
  // Nesting within the limit is accepted.
  rulebook::test::write_text(dir + "/ok.rules", nested_ifs(150));
  CHECK(run_rulebook("check " + quoted_path(dir + "/ok.rules")).exit_code == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("limits: an error on a line of a megabyte shows 160 columns around the caret", "[limits]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string body = std::string(500000, ' ') + "1 + true" + std::string(500000, ' ');
  rulebook::test::write_text(dir + "/long.rules", def_file(body));
  const auto r = run_rulebook("check " + quoted_path(dir + "/long.rules"));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("long.rules:4:") != std::string::npos);
  CHECK(r.err.size() < 1000);
  CHECK(r.err.find("...") != std::string::npos);
  CHECK(r.err.find("1 + true") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("limits: a rule file over 16 MiB, or a device, is refused with exit 2", "[limits]") {
  const std::string dir = rulebook::test::temp_folder();
  {
    std::ofstream huge(dir + "/huge.rules", std::ios::binary);
    const std::string comment = "# " + std::string(1022, 'x') + "\n";
    for (int i = 0; i < 17 * 1024; ++i) huge << comment;
  }
  const auto r = run_rulebook("check " + quoted_path(dir + "/huge.rules"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("larger than 16 MiB") != std::string::npos);
  const auto device = run_rulebook("check /dev/zero");
  CHECK(device.exit_code == 2);
  CHECK(device.err.find("larger than 16 MiB") != std::string::npos);
  CHECK(run_rulebook("fmt /dev/zero").exit_code == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("limits: integer literals past 10^9 are errors, overflow while playing is a rule fault", "[limits]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/big.rules", def_file("99999999999999999999999999"));
  const auto big = run_rulebook("check " + quoted_path(dir + "/big.rules"));
  CHECK(big.exit_code == 1);
  CHECK(big.err.find("is too large (the limit is 1000000000)") != std::string::npos);
  // 2^70 does not fit in 64 bits: the doubling faults where it overflows.
  rulebook::test::write_text(dir + "/grow.rules",
                             "game \"t\"\nplayers 2\ncards { standard52 }\nvar n: int = 1\nround {\n"
                             "  repeat 70 {\n    set n := n * 2\n  }\n  end game\n}\n");
  const auto grow = run_rulebook("simulate " + quoted_path(dir + "/grow.rules") + " --games 1 --logs " + quoted_path(dir + "/logs"));
  CHECK(grow.exit_code == 1);
  CHECK(grow.err.find("integer overflow") != std::string::npos);
  CHECK(grow.err.find("at: ") != std::string::npos);
  CHECK(grow.err.find("grow.rules:7") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("limits: absurd option values exit 2 with the accepted range", "[limits]") {
  const std::string file = quoted_path(source_path("rulesets/clusterfk.rules"));
  const auto seed = run_rulebook("simulate " + file + " --games 1 --seed 99999999999999999999999");
  CHECK(seed.exit_code == 2);
  CHECK(seed.err.find("--seed: takes a whole number from 0 to 18446744073709551615") != std::string::npos);
  CHECK(run_rulebook("simulate " + file + " --games 1 --seed -1").exit_code == 2);
  const auto games = run_rulebook("simulate " + file + " --games 1000000000000");
  CHECK(games.exit_code == 2);
  CHECK(games.err.find("--games: takes a whole number from 1 to 100000000") != std::string::npos);
  CHECK(run_rulebook("simulate " + file + " --games 1 --jobs 100000").exit_code == 2);
  CHECK(run_rulebook("simulate " + file + " --games 1 --max-moves 0").exit_code == 2);
  CHECK(run_rulebook("simulate " + file + " --games 1 --players 1000000").exit_code == 2);
  const auto option = run_rulebook("simulate " + file + " --games 1 --option notes=99999999999999999999999");
  CHECK(option.exit_code == 2);
  CHECK(option.err.find("option 'notes' takes an int") != std::string::npos);
  const auto timeout = run_rulebook("verify " + file + " --players 4 --timeout 0");
  CHECK(timeout.exit_code == 2);
}

TEST_CASE("limits: a log of a million moves is read, and replay stops at the first illegal one", "[limits]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string example = rulebook::test::read_text(source_path("rulesets/examples/clusterfk-table-game.jsonl"));
  // The example without its end line, then a million more moves.
  std::string text = example.substr(0, example.find("{\"end\""));
  const std::string move = "{\"move\": {\"player\": \"Dee\", \"rule\": \"choose_targets\", \"choice\": [\"Ann\"]}}\n";
  text.reserve(text.size() + move.size() * 1000000);
  for (int i = 0; i < 1000000; ++i) text += move;
  rulebook::test::write_text(dir + "/million.jsonl", text);
  const auto r = run_rulebook("replay " + quoted_path(source_path("rulesets/clusterfk.rules")) + " " + quoted_path(dir + "/million.jsonl"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("million.jsonl:74:") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("limits: a log line nested 100,000 deep is a bad log (exit 2), not a stack overflow", "[limits]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string example = rulebook::test::read_text(source_path("rulesets/examples/clusterfk-table-game.jsonl"));
  const std::size_t header = example.find("{\"log\"");
  const std::string text = example.substr(header, example.find('\n', header) - header + 1) + "{\"move\": " +
                           std::string(100000, '[') + std::string(100000, ']') + "}\n";
  rulebook::test::write_text(dir + "/deep.jsonl", text);
  const auto r = run_rulebook("replay " + quoted_path(source_path("rulesets/clusterfk.rules")) + " " + quoted_path(dir + "/deep.jsonl"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("deep.jsonl:2:1: error: this line is not JSON") != std::string::npos);
  CHECK(r.err.find("too deep") != std::string::npos);
  CHECK(r.err.find("[E0601]") != std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace reliability_limits_test
