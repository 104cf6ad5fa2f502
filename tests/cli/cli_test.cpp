// The `rulebook` executable as users and scripts see it: exit codes (0 clean, 1 errors in the
// rules, 2 unreadable file or bad arguments), JSON output, and safe rewriting by `fmt --write`.
#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;

namespace cli_cli_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

const char* const kBadFile =
    "game \"t\"\nplayers 2\ncards { standard52 }\nvar n: int = 0\nround {\n  set n := true\n}\n";

}  // namespace

TEST_CASE("cli: check exits 0 on the shipped rulesets and prints ok per file", "[cli]") {
  const auto r = run_rulebook("check " + quoted_path(source_path("rulesets/molestation-game.rules")) + " " +
                              quoted_path(source_path("rulesets/clusterfk.rules")));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("molestation-game.rules: ok") != std::string::npos);
  CHECK(r.out.find("clusterfk.rules: ok") != std::string::npos);
  CHECK(r.err.empty());
}

TEST_CASE("cli: check exits 1 on errors and prints them as a compiler does", "[cli]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/bad.rules", kBadFile);
  const auto r = run_rulebook("check " + quoted_path(dir + "/bad.rules"));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("bad.rules:6:7: error: type mismatch in assignment: 'n' is int, but the value is bool [E0302]\n"
                   "    6 |   set n := true\n"
                   "      |       ^\n") != std::string::npos);
  CHECK(r.err.find("1 error, 0 warnings") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: check --format json gives the same diagnostics as JSON", "[cli]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/bad.rules", kBadFile);
  const auto r = run_rulebook("check --format json " + quoted_path(dir + "/bad.rules") + " " +
                              quoted_path(source_path("rulesets/clusterfk.rules")));
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
  CHECK(d["code"] == "E0302");
  CHECK(d["line"] == 6);
  CHECK(d["column"] == 7);
  CHECK(d["end_column"] == 8);
  CHECK(d["message"] == "type mismatch in assignment: 'n' is int, but the value is bool");
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: an unreadable file or bad arguments exit 2", "[cli]") {
  CHECK(run_rulebook("check /nonexistent/x.rules").exit_code == 2);
  CHECK(run_rulebook("check " + quoted_path(source_path("rulesets"))).exit_code == 2);
  CHECK(run_rulebook("check").exit_code == 2);
  CHECK(run_rulebook("").exit_code == 2);
  CHECK(run_rulebook("frobnicate").exit_code == 2);
  const auto bad_format = run_rulebook("check --format xml " + quoted_path(source_path("rulesets/clusterfk.rules")));
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
  const auto r = run_rulebook("fmt " + quoted_path(dir + "/messy.rules"));
  CHECK(r.exit_code == 0);
  CHECK(r.out == "game \"t\"\nplayers 2\ncards {\n  standard52\n}\nround {\n  end game\n}\n");
  CHECK(rulebook::test::read_text(dir + "/messy.rules") == messy);
  CHECK(run_rulebook("fmt --check " + quoted_path(dir + "/messy.rules")).exit_code == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: fmt --write rewrites the file in place and leaves no temporary file", "[cli][fmt]") {
  const std::string dir = rulebook::test::temp_folder();
  rulebook::test::write_text(dir + "/messy.rules", "game \"t\"\nplayers 2\ncards {standard52}\nround{end game}\n");
  const auto r = run_rulebook("fmt --write " + quoted_path(dir + "/messy.rules"));
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(rulebook::test::read_text(dir + "/messy.rules") ==
        "game \"t\"\nplayers 2\ncards {\n  standard52\n}\nround {\n  end game\n}\n");
  CHECK(run_rulebook("fmt --check " + quoted_path(dir + "/messy.rules")).exit_code == 0);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++entries;
  CHECK(entries == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: fmt refuses a file with syntax errors and does not touch it", "[cli][fmt]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string broken = "game \"t\"\nround {\n  move top(box) hand(seat 0)\n}\n";
  rulebook::test::write_text(dir + "/broken.rules", broken);
  const auto r = run_rulebook("fmt --write " + quoted_path(dir + "/broken.rules"));
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

// ---- simulate and play ---------------------------------------------------------------------

TEST_CASE("cli: simulate reports win rates, lengths and coverage, the same for any --jobs", "[cli][simulate]") {
  const std::string file = quoted_path(source_path("rulesets/molestation-game.rules"));
  const auto one = run_rulebook("simulate " + file + " --games 30 --seed 9 --jobs 1");
  const auto two = run_rulebook("simulate " + file + " --games 30 --seed 9 --jobs 2");
  CHECK(one.exit_code == 0);
  CHECK(one.out == two.out);
  CHECK(one.out.find("Molestation Game v3.0: 30 games, 4 players, seed 9") != std::string::npos);
  CHECK(one.out.find("wins by player") != std::string::npos);
  CHECK(one.out.find("rounds per game: mean") != std::string::npos);
  CHECK(one.out.find("rule coverage:") != std::string::npos);
  CHECK(one.err.find("games/s") != std::string::npos);
  const auto other = run_rulebook("simulate " + file + " --games 30 --seed 10");
  CHECK(other.out != one.out);
}

TEST_CASE("cli: simulate --format json", "[cli][simulate]") {
  const auto r = run_rulebook("simulate " + quoted_path(source_path("rulesets/molestation-game.rules")) +
                              " --games 20 --players 3 --format json");
  REQUIRE(r.exit_code == 0);
  const auto json = nlohmann::json::parse(r.out);
  CHECK(json["games"] == 20);
  CHECK(json["players"] == 3);
  REQUIRE(json["players_results"].size() == 4);
  CHECK(json["players_results"][3]["automated"] == true);
  std::int64_t wins = 0;
  for (const auto& p : json["players_results"]) wins += p["wins"].get<std::int64_t>();
  CHECK(wins + json["no_winner"].get<std::int64_t>() >= 20);
  CHECK(json["rule_coverage"].contains("talk_dirty"));
  CHECK(json["rounds"]["mean"].get<double>() >= 1.0);
}

TEST_CASE("cli: a rule fault stops simulate with exit 1 and saves the game's log", "[cli][simulate]") {
  const std::string dir = rulebook::test::temp_folder();
  const auto r = run_rulebook("simulate " + quoted_path(source_path("rulesets/variants/molestation-literal.rules")) +
                              " --games 5 --logs " + quoted_path(dir));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("rule fault in game 0") != std::string::npos);
  CHECK(r.err.find("top(role_deck): the zone is empty") != std::string::npos);
  CHECK(r.err.find("rule: turn_next_role") != std::string::npos);
  const std::string log = rulebook::test::read_text(dir + "/fault-game-0.jsonl");
  REQUIRE_FALSE(log.empty());
  const auto last = nlohmann::json::parse(log.substr(log.rfind('\n', log.size() - 2) + 1));
  CHECK(last["fault"]["rule"] == "turn_next_role");
  CHECK(nlohmann::json::parse(log.substr(0, log.find('\n')))["version"] == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: simulate and play refuse bad game settings with exit 2", "[cli][simulate]") {
  const std::string file = quoted_path(source_path("rulesets/clusterfk.rules"));
  const auto option = run_rulebook("simulate " + file + " --games 1 --option notes=5");
  CHECK(option.exit_code == 2);
  CHECK(option.err.find("option 'notes' must be in 32..200, not 5") != std::string::npos);
  const auto unknown = run_rulebook("simulate " + file + " --games 1 --option note=50");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("has no option 'note'") != std::string::npos);
  CHECK(run_rulebook("simulate " + file + " --games 1 --option notes").exit_code == 2);
  CHECK(run_rulebook("simulate " + file + " --games 1 --players 3").exit_code == 2);
  CHECK(run_rulebook("simulate " + file + " --games 0").exit_code == 2);
  CHECK(run_rulebook("simulate " + file).exit_code == 2);
  CHECK(run_rulebook("play " + file + " --players 9").exit_code == 2);
}

TEST_CASE("cli: play asks again after bad input, and the same seed and input give the same log", "[cli][play]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string file = quoted_path(source_path("rulesets/molestation-game.rules"));
  std::string input = "zero\n0\n";
  for (int i = 0; i < 400; ++i) input += "1\n";
  const auto a = run_rulebook("play " + file + " --seed 4 --log " + quoted_path(dir + "/a.jsonl"), input);
  const auto b = run_rulebook("play " + file + " --seed 4 --log " + quoted_path(dir + "/b.jsonl"), input);
  CHECK(a.out.find("please type a number from 1 to") != std::string::npos);
  CHECK(a.out.find("seed 4") != std::string::npos);
  const std::string log_a = rulebook::test::read_text(dir + "/a.jsonl");
  REQUIRE_FALSE(log_a.empty());
  CHECK(log_a == rulebook::test::read_text(dir + "/b.jsonl"));
  CHECK(log_a.find("\"move\":{\"choice\"") != std::string::npos);
  // 400 answers end before the game does, or the game ends: either way the exit code says so.
  CHECK((a.exit_code == 0 || a.exit_code == 2));
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: play stops with exit 2 when input ends", "[cli][play]") {
  const auto r = run_rulebook("play " + quoted_path(source_path("rulesets/molestation-game.rules")) + " --seed 1", "");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("input ended") != std::string::npos);
}

TEST_CASE("cli: replay accepts the hand-written example logs and prints winners and scores", "[cli][replay]") {
  const auto m = run_rulebook("replay " + quoted_path(source_path("rulesets/molestation-game.rules")) + " " +
                              quoted_path(source_path("rulesets/examples/molestation-table-game.jsonl")));
  INFO(m.err);
  CHECK(m.exit_code == 0);
  CHECK(m.out.find("the game ended in round 3") != std::string::npos);
  CHECK(m.out.find("winners: Bob") != std::string::npos);
  CHECK(m.out.find("trauma: Ann = 7, Bob = 3") != std::string::npos);
  const auto c = run_rulebook("replay " + quoted_path(source_path("rulesets/clusterfk.rules")) + " " +
                              quoted_path(source_path("rulesets/examples/clusterfk-table-game.jsonl")));
  INFO(c.err);
  CHECK(c.exit_code == 0);
  CHECK(c.out.find("ok: 39 steps, the game ended in round 2") != std::string::npos);
  CHECK(c.out.find("winners: Ann, Bob, Cy") != std::string::npos);
}

TEST_CASE("cli: replay reads a log from standard input with -", "[cli][replay]") {
  const std::string log = rulebook::test::read_text(source_path("rulesets/examples/clusterfk-table-game.jsonl"));
  const auto r = run_rulebook("replay " + quoted_path(source_path("rulesets/clusterfk.rules")) + " -", log);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("-: ok: 39 steps") != std::string::npos);
}

