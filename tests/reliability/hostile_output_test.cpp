// Hostile input, round two (issue 34), the writing part: output that cannot be written (a
// full disk, /dev/full), temporary files left by a signal, output paths checked before the
// work, names near the system's limit, and statistics files that cannot be right. Each test
// failed before its fix (docs/reliability.md, "Hostile input, round two").
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <spawn.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support.hpp"

using rulebook::test::quoted_path;
using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::source_path;
using rulebook::test::write_text;

extern char** environ;

namespace reliability_hostile_output_test {  // this file's own names (unity builds put several files in one)
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string molestation() { return quoted_path(source_path("rulesets/molestation-game.rules")); }

// Files in `dir` whose names start with `prefix`.
std::size_t starting_with(const std::string& dir, const std::string& prefix) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) if (e.path().filename().string().rfind(prefix, 0) == 0) ++n;
  return n;
}

// Runs `rulebook ARGS` with stdout on /dev/full, which takes nothing (ENOSPC, like a full
// disk); returns the exit code and stderr.
std::pair<int, std::string> run_onto_full_device(const std::string& args) {
  const std::string dir = rulebook::test::temp_folder();
  const int status = std::system(fmt::format("NO_COLOR=1 '{}' {} </dev/null >/dev/full 2>'{}/err'", RULEBOOK_EXECUTABLE,
                                             args, dir).c_str());
  std::pair<int, std::string> out{WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(dir + "/err")};
  fs::remove_all(dir);
  return out;
}

}  // namespace

// ---- output that cannot be written ---------------------------------------------------------------

