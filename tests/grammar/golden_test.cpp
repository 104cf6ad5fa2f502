// Golden cases for bad rule files: each tests/golden/errors/NAME.rules is checked as
// `rulebook check` would, and the diagnostics (exact positions and messages) with the exit
// status must equal NAME.expected. Files starting with '_' are helpers (variant bases).
// RULEBOOK_UPDATE_GOLDEN=1 rewrites the expected files; review the diff before committing.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "rulebook/grammar/load.hpp"
#include "support.hpp"

namespace g = rulebook::grammar;

namespace grammar_golden_test {  // this file's own names (unity builds put several files in one)
namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// What `rulebook check` prints for one file, with the folder taken off the paths.
std::string check_output(const std::string& folder, const std::string& path) {
  g::SourceManager sources;
  g::Diagnostics diagnostics;
  const g::LoadResult result = g::load_ruleset(path, sources, diagnostics);
  std::string out;
  for (const g::Diagnostic& d : diagnostics.items()) out += g::render_text(d, sources, false);
  const int exit_code = result.status == g::LoadStatus::kOk ? 0 : result.status == g::LoadStatus::kErrors ? 1 : 2;
  out += "exit: " + std::to_string(exit_code) + "\n";
  return replace_all(out, folder + "/", "");
}

}  // namespace

TEST_CASE("golden: bad rule files give exact diagnostics", "[golden][diagnostics]") {
  const bool update = std::getenv("RULEBOOK_UPDATE_GOLDEN") != nullptr;
  const std::string folder = rulebook::test::source_path("tests/golden/errors");
  std::size_t cases = 0;
  for (const std::string& path : rulebook::test::rule_files(folder)) {
    if (std::filesystem::path(path).filename().string().front() == '_') continue;
    ++cases;
    DYNAMIC_SECTION(std::filesystem::path(path).filename().string()) {
      const std::string expected_path = path.substr(0, path.size() - 6) + ".expected";
      const std::string actual = check_output(folder, path);
      if (update) rulebook::test::write_text(expected_path, actual);
      REQUIRE(std::filesystem::exists(expected_path));
      CHECK(actual == rulebook::test::read_text(expected_path));
    }
  }
  CHECK(cases >= 30);
}

}  // namespace grammar_golden_test