TEST_CASE("cli: replay --trace lists each step with its player, choice, rule and source line", "[cli][replay]") {
  const auto r = run_rulebook("replay --trace " + quoted_path(source_path("rulesets/clusterfk.rules")) + " " +
                              quoted_path(source_path("rulesets/examples/clusterfk-table-game.jsonl")));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("step    1  line 12    Ann      pass ") != std::string::npos);
  CHECK(r.out.find("step    3  line 14    Ann      Cy ") != std::string::npos);
  CHECK(r.out.find("pass_or_slam") != std::string::npos);
  CHECK(r.out.find("clusterfk.rules:") != std::string::npos);
}

TEST_CASE("cli: replay exits 1 on an illegal move, 2 on a bad log, and --format json says which", "[cli][replay]") {
  const std::string folder = rulebook::test::temp_folder();
  std::string log = rulebook::test::read_text(source_path("rulesets/examples/clusterfk-table-game.jsonl"));
  const std::string legal_pass = R"("player": "Ann", "rule": "pass_note", "choice": "note3")";
  REQUIRE(log.find(legal_pass) != std::string::npos);
  std::string illegal = log;
  illegal.replace(illegal.find(legal_pass), legal_pass.size(), R"("player": "Ann", "rule": "pass_note", "choice": "note33")");
  rulebook::test::write_text(folder + "/illegal.jsonl", illegal);
  const std::string rules = quoted_path(source_path("rulesets/clusterfk.rules"));
  const auto r = run_rulebook("replay " + rules + " " + quoted_path(folder + "/illegal.jsonl"));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("illegal.jsonl:13:") != std::string::npos);
  CHECK(r.err.find("step 2: Ann may not choose note33 in rule 'pass_note'") != std::string::npos);
  CHECK(r.err.find("note33 is in hand(Bob)") != std::string::npos);
  CHECK(r.err.find("legal here for Ann: note3, note9, note17, note28") != std::string::npos);

  rulebook::test::write_text(folder + "/bad.jsonl", log.substr(0, log.size() / 2));
  const auto b = run_rulebook("replay --format json " + rules + " " + quoted_path(folder + "/bad.jsonl") + " " +
                              quoted_path(folder + "/illegal.jsonl"));
  CHECK(b.exit_code == 2);
  const auto j = nlohmann::json::parse(b.out);
  REQUIRE(j["logs"].size() == 2);
  CHECK(j["logs"][0]["result"] == "bad-log");
  CHECK(j["logs"][1]["result"] == "illegal");
  CHECK(j["logs"][1]["steps"] == 1);
  CHECK(j["logs"][1]["diagnostics"][0]["line"] == 13);

  const auto missing = run_rulebook("replay " + rules + " " + quoted_path(folder + "/no-such.jsonl"));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("cannot read the log") != std::string::npos);
}