TEST_CASE("hostile 2: every command exits non-zero with a message when stdout cannot be written", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const auto stats = run_rulebook(fmt::format("simulate {} --games 5 --stats {}", molestation(), quoted_path(dir + "/s.json")));
  REQUIRE(stats.exit_code == 0);
  const std::string log = quoted_path(source_path("rulesets/examples/molestation-table-game.jsonl"));
  // `fmt a > b && mv b a` went on with an empty b: every one of these exited 0 (fmt and graph
  // with a large output aborted).
  const std::vector<std::string> commands = {
      "fmt " + molestation(),
      "check " + molestation() + " --format json",
      "simulate " + molestation() + " --games 3",
      "replay " + molestation() + " " + log,
      "graph " + molestation(),
      "merge " + quoted_path(dir + "/s.json"),
      "explain E0206",
      "--help",
  };
  for (const std::string& command : commands) {
    INFO(command);
    const auto [rc, err] = run_onto_full_device(command);
    CHECK(rc == 2);
    CHECK(contains(err, "error: cannot write the output: No space left on device"));
  }
  // A file size limit is a full disk for the process: the same, whatever the size of the output.
  // The limit's signal, SIGXFSZ, is left at its default here: rulebook must ignore it itself.
  const auto limited = run_rulebook("fmt " + molestation(), "", "bash -c 'ulimit -f 4; exec \"$0\" \"$@\"'");
  CHECK(limited.exit_code == 2);
  CHECK(contains(limited.err, "cannot write the output: File too large"));
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: a stderr that cannot be written stops nothing", "[hostile]") {
  // Found by the second probe: the message about a failed write, or any message at all, aborted
  // the command when stderr was /dev/full or closed (fmt::print threw again).
  const std::string dir = rulebook::test::temp_folder();
  const auto run = [&](const std::string& args, const std::string& redirects) {
    const int status = std::system(fmt::format("NO_COLOR=1 '{}' {} {}", RULEBOOK_EXECUTABLE, args, redirects).c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  CHECK(run(fmt::format("simulate {} --games 5 --stats {}", molestation(), quoted_path(dir + "/s.json")),
            fmt::format(">{} 2>/dev/full", quoted_path(dir + "/out.txt"))) == 0);
  CHECK(contains(read_text(dir + "/out.txt"), "Molestation Game v3.0: 5 games"));
  CHECK(fs::exists(dir + "/s.json"));
  CHECK(run("check /nonexistent.rules", "2>/dev/full") == 2);
  CHECK(run("fmt " + molestation(), ">/dev/full 2>/dev/full") == 2);
  CHECK(run("explain E0206", ">&- 2>&-") == 2);
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: simulate --logs onto a full disk still prints and saves the statistics", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  fs::create_directory(dir + "/logs");
  // Logs are larger than 16 KiB; the statistics file and the report are not.
  const auto r = run_rulebook(fmt::format("simulate {} --games 20 --logs {} --stats {}", molestation(),
                                          quoted_path(dir + "/logs"), quoted_path(dir + "/s.json")),
                              "", "bash -c 'ulimit -f 16; exec \"$0\" \"$@\"'");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "File too large"));
  CHECK(contains(r.err, "logs written, each one whole; the statistics are of all 20 games"));
  CHECK(contains(r.out, "Molestation Game v3.0: 20 games"));
  REQUIRE(fs::exists(dir + "/s.json"));
  CHECK(nlohmann::json::parse(read_text(dir + "/s.json"))["played"] == 20);
  CHECK(starting_with(dir + "/logs", ".") == 0);  // no temporary file left
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: a file size limit fails writes to files with a message and leaves no temporary file", "[hostile]") {
  // Found by the fifth probe: SIGXFSZ killed the process at the limit (exit 153, no message),
  // leaving the temporary file of fmt --write, check --dump-ir, play --log and simulate --logs.
  const std::string dir = rulebook::test::temp_folder();
  const std::string original = read_text(source_path("rulesets/molestation-game.rules")) + "\n\n";  // fmt has something to change
  write_text(dir + "/game.rules", original);
  const std::string limit = "bash -c 'ulimit -f 4; exec \"$0\" \"$@\"'";
  const auto formatted = run_rulebook("fmt --write " + quoted_path(dir + "/game.rules"), "", limit);
  CHECK(formatted.exit_code == 2);
  CHECK(contains(formatted.err, "File too large"));
  CHECK(read_text(dir + "/game.rules") == original);  // the rules are kept as they were
  const auto dumped = run_rulebook(fmt::format("check --dump-ir {} {}", quoted_path(dir + "/ir.txt"), molestation()), "", limit);
  CHECK(dumped.exit_code == 2);
  CHECK(contains(dumped.err, "File too large"));
  CHECK_FALSE(std::filesystem::exists(dir + "/ir.txt"));
  CHECK(starting_with(dir, ".") == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile 2: an empty output path is refused, not ignored", "[hostile]") {
  // Found by the sixth probe: `--stats ''` (an unset shell variable) succeeded and wrote nothing.
  const std::string war = quoted_path(source_path("rulesets/library/war.rules"));
  for (const std::string& args : {"simulate " + war + " --games 1 --stats ''", "simulate " + war + " --games 1 --logs ''",
                                  "simulate " + war + " --games 1 --plot ''", "check " + war + " --dump-ir ''",
                                  "verify " + war + " --players 2 --cex-out '' --budget 1", "graph " + war + " -o ''"}) {
    INFO(args);
    const auto r = run_rulebook(args);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "takes a path, not an empty string"));
  }
}

