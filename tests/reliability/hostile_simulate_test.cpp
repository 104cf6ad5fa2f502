// Hostile input (issue 21) for `simulate` and `merge`: memory that stays bounded for any
// --games, no file nobody asked for, nothing lost on SIGINT or SIGTERM, no log overwritten
// silently, and statistics files that are checked before they are added up.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support.hpp"

using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::source_path;
using rulebook::test::write_text;

namespace reliability_hostile_simulate_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

// The names in `dir`, sorted and joined by spaces ("" for an empty or absent folder).
std::string folder_listing(const std::string& dir) {
  std::vector<std::string> names;
  if (std::filesystem::exists(dir)) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return fmt::format("{}", fmt::join(names, " "));
}

// Runs `rulebook ARGS` with `cwd` as its current folder; output in DIR/out and DIR/err.
int run_in_folder(const std::string& cwd, const std::string& dir, const std::string& args) {
  const std::string script = fmt::format("cd '{}' && NO_COLOR=1 '{}' {} >'{}/out' 2>'{}/err'", cwd,
                                         RULEBOOK_EXECUTABLE, args, dir, dir);
  const int status = std::system(script.c_str());
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

// Starts `rulebook ARGS` in the background, waits until the file `wait_for` exists (or
// `delay` seconds when it is empty), sends `signal` (INT or TERM) and returns the exit code;
// the output is in DIR/out and DIR/err.
int signal_when(const std::string& dir, const std::string& args, const std::string& wait_for, double delay,
                const char* signal) {
  const std::string wait = wait_for.empty()
                               ? fmt::format("sleep {}", delay)
                               : fmt::format("while [ ! -e '{}' ] && kill -0 $pid 2>/dev/null; do sleep 0.01; done",
                                             wait_for);
  const std::string script =
      fmt::format("NO_COLOR=1 '{}' {} >'{}/out' 2>'{}/err' & pid=$!; {}; kill -{} $pid; wait $pid; echo $? >'{}/rc'",
                  RULEBOOK_EXECUTABLE, args, dir, dir, wait, signal, dir);
  const int status = std::system(script.c_str());
  REQUIRE(WIFEXITED(status));
  return std::stoi(read_text(dir + "/rc"));
}

// Statistics of a small run whose games all stop at the move cap, as a JSON object.
nlohmann::json capped_stats(const std::string& dir, const std::string& extra = "") {
  const auto r = run_rulebook(fmt::format("simulate {} --games 300 --max-moves 1 --stats {}{}",
                                          quoted_path(source_path("rulesets/molestation-game.rules")),
                                          quoted_path(dir + "/capped.json"), extra));
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(read_text(dir + "/capped.json"));
}

// A statistics file of 40 finished games, as a JSON object.
nlohmann::json finished_stats(const std::string& dir, const std::string& name, const std::string& extra = "") {
  const auto r = run_rulebook(fmt::format("simulate {} --games 40 --players 3 --stats {}{}",
                                          quoted_path(source_path("rulesets/molestation-game.rules")),
                                          quoted_path(dir + "/" + name), extra));
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(read_text(dir + "/" + name));
}

}  // namespace

// ---- item 7: the capped games are counted, and only the first 100 are listed ----------------