TEST_CASE("cli: replay --partial checks a game in progress and says what comes next", "[cli][replay]") {
  const std::string folder = rulebook::test::temp_folder();
  const std::string log = rulebook::test::read_text(source_path("rulesets/examples/clusterfk-table-game.jsonl"));
  const std::size_t cut = log.find("{\"move\": {\"player\": \"Bob\", \"rule\": \"pass_or_slam\"");
  REQUIRE(cut != std::string::npos);
  rulebook::test::write_text(folder + "/part.jsonl", log.substr(0, cut));
  const std::string args = quoted_path(source_path("rulesets/clusterfk.rules")) + " " + quoted_path(folder + "/part.jsonl");
  const auto whole = run_rulebook("replay " + args);
  CHECK(whole.exit_code == 2);
  CHECK(whole.err.find("the log ends before the game does") != std::string::npos);
  const auto partial = run_rulebook("replay --partial " + args);
  CHECK(partial.exit_code == 0);
  CHECK(partial.out.find("the game is still in progress") != std::string::npos);
  CHECK(partial.out.find("next: Bob to choose in rule 'pass_or_slam'") != std::string::npos);
}

TEST_CASE("cli: replay warns about a log written for other rules, and --strict refuses it", "[cli][replay]") {
  const std::string folder = rulebook::test::temp_folder();
  const std::string logs = folder + "/logs";
  const std::string rules = quoted_path(source_path("rulesets/clusterfk.rules"));
  REQUIRE(run_rulebook("simulate " + rules + " --games 1 --seed 3 --logs " + quoted_path(logs)).exit_code == 0);
  std::string log = rulebook::test::read_text(logs + "/game-000000.jsonl");
  const std::size_t hash = log.find("\"hash\":\"");
  REQUIRE(hash != std::string::npos);
  log.replace(hash + 8, 16, "0123456789abcdef");
  rulebook::test::write_text(folder + "/old.jsonl", log);
  const auto warned = run_rulebook("replay " + rules + " " + quoted_path(folder + "/old.jsonl"));
  CHECK(warned.exit_code == 0);
  CHECK(warned.err.find("warning: the log was written for other rule files") != std::string::npos);
  const auto strict = run_rulebook("replay --strict " + rules + " " + quoted_path(folder + "/old.jsonl"));
  CHECK(strict.exit_code == 2);
}