TEST_CASE("hostile 2: verify keeps its report when a counterexample log cannot be written", "[hostile]") {
  // Found by the sixth probe: one log that could not be written threw the whole report away.
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/bad.rules", R"(game "Bad"
players 2
cards {
  chip: 3
}
zone deck: pile hidden
zone hand(p): pile hidden
setup {
  move box to deck face down
}
round {
  rule take: choose c in deck by seat 0
  move c to hand(seat 0)
  rule grab: move top(deck) to hand(seat 1)
  rule stop: if empty(deck) {
    end game winners {seat 0}
  }
}
)");
  std::filesystem::create_directories(dir + "/cex/conservation-2p.jsonl");  // a folder where the log goes
  const auto r = run_rulebook(fmt::format("verify {} --players 2 --budget 5 --timeout 5 --format json --cex-out {}",
                                          quoted_path(dir + "/bad.rules"), quoted_path(dir + "/cex")));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "conservation-2p.jsonl"));
  const nlohmann::json report = nlohmann::json::parse(r.out);
  CHECK(report["exit"] == 2);
  REQUIRE(report["reports"].size() == 1);
  bool refuted = false;
  for (const auto& f : report["reports"][0]["findings"]) {
    if (f["property"] == "conservation") refuted = f["status"] == "refuted" && f["counterexample"].contains("log");
  }
  CHECK(refuted);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile 2: simulate checks --stats and --plot before it plays", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/file", "x");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--stats " + quoted_path(dir + "/missing/s.json"), "--stats " + dir + "/missing/s.json: '" + dir + "/missing' cannot be reached"},
      {"--stats " + quoted_path(dir), "is not a regular file but a folder"},
      {"--plot " + quoted_path(dir + "/file"), "'" + dir + "/file' is not a folder"},
      {"--plot " + quoted_path(dir + "/file/charts"), "'" + dir + "/file' is not a folder"},
      // Found by the round's probe, after the first fix: names the file system refuses, and a
      // folder that takes no new file whatever its permissions say.
      {"--stats " + quoted_path(dir + "/" + std::string(256, 'x')), "is 256 bytes long, more than the 255"},
      {"--plot " + quoted_path(dir + "/" + std::string(256, 'x')), "is 256 bytes long, more than the 255"},
      {"--stats /proc/x.json", "no file can be written in the folder '/proc'"},
  };
  for (const auto& [option, message] : cases) {
    INFO(option);
    // 100,000 games take minutes; the error came after them.
    const auto r = run_rulebook(fmt::format("simulate {} --games 100000 {}", molestation(), option), "", "timeout 30");
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, message));
    CHECK_FALSE(contains(r.err, "games in"));
  }
  // play --log too (found by the second probe: asked every question, then lost the log).
  write_text(dir + "/small.rules", "game \"t\"\nplayers 2\ncards { standard52 }\nround {\n  end game\n}\n");
  const auto play = run_rulebook(fmt::format("play {} --log {}", quoted_path(dir + "/small.rules"),
                                             quoted_path(dir + "/file/game.jsonl")));
  CHECK(play.exit_code == 2);
  CHECK(contains(play.err, "error: --log: "));
  CHECK_FALSE(contains(play.out, "game over"));
  // A path in these messages is written out like any text from input.
  const auto raw = run_rulebook(fmt::format("simulate {} --games 3 --stats {} --shard {}", molestation(),
                                            quoted_path(dir + "/no\x1b[2J/s.json"), quoted_path("1/2\x1b[2J")));
  CHECK(raw.exit_code == 2);
  CHECK(contains(raw.err, "1/2\\x1b[2J"));
  CHECK_FALSE(contains(raw.err, "\x1b"));
  const auto stats_path = run_rulebook(fmt::format("simulate {} --games 3 --stats {}", molestation(),
                                                   quoted_path(dir + "/no\x1b[2J/s.json")));
  CHECK(contains(stats_path.err, "no\\x1b[2J"));
  CHECK_FALSE(contains(stats_path.err, "\x1b"));
  // A folder for the charts that does not exist yet is made, as before.
  const auto made = run_rulebook(fmt::format("simulate {} --games 3 --plot {}", molestation(), quoted_path(dir + "/new/charts")));
  CHECK(made.exit_code == 0);
  CHECK(fs::exists(dir + "/new/charts/win-rates.svg"));
  fs::remove_all(dir);
}

// ---- temporary files -----------------------------------------------------------------------------

TEST_CASE("hostile 2: SIGTERM while fmt --write writes its temporary file leaves no temporary file", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // 12 MB of comments, badly laid out so that fmt rewrites the file: the temporary file is
  // there for the write and the flush to disk.
  std::string messy = "game  \"t\"\nplayers 2\ncards { standard52 }\nround {\n  end game\n}\n";
  const std::string comment = "# " + std::string(60, 'c') + "\n";
  while (messy.size() < (12u << 20)) messy += comment;
  int caught = 0;
  for (int attempt = 0; attempt < 40 && caught < 3; ++attempt) {
    write_text(dir + "/game.rules", messy);
    std::string file = dir + "/game.rules";
    std::vector<char*> argv{const_cast<char*>(RULEBOOK_EXECUTABLE), const_cast<char*>("fmt"), const_cast<char*>("--write"),
                            file.data(), nullptr};
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) == 0);
    // Send SIGTERM as soon as the temporary file appears.
    bool sent = false;
    for (int spin = 0; spin < 2000000 && !sent; ++spin) {
      if (starting_with(dir, ".game.rules.") > 0) {
        ::kill(pid, SIGTERM);
        sent = true;
      }
      int status = 0;
      if (!sent && ::waitpid(pid, &status, WNOHANG) == pid) {
        pid = 0;
        break;
      }
    }
    if (pid == 0) continue;  // it finished before the file was seen
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    if (!sent) continue;
    // Killed by the signal (as it should be), or finished just before it.
    if (WIFSIGNALED(status)) {
      CHECK(WTERMSIG(status) == SIGTERM);
      ++caught;
    }
    CHECK(starting_with(dir, ".game.rules.") == 0);
    const std::string now = read_text(dir + "/game.rules");
    CHECK((now == messy || now.rfind("game \"t\"", 0) == 0));
  }
  CHECK(caught > 0);  // the signal came while the temporary file was there
  fs::remove_all(dir);
}