TEST_CASE("hostile: simulate lists the first 100 capped games, not all of them", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const auto r = run_rulebook(fmt::format("simulate {} --games 300 --max-moves 1 --stats {}",
                                          quoted_path(source_path("rulesets/molestation-game.rules")),
                                          quoted_path(dir + "/capped.json")));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("stopped at the move cap (1 moves): 300 (games 0, 1, 2, ") != std::string::npos);
  CHECK(r.out.find(", 98, 99, and 200 more, not listed)\n") != std::string::npos);
  CHECK(r.out.find(" 100,") == std::string::npos);
  const auto saved = nlohmann::json::parse(read_text(dir + "/capped.json"));
  CHECK(saved["capped"] == 300);
  REQUIRE(saved["capped_games"].size() == 100);
  CHECK(saved["capped_games"][99] == 99);
  const auto json = run_rulebook(fmt::format("simulate {} --games 300 --max-moves 1 --format json",
                                             quoted_path(source_path("rulesets/molestation-game.rules"))));
  REQUIRE(json.exit_code == 0);
  const auto report = nlohmann::json::parse(json.out);
  CHECK(report["stopped_at_move_cap"] == 300);
  CHECK(report["capped_games"].size() == 100);
  CHECK(report["capped_games_not_listed"] == 200);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: merged shards list the same first 100 capped games as one run", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = quoted_path(source_path("rulesets/molestation-game.rules"));
  for (int i = 0; i < 3; ++i) {
    REQUIRE(run_rulebook(fmt::format("simulate {} --games 300 --max-moves 1 --shard {}/3 --stats '{}/{}.json'", rules,
                                     i, dir, i))
                .exit_code == 0);
  }
  const auto whole = run_rulebook(fmt::format("simulate {} --games 300 --max-moves 1", rules));
  const auto merged = run_rulebook(fmt::format("merge '{0}/2.json' '{0}/0.json' '{0}/1.json' --stats '{0}/all.json'", dir));
  REQUIRE(merged.exit_code == 0);
  CHECK(merged.out == whole.out);
  CHECK(nlohmann::json::parse(read_text(dir + "/all.json"))["capped_games"].size() == 100);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: merge still reads a statistics file of version 1 that lists every capped game", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  nlohmann::json old = capped_stats(dir);
  old["rulebook-stats"] = 1;
  old["capped_games"] = nlohmann::json::array();
  for (int g = 0; g < 300; ++g) old["capped_games"].push_back(g);
  write_text(dir + "/old.json", old.dump());
  const auto r = run_rulebook(fmt::format("merge '{}/old.json'", dir));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("stopped at the move cap (1 moves): 300 (games 0, 1, 2, ") != std::string::npos);
  CHECK(r.out.find(", 99, and 200 more, not listed)\n") != std::string::npos);
  // A version-1 file must list every capped game, as version 1 did.
  old["capped_games"].erase(299);
  write_text(dir + "/short.json", old.dump());
  const auto bad = run_rulebook(fmt::format("merge '{}/short.json'", dir));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("short.json: \"capped_games\"") != std::string::npos);
  std::filesystem::remove_all(dir);
}

// ---- item 8: a faulty game's log only where it was asked for --------------------------------

TEST_CASE("hostile: a rule fault writes no log into the current folder without --logs, and says how", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string cwd = dir + "/cwd";
  std::filesystem::create_directories(cwd);
  const std::string rules = quoted_path(source_path("rulesets/variants/molestation-literal.rules"));
  const int rc = run_in_folder(cwd, dir, fmt::format("simulate {} --games 5", rules));
  CHECK(rc == 1);
  const std::string err = read_text(dir + "/err");
  CHECK(err.find("rule fault in game 0") != std::string::npos);
  CHECK(err.find("no log was saved: run again with --logs DIR to save this game's log as DIR/fault-game-") != std::string::npos);
  CHECK(folder_listing(cwd).empty());
  // With --logs, the log is there, and only there.
  const int with_logs = run_in_folder(cwd, dir, fmt::format("simulate {} --games 5 --logs logs", rules));
  CHECK(with_logs == 1);
  CHECK(folder_listing(cwd) == "logs");
  CHECK(folder_listing(cwd + "/logs") == "fault-game-0.jsonl");
  CHECK(read_text(dir + "/err").find("the game's log is in logs/fault-game-0.jsonl") != std::string::npos);
  std::filesystem::remove_all(dir);
}

// ---- item 10: SIGINT and SIGTERM while logs are written, and SIGTERM while playing ----------

