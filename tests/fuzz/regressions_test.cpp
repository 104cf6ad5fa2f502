// Every input the fuzzers found a bug with (tests/fuzz/regressions/TARGET/) runs through its
// target again, in every build: it must now end in a diagnostic, not a crash or an oracle
// failure. The seed inputs of the apply target run too.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "fuzz/targets.hpp"
#include "support.hpp"

namespace {

void run_folder(const std::string& folder, void (*target)(const std::uint8_t*, std::size_t)) {
  for (const auto& entry : std::filesystem::directory_iterator(rulebook::test::source_path(folder))) {
    if (!entry.is_regular_file() || entry.path().filename() == "README.md") continue;
    const std::string bytes = rulebook::test::read_text(entry.path().string());
    INFO(entry.path().string());
    target(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    SUCCEED();
  }
}

}  // namespace

TEST_CASE("fuzz regressions: every saved rule file input parses, formats and checks cleanly", "[fuzz]") {
  run_folder("tests/fuzz/regressions/rules", rulebook::fuzz::rules_one);
}

TEST_CASE("fuzz regressions: every saved log input replays to a verdict", "[fuzz]") {
  run_folder("tests/fuzz/regressions/replay", rulebook::fuzz::replay_one);
}

TEST_CASE("fuzz regressions: every saved move sequence plays without losing a card", "[fuzz]") {
  run_folder("tests/fuzz/regressions/apply", rulebook::fuzz::apply_one);
  run_folder("tests/fuzz/seeds/apply", rulebook::fuzz::apply_one);
}

TEST_CASE("fuzz targets: the shipped files pass the oracles", "[fuzz]") {
  for (const std::string& file : rulebook::test::rule_files(rulebook::test::source_path("rulesets"))) {
    INFO(file);
    const std::string bytes = rulebook::test::read_text(file);
    rulebook::fuzz::rules_one(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
}
