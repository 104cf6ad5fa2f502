// docs/tutorial.md, run: every `rules file=NAME` block is written to NAME and every `$ `
// command of a `console` block is run, in order, in a scratch folder holding a copy of
// rulesets/, with `rulebook` on PATH. Each shown output line (other than `...`) must appear
// in what the command prints (stdout and stderr), and the exit status must be 0 or the
// `(exit status N)` the tutorial shows.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "support.hpp"

namespace cli_tutorial_test {  // this file's own names (unity builds put several files in one)
namespace {

struct Command {
  std::size_t line = 0;  // in the tutorial
  std::string text;
  std::vector<std::string> expected;
  int exit_status = 0;
};

struct Step {
  std::string file;  // a file to write, or empty for a command
  std::string content;
  Command command;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    out.push_back(line);
  }
  return out;
}

std::vector<Step> steps_of(const std::string& markdown) {
  std::vector<Step> steps;
  const std::vector<std::string> lines = lines_of(markdown);
  const std::regex file_block(R"(^```rules file=(\S+)$)");
  const std::regex exit_line(R"(^\(exit status (\d+)\)$)");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (std::regex_match(lines[i], m, file_block)) {
      Step s;
      s.file = m[1];
      for (++i; i < lines.size() && lines[i] != "```"; ++i) s.content += lines[i] + "\n";
      steps.push_back(std::move(s));
    } else if (lines[i] == "```console") {
      for (++i; i < lines.size() && lines[i] != "```"; ++i) {
        if (lines[i].rfind("$ ", 0) == 0) {
          Step s;
          s.command.line = i + 1;
          s.command.text = lines[i].substr(2);
          steps.push_back(std::move(s));
        } else if (std::regex_match(lines[i], m, exit_line)) {
          REQUIRE(!steps.empty());
          steps.back().command.exit_status = std::stoi(m[1]);
        } else if (lines[i] != "...") {
          REQUIRE(!steps.empty());
          steps.back().command.expected.push_back(lines[i]);
        }
      }
    }
  }
  return steps;
}

}  // namespace

TEST_CASE("docs/tutorial.md: every command runs and prints what the tutorial shows", "[cli][tutorial][long]") {
  const std::string tutorial = rulebook::test::read_text(rulebook::test::source_path("docs/tutorial.md"));
  const std::vector<Step> steps = steps_of(tutorial);
  std::size_t commands = 0, files = 0;
  for (const Step& s : steps) (s.file.empty() ? commands : files) += 1;
  // The tutorial's promise: copy, change, check, simulate, verify, replay.
  REQUIRE(files >= 1);
  REQUIRE(commands >= 8);
  for (const char* verb : {"rulebook check", "rulebook simulate", "rulebook verify", "rulebook replay"}) {
    CHECK(std::any_of(steps.begin(), steps.end(), [&](const Step& s) { return s.command.text.rfind(verb, 0) == 0; }));
  }

  const std::string dir = rulebook::test::temp_folder();
  std::filesystem::copy(rulebook::test::source_path("rulesets"), dir + "/rulesets",
                        std::filesystem::copy_options::recursive);
  const std::string bin = std::filesystem::path(RULEBOOK_EXECUTABLE).parent_path().string();
  for (const Step& s : steps) {
    if (!s.file.empty()) {
      rulebook::test::write_text(dir + "/" + s.file, s.content);
      continue;
    }
    const Command& c = s.command;
    INFO(fmt::format("docs/tutorial.md:{}: $ {}", c.line, c.text));
    rulebook::test::write_text(dir + "/.command", c.text + "\n");
    const std::string shell = fmt::format("cd '{0}' && PATH='{1}':\"$PATH\" NO_COLOR=1 bash .command >.output 2>&1", dir, bin);
    const int status = std::system(shell.c_str());
    const int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    const std::string output = rulebook::test::read_text(dir + "/.output");
    INFO(output);
    CHECK(exit_status == c.exit_status);
    const std::vector<std::string> printed = lines_of(output);
    for (const std::string& line : c.expected) {
      CHECK_THAT(line, Catch::Predicate<std::string>(
                           [&](const std::string& l) { return std::find(printed.begin(), printed.end(), l) != printed.end(); },
                           "is printed"));
    }
  }
  // The files the tutorial says it makes.
  for (const char* made : {"charts/win-rates.svg", "logs/game-000000.jsonl", "race-to-five.svg"}) {
    CHECK(std::filesystem::exists(dir + "/" + made));
  }
  std::filesystem::remove_all(dir);
}

}  // namespace cli_tutorial_test
