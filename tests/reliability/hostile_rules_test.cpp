// Hostile rule files (issue 21): shapes the parser reads without nesting but that make deep
// trees (operator chains, `set of set of ...`, `rule a: rule b: ...`), bytes that are not
// UTF-8, and the loader's edge cases. Each is refused with a located message and the
// documented exit code, or accepted and run, and never crashes. Each runs the built
// executable, as a user would.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rulebook/grammar/parse.hpp"
#include "rulebook/grammar/source.hpp"
#include "support.hpp"

using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::write_text;

namespace reliability_hostile_rules_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

// A game whose round reads `def f` (of type `type`, value `body`), so that simulating it
// evaluates the expression.
std::string game_with_def(const std::string& type, const std::string& body) {
  return "game \"t\"\nplayers 2\ncards { standard52 }\ndef f: " + type + " = " + body +
         "\nround {\n  if f == f {\n    end game\n  }\n  end game\n}\n";
}

// `n` operands joined by `op`, as a user (or a generator) writes a long sum.
std::string chain(const std::string& operand, const std::string& op, std::size_t n) {
  std::string text = operand;
  text.reserve(n * (operand.size() + op.size()));
  for (std::size_t i = 1; i < n; ++i) text += op + operand;
  return text;
}

// Runs `rulebook ARGS` with the usual 8 MiB stack, whatever the caller's limit is.
rulebook::test::RunResult run_with_8mib_stack(const std::string& args) {
  const std::string dir = rulebook::test::temp_folder();
  const std::string command = fmt::format("ulimit -s 8192 && NO_COLOR=1 '{}' {} </dev/null >'{}/out' 2>'{}/err'",
                                          RULEBOOK_EXECUTABLE, args, dir, dir);
  const int status = std::system(command.c_str());
  rulebook::test::RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(dir + "/out");
  r.err = read_text(dir + "/err");
  std::filesystem::remove_all(dir);
  return r;
}

}  // namespace