TEST_CASE("hostile: SIGINT while simulate --logs writes keeps the statistics and the --stats file", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string logs = dir + "/logs";
  const std::string rules = source_path("rulesets/molestation-game.rules");
  // The signal comes once the first log exists: after the games, while their logs are written.
  const int rc = signal_when(dir,
                             fmt::format("simulate '{}' --games 300 --jobs 2 --logs '{}' --stats '{}/stats.json'",
                                         rules, logs, dir),
                             logs + "/game-000000.jsonl", 0, "INT");
  const std::string err = read_text(dir + "/err");
  INFO(err);
  CHECK(rc == 130);
  CHECK(err.find("interrupted: ") != std::string::npos);
  CHECK(err.find("logs written, each one whole; the statistics are of all 300 games") != std::string::npos);
  const auto whole = run_rulebook(fmt::format("simulate '{}' --games 300", rules));
  CHECK(read_text(dir + "/out") == whole.out);
  REQUIRE(std::filesystem::exists(dir + "/stats.json"));
  CHECK(nlohmann::json::parse(read_text(dir + "/stats.json"))["played"] == 300);
  for (const auto& entry : std::filesystem::directory_iterator(logs)) {
    CHECK(entry.path().filename().string().rfind("game-", 0) == 0);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: SIGTERM while simulate --logs writes is handled like SIGINT, with exit 143", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string logs = dir + "/logs";
  const std::string rules = source_path("rulesets/molestation-game.rules");
  const int rc = signal_when(dir,
                             fmt::format("simulate '{}' --games 300 --jobs 2 --logs '{}' --stats '{}/stats.json'",
                                         rules, logs, dir),
                             logs + "/game-000000.jsonl", 0, "TERM");
  const std::string err = read_text(dir + "/err");
  INFO(err);
  CHECK(rc == 143);
  CHECK(err.find("terminated (SIGTERM): ") != std::string::npos);
  CHECK(read_text(dir + "/out").find("Molestation") == 0);
  CHECK(std::filesystem::exists(dir + "/stats.json"));
  // Only whole logs, no temporary file, and each replays to its end.
  std::string names;
  for (const auto& entry : std::filesystem::directory_iterator(logs)) {
    CHECK(entry.path().filename().string().rfind("game-", 0) == 0);
    names += " " + quoted_path(entry.path().string());
  }
  REQUIRE_FALSE(names.empty());
  CHECK(run_rulebook(fmt::format("replay '{}'{}", rules, names)).exit_code == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: SIGTERM while simulate plays prints the statistics of the games played, exit 143", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string file = source_path("rulesets/clusterfk.rules");
  const int rc = signal_when(dir, fmt::format("simulate '{}' --games 10000000 --jobs 2 --stats '{}/stats.json'", file, dir),
                             "", 1.5, "TERM");
  CHECK(rc == 143);
  const std::string err = read_text(dir + "/err");
  const std::string out = read_text(dir + "/out");
  INFO(err);
  const auto at = err.find("terminated (SIGTERM): ");
  REQUIRE(at != std::string::npos);
  const long played = std::stol(err.substr(at + 22));
  CHECK(played > 0);
  CHECK(err.find(fmt::format("{} of 10000000 games played", played)) != std::string::npos);
  const auto whole = run_rulebook(fmt::format("simulate '{}' --games {}", file, played));
  CHECK(whole.out == out);
  const auto saved = nlohmann::json::parse(read_text(dir + "/stats.json"));
  CHECK(saved["interrupted"] == true);
  CHECK(saved["played"] == played);
  std::filesystem::remove_all(dir);
}

// ---- item 13: --logs into a folder that holds files -----------------------------------------

TEST_CASE("hostile: simulate --logs refuses a folder that is not empty, unless --force", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = quoted_path(source_path("rulesets/molestation-game.rules"));
  const std::string logs = dir + "/logs";
  REQUIRE(run_rulebook(fmt::format("simulate {} --games 3 --seed 1 --logs {}", rules, quoted_path(logs))).exit_code == 0);
  const std::string first = read_text(logs + "/game-000000.jsonl");
  const auto again = run_rulebook(fmt::format("simulate {} --games 2 --seed 2 --logs {}", rules, quoted_path(logs)));
  CHECK(again.exit_code == 2);
  CHECK(again.err.find(fmt::format("error: the log folder '{}' is not empty", logs)) != std::string::npos);
  CHECK(again.err.find("--force") != std::string::npos);
  CHECK(again.out.empty());
  CHECK(read_text(logs + "/game-000000.jsonl") == first);
  CHECK(folder_listing(logs) == "game-000000.jsonl game-000001.jsonl game-000002.jsonl");
  // An empty folder that exists is fine; --force writes into one that is not.
  std::filesystem::create_directories(dir + "/empty");
  CHECK(run_rulebook(fmt::format("simulate {} --games 1 --logs '{}/empty'", rules, dir)).exit_code == 0);
  const auto forced = run_rulebook(fmt::format("simulate {} --games 2 --seed 2 --logs {} --force", rules, quoted_path(logs)));
  CHECK(forced.exit_code == 0);
  CHECK(read_text(logs + "/game-000000.jsonl") != first);
  const auto alone = run_rulebook(fmt::format("simulate {} --games 1 --force", rules));
  CHECK(alone.exit_code == 2);
  CHECK(alone.err.find("--force requires --logs") != std::string::npos);
  std::filesystem::remove_all(dir);
}

// ---- item 15: merge checks every count of every file -----------------------------------------

TEST_CASE("hostile: merge refuses counts that do not fit together, naming the file and the field", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const nlohmann::json good = finished_stats(dir, "good.json");
  const std::int64_t finished = good["played"].get<std::int64_t>() - good["capped"].get<std::int64_t>();
  REQUIRE(finished > 0);
  const auto refused = [&](const std::string& name, const nlohmann::json& stats, const std::string& message) {
    INFO(name << ": " << message);
    write_text(dir + "/" + name, stats.dump());
    const auto r = run_rulebook(fmt::format("merge '{}/{}'", dir, name));
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(fmt::format("error: {}/{}: {}", dir, name, message)) != std::string::npos);
  };
  nlohmann::json s = good;
  s["wins"][0] = 34 * finished;  // printed 3400.0%
  refused("wins.json", s, "\"wins\" of player 0 is more than the games with a winner");
  s = good;
  s["wins"][1] = -3;
  refused("negative.json", s, "\"wins\" of player 1 is negative");
  s = good;
  s["no_winner"] = finished + 1;
  refused("no-winner.json", s, "\"no_winner\" is more than the finished games");
  s = good;
  s["wins"][0] = 1.5;
  refused("fraction.json", s, "\"wins\" of player 0 is not a whole number");
  s = good;
  s["fired"][0] = -1;
  refused("fired.json", s, "\"fired\" of label 0 is not a whole number from 0 to 18446744073709551615");
  s = good;
  s["moves"][0][0] = s["max_moves"].get<std::int64_t>() + 1;
  refused("moves.json", s, "\"moves\" has a value outside 0 to --max-moves");
  s = good;
  s["rounds"][0][1] = std::numeric_limits<std::int64_t>::max();
  refused("rounds.json", s, "\"rounds\" counts ");
  s = good;
  s["capped"] = 1;
  s["capped_games"] = {12345};
  refused("capped.json", s, "\"capped_games\" holds a game outside the shard");
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile: merge refuses a sum that overflows, naming the file and the field", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  for (int i = 0; i < 2; ++i) {
    nlohmann::json s = finished_stats(dir, fmt::format("{}.json", i), fmt::format(" --shard {}/2", i));
    s["reached"][0] = std::numeric_limits<std::uint64_t>::max() - 1;  // each file alone is fine
    s["fired"][0] = std::numeric_limits<std::uint64_t>::max() - 1;
    write_text(fmt::format("{}/{}.json", dir, i), s.dump());
  }
  const auto r = run_rulebook(fmt::format("merge '{0}/1.json' '{0}/0.json'", dir));
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find(fmt::format("error: {}/1.json: \"reached\" of label 0: the sum passes 18446744073709551615", dir)) !=
        std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace reliability_hostile_simulate_test
