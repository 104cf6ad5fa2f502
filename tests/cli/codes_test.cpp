// Diagnostic codes and the machine-readable forms around them: every code has an
// explanation `rulebook explain` prints, text and JSON and SARIF carry the same code, and
// `--color` decides colour.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "rulebook/grammar/codes.hpp"
#include "support.hpp"

using rulebook::test::run_rulebook;

namespace cli_codes_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

// Two errors with notes-free messages and one warning: E0302, E0301, W0211.
const char* const kThreeFindings =
    "game \"t\"\nplayers 2\ncards { standard52 }\nvar n: int = 0\ndef unused = 1\nround {\n"
    "  set n := true\n  set m := 1\n}\n";

}  // namespace

TEST_CASE("codes: every code is unique, well formed and explained", "[cli][codes]") {
  std::set<std::string_view> ids;
  for (const rulebook::grammar::CodeInfo& c : rulebook::grammar::all_codes()) {
    INFO(c.id);
    CHECK(ids.insert(c.id).second);
    REQUIRE(c.id.size() == 5);
    CHECK((c.id[0] == 'E' || c.id[0] == 'W'));
    CHECK(c.id.find_first_not_of("0123456789", 1) == std::string_view::npos);
    CHECK(!c.title.empty());
    CHECK(c.explanation.size() > 40);
    CHECK(&rulebook::grammar::info(c.code) == &c);
    CHECK(rulebook::grammar::find_code(c.id) == &c);
  }
  CHECK(rulebook::grammar::find_code("e0302") == &rulebook::grammar::info(rulebook::grammar::Code::kTypeMismatch));
  CHECK(rulebook::grammar::find_code("E9999") == nullptr);
}

TEST_CASE("cli: explain prints a code's title and explanation, --list lists every code", "[cli][codes]") {
  const auto r = run_rulebook("explain E0302");
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("E0302: type mismatch\n\n", 0) == 0);
  CHECK(r.out.find("set n := true") != std::string::npos);

  const auto list = run_rulebook("explain --list");
  CHECK(list.exit_code == 0);
  for (const rulebook::grammar::CodeInfo& c : rulebook::grammar::all_codes()) {
    CHECK(list.out.find(std::string(c.id) + "  " + std::string(c.title) + "\n") != std::string::npos);
  }
}

TEST_CASE("cli: explain of an unknown code exits 2 and says how to list them", "[cli][codes]") {
  const auto r = run_rulebook("explain E9999");
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("no diagnostic has the code 'E9999'") != std::string::npos);
  CHECK(r.err.find("rulebook explain --list") != std::string::npos);
}

TEST_CASE("cli: check's text, JSON and SARIF carry the same codes", "[cli][codes]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string file = dir + "/bad.rules";
  rulebook::test::write_text(file, kThreeFindings);

  const auto text = run_rulebook("check " + quoted_path(file));
  CHECK(text.exit_code == 1);
  CHECK(text.err.find("bad.rules:7:7: error: type mismatch in assignment: 'n' is int, but the value is bool [E0302]\n") !=
        std::string::npos);
  CHECK(text.err.find("bad.rules:8:7: error: unknown name 'm'; did you mean 'n'? [E0301]\n") != std::string::npos);
  CHECK(text.err.find("bad.rules:5:5: warning: definition 'unused' is never used [W0211]\n") != std::string::npos);

  const auto json = run_rulebook("check --format json " + quoted_path(file));
  CHECK(json.exit_code == 1);
  const auto j = nlohmann::json::parse(json.out);
  std::vector<std::string> json_codes;
  for (const auto& d : j["diagnostics"]) json_codes.push_back(d["code"]);
  CHECK(json_codes == std::vector<std::string>{"E0302", "E0301", "W0211"});

  const auto sarif = run_rulebook("check --format sarif " + quoted_path(file));
  CHECK(sarif.exit_code == 1);
  const auto s = nlohmann::json::parse(sarif.out);
  CHECK(s["version"] == "2.1.0");
  const auto& run = s["runs"][0];
  CHECK(run["tool"]["driver"]["rules"].size() == rulebook::grammar::all_codes().size());
  std::vector<std::string> sarif_codes;
  for (const auto& result : run["results"]) sarif_codes.push_back(result["ruleId"]);
  CHECK(sarif_codes == json_codes);
  const auto& first = run["results"][0];
  CHECK(first["level"] == "error");
  CHECK(first["locations"][0]["physicalLocation"]["region"]["startLine"] == 7);
  CHECK(first["locations"][0]["physicalLocation"]["region"]["startColumn"] == 7);
  CHECK(run["results"][2]["level"] == "warning");
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: --color always colours diagnostics even with NO_COLOR, never and the default off a terminal do not",
          "[cli][codes]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string file = dir + "/bad.rules";
  rulebook::test::write_text(file, kThreeFindings);
  const std::string escape = "\x1b[";
  // run_rulebook sets NO_COLOR=1 and sends stderr to a file.
  CHECK(run_rulebook("check --color always " + quoted_path(file)).err.find(escape) != std::string::npos);
  CHECK(run_rulebook("--color always check " + quoted_path(file)).err.find(escape) != std::string::npos);
  CHECK(run_rulebook("check --color never " + quoted_path(file)).err.find(escape) == std::string::npos);
  CHECK(run_rulebook("check --color auto " + quoted_path(file)).err.find(escape) == std::string::npos);
  CHECK(run_rulebook("check " + quoted_path(file)).err.find(escape) == std::string::npos);
  const auto bad = run_rulebook("check --color sometimes " + quoted_path(file));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--color") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: simulate, replay and verify report errors in the rules as JSON or SARIF when asked", "[cli][codes]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string file = quoted_path(dir + "/bad.rules");
  rulebook::test::write_text(dir + "/bad.rules", kThreeFindings);
  rulebook::test::write_text(dir + "/game.jsonl", "{}\n");
  // verify exits 2: its 1 means a refuted property.
  const std::pair<std::string, int> commands[] = {
      {"simulate " + file + " --games 5 --format json", 1},
      {"replay " + file + " " + quoted_path(dir + "/game.jsonl") + " --format json", 1},
      {"verify " + file + " --format json", 2}};
  for (const auto& [command, exit_code] : commands) {
    INFO(command);
    const auto r = run_rulebook(command);
    CHECK(r.exit_code == exit_code);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["errors"] == 2);
    CHECK(j["diagnostics"][0]["code"] == "E0302");
  }
  const auto sarif = run_rulebook("verify " + file + " --format sarif");
  CHECK(sarif.exit_code == 2);
  CHECK(nlohmann::json::parse(sarif.out)["runs"][0]["results"][1]["ruleId"] == "E0301");
  std::filesystem::remove_all(dir);
}

}  // namespace cli_codes_test