TEST_CASE("hostile: an operator chain past 500 levels is a syntax error at the operator, not a stack overflow",
          "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // Each chain has 20,000 operands: before the limit, `check` died of a stack overflow.
  struct Case {
    const char* name;
    const char* type;
    std::string operand, op;
    std::size_t too_deep_at;  // the operator that makes the tree 501 levels deep
  };
  const Case cases[] = {
      {"+", "int", "1", " + ", 500},
      {"*", "int", "1", " * ", 500},
      {"and", "bool", "true", " and ", 500},
      {"or", "bool", "true", " or ", 500},
      {"set +", "set of int", "{1}", " + ", 499},  // `{1}` is two levels: the set and the 1
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      const std::string path = dir + "/chain.rules";
      write_text(path, game_with_def(c.type, chain(c.operand, c.op, 20000)));
      const auto r = run_rulebook("check " + quoted_path(path));
      CHECK(r.exit_code == 1);
      // Line 4, after "def f: TYPE = ".
      const std::size_t column = fmt::format("def f: {} = ", c.type).size() + c.operand.size() +
                                 (c.too_deep_at - 1) * (c.op.size() + c.operand.size()) + 2;
      CHECK(r.err.find(fmt::format("chain.rules:4:{}: error: expression more than 500 levels deep: each "
                                   "operator of a chain like 'a + b + c' is a level",
                                   column)) != std::string::npos);
      CHECK(r.err.find("[E0103]") != std::string::npos);
      // One error per chain, not one per operator past the limit.
      CHECK(r.err.find("error:", r.err.find("error:") + 1) == std::string::npos);
      // fmt and graph refuse it the same way.
      CHECK(run_rulebook("fmt " + quoted_path(path)).exit_code == 1);
      CHECK(run_rulebook("graph " + quoted_path(path) + " -o " + quoted_path(dir + "/g.dot")).exit_code == 1);
      CHECK(!std::filesystem::exists(dir + "/g.dot"));
    }
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: the deepest expressions accepted pass check, fmt, graph and simulate on an 8 MiB stack",
          "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // 499 levels: a chain of 495 operands in four parentheses, each followed by `+ 1`; the
  // comparison makes 500. Such a condition in the innermost of 180 nested blocks (the
  // deepest blocks and the deepest expression at once) takes about 5.5 MB of stack under
  // AddressSanitizer, 0.8 MB in the release build.
  std::string deep = chain("1", " + ", 495);
  for (int i = 0; i < 4; ++i) deep = "(" + deep + ") + 1";
  std::string text = "game \"t\"\nplayers 2\ncards { standard52 }\nround {\n";
  for (int i = 0; i < 179; ++i) text += "if true {\n";
  text += "if " + deep + " > 0 {\n";
  text += "end game\n";
  for (int i = 0; i < 180; ++i) text += "}\n";
  text += "end game\n}\n";
  const std::string path = dir + "/deepest.rules";
  write_text(path, text);
  const auto check = run_with_8mib_stack("check " + quoted_path(path));
  CHECK(check.err.empty());
  CHECK(check.exit_code == 0);
  const auto formatted = run_with_8mib_stack("fmt " + quoted_path(path));
  CHECK(formatted.exit_code == 0);
  write_text(dir + "/formatted.rules", formatted.out);
  CHECK(run_with_8mib_stack("fmt --check " + quoted_path(dir + "/formatted.rules")).exit_code == 0);
  CHECK(run_with_8mib_stack("graph " + quoted_path(path) + " -o " + quoted_path(dir + "/g.dot")).exit_code == 0);
  const auto simulated = run_with_8mib_stack("simulate " + quoted_path(path) + " --games 2");
  CHECK(simulated.err.find("2 games in") != std::string::npos);
  CHECK(simulated.exit_code == 0);
  // One operand more is one level too many.
  write_text(path, "game \"t\"\nplayers 2\ncards { standard52 }\nround {\n  if " + deep + " + 1 > 0 {\n"
                   "    end game\n  }\n  end game\n}\n");
  const auto over = run_rulebook("check " + quoted_path(path));
  CHECK(over.exit_code == 1);
  CHECK(over.err.find("error: expression more than 500 levels deep") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: a chain of 200,000 'else if' is a syntax error where it gets too deep", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // Before the limit, `simulate --games 1` took 20 s and `verify` died of a stack overflow.
  const auto chain_of = [](int branches) {
    std::string text = "game \"t\"\nplayers 2\ncards { standard52 }\nvar n: int = 0\nround {\n  if n == 0 {\n"
                       "    end game\n  }";
    for (int i = 1; i < branches; ++i) text += fmt::format(" else if n == {} {{\n    end game\n  }}", i % 1000);
    return text + "\n  end game\n}\n";
  };
  const std::string path = dir + "/elif.rules";
  write_text(path, chain_of(200000));
  const auto r = run_rulebook("check " + quoted_path(path));
  CHECK(r.exit_code == 1);
  // The round's block is level 1, each `else if` one more, and its condition needs two: the
  // 198th `else if` (line 6 + 2 * 198) is the first too deep; the error is after its `else if`.
  CHECK(r.err.find("elif.rules:402:13: error: nesting deeper than 200 levels: each 'else if' is a level, as "
                   "'else { if ... }' would be") != std::string::npos);
  CHECK(r.err.find("[E0103]") != std::string::npos);
  // 197 are accepted, and run.
  write_text(path, chain_of(198));
  const auto ok = run_rulebook("check " + quoted_path(path));
  CHECK(ok.err.empty());
  CHECK(ok.exit_code == 0);
  CHECK(run_rulebook("simulate " + quoted_path(path) + " --games 2").exit_code == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: 'set of' 50,000 deep is a syntax error at the 201st level", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  std::string type;
  for (int i = 0; i < 50000; ++i) type += "set of ";
  type += "int";
  const std::string path = dir + "/types.rules";
  write_text(path, "game \"t\"\nplayers 2\ncards { standard52 }\nvar v: " + type + " = {}\nround {\n  end game\n}\n");
  for (const char* command : {"check", "fmt"}) {
    INFO(command);
    const auto r = run_rulebook(std::string(command) + " " + quoted_path(path));
    CHECK(r.exit_code == 1);
    // "var v: " is 7 columns; each "set of " 7 more.
    CHECK(r.err.find(fmt::format("types.rules:4:{}: error: nesting deeper than 200 levels", 8 + 200 * 7)) !=
          std::string::npos);
  }
  // 200 levels are accepted.
  std::string ok_type;
  for (int i = 0; i < 200; ++i) ok_type += "set of ";
  write_text(path, "game \"t\"\nplayers 2\ncards { standard52 }\nvar v: " + ok_type +
                       "int = {}\nround {\n  end game\n}\n");
  CHECK(run_rulebook("check " + quoted_path(path)).exit_code == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: 'rule a: rule a: ...' 100,000 deep is a syntax error, not a stack overflow", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  std::string labels;
  for (int i = 0; i < 100000; ++i) labels += fmt::format("rule r{}: ", i);
  const std::string path = dir + "/labels.rules";
  write_text(path, "game \"t\"\nplayers 2\ncards { standard52 }\nround {\n  " + labels + "end game\n}\n");
  const auto r = run_rulebook("check " + quoted_path(path));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("labels.rules:5:") != std::string::npos);
  CHECK(r.err.find("error: nesting deeper than 200 levels") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: bytes that are not UTF-8 are refused where they are, shown escaped", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string path = dir + "/latin1.rules";
  struct Case {
    const char* name;
    std::string text;
    const char* where;  // line:column
    const char* bytes;  // as the message shows them
  };
  const std::string rest = "players 2\ncards { standard52 }\nround {\n  end game\n}\n";
  const Case cases[] = {
      {"in the title", "game \"Caf\xe9\"\n" + rest, "1:10", "\\xe9"},
      {"in a comment", "game \"t\"\n# r\xe9gle\n" + rest, "2:4", "\\xe9"},
      {"in a name", "game \"t\"\n" + rest + "def caf\xff = 1\n", "7:8", "\\xff"},
      {"a sequence cut short", "game \"t\"\n" + rest + "# \xe2\x82", "7:3", "\\xe2\\x82"},
      {"an overlong form", "game \"t\"\n#\xc0\xaf\n" + rest, "2:2", "\\xc0"},
      {"a surrogate", "game \"t\"\n#\xed\xa0\x80\n" + rest, "2:2", "\\xed"},
      {"UTF-16", std::string("\xff\xfeg\0a\0", 6) + "\n" + rest, "1:1", "\\xff"},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      write_text(path, c.text);
      for (const char* command : {"check", "fmt"}) {
        INFO(command);
        const auto r = run_rulebook(std::string(command) + " " + quoted_path(path));
        CHECK(r.exit_code == 1);
        CHECK(r.err.find(fmt::format("latin1.rules:{}: error: rule files are UTF-8 text, but here is the byte {}, "
                                     "which is not [E0105]",
                                     c.where, c.bytes)) != std::string::npos);
        CHECK(r.out.empty());
      }
      // The JSON report holds only valid UTF-8: it parses, and the bad byte is not in it.
      const auto json = run_rulebook("check --format json " + quoted_path(path));
      CHECK(json.exit_code == 1);
      const auto report = nlohmann::json::parse(json.out, nullptr, false);
      CHECK(!report.is_discarded());
      CHECK(json.out.find("E0105") != std::string::npos);
      // simulate's JSON report aborted on a title that is not UTF-8; now it is never made.
      const auto simulated = run_rulebook("simulate --games 1 --format json " + quoted_path(path));
      CHECK(simulated.exit_code == 1);
      CHECK(!nlohmann::json::parse(simulated.out, nullptr, false).is_discarded());
    }
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: UTF-8 text and a leading byte-order mark are accepted, fmt keeps the mark", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string path = dir + "/bom.rules";
  const std::string text = "\xef\xbb\xbfgame \"Caf\xc3\xa9 \xf0\x9f\x82\xa1\"\n# r\xc3\xa8gle\nplayers 2\n"
                           "cards {\n  standard52\n}\n\nround {\n  end game\n}\n";
  write_text(path, text);
  const auto check = run_rulebook("check " + quoted_path(path));
  CHECK(check.err.empty());
  CHECK(check.exit_code == 0);
  const auto formatted = run_rulebook("fmt " + quoted_path(path));
  CHECK(formatted.exit_code == 0);
  CHECK(formatted.out == text);
  CHECK(run_rulebook("fmt --check " + quoted_path(path)).exit_code == 0);
  CHECK(run_rulebook("simulate " + quoted_path(path) + " --games 1").exit_code == 0);
  // A mark anywhere else is not layout.
  write_text(path, "game \"t\"\n\xef\xbb\xbfplayers 2\ncards { standard52 }\nround {\n  end game\n}\n");
  const auto middle = run_rulebook("check " + quoted_path(path));
  CHECK(middle.exit_code == 1);
  CHECK(middle.err.find("bom.rules:2:1: error:") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: a card count over 10,000 is a located check error, not a failure at run time", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string path = dir + "/many.rules";
  const auto game = [](const std::string& before, const std::string& count) {
    return "game \"t\"\nplayers 2\n" + before + "cards {\n  note: " + count + "\n}\nround {\n  end game\n}\n";
  };
  SECTION("a literal") {
    write_text(path, game("", "20000"));
    const auto r = run_rulebook("check " + quoted_path(path));
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("many.rules:4:9: error: a card kind has 0 to 10000 cards, not 20000 [E0206]") != std::string::npos);
    CHECK(run_rulebook("simulate " + quoted_path(path) + " --games 1").exit_code == 1);
  }
  SECTION("an option whose range allows more") {
    write_text(path, game("option n: int = 5 in 1..20000\n", "n"));
    const auto r = run_rulebook("check " + quoted_path(path));
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("many.rules:5:9: error: the range of option 'n' allows 20000, but a card kind has 0 to 10000 "
                     "cards") != std::string::npos);
  }
  SECTION("the limit itself is accepted; an option given past it is a bad argument") {
    write_text(path, game("option n: int = 5\n", "10000"));
    CHECK(run_rulebook("check " + quoted_path(path)).exit_code == 0);
    write_text(path, game("option n: int = 5\n", "n"));
    CHECK(run_rulebook("check " + quoted_path(path)).exit_code == 0);
    const auto r = run_rulebook("simulate " + quoted_path(path) + " --games 1 --option n=10001");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("10001 'note' cards is out of range (0 to 10000)") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: 'standard52' or 'jokers' twice in the cards is an error", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string path = dir + "/twice.rules";
  write_text(path, "game \"t\"\nplayers 2\ncards {\n  standard52\n  jokers 2\n  standard52\n  jokers 1\n}\n"
                   "round {\n  end game\n}\n");
  const auto r = run_rulebook("check " + quoted_path(path));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("twice.rules:6:3: error: 'standard52' is listed twice in the cards; a deck has each of its cards "
                   "once [E0203]") != std::string::npos);
  CHECK(r.err.find("twice.rules:7:3: error: 'jokers' is listed twice") != std::string::npos);
  CHECK(r.err.find("twice.rules:4:3: note: the first one is here") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: a variant whose base is not a rule file shows nothing of that file", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/secrets.txt", "root:x:0:0:hunter2:/root:/bin/bash\ngame \"t\"\n");
  write_text(dir + "/binary.rules", std::string("\x7f" "ELF\x02\x01\x01\0\0\0 hunter2\xff\n", 18));
  for (const char* base : {"secrets.txt", "binary.rules"}) {
    INFO(base);
    const std::string path = dir + "/v.rules";
    write_text(path, fmt::format("variant \"v\" of \"{}\"\n", base));
    for (const char* format : {"text", "json"}) {
      const auto r = run_rulebook(fmt::format("check --format {} {}", format, quoted_path(path)));
      CHECK(r.exit_code == 1);
      CHECK(r.out.find("hunter2") == std::string::npos);
      CHECK(r.err.find("hunter2") == std::string::npos);
      CHECK((r.out + r.err).find("is not a rule file") != std::string::npos);
    }
    const auto r = run_rulebook("check " + quoted_path(path));
    CHECK(r.err.find(fmt::format("v.rules:1:16: error: base ruleset '{}/{}' is not a rule file: it does not start "
                                 "with 'game \"Title\"'",
                                 dir, base)) != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: reading a stream never holds more than the limit plus one byte", "[hostile]") {
  // A pipe over the limit used to grow the buffer to twice the limit (2 GiB for a game log
  // from standard input) and die of bad_alloc before the size was checked.
  const std::size_t limit = (std::size_t{3} << 20) + 12345;
  std::string error;
  std::istringstream exact(std::string(limit, 'x'));
  const std::optional<std::string> text = rulebook::grammar::read_stream(exact, error, limit);
  REQUIRE(text);
  CHECK(text->size() == limit);
  CHECK(text->capacity() <= limit + 1);
  std::istringstream over(std::string(limit + 1, 'x'));
  CHECK(!rulebook::grammar::read_stream(over, error, limit));
  CHECK(error == "the file is larger than 3 MiB, the limit for this input");
}

}  // namespace reliability_hostile_rules_test