TEST_CASE("cli: verify exits 0 when every property is proved and 1 when one is refuted", "[cli][verify]") {
  const rulebook::test::RunResult fixed = run_rulebook("verify " + source_path("tests/verifier/cases/lost-card-fixed.rules") + " --games 100");
  INFO(fixed.out << fixed.err);
  CHECK(fixed.exit_code == 0);
  CHECK_THAT(fixed.out, Catch::Contains("proved   invariant"));
  CHECK_THAT(fixed.out, Catch::Contains("0 refuted, 0 unknown"));
  const rulebook::test::RunResult broken = run_rulebook("verify " + source_path("tests/verifier/cases/lost-card.rules") + " --games 100");
  CHECK(broken.exit_code == 1);
  CHECK_THAT(broken.out, Catch::Contains("refuted  invariant"));
  CHECK_THAT(broken.out, Catch::Contains("counterexample"));
}

TEST_CASE("cli: verify --cex-out writes a counterexample log that replay accepts", "[cli][verify]") {
  const std::string dir = rulebook::test::temp_folder();
  const rulebook::test::RunResult r = run_rulebook("verify " + source_path("tests/verifier/cases/endless-loop.rules") + " --games 100 --property round-termination --cex-out " + dir);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 1);
  const std::string log = dir + "/round-termination-pass_around-2p.jsonl";
  CHECK_THAT(r.out, Catch::Contains(log));
  const rulebook::test::RunResult replayed = run_rulebook("replay --partial " + source_path("tests/verifier/cases/endless-loop.rules") + " " + log);
  INFO(replayed.out << replayed.err);
  CHECK(replayed.exit_code == 0);
  // The log holds every move of the lasso: the pass that starts it and the two that repeat.
  CHECK_THAT(replayed.out, Catch::Contains("ok: 3 steps"));
  CHECK_THAT(r.out, Catch::Contains("these 2 moves can repeat forever"));
}

