// The library of classic games (rulesets/library/): every ruleset checks clean and is in
// canonical layout, and every example log in rulesets/library/examples/ replays to its end
// against the ruleset of the same name.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;

namespace rulesets_library_examples_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

}  // namespace

TEST_CASE("library: every ruleset checks with no error and no warning, in canonical layout", "[library][cli]") {
  const std::vector<std::string> files = rulebook::test::rule_files(source_path("rulesets/library"));
  REQUIRE(files.size() >= 3);
  for (const std::string& file : files) {
    INFO(file);
    const auto check = run_rulebook("check " + quoted_path(file));
    CHECK(check.exit_code == 0);
    CHECK(check.err.empty());
    CHECK(run_rulebook("fmt --check " + quoted_path(file)).exit_code == 0);
  }
}

TEST_CASE("library: every example log replays to the end of its game", "[library][replay]") {
  namespace fs = std::filesystem;
  int logs = 0;
  for (const auto& entry : fs::directory_iterator(source_path("rulesets/library/examples"))) {
    if (entry.path().extension() != ".jsonl") continue;
    ++logs;
    const std::string rules = source_path("rulesets/library/" + entry.path().stem().string() + ".rules");
    INFO(entry.path().string());
    REQUIRE(fs::exists(rules));
    const auto replay = run_rulebook("replay " + quoted_path(rules) + " " + quoted_path(entry.path().string()));
    CHECK(replay.exit_code == 0);
    CHECK(replay.out.find(": ok: ") != std::string::npos);
    CHECK(replay.out.find("the game ended") != std::string::npos);
    CHECK(replay.err.empty());
  }
  CHECK(logs == 6);
}

}  // namespace rulesets_library_examples_test
