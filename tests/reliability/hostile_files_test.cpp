// Hostile input (issue 21), the files and arguments part: names that are not UTF-8 in every
// JSON writer, `graph` interrupted while `dot` draws, `fmt --write` on links, FIFOs and
// devices, one parser for every numeric option, and JSON output that carries a rule fault.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support.hpp"

using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::source_path;
using rulebook::test::write_text;

namespace fs = std::filesystem;

namespace reliability_hostile_files_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

// 0xFF never occurs in UTF-8; JSON writers print it as U+FFFD, the replacement character.
const std::string kNotUtf8 = "\xff";
const std::string kReplacement = "\xef\xbf\xbd";

// A ruleset without decisions: `play` runs it to the end without input.
std::string small_rules() { return read_text(source_path("tests/verifier/cases/draw-from-empty-fixed.rules")); }

const char* const kBadRules = "game \"t\"\nplayers 2\ncards { standard52 }\nvar n: int = 0\nround {\n  set n := true\n}\n";

// Parses `text` as JSON; fails the test (with the text) if it is not.
nlohmann::json parsed(const std::string& text) {
  INFO(text);
  REQUIRE(nlohmann::json::accept(text));
  return nlohmann::json::parse(text);
}

// Every line of a JSON Lines file parses.
void check_json_lines(const std::string& path) {
  const std::string text = read_text(path);
  REQUIRE_FALSE(text.empty());
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    REQUIRE(end != std::string::npos);
    parsed(text.substr(start, end - start));
    start = end + 1;
  }
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t entries(const std::string& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

// A process that is gone, or a zombie nobody has reaped yet (it uses no CPU).
bool gone(const std::string& pid_text) {
  if (pid_text.empty()) return true;
  const pid_t pid = std::stoi(pid_text);
  for (int i = 0; i < 40; ++i) {
    const std::string stat = read_text(fmt::format("/proc/{}/stat", pid));
    const auto close = stat.rfind(')');
    if (stat.empty() || close == std::string::npos || stat.substr(close + 2, 1) == "Z") return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid, SIGKILL);  // do not leave it running after the test
  return false;
}

}  // namespace

// ---- Item 4: names and texts that are not UTF-8 in every JSON writer ----