TEST_CASE("cli: verify --format sarif writes SARIF 2.1.0 with one result per finding", "[cli][verify]") {
  const rulebook::test::RunResult r = run_rulebook("verify " + source_path("tests/verifier/cases/draw-from-empty.rules") + " --games 100 --format sarif");
  REQUIRE(r.exit_code == 1);
  const auto sarif = nlohmann::json::parse(r.out);
  CHECK(sarif["version"] == "2.1.0");
  const auto& run = sarif["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "rulebook verify");
  bool found = false;
  for (const auto& result : run["results"]) {
    if (result["ruleId"] != "rulebook/conservation") continue;
    found = true;
    CHECK(result["kind"] == "fail");
    CHECK(result["level"] == "error");
    CHECK(result["locations"][0]["physicalLocation"]["region"]["startLine"] == 14);
    CHECK(!result["codeFlows"][0]["threadFlows"][0]["locations"].empty());
  }
  CHECK(found);
}

TEST_CASE("cli: verify --format json has each finding and its counterexample log", "[cli][verify]") {
  const rulebook::test::RunResult r = run_rulebook("verify " + source_path("tests/verifier/cases/no-legal-move.rules") + " --games 100 --property playability --format json");
  REQUIRE(r.exit_code == 1);
  const auto json = nlohmann::json::parse(r.out);
  const auto& finding = json["reports"][0]["findings"][0];
  CHECK(finding["property"] == "playability");
  CHECK(finding["status"] == "refuted");
  CHECK_THAT(finding["counterexample"]["log"].get<std::string>(), Catch::Contains("\"log\""));
  CHECK(json["exit"] == 1);
}

TEST_CASE("cli: verify refuses a bad property, player count or file with exit 2", "[cli][verify]") {
  CHECK(run_rulebook("verify " + source_path("tests/verifier/cases/lost-card.rules") + " --property nonsense").exit_code == 2);
  const rulebook::test::RunResult players = run_rulebook("verify " + source_path("tests/verifier/cases/lost-card.rules") + " --players 5");
  CHECK(players.exit_code == 2);
  CHECK_THAT(players.err, Catch::Contains("allows 2 to 2 players"));
  CHECK(run_rulebook("verify no/such/file.rules").exit_code == 2);
  CHECK(run_rulebook("verify " + source_path("tests/verifier/cases/lost-card.rules") + " --option nonsense=1").exit_code == 2);
}

}  // namespace cli_cli_test