TEST_CASE("hostile 2: a file name near the system's limit is written through a shorter temporary name", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string name = std::string(245, 'n') + ".rules";  // 251 bytes, 255 allowed
  write_text(dir + "/" + name, "game  \"t\"\nplayers 2\ncards { standard52 }\nround {\n  end game\n}\n");
  const auto r = run_rulebook(fmt::format("fmt --write {}", quoted_path(dir + "/" + name)));
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(read_text(dir + "/" + name).rfind("game \"t\"", 0) == 0);
  CHECK(starting_with(dir, ".") == 0);
  fs::remove_all(dir);
}

// ---- statistics files that cannot be right --------------------------------------------------------

TEST_CASE("hostile 2: merge refuses statistics that no run can give", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const auto made = run_rulebook(fmt::format("simulate {} --games 40 --players 3 --stats {}",
                                             quoted_path(source_path("rulesets/library/hearts.rules")),
                                             quoted_path(dir + "/good.json")));
  REQUIRE(made.exit_code == 0);
  const nlohmann::json good = nlohmann::json::parse(read_text(dir + "/good.json"));
  REQUIRE(good["rulebook-stats"] == 4);
  REQUIRE_FALSE(good["payoffs"].empty());
  const auto refused = [&](const std::string& name, const nlohmann::json& stats, const std::string& message) {
    INFO(name << ": " << message);
    write_text(dir + "/" + name, stats.dump());
    const auto r = run_rulebook(fmt::format("merge '{}/{}'", dir, name));
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(contains(r.err, message));
  };
  nlohmann::json s = good;
  s["rulebook-stats"] = 4.9;  // was read as 4
  refused("version.json", s, "\"rulebook-stats\", the format's version, is not a whole number");
  s["rulebook-stats"] = 1e300;  // converted to an int: undefined
  refused("huge.json", s, "\"rulebook-stats\", the format's version, is not a whole number");
  s = good;
  s["payoffs"][0]["sum"][0] = "0x1p16000";  // a finite long double, "inf" as a mean
  refused("sum.json", s, "the \"sum\" of payoff share of player 0 is larger than");
  s = good;
  s["payoffs"][0]["sum"][0] = "0x1p10";
  s["payoffs"][0]["sum_sq"][0] = "0x1p0";  // a variance below 0
  refused("variance.json", s, "the \"sum\" and \"sum_sq\" of payoff share of player 0 cannot both be right");
  s = good;
  s["rounds"] = nlohmann::json::array({nlohmann::json::array({std::numeric_limits<std::int64_t>::max(), 1})});
  refused("rounds.json", s, "\"rounds\" has a value outside");
  s = good;
  s["ruleset"] = "Hearts\x1b[31m\r\nerror: forged";  // printed raw, and made the SVG charts invalid XML
  refused("control.json", s, "\"ruleset\" holds a control character (Hearts\\x1b[31m\\r\\nerror: forged)");
  s = good;
  s["labels"][1] = s["labels"][0];
  refused("labels.json", s, "is listed twice");
  s = good;
  s["payoffs"][0]["sum"][0] = " " + good["payoffs"][0]["sum"][0].get<std::string>();
  refused("space.json", s, "is not a finite number");
  // A key given twice: nlohmann kept the last.
  std::string text = good.dump();
  text.insert(1, "\"ruleset\":\"other\",");
  write_text(dir + "/twice.json", text);
  const auto twice = run_rulebook(fmt::format("merge '{}/twice.json'", dir));
  CHECK(twice.exit_code == 2);
  CHECK(contains(twice.err, "the key \"ruleset\" is given twice in one object"));
  s = good;
  s["games"] = 200000000;
  refused("games.json", s, "\"games\" is 200000000, but a run has 1 to 100000000 games");
  fs::remove_all(dir);
}

}  // namespace reliability_hostile_output_test