TEST_CASE("hostile: check --format json and sarif print JSON for a file name that is not UTF-8", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string good = dir + "/good" + kNotUtf8 + ".rules";
  const std::string bad = dir + "/bad" + kNotUtf8 + ".rules";
  write_text(good, small_rules());
  write_text(bad, kBadRules);

  const auto ok = run_rulebook("check --format json " + quoted_path(good));
  CHECK(ok.exit_code == 0);
  const auto ok_json = parsed(ok.out);
  CHECK(ok_json["files"][0]["path"] == dir + "/good" + kReplacement + ".rules");
  CHECK(ok_json["files"][0]["status"] == "ok");

  const auto errors = run_rulebook("check --format json " + quoted_path(bad));
  CHECK(errors.exit_code == 1);
  const auto errors_json = parsed(errors.out);
  REQUIRE(errors_json["diagnostics"].size() >= 1);
  CHECK(errors_json["diagnostics"][0]["file"] == dir + "/bad" + kReplacement + ".rules");
  CHECK(errors_json["diagnostics"][0]["line"] == 6);

  const auto sarif = run_rulebook("check --format sarif " + quoted_path(bad));
  CHECK(sarif.exit_code == 1);
  const auto sarif_json = parsed(sarif.out);
  // SARIF's uri is percent-encoded (a URI reference), which keeps the byte itself.
  CHECK(sarif_json["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        dir + "/bad%FF.rules");
  fs::remove_all(dir);
}

TEST_CASE("hostile: play --log and simulate --logs and --stats write JSON for a file name that is not UTF-8",
          "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = dir + "/r" + kNotUtf8 + ".rules";
  write_text(rules, small_rules());

  const auto play = run_rulebook("play " + quoted_path(rules) + " --seed 3 --log " + quoted_path(dir + "/play.jsonl"));
  INFO(play.err);
  CHECK(play.exit_code == 0);
  check_json_lines(dir + "/play.jsonl");
  const auto header = parsed(read_text(dir + "/play.jsonl").substr(0, read_text(dir + "/play.jsonl").find('\n')));
  CHECK(header["files"][0] == std::string("r") + kReplacement + ".rules");  // the file name, without its folder

  const auto simulate = run_rulebook("simulate " + quoted_path(rules) + " --games 3 --logs " + quoted_path(dir + "/logs") +
                                     " --stats " + quoted_path(dir + "/stats.json"));
  INFO(simulate.err);
  CHECK(simulate.exit_code == 0);
  parsed(read_text(dir + "/stats.json"));
  REQUIRE(fs::is_directory(dir + "/logs"));
  CHECK(entries(dir + "/logs") == 3);
  for (const auto& log : fs::directory_iterator(dir + "/logs")) check_json_lines(log.path().string());
  fs::remove_all(dir);
}

TEST_CASE("hostile: replay --format json prints JSON for rule and log names that are not UTF-8", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = dir + "/m" + kNotUtf8 + ".rules";
  const std::string log = dir + "/game" + kNotUtf8 + ".jsonl";
  write_text(rules, read_text(source_path("rulesets/molestation-game.rules")));
  write_text(log, read_text(source_path("rulesets/examples/molestation-table-game.jsonl")));
  const auto r = run_rulebook("replay --format json " + quoted_path(rules) + " " + quoted_path(log));
  CHECK(r.exit_code == 0);
  const auto json = parsed(r.out);
  CHECK(json["logs"][0]["log"] == dir + "/game" + kReplacement + ".jsonl");
  CHECK(json["logs"][0]["result"] == "ok");

  // A log that breaks off: its diagnostic names the log file.
  const std::string cut = dir + "/cut" + kNotUtf8 + ".jsonl";
  const std::string whole = read_text(log);
  write_text(cut, whole.substr(0, whole.find('\n') + 1) + "{\"oops\n");
  const auto bad = run_rulebook("replay --format json " + quoted_path(rules) + " " + quoted_path(cut));
  CHECK(bad.exit_code == 2);
  const auto bad_json = parsed(bad.out);
  CHECK(bad_json["logs"][0]["result"] == "bad-log");
  CHECK(bad_json["logs"][0]["diagnostics"][0]["file"] == dir + "/cut" + kReplacement + ".jsonl");
  fs::remove_all(dir);
}

TEST_CASE("hostile: verify --format json and sarif print JSON for a file name that is not UTF-8", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = dir + "/v" + kNotUtf8 + ".rules";
  write_text(rules, read_text(source_path("tests/verifier/cases/draw-from-empty.rules")));
  const std::string quick = " --games 20 --search-states 1000 --budget 5 --timeout 5 ";
  for (const std::string format : {"json", "sarif"}) {
    const auto r = run_rulebook("verify --format " + format + quick + quoted_path(rules));
    INFO(format << ": " << r.err);
    CHECK(r.exit_code == 1);  // the draw from the empty deck is refuted
    const auto json = parsed(r.out);
    if (format == "json") {
      CHECK(json["ruleset"] == dir + "/v" + kReplacement + ".rules");
    } else {
      CHECK(contains(json.dump(), "v" + kReplacement + ".rules"));
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("hostile: a title that is not UTF-8 is refused where it is, or written as JSON", "[hostile]") {
  // Rule files that are not UTF-8 are refused by the parser (another part of issue 21); until
  // then, or if such a title gets through, every JSON writer must still print JSON.
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = dir + "/title.rules";
  std::string text = small_rules();
  text.replace(text.find("\"Draw from empty, fixed\""), 24, "\"Draw " + kNotUtf8 + "\"");
  write_text(rules, text);
  const auto check = run_rulebook("check --format json " + quoted_path(rules));
  const auto check_json = parsed(check.out);
  if (check.exit_code == 1) {
    // Refused: the error is located on the title's line.
    CHECK(check_json["diagnostics"][0]["line"] == 2);
    return;
  }
  REQUIRE(check.exit_code == 0);
  const auto play = run_rulebook("play " + quoted_path(rules) + " --seed 3 --log " + quoted_path(dir + "/play.jsonl"));
  INFO(play.err);
  CHECK(play.exit_code == 0);
  check_json_lines(dir + "/play.jsonl");
  CHECK(contains(read_text(dir + "/play.jsonl"), "Draw " + kReplacement));
  const auto simulate = run_rulebook("simulate " + quoted_path(rules) + " --games 2 --logs " + quoted_path(dir + "/logs") +
                                     " --stats " + quoted_path(dir + "/stats.json"));
  INFO(simulate.err);
  CHECK(simulate.exit_code == 0);
  parsed(read_text(dir + "/stats.json"));
  for (const auto& log : fs::directory_iterator(dir + "/logs")) check_json_lines(log.path().string());
  const auto verify = run_rulebook("verify --format json --games 20 --search-states 1000 --budget 5 --timeout 5 " +
                                   quoted_path(rules));
  INFO(verify.err);
  CHECK(verify.exit_code == 0);
  CHECK(parsed(verify.out)["reports"][0]["title"] == "Draw " + kReplacement);
  const auto replay = run_rulebook("replay --format json " + quoted_path(rules) + " " + quoted_path(dir + "/play.jsonl"));
  CHECK(replay.exit_code == 0);
  parsed(replay.out);
  fs::remove_all(dir);
}

// ---- Item 11: graph --format svg interrupted while `dot` draws ----

namespace {

// A `dot` that writes half an SVG, then draws for a minute in a child process of its own,
// saving both process ids so that the test can see whether they outlive `rulebook`.
void write_slow_dot(const std::string& dir) {
  fs::create_directories(dir + "/bin");
  const std::string script = fmt::format(
      "#!/bin/sh\n"
      "# called as: dot -Tsvg -o OUT IN\n"
      "printf '<svg><g>half' > \"$3\"\n"
      "sleep 60 &\n"
      "echo $! > '{0}/sleep.pid'\n"
      "echo $$ > '{0}/dot.pid'\n"
      "wait\n"
      "printf '</g></svg>' >> \"$3\"\n",
      dir);
  write_text(dir + "/bin/dot", script);
  fs::permissions(dir + "/bin/dot", fs::perms::owner_all);
}

// Runs `graph --format svg -o DIR/out.svg` with the slow `dot` first on PATH and temporary
// files in DIR/tmp; once `dot` runs, sends `signal` (to `rulebook` alone, or to its whole
// process group as a terminal's Ctrl-C does). Returns the exit code.
int interrupted_graph(const std::string& dir, const char* signal, bool whole_group) {
  fs::create_directories(dir + "/tmp");
  const std::string target = whole_group ? "-$pid" : "$pid";
  const std::string script = fmt::format(
      "cd '{0}' && PATH='{0}/bin':\"$PATH\" TMPDIR='{0}/tmp' NO_COLOR=1 setsid '{1}' graph --format svg '{2}' -o "
      "'{0}/out.svg' >'{0}/stdout' 2>'{0}/stderr' & pid=$!; "
      "i=0; while [ ! -s '{0}/dot.pid' ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; "
      "kill -{3} {4}; wait $pid; echo $? >'{0}/rc'",
      dir, RULEBOOK_EXECUTABLE, source_path("rulesets/clusterfk.rules"), signal, target);
  const int status = std::system(script.c_str());
  REQUIRE(WIFEXITED(status));
  return std::stoi(read_text(dir + "/rc"));
}

}  // namespace

TEST_CASE("hostile: graph interrupted while dot draws leaves the output alone, no dot and no temporary file",
          "[hostile]") {
  struct Case {
    const char* signal;
    bool whole_group;
    int exit_code;
  };
  for (const Case c : {Case{"INT", false, 130}, Case{"INT", true, 130}, Case{"TERM", false, 143}}) {
    const std::string dir = rulebook::test::temp_folder();
    write_slow_dot(dir);
    write_text(dir + "/out.svg", "old drawing");
    const int rc = interrupted_graph(dir, c.signal, c.whole_group);
    INFO("SIG" << c.signal << (c.whole_group ? " to the process group" : " to rulebook") << ": "
               << read_text(dir + "/stderr"));
    CHECK(read_text(dir + "/dot.pid") != "");
    CHECK(rc == c.exit_code);
    CHECK(read_text(dir + "/out.svg") == "old drawing");
    CHECK(entries(dir + "/tmp") == 0);
    CHECK(gone(read_text(dir + "/dot.pid")));
    CHECK(gone(read_text(dir + "/sleep.pid")));
    CHECK(read_text(dir + "/stdout").empty());
    CHECK(contains(read_text(dir + "/stderr"), "interrupted"));
    fs::remove_all(dir);
  }
}

TEST_CASE("hostile: graph refuses what a dot killed by a signal, or failing, drew", "[hostile]") {
  for (const std::string ending : {"kill -KILL $$", "exit 3"}) {
    const std::string dir = rulebook::test::temp_folder();
    fs::create_directories(dir + "/bin");
    write_text(dir + "/bin/dot", "#!/bin/sh\nprintf '<svg>half' > \"$3\"\n" + ending + "\n");
    fs::permissions(dir + "/bin/dot", fs::perms::owner_all);
    write_text(dir + "/out.svg", "old drawing");
    const auto r = run_rulebook("graph --format svg " + quoted_path(source_path("rulesets/clusterfk.rules")) + " -o " +
                                    quoted_path(dir + "/out.svg"),
                                "", "PATH='" + dir + "/bin':\"$PATH\"");
    INFO(ending << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "'dot'"));
    CHECK(read_text(dir + "/out.svg") == "old drawing");
    fs::remove_all(dir);
  }
}

// ---- Item 12: fmt --write on links, FIFOs, devices, and files of other owners ----

namespace {

const char* const kMessy = "game \"t\"\nplayers 2\ncards {standard52}\nround{end game}\n";
const char* const kFormatted = "game \"t\"\nplayers 2\ncards {\n  standard52\n}\nround {\n  end game\n}\n";

}  // namespace

TEST_CASE("hostile: fmt --write through a symbolic link formats the file it points to", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  fs::create_directories(dir + "/real");
  fs::create_directories(dir + "/links");
  write_text(dir + "/real/game.rules", kMessy);
  // A relative link, resolved from the link's folder, not from the working folder.
  fs::create_symlink("../real/game.rules", dir + "/links/game.rules");
  const auto r = run_rulebook("fmt --write " + quoted_path(dir + "/links/game.rules"));
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(fs::is_symlink(dir + "/links/game.rules"));
  CHECK(fs::read_symlink(dir + "/links/game.rules") == "../real/game.rules");
  CHECK(read_text(dir + "/real/game.rules") == kFormatted);
  CHECK(entries(dir + "/links") == 1);
  CHECK(entries(dir + "/real") == 1);
  fs::remove_all(dir);
}

TEST_CASE("hostile: fmt --write keeps the file's owner, group and mode", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string file = dir + "/game.rules";
  write_text(file, kMessy);
  REQUIRE(::chmod(file.c_str(), 0640) == 0);
  const bool root = ::geteuid() == 0;
  // Another owner can only be given by root (the tests run as root in CI).
  if (root) REQUIRE(::chown(file.c_str(), 4321, 8765) == 0);
  struct stat before {};
  REQUIRE(::stat(file.c_str(), &before) == 0);
  const auto r = run_rulebook("fmt --write " + quoted_path(file));
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(read_text(file) == kFormatted);
  struct stat after {};
  REQUIRE(::stat(file.c_str(), &after) == 0);
  CHECK(after.st_ino != before.st_ino);  // rewritten through a new file...
  CHECK(after.st_uid == before.st_uid);  // ...that has the old one's owner and mode
  CHECK(after.st_gid == before.st_gid);
  CHECK((after.st_mode & 07777) == 0640);
  if (root) CHECK(after.st_uid == 4321);
  fs::remove_all(dir);
}

TEST_CASE("hostile: fmt --write refuses a FIFO and a device at once, and leaves them alone", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string fifo = dir + "/game.rules";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  // `timeout`: before the fix, opening the FIFO waited for a writer forever.
  const auto r = run_rulebook("fmt --write " + quoted_path(fifo), "", "timeout 20");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "rulebook fmt: '" + fifo + "' is not a regular file"));
  CHECK(fs::is_fifo(fifo));
  CHECK(entries(dir) == 1);
  if (::geteuid() == 0) {
    // A copy of /dev/null (only root can make one), so that a bug cannot replace the real one.
    const std::string device = dir + "/null.rules";
    REQUIRE(::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
    const auto d = run_rulebook("fmt --write " + quoted_path(device), "", "timeout 20");
    CHECK(d.exit_code == 2);
    CHECK(contains(d.err, "rulebook fmt: '" + device + "' is not a regular file"));
    CHECK(fs::is_character_file(device));
    CHECK(entries(dir) == 2);
  }
  fs::remove_all(dir);
}

TEST_CASE("hostile: fmt --write refuses a file with several hard links, and changes neither name", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string file = dir + "/game.rules";
  write_text(file, kMessy);
  fs::create_hard_link(file, dir + "/other-name.rules");
  const auto r = run_rulebook("fmt --write " + quoted_path(file));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "rulebook fmt: '" + file + "' has 2 hard links"));
  CHECK(fs::hard_link_count(file) == 2);
  CHECK(read_text(file) == kMessy);
  CHECK(read_text(dir + "/other-name.rules") == kMessy);
  CHECK(entries(dir) == 2);
  // Printing it is still fine.
  const auto print = run_rulebook("fmt " + quoted_path(file));
  CHECK(print.exit_code == 0);
  CHECK(print.out == kFormatted);
  fs::remove_all(dir);
}

// ---- Item 14: one parser for every numeric option ----

namespace {

struct NumericOption {
  std::string command;  // the command line before the option, cheap to run if a value got through
  std::string option;
  std::string range;    // as the message gives it: "from 1 to 64"
  bool whole;           // a whole number, or a decimal one
  std::string above;    // the smallest whole number above the range
};

}  // namespace

TEST_CASE("hostile: every numeric option refuses negative, hex, octal, nan, garbage and out of range values",
          "[hostile]") {
  const std::string rules = quoted_path(source_path("tests/verifier/cases/draw-from-empty-fixed.rules"));
  const std::string play = "play " + rules + " --seed 1";
  const std::string simulate = "simulate " + rules + " --games 1";
  // The verify options that keep a run short, but the one under test.
  const std::vector<std::pair<std::string, std::string>> quick = {
      {"--games", "5"}, {"--search-states", "10"}, {"--budget", "2"}, {"--timeout", "2"}, {"--property", "conservation"}};
  auto verify = [&](const std::string& option) {
    std::string line = "verify " + rules;
    for (const auto& [name, value] : quick) {
      if (name != option) line += " " + name + " " + value;
    }
    return line;
  };
  const std::string max_seed = "18446744073709551615";
  const std::vector<NumericOption> options = {
      {"play " + rules, "--seed", "from 0 to " + max_seed, true, "18446744073709551616"},
      {play, "--players", "from 1 to 64", true, "65"},
      {play, "--human", "from 0 to 63", true, "64"},
      {"simulate " + rules + " --games 1", "--seed", "from 0 to " + max_seed, true, "18446744073709551616"},
      {simulate, "--players", "from 1 to 64", true, "65"},
      {verify("--players"), "--players", "from 1 to 64", true, "65"},
      {verify("--bound"), "--bound", "from 1 to 1000000", true, "1000001"},
      {verify("--games"), "--games", "from 1 to 1000000", true, "1000001"},
      {verify("--rounds"), "--rounds", "from 1 to 1000000", true, "1000001"},
      {verify("--search-states"), "--search-states", "from 0 to 100000000", true, "100000001"},
      {verify("--search-seconds"), "--search-seconds", "from 0 to 1000000", false, "1000001"},
      {verify("--timeout"), "--timeout", "from 1 to 86400", true, "86401"},
      {verify("--budget"), "--budget", "from 1 to 1000000", false, "1000001"},
      {verify("--seed"), "--seed", "from 0 to " + max_seed, true, "18446744073709551616"},
  };
  const std::vector<std::string> bad = {"-1", "0x10", "0o17", "nan", "inf", "12abc", "99999999999999999999999"};
  for (const NumericOption& o : options) {
    std::vector<std::string> values = bad;
    values.push_back(o.above);
    if (o.whole) values.push_back("1.5");
    for (const std::string& value : values) {
      const auto r = run_rulebook(o.command + " " + o.option + " " + quoted_path(value), "", "timeout 60");
      const std::string expected = fmt::format("{}: takes a {} {}, not '{}'", o.option,
                                               o.whole ? "whole number" : "number", o.range, value);
      INFO(o.command << " " << o.option << " " << value << "\n" << r.err);
      CHECK(r.exit_code == 2);
      CHECK(contains(r.err, expected));
      CHECK(r.out.empty());
    }
  }
}

TEST_CASE("hostile: numeric options are read in decimal, leading zeros included", "[hostile]") {
  const std::string rules = quoted_path(source_path("tests/verifier/cases/draw-from-empty-fixed.rules"));
  // strtoll(..., 0), which CLI11 uses, reads 010 as octal 8.
  const auto ten = run_rulebook("play " + rules + " --seed 010");
  CHECK(ten.exit_code == 0);
  CHECK(contains(ten.out, "seed 10 (replay this game with --seed 10)"));
  const auto largest = run_rulebook("play " + rules + " --seed 18446744073709551615 --players 02");
  CHECK(largest.exit_code == 0);
  CHECK(contains(largest.out, "seed 18446744073709551615 "));
  const auto decimal = run_rulebook("verify " + rules +
                                    " --games 5 --search-states 10 --budget 1.5 --search-seconds 0.5 --timeout 2 "
                                    "--property conservation --format json");
  CHECK(decimal.exit_code == 0);
}

// ---- Item 16: with --format json, stdout is one JSON document even when the command stops ----

TEST_CASE("hostile: verify and replay --format json print a JSON error when they stop before a result",
          "[hostile]") {
  const std::string rules = quoted_path(source_path("tests/verifier/cases/draw-from-empty-fixed.rules"));
  struct Stop {
    std::string args;
    std::string message;
  };
  for (const Stop& s : {Stop{"verify --format json --games 5 " + rules + " --option nosuch=1", "nosuch"},
                        Stop{"verify --format json --games 5 " + rules + " --players 3", "the ruleset allows 2 to 2"},
                        Stop{"verify --format json --games 5 " + rules + " --option x", "--option takes NAME=VALUE"},
                        Stop{"replay --format json " + rules + " - --option x", "--option takes NAME=VALUE"}}) {
    const auto r = run_rulebook(s.args);
    INFO(s.args << "\n" << r.err);
    CHECK(r.exit_code == 2);
    const auto json = parsed(r.out);
    CHECK(json["exit"] == 2);
    CHECK(contains(json.value("error", ""), s.message));
    CHECK(contains(r.err, s.message));
  }
}

TEST_CASE("hostile: replay --format json of a game that faults names the fault", "[hostile]") {
  // A guard, not a fix: replay already printed the fault as JSON.
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = quoted_path(source_path("rulesets/variants/molestation-literal.rules"));
  const auto simulate = run_rulebook("simulate " + rules + " --games 5 --logs " + quoted_path(dir));
  REQUIRE(simulate.exit_code == 1);
  const auto r = run_rulebook("replay --format json " + rules + " " + quoted_path(dir + "/fault-game-0.jsonl"));
  CHECK(r.exit_code == 1);
  const auto json = parsed(r.out);
  CHECK(json["logs"][0]["result"] == "fault");
  CHECK(contains(json["logs"][0]["diagnostics"].dump(), "top(role_deck): the zone is empty"));
  fs::remove_all(dir);
}

TEST_CASE("hostile: simulate --format json prints JSON for a file name that is not UTF-8, and for a fault",
          "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = dir + "/s" + kNotUtf8 + ".rules";
  write_text(rules, small_rules());
  const auto r = run_rulebook("simulate --format json --games 3 " + quoted_path(rules));
  CHECK(r.exit_code == 0);
  CHECK(parsed(r.out)["file"] == dir + "/s" + kReplacement + ".rules");

  const auto fault = run_rulebook("simulate --format json --games 5 --logs " + quoted_path(dir + "/logs") + " " +
                                  quoted_path(source_path("rulesets/variants/molestation-literal.rules")));
  CHECK(fault.exit_code == 1);
  const auto json = parsed(fault.out);
  CHECK(json["exit"] == 1);
  CHECK(json["fault"]["message"] == "top(role_deck): the zone is empty");
  CHECK(json["fault"]["rule"] == "turn_next_role");
  fs::remove_all(dir);
}

TEST_CASE("hostile: simulate's own numeric options use the one parser", "[hostile]") {
  const std::string rules = quoted_path(source_path("tests/verifier/cases/draw-from-empty-fixed.rules"));
  const std::vector<std::tuple<std::string, std::string, std::string>> options = {
      {"simulate " + rules, "--games", "from 1 to 100000000"},
      {"simulate " + rules + " --games 1", "--jobs", "from 1 to 256"},
      {"simulate " + rules + " --games 1", "--max-moves", "from 1 to 1000000000"}};
  for (const auto& [command, option, range] : options) {
    for (const std::string value : {"-1", "0x10", "nan", "12abc", "1.5", "99999999999999999999999"}) {
      const auto r = run_rulebook(command + " " + option + " " + quoted_path(value));
      INFO(command << " " << option << " " << value << "\n" << r.err);
      CHECK(r.exit_code == 2);
      CHECK(contains(r.err, fmt::format("{}: takes a whole number {}, not '{}'", option, range, value)));
    }
  }
}

}  // namespace reliability_hostile_files_test
