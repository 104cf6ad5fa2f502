// The `rulebook` executable as users and scripts see it: exit codes (0 clean, 1 errors in the
// rules, 2 unreadable file or bad arguments), JSON output, and safe rewriting by `fmt --write`.
#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;

namespace {

std::string quoted(const std::string& path) { return "'" + path + "'"; }

const char* const kBadFile =
    "game \"t\"\nplayers 2\ncards { standard52 }\nvar n: int = 0\nround {\n  set n := true\n}\n";

}  // namespace

TEST_CASE("cli: check exits 0 on the shipped rulesets and prints ok per file", "[cli]") {
  const auto r = run_rulebook("check " + quoted(source_path("rulesets/molestation-game.rules")) + " " +
                              quoted(source_path("rulesets/clusterfk.rules")));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("molestation-game.rules: ok") != std::string::npos);
  CHECK(r.out.find("clusterfk.rules: ok") != std::string::npos);
  CHECK(r.err.empty());
}

TEST_CASE("cli: check exits 1 on errors and prints them as a compiler does", "[cli]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/bad.rules", kBadFile);
  const auto r = run_rulebook("check " + quoted(dir + "/bad.rules"));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("bad.rules:6:7: error: type mismatch in assignment: 'n' is int, but the value is bool\n"
                   "    6 |   set n := true\n"
                   "      |       ^\n") != std::string::npos);
  CHECK(r.err.find("1 error, 0 warnings") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: check --format json gives the same diagnostics as JSON", "[cli]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/bad.rules", kBadFile);
  const auto r = run_rulebook("check --format json " + quoted(dir + "/bad.rules") + " " +
                              quoted(source_path("rulesets/clusterfk.rules")));
  CHECK(r.exit_code == 1);
  const auto json = nlohmann::json::parse(r.out);
  CHECK(json["errors"] == 1);
  CHECK(json["warnings"] == 0);
  REQUIRE(json["files"].size() == 2);
  CHECK(json["files"][0]["status"] == "errors");
  CHECK(json["files"][1]["status"] == "ok");
  REQUIRE(json["diagnostics"].size() == 1);
  const auto& d = json["diagnostics"][0];
  CHECK(d["severity"] == "error");
  CHECK(d["line"] == 6);
  CHECK(d["column"] == 7);
  CHECK(d["end_column"] == 8);
  CHECK(d["message"] == "type mismatch in assignment: 'n' is int, but the value is bool");
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: an unreadable file or bad arguments exit 2", "[cli]") {
  CHECK(run_rulebook("check /nonexistent/x.rules").exit_code == 2);
  CHECK(run_rulebook("check " + quoted(source_path("rulesets"))).exit_code == 2);
  CHECK(run_rulebook("check").exit_code == 2);
  CHECK(run_rulebook("").exit_code == 2);
  CHECK(run_rulebook("frobnicate").exit_code == 2);
  const auto bad_format = run_rulebook("check --format xml " + quoted(source_path("rulesets/clusterfk.rules")));
  CHECK(bad_format.exit_code == 2);
  CHECK(bad_format.err.find("xml") != std::string::npos);
  CHECK(run_rulebook("fmt /nonexistent/x.rules").exit_code == 2);
}

TEST_CASE("cli: --help describes every command", "[cli]") {
  const auto r = run_rulebook("--help");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("check") != std::string::npos);
  CHECK(r.out.find("fmt") != std::string::npos);
}

TEST_CASE("cli: fmt prints the canonical layout and leaves the file alone", "[cli][fmt]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string messy = "game \"t\"\nplayers 2\ncards {standard52}\nround{end game}\n";
  rulebook::test::write_text(dir + "/messy.rules", messy);
  const auto r = run_rulebook("fmt " + quoted(dir + "/messy.rules"));
  CHECK(r.exit_code == 0);
  CHECK(r.out == "game \"t\"\nplayers 2\ncards {\n  standard52\n}\nround {\n  end game\n}\n");
  CHECK(rulebook::test::read_text(dir + "/messy.rules") == messy);
  CHECK(run_rulebook("fmt --check " + quoted(dir + "/messy.rules")).exit_code == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: fmt --write rewrites the file in place and leaves no temporary file", "[cli][fmt]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/messy.rules", "game \"t\"\nplayers 2\ncards {standard52}\nround{end game}\n");
  const auto r = run_rulebook("fmt --write " + quoted(dir + "/messy.rules"));
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(rulebook::test::read_text(dir + "/messy.rules") ==
        "game \"t\"\nplayers 2\ncards {\n  standard52\n}\nround {\n  end game\n}\n");
  CHECK(run_rulebook("fmt --check " + quoted(dir + "/messy.rules")).exit_code == 0);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++entries;
  CHECK(entries == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: fmt refuses a file with syntax errors and does not touch it", "[cli][fmt]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string broken = "game \"t\"\nround {\n  move top(box) hand(seat 0)\n}\n";
  rulebook::test::write_text(dir + "/broken.rules", broken);
  const auto r = run_rulebook("fmt --write " + quoted(dir + "/broken.rules"));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("broken.rules:3:17: error: expected 'to' and the target, but got 'hand'") != std::string::npos);
  CHECK(rulebook::test::read_text(dir + "/broken.rules") == broken);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: .ci/run runs exactly the README's test command", "[cli][docs]") {
  const std::string run = rulebook::test::read_text(source_path(".ci/run"));
  const std::string readme = rulebook::test::read_text(source_path("README.md"));
  const std::size_t start = run.find("bash .ci/install-deps");
  REQUIRE(start != std::string::npos);
  const std::string command = run.substr(start, run.find('\n', start) - start);
  CHECK(readme.find("\n" + command + "\n") != std::string::npos);
}
