// Every input the fuzzers found a bug with (tests/fuzz/regressions/TARGET/) runs through its
// target again, in every build: it must now end in a diagnostic, not a crash or an oracle
// failure. The seed inputs of the apply target run too.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "fuzz/hostile.hpp"
#include "fuzz/targets.hpp"
#include "support.hpp"

namespace fuzz_regressions_test {  // this file's own names (unity builds put several files in one)
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

// A rule file that loops for ever ran to the interpreter's own limit, 50 million instructions,
// 33 s under the sanitizers: the fuzz test timed out in CI. Its game now stops at the target's
// budget, and the longest shipped game (War: about 85,000 instructions in its 64 moves) runs whole.
TEST_CASE("fuzz regressions: a rule file that loops for ever stops at the rules target's step budget", "[fuzz]") {
  const std::string loop = rulebook::test::read_text(rulebook::test::source_path("tests/fuzz/regressions/rules/endless-loop.rules"));
  CHECK(rulebook::fuzz::rules_one_steps(reinterpret_cast<const std::uint8_t*>(loop.data()), loop.size()) ==
        rulebook::fuzz::kRulesGameSteps);
  const std::string war = rulebook::test::read_text(rulebook::test::source_path("rulesets/library/war.rules"));
  const std::int64_t steps = rulebook::fuzz::rules_one_steps(reinterpret_cast<const std::uint8_t*>(war.data()), war.size());
  CHECK(steps > 0);
  CHECK(steps < rulebook::fuzz::kRulesGameSteps);
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

// The shapes that crashed or hung the tool (issue 21), at the sizes that did, put into each
// shipped ruleset at three places: each must end in a diagnostic or a short game.
TEST_CASE("fuzz targets: every hostile shape at its crashing size ends in a diagnostic", "[fuzz][hostile][long]") {
  using rulebook::fuzz::HostileShape;
  const std::pair<HostileShape, std::size_t> sizes[] = {
      {HostileShape::kLongChain, 20000},     {HostileShape::kDeepType, 50000},  {HostileShape::kManyStatements, 20000},
      {HostileShape::kElseIfChain, 50000},   {HostileShape::kDoublingDefs, 40}, {HostileShape::kInvalidUtf8, 4},
      {HostileShape::kHugeNumber, 40},
  };
  for (const std::string& file : rulebook::test::rule_files(rulebook::test::source_path("rulesets"))) {
    const std::string text = rulebook::test::read_text(file);
    for (const auto& [shape, size] : sizes) {
      // Under the sanitizers (RULEBOOK_TEST_DIVISOR) the first seed of each shape.
      for (std::uint32_t seed = 0; seed < 3; ++seed) {
        if (!rulebook::test::sampled(seed)) continue;
        INFO(file << ": " << rulebook::fuzz::hostile_name(shape) << " x" << size << ", seed " << seed);
        const std::string hostile = rulebook::fuzz::make_hostile(text, shape, size, seed);
        REQUIRE(hostile != text);
        rulebook::fuzz::rules_one(reinterpret_cast<const std::uint8_t*>(hostile.data()), hostile.size());
      }
    }
  }
}

}  // namespace fuzz_regressions_test
