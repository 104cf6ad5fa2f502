// The bash completion (editors/bash/rulebook) against the built rulebook's own --help: every
// command, every option of every command and every value set in the help must be completed,
// and nothing else, so that the completion cannot drift from the options. Runs the completion
// function in bash, as bash would on Tab.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support.hpp"

namespace fs = std::filesystem;
using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::source_path;
using rulebook::test::temp_folder;
using rulebook::test::write_text;

namespace ops_completion_test {  // this file's own names (unity builds put several files in one)
namespace {

using Words = std::set<std::string>;

// What `rulebook [COMMAND] --help` lists: its options, the value sets of some, its commands.
struct Help {
  Words options;
  std::map<std::string, Words> values;
  Words commands;
};

Words split(const std::string& text, char separator) {
  Words words;
  std::stringstream stream(text);
  std::string word;
  while (std::getline(stream, word, separator)) {
    if (!word.empty()) words.insert(word);
  }
  return words;
}

Help help_of(const std::string& command) {
  const auto result = run_rulebook(command + " --help");
  REQUIRE(result.exit_code == 0);
  Help help;
  std::string section;
  std::stringstream lines(result.out);
  std::string line;
  // An entry starts two spaces in; its description's continuation lines are indented further.
  static const std::regex entry(R"(^  ([^ ]+)(.*)$)");
  static const std::regex value_set(R"(\{([^}]*)\})");
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == ':' && line.front() != ' ') {
      section = line;
      continue;
    }
    std::smatch match;
    if (!std::regex_match(line, match, entry)) continue;
    const std::string names = match[1];
    const std::string rest = match[2];
    if (section == "Options:" && names.front() == '-') {
      const Words option_names = split(names, ',');
      help.options.insert(option_names.begin(), option_names.end());
      std::smatch values;
      if (std::regex_search(rest, values, value_set)) {
        for (const auto& name : option_names) help.values[name] = split(values[1], ',');
      }
    } else if (section == "Subcommands:") {
      help.commands.insert(names);
    }
  }
  return help;
}

// Runs the completion function on `words` (the last is the one being completed) in `folder`
// and returns what it offers.
Words complete(const std::vector<std::string>& words, const std::string& folder = ".") {
  const std::string dir = temp_folder();
  std::string quoted;
  for (const auto& word : words) quoted += fmt::format(" '{}'", word);
  write_text(dir + "/complete.sh",
             fmt::format("source '{}'\ncd '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={}\n_rulebook\n"
                         "printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
                         source_path("editors/bash/rulebook"), folder, quoted, words.size() - 1));
  const int status = std::system(fmt::format("bash '{0}/complete.sh' >'{0}/out' 2>'{0}/err'", dir).c_str());
  const std::string out = read_text(dir + "/out");
  const std::string err = read_text(dir + "/err");
  fs::remove_all(dir);
  INFO("completing" << quoted << ": " << err);
  REQUIRE(status == 0);
  REQUIRE(err.empty());
  return split(out, '\n');
}

}  // namespace

TEST_CASE("completion: the commands are those rulebook --help lists", "[ops][completion]") {
  const Help top = help_of("");
  REQUIRE(top.commands.size() >= 9);
  CHECK(complete({"rulebook", ""}) == top.commands);
  CHECK(complete({"rulebook", "--color", "never", ""}) == top.commands);
}

TEST_CASE("completion: each command's options are those of its --help, and --color", "[ops][completion]") {
  const Help top = help_of("");
  CHECK(complete({"rulebook", "-"}) == top.options);
  for (const auto& command : top.commands) {
    INFO("rulebook " << command);
    Words expected = help_of(command).options;
    expected.insert("--color");  // global, accepted after the command (CLI11 fallthrough)
    CHECK(complete({"rulebook", command, "-"}) == expected);
  }
}

TEST_CASE("completion: an option with a set of values completes to that set", "[ops][completion]") {
  const Help top = help_of("");
  std::size_t sets = 0;
  for (const auto& [option, values] : top.values) {
    INFO("rulebook " << option);
    CHECK(complete({"rulebook", option, ""}) == values);
    ++sets;
  }
  for (const auto& command : top.commands) {
    for (const auto& [option, values] : help_of(command).values) {
      INFO("rulebook " << command << " " << option);
      CHECK(complete({"rulebook", command, option, ""}) == values);
      CHECK(complete({"rulebook", command, "x.rules", option, ""}) == values);
      ++sets;
    }
  }
  CHECK(sets >= 8);  // --color, and --format of six commands, verify's --property
}

TEST_CASE("completion: rule files, then logs for replay, statistics for merge, codes for explain",
          "[ops][completion]") {
  const std::string dir = temp_folder();
  fs::create_directory(dir + "/games");
  write_text(dir + "/game.rules", "");
  write_text(dir + "/game.jsonl", "");
  write_text(dir + "/part-0.json", "");
  CHECK(complete({"rulebook", "check", ""}, dir) == Words{"game.rules", "games"});
  CHECK(complete({"rulebook", "check", "game.rules", "g"}, dir) == Words{"game.rules", "games"});
  CHECK(complete({"rulebook", "simulate", "--games", "10", ""}, dir) == Words{"game.rules", "games"});
  CHECK(complete({"rulebook", "replay", "--format", "json", "game.rules", ""}, dir) == Words{"game.jsonl", "games"});
  CHECK(complete({"rulebook", "merge", ""}, dir) == Words{"part-0.json", "games"});
  CHECK(complete({"rulebook", "simulate", "game.rules", "--logs", ""}, dir) == Words{"games"});
  CHECK(complete({"rulebook", "simulate", "--games", ""}, dir).empty());
  fs::remove_all(dir);

  // The codes come from the rulebook being completed, the built one here.
  Words codes;
  std::stringstream lines(run_rulebook("explain --list").out);
  std::string line;
  while (std::getline(lines, line)) codes.insert(line.substr(0, line.find(' ')));
  REQUIRE(codes.size() > 10);
  CHECK(complete({RULEBOOK_EXECUTABLE, "explain", ""}) == codes);
  CHECK(complete({RULEBOOK_EXECUTABLE, "explain", "E03"}).size() < codes.size());
}

}  // namespace ops_completion_test
