// Hostile input, round two (issue 34), the reading part: work that was quadratic in the input
// (did you mean, card kinds, header warnings), a variant base that blocks, one rule for a key
// given twice in a log, memory for a log of blank lines, and text from input that reached the
// terminal raw. Each test failed before its fix (docs/reliability.md, "Hostile input, round two").
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <spawn.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
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

namespace reliability_hostile_input_test {  // this file's own names (unity builds put several files in one)
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Each run that used to take minutes or hours gets a minute; `timeout` ends it with 124.
const std::string kMinute = "timeout 60";

// A header line of a log of `rules` (a game of two humans, as `play` writes it), with `extra`
// members added at its end.
std::string header_line(const std::string& extra = "") {
  return fmt::format(R"({{"log":"rulebook","version":1,"players":2,"seed":"1"{}}})", extra) + "\n";
}

const char* const kSmallRules = "game \"t\"\nplayers 2\ncards { standard52 }\nround {\n  end game\n}\n";

// Runs `rulebook ARGS` directly (no shell), its standard input from `stdin_path`, and returns
// its exit code and its peak resident memory in KiB, as the kernel counted it for that one
// process (wait4).
std::pair<int, long> run_measured(const std::vector<std::string>& args, const std::string& stdin_path = "/dev/null") {
  std::vector<std::string> all{RULEBOOK_EXECUTABLE};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, stdin_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  // AddressSanitizer keeps up to 256 MB of freed blocks in quarantine, which a program that
  // frees as it goes (replay's drain) shows as resident memory of its own: the measure is of
  // the program, so the quarantine is kept small (a sanitizer build failed CI at 526 MB).
  std::vector<std::string> environment;
  bool asan_options_given = false;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry = *e;
    if (entry.rfind("ASAN_OPTIONS=", 0) == 0) {
      entry += ":quarantine_size_mb=8";
      asan_options_given = true;
    }
    environment.push_back(std::move(entry));
  }
  if (!asan_options_given) environment.emplace_back("ASAN_OPTIONS=quarantine_size_mb=8");
  std::vector<char*> envp;
  for (std::string& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  REQUIRE(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()) == 0);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  struct rusage usage {};
  REQUIRE(wait4(pid, &status, 0, &usage) == pid);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage.ru_maxrss};
}

// The wall-clock seconds of `rulebook check FILE`, the better of two runs (a run slowed by
// the other core's work does not count).
double check_seconds(const std::string& file, const std::vector<std::string>& options = {}) {
  double best = 1e9;
  for (int i = 0; i < 2; ++i) {
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::string> args{"check"};
    args.insert(args.end(), options.begin(), options.end());
    args.push_back(file);
    const auto [rc, kib] = run_measured(args);
    CHECK(rc == 0);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  return best;
}

// Work that grows linearly grows 8 times for 8 times the input; quadratic work grew 60 to 110
// times on these files (from a tenth of a second). The bound leaves room for noise.
constexpr double kLinearGrowthBound = 24;

// `check` of the file make(n) writes and of make(8 n): the second within kLinearGrowthBound
// times the first. Under the sanitizers (RULEBOOK_TEST_DIVISOR) on a tenth of the size: they
// look for memory errors on large input, the release half measures the growth (each of these
// took a minute there at full size).
void check_grows_linearly(const std::string& what, const std::function<std::string(int)>& make, int full_n,
                          const std::vector<std::string>& options = {}) {
  const int n = static_cast<int>(rulebook::test::games(full_n));
  const double small = check_seconds(make(n), options);
  const double large = check_seconds(make(8 * n), options);
  INFO(fmt::format("{} {}: {} s; {}: {} s", n, what, small, 8 * n, large));
  CHECK(large < kLinearGrowthBound * small);
}

}  // namespace

// ---- did you mean: bounded work ---------------------------------------------------------------

TEST_CASE("hostile 2: did-you-mean on long names and on many unknown names ends in seconds", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // Names of 5,000 letters that differ only at the end: the full edit-distance table was
  // 25 million cells for each pair, for every unknown name against every definition.
  const std::string stem(5000, 'a');
  std::string text = "game \"t\"\nplayers 2\ncards { standard52 }\nround {\n  end game\n}\n";
  for (int i = 0; i < 60; ++i) text += fmt::format("def {}{:03}: int = 1\n", stem, i);
  for (int i = 0; i < 60; ++i) text += fmt::format("def e{}: int = {}{:03}x\n", i, stem, i);
  // And many short unknown names among many definitions: each was compared with each.
  for (int i = 0; i < 4000; ++i) text += fmt::format("def d{}: int = u{}\n", i, i);
  write_text(dir + "/names.rules", text);
  const auto started = std::chrono::steady_clock::now();
  // JSON lists every error (text shows the first 100 of each severity).
  const auto r = run_rulebook(fmt::format("check --format json {}", quoted_path(dir + "/names.rules")), "", kMinute);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out, "unknown name 'u3999'"));
  // The first ones are still suggested.
  CHECK(contains(r.out, fmt::format("unknown name '{}000x'; did you mean '{}000'?", stem, stem)));
  CHECK(seconds < 30);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile 2: labelled choices and long lists on one line are checked in time and memory linear in them",
          "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // Found by the round's probe: each labelled choice kept a copy of every name visible there,
  // for the policies (6,000 choices, a 245 KB file: 2.7 GB); and a long line made each place
  // in it cost the line's length (an enum of 800,000 values on one line: minutes).
  std::string choices = "game \"t\"\nplayers 2\ncards { k: 4 }\nzone deck: pile hidden\nsetup {\n  move box to deck\n}\n"
                        "round {\n  end game\n";
  for (int i = 0; i < 6000; ++i) choices += fmt::format("  rule l{}: choose x{} in deck by seat 0\n", i, i);
  choices += "}\npolicy bot {\n  l5999: x0\n}\n";  // the last choice's policy still sees the first name
  write_text(dir + "/choices.rules", choices);
  const auto [rc, kib] = run_measured({"check", dir + "/choices.rules"});
  CHECK(rc == 0);
  CHECK(kib < 400 * 1024);
  std::string list = "game \"t\"\nplayers 2\ncards { standard52 }\nenum e {";
  for (int i = 0; i < 600000; ++i) list += fmt::format("{}v{}", i == 0 ? "" : ",", i);
  list += "}\nround {\n  end game\n}\n";
  write_text(dir + "/list.rules", list);
  const auto r = run_rulebook(fmt::format("check {}", quoted_path(dir + "/list.rules")), "", kMinute);
  CHECK(r.exit_code == 0);
  std::filesystem::remove_all(dir);
}

// ---- cards: a limit on the total, and a move of many cards in one pass --------------------------

TEST_CASE("hostile 2: the cards of a game are limited in total and in kinds, at check time", "[hostile]") {
  // 40 kinds of 10,000 cards each passed check (each kind is within its limit), and one game
  // took 6 s to put the cards in the deck.
  std::string many = "game \"t\"\nplayers 2\ncards {\n";
  for (int i = 0; i < 40; ++i) many += fmt::format("  kind{}x: 10000\n", static_cast<char>('a' + i % 26) + std::string(1, static_cast<char>('a' + i / 26)));
  many += "}\nzone deck: pile hidden\nsetup {\n  move box to deck\n}\nround {\n  end game\n}\n";
  const std::string total = rulebook::test::check_text(many);
  CHECK(contains(total, "the cards declared here come to 400000"));
  CHECK(contains(total, "a game has at most 100000 cards of every kind together"));
  // An option whose range reaches past the total counts at the top of its range.
  const std::string ranged = rulebook::test::check_text(
      "game \"t\"\nplayers 2\noption n: int = 10 in 1..10000\ncards {\n" + [] {
        std::string k;
        for (int i = 0; i < 11; ++i) k += fmt::format("  k{}x: n\n", static_cast<char>('a' + i));
        return k;
      }() + "}\nround {\n  end game\n}\n");
  CHECK(contains(ranged, "come to 110000"));
  std::string kinds = "game \"t\"\nplayers 2\ncards {\n";
  for (int i = 0; i < 1001; ++i) kinds += fmt::format("  k{}: 1\n", std::string(1, static_cast<char>('a' + i % 26)) + std::to_string(i) + "x");
  kinds += "}\nround {\n  end game\n}\n";
  CHECK(contains(rulebook::test::check_text(kinds), "a game has at most 1000 card kinds; this is kind number 1001 of 1001"));
}

TEST_CASE("hostile 2: a count given with --option past the total is refused when the game starts", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  std::string text = "game \"t\"\nplayers 2\noption n: int = 1\ncards {\n";
  for (int i = 0; i < 11; ++i) text += fmt::format("  k{}x: n\n", static_cast<char>('a' + i));
  text += "}\nround {\n  end game\n}\n";
  write_text(dir + "/t.rules", text);
  const auto r = run_rulebook(fmt::format("simulate {} --games 1 --option n=10000", quoted_path(dir + "/t.rules")));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "more than the 100000 a game may have"));
  std::filesystem::remove_all(dir);
}

// ---- logs: header warnings, a key twice, blank lines -------------------------------------------

TEST_CASE("hostile 2: thousands of unknown header keys give 20 warnings and a count, in seconds", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/t.rules", kSmallRules);
  std::string extra;
  for (int i = 0; i < 100000; ++i) extra += fmt::format(R"(,"unknown_key_number_{}":1)", i);
  write_text(dir + "/log.jsonl", header_line(extra) + "{\"end\":{\"winners\":[],\"rounds\":1,\"moves\":0,\"scores\":{}}}\n");
  const auto r = run_rulebook(fmt::format("replay {} {}", quoted_path(dir + "/t.rules"), quoted_path(dir + "/log.jsonl")), "",
                              kMinute);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.err, "unknown header key 'unknown_key_number_19' (ignored)"));
  CHECK_FALSE(contains(r.err, "unknown header key 'unknown_key_number_20'"));
  CHECK(contains(r.err, "and 99980 more unknown header keys (ignored)"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile 2: a key given twice in a log line is an error for replay and for record alike", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string rules = source_path("rulesets/molestation-game.rules");
  // The table game of the examples, with "players" given twice in its header: replay read the
  // first (2), record the last (3), and record then rewrote the log.
  const std::string log = read_text(source_path("rulesets/examples/molestation-table-game.jsonl"));
  const std::size_t at = log.find("\"players\":");
  REQUIRE(at != std::string::npos);
  std::string doubled = log;
  doubled.insert(at, "\"players\":3,");
  write_text(dir + "/twice.jsonl", doubled);
  const auto replayed = run_rulebook(fmt::format("replay {} {}", quoted_path(rules), quoted_path(dir + "/twice.jsonl")));
  CHECK(replayed.exit_code == 2);
  CHECK(contains(replayed.err, "the key \"players\" appears twice in one object"));
  const auto recorded = run_rulebook(fmt::format("record {} -o {}", quoted_path(rules), quoted_path(dir + "/twice.jsonl")), "quit\n");
  CHECK(recorded.exit_code == 2);
  CHECK(read_text(dir + "/twice.jsonl") == doubled);  // left as it was
  // Nested objects too: a move with "alternative" twice aborted record.
  const std::string move_twice = header_line() + R"({"move":{"player":0,"alternative":"a","alternative":"b","choice":null}})" + "\n";
  write_text(dir + "/move.jsonl", move_twice);
  const auto nested = run_rulebook(fmt::format("replay {} {}", quoted_path(rules), quoted_path(dir + "/move.jsonl")));
  CHECK(nested.exit_code == 2);
  CHECK(contains(nested.err, "the key \"alternative\" appears twice in one object"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile 2: a log of blank lines is read in memory bounded by its size", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  write_text(dir + "/t.rules", kSmallRules);
  // 100 MB of blank lines: a line-start index of 8 bytes a line took 9 times the log.
  constexpr std::size_t kBytes = 100u << 20;
  {
    std::ofstream out(dir + "/blank.jsonl", std::ios::binary);
    out << header_line();
    const std::string block(1u << 20, '\n');
    for (std::size_t i = 0; i < kBytes / block.size(); ++i) out << block;
  }
  const auto [rc, kib] = run_measured({"replay", dir + "/t.rules", dir + "/blank.jsonl"});
  CHECK(rc == 0);  // a game without decisions: the header is all its log needs
  // The promise: 1.5 times the input, besides what the program needs for itself (under 100 MB
  // with the sanitizers).
  CHECK(kib * 1024L < static_cast<long>(kBytes * 3 / 2) + (100L << 20));
  std::filesystem::remove_all(dir);
}

// ---- a variant's base ------------------------------------------------------------------------

TEST_CASE("hostile 2: a variant whose base is a FIFO or a device is an error, not a wait", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  REQUIRE(::mkfifo((dir + "/base.rules").c_str(), 0600) == 0);
  write_text(dir + "/variant.rules", "variant \"v\" of \"base.rules\"\n");
  const auto fifo = run_rulebook(fmt::format("check {}", quoted_path(dir + "/variant.rules")), "", "timeout 20");
  CHECK(fifo.exit_code == 1);
  CHECK(contains(fifo.err, "base.rules': it is a FIFO, not a regular file"));
  write_text(dir + "/device.rules", "variant \"v\" of \"/dev/zero\"\n");
  const auto device = run_rulebook(fmt::format("check {}", quoted_path(dir + "/device.rules")), "", "timeout 20");
  CHECK(device.exit_code == 1);
  CHECK(contains(device.err, "it is a device, not a regular file"));
  std::filesystem::remove_all(dir);
}

// ---- text from input that reaches the terminal ------------------------------------------------

TEST_CASE("hostile 2: control characters from rule files and logs never reach the terminal raw", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // A title with ESC, and one with a line break that would print a forged line.
  write_text(dir + "/esc.rules", "game \"t\x1b[2J\"\nplayers 2\ncards { standard52 }\nround {\n  end game\n}\n");
  const auto esc = run_rulebook(fmt::format("check {}", quoted_path(dir + "/esc.rules")));
  CHECK(esc.exit_code == 1);
  CHECK(contains(esc.err, "a control character (\\x1b) in a string"));
  CHECK_FALSE(contains(esc.err, "\x1b"));
  write_text(dir + "/newline.rules", "game \"t\\nerror: forged\"\nplayers 2\ncards { standard52 }\nround {\n  end game\n}\n");
  const auto newline = run_rulebook(fmt::format("check {}", quoted_path(dir + "/newline.rules")));
  CHECK(newline.exit_code == 1);
  CHECK(contains(newline.err, "a line break (\\n) in a title or a path"));
  // A comment may hold anything; the line shown above the caret has '?' in its place.
  write_text(dir + "/comment.rules", "game \"t\"\nplayers 2\ncards { standard52 }  # \x1b]0;title\x07\nround {\n  end gme\n}\n");
  const auto comment = run_rulebook(fmt::format("check {}", quoted_path(dir + "/comment.rules")));
  CHECK_FALSE(contains(comment.err, "\x1b"));
  write_text(dir + "/comment2.rules", "game \"t\"\nplayers 2\ncards { standard52 } zone \x1b[31m\nround {\n  end game\n}\n");
  const auto shown = run_rulebook(fmt::format("check {}", quoted_path(dir + "/comment2.rules")));
  CHECK(shown.exit_code == 1);
  CHECK_FALSE(contains(shown.err, "\x1b"));
  CHECK(contains(shown.err, "zone ?[31m"));
  // From a log: a seat name with ESC or a line break is refused, an unknown key is escaped.
  write_text(dir + "/t.rules", kSmallRules);
  write_text(dir + "/names.jsonl", header_line(R"(,"names":["Ann\u001b[2J","Bob"])"));
  const auto names = run_rulebook(fmt::format("replay {} {}", quoted_path(dir + "/t.rules"), quoted_path(dir + "/names.jsonl")));
  CHECK(names.exit_code == 2);
  CHECK(contains(names.err, "seat name 'Ann\\x1b[2J' has a control character"));
  CHECK_FALSE(contains(names.err, "\x1b"));
  write_text(dir + "/key.jsonl", header_line(R"(,"x\u001b]0;pwned\u0007\nerror: forged":1)") +
                                     "{\"end\":{\"winners\":[],\"rounds\":1,\"moves\":0,\"scores\":{}}}\n");
  const auto key = run_rulebook(fmt::format("replay {} {}", quoted_path(dir + "/t.rules"), quoted_path(dir + "/key.jsonl")));
  CHECK(key.exit_code == 0);
  CHECK(contains(key.err, "unknown header key 'x\\x1b]0;pwned\\x07\\nerror: forged' (ignored)"));
  CHECK_FALSE(contains(key.err, "\x1b"));
  CHECK_FALSE(contains(key.err, "\nerror: forged"));
  // From the command line: a file name, an option's value, a value CLI11 refuses.
  const std::string forged = "r\x1b[31mX\r\nerror: forged\xc2\x9b";
  write_text(dir + "/" + forged + ".rules", kSmallRules);
  const std::vector<std::string> commands = {
      "check " + quoted_path(dir + "/" + forged + ".rules"),
      "simulate " + quoted_path(dir + "/t.rules") + " --games 1 --option " + quoted_path(forged + "=1"),
      "simulate " + quoted_path(dir + "/t.rules") + " --games " + quoted_path(forged),
      "explain " + quoted_path(forged),
      "merge " + quoted_path(dir + "/" + forged + ".json"),
  };
  for (const std::string& command : commands) {
    INFO(command);
    const auto r = run_rulebook(command);
    CHECK(contains(r.out + r.err, "\\x1b[31mX\\r\\nerror: forged\\u009b"));
    CHECK_FALSE(contains(r.out + r.err, "\x1b"));
    CHECK_FALSE(contains(r.out + r.err, "\xc2\x9b"));
  }
  std::filesystem::remove_all(dir);
}

// ---- a score that faults ------------------------------------------------------------------------

TEST_CASE("hostile 2: a score whose expression faults is shown as the fault, not as 0", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // docs/language.md: "A fault is never skipped." The pile is empty when the game ends.
  write_text(dir + "/t.rules",
             "game \"t\"\nplayers 2\ncards { standard52 }\nzone stack: pile public\n"
             "score top_rank(p) = rank(top(stack))\nround {\n  end game\n}\n");
  write_text(dir + "/log.jsonl", header_line() + R"({"round":1})" + "\n" +
                                     R"({"end":{"winners":[],"rounds":1,"moves":0,"scores":{"top_rank":[null,null]}}})" + "\n");
  const auto text = run_rulebook(fmt::format("replay {} {}", quoted_path(dir + "/t.rules"), quoted_path(dir + "/log.jsonl")));
  INFO(text.out << text.err);
  CHECK(text.exit_code == 0);
  CHECK(contains(text.out, "top_rank: player 0 = fault: "));
  CHECK_FALSE(contains(text.out, "= 0"));
  const auto json = run_rulebook(
      fmt::format("replay {} {} --format json", quoted_path(dir + "/t.rules"), quoted_path(dir + "/log.jsonl")));
  REQUIRE(nlohmann::json::accept(json.out));
  const auto scores = nlohmann::json::parse(json.out)["logs"][0]["scores"]["top_rank"];
  REQUIRE(scores.size() == 2);
  CHECK(scores[0].is_object());
  CHECK(scores[0]["fault"].get<std::string>().find("stack") != std::string::npos);
  // A log that gives the faulted score as a number is refused, as for any wrong score.
  write_text(dir + "/zero.jsonl", header_line() + R"({"round":1})" + "\n" +
                                      R"({"end":{"winners":[],"rounds":1,"moves":0,"scores":{"top_rank":[0,0]}}})" + "\n");
  const auto zero = run_rulebook(fmt::format("replay {} {}", quoted_path(dir + "/t.rules"), quoted_path(dir + "/zero.jsonl")));
  CHECK(zero.exit_code == 1);
  CHECK(contains(zero.err, "by the rules it is [null,null] (null: the score's expression faults in the final state)"));
  std::filesystem::remove_all(dir);
}

// ---- the third probe: a long block, a long variant, a long answer ----------------------------------

TEST_CASE("hostile 2: a block of many choices is checked in time linear in it", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // Each chosen name is visible for the rest of its block, and every name read was looked for
  // among all of them, twice (the checker's scopes, the expansion check): 80,000 took 20 s.
  const auto choices = [&](int n) {
    std::string text = "game \"t\"\nplayers 2\ncards { k: 4 }\nzone deck: pile hidden\nsetup {\n  move box to deck\n}\n"
                       "def d: int = 1\nvar v: int = 0\nround {\n";
    for (int i = 0; i < n; ++i) text += fmt::format("  choose c{} in deck by seat (d - 1)\n", i);
    text += "  set v := d\n  end game\n}\n";
    const std::string path = fmt::format("{}/choices{}.rules", dir, n);
    write_text(path, text);
    return path;
  };
  check_grows_linearly("choices", choices, 10'000);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile 2: a variant of many overrides is composed in time linear in it", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // Each override of a rule walked the whole base to find it, and each of an option or a
  // definition read every declaration: 40,000 rule overrides took 15 s, and as many
  // overrides of rules the base does not have (each an error) 29 s.
  const auto variant = [&](int n, const char* prefix) {
    std::string base = "game \"b\"\nplayers 2\ncards { k: 4 }\nvar t: int = 0\nround {\n";
    for (int i = 0; i < n; ++i) base += fmt::format("  rule l{}: add 1 to t\n", i);
    base += "  end game\n}\n";
    write_text(fmt::format("{}/base{}.rules", dir, n), base);
    std::string text = fmt::format("variant \"v\" of \"base{}.rules\"\n", n);
    for (int i = 0; i < n; ++i) text += fmt::format("override rule {}{}: add 2 to t\n", prefix, i);
    const std::string path = fmt::format("{}/{}{}.rules", dir, prefix, n);
    write_text(path, text);
    return path;
  };
  // A tenth of the size under the sanitizers (check_grows_linearly says why).
  const int n = static_cast<int>(rulebook::test::games(40'000));
  const double small = check_seconds(variant(n / 8, "l"));
  const double large = check_seconds(variant(n, "l"));
  INFO(n / 8 << " overrides: " << small << " s; " << n << ": " << large << " s");
  CHECK(large < kLinearGrowthBound * small);
  // Overrides of labels the base does not have: errors, with "did you mean" for the first ones.
  const auto started = std::chrono::steady_clock::now();
  const auto missing = run_rulebook(fmt::format("check --format json {}", quoted_path(variant(n, "m"))), "", kMinute);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  CHECK(missing.exit_code == 1);
  CHECK(contains(missing.out, "the variant overrides rule 'm0' that the base ruleset does not have; did you mean 'l0'?"));
  CHECK(contains(missing.out, fmt::format("the variant overrides rule 'm{}' that the base ruleset does not have", n - 1)));
  CHECK(seconds < kLinearGrowthBound * small);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile 2: an answer line longer than a megabyte ends play and record, memory bounded", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // `play < /dev/zero` read one line until memory ran out; here 256 MB without a line break.
  constexpr std::size_t kBytes = 256u << 20;
  {
    std::ofstream out(dir + "/zeros", std::ios::binary);
    const std::string block(1u << 20, '\0');
    for (std::size_t i = 0; i < kBytes / block.size(); ++i) out << block;
  }
  const std::string rules = source_path("rulesets/clusterfk.rules");
  const auto [play_rc, play_kib] =
      run_measured({"play", rules, "--players", "4", "--seed", "1", "--log", dir + "/play.jsonl"}, dir + "/zeros");
  CHECK(play_rc == 2);
  CHECK(play_kib * 1024L < 100L << 20);
  // The log of the moves before it is written, as for any game that is abandoned.
  CHECK(contains(read_text(dir + "/play.jsonl"), "\"log\":\"rulebook\""));
  const std::string two_megabytes(2u << 20, 'x');
  const auto play = run_rulebook(fmt::format("play {} --players 4 --seed 1", quoted_path(rules)), two_megabytes);
  CHECK(play.exit_code == 2);
  CHECK(contains(play.err, "error: an answer is longer than 1048576 bytes: the game is abandoned"));
  const auto [record_rc, record_kib] =
      run_measured({"record", rules, "--players", "4", "-o", dir + "/record.jsonl"}, dir + "/zeros");
  CHECK(record_rc == 2);
  CHECK(record_kib * 1024L < 100L << 20);
  CHECK(contains(read_text(dir + "/record.jsonl"), "\"log\":\"rulebook\""));
  std::filesystem::remove(dir + "/record.jsonl");
  const auto record = run_rulebook(
      fmt::format("record {} --players 4 -o {}", quoted_path(rules), quoted_path(dir + "/record.jsonl")), two_megabytes);
  CHECK(record.exit_code == 2);
  CHECK(contains(record.err, "error: an answer is longer than 1048576 bytes; the answers before it are saved"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile 2: replay --trace and --show-state print as they go, in memory bounded by the log", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // Found by the fourth probe: the steps and a copy of the state at every step were kept until
  // the end, 28 times the log (a 137 MB log ran out of 4 GB).
  write_text(dir + "/long.rules", R"(game "Long"
players 2
cards { n: 10 }
option limit: int = 10 in 1..100000000 "rounds"
zone deck: pile hidden
zone hand(p): set owner
var k: int = 0
setup {
  move box to deck
  shuffle deck
}
round {
  rule pick: choose v in {1, 2, 3} by seat 0
  rule take: choose c in deck by seat 1
  move c to hand(seat 1)
  move hand(seat 1) to deck
  add 1 to k
  if k >= limit { end game }
}
)");
  // A tenth of the rounds under the sanitizers: the bound below is about the log's size.
  const auto simulated = run_rulebook(fmt::format("simulate {} --games 1 --option limit={} --max-moves 1000000 --logs {}",
                                                  quoted_path(dir + "/long.rules"), rulebook::test::games(200'000),
                                                  quoted_path(dir + "/logs")));
  REQUIRE(simulated.exit_code == 0);
  const std::string log = dir + "/logs/game-000000.jsonl";
  const auto log_bytes = static_cast<long>(std::filesystem::file_size(log));
  // `--show-state round` alone kept every round's state to the end (the fifth probe: 16 times the log).
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--trace"}, std::vector<std::string>{"--show-state", "step"},
                                                std::vector<std::string>{"--show-state", "round"},
                                                std::vector<std::string>{"--trace", "--show-state", "round", "--as", "0"}}) {
    std::vector<std::string> args{"replay", dir + "/long.rules", log};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto [rc, kib] = run_measured(args);
    INFO(fmt::format("{}: {} KiB for a log of {} bytes", fmt::join(extra, " "), kib, log_bytes));
    CHECK(rc == 0);
    // The log itself is read whole (docs/reliability.md: 1.5 times the input), and the program
    // needs under 100 MB of its own (with the sanitizers).
    CHECK(kib * 1024L < log_bytes * 2 + (100L << 20));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("hostile 2: many enum types, many parameters and many options given are handled in time linear in them", "[hostile]") {
  const std::string dir = rulebook::test::temp_folder();
  // Found by the fourth probe: each named type and each name was looked for among all enum
  // types (64,000 took 9 s), each parameter was compared with every other (32,000: 2.4 s), and
  // each option given (by --option or a log's header) was looked for among all (64,000: 10 s).
  const auto write = [&](const std::string& name, const std::string& text) {
    write_text(dir + "/" + name, text);
    return dir + "/" + name;
  };
  const auto enums = [&](int n) {
    std::string text = "game \"t\"\nplayers 2\ncards { k: 2 }\n";
    for (int i = 0; i < n; ++i) text += fmt::format("enum e{} {{ a{} }}\nvar v{}: e{} = a{}\n", i, i, i, i, i);
    return write(fmt::format("enums{}.rules", n), text + "round {\n  end game\n}\n");
  };
  check_grows_linearly("enum types", enums, 4'000);
  // Lowered too (the fifth probe: each variable's type was looked up among all enum types and
  // all types in lowering, so `check --dump-ir`, `simulate` and `play` took 32 s for 80,000).
  check_grows_linearly("enum types, lowered", enums, 4'000, {"--dump-ir", "-"});
  const auto parameters = [&](int n) {
    std::string text = "game \"t\"\nplayers 2\ncards { k: 2 }\ndef f(";
    for (int i = 0; i < n; ++i) text += fmt::format("{}a{}: int", i == 0 ? "" : ", ", i);
    return write(fmt::format("parameters{}.rules", n), text + "): int = 1\nround {\n  end game\n}\n");
  };
  check_grows_linearly("parameters", parameters, 8'000);
  // Options given in a log's header, read by replay.
  const auto options = [&](int n) {
    std::string text = "game \"t\"\nplayers 2\ncards { k: 2 }\n";
    std::string given;
    for (int i = 0; i < n; ++i) {
      text += fmt::format("option o{}: int = 1 in 0..5 \"d\"\n", i);
      given += fmt::format("{}\"o{}\":2", i == 0 ? "" : ",", i);
    }
    write(fmt::format("options{}.rules", n), text + "round {\n  end game\n}\n");
    write(fmt::format("options{}.jsonl", n), header_line(",\"options\":{" + given + "}"));
    return std::vector<std::string>{"replay", fmt::format("{}/options{}.rules", dir, n), fmt::format("{}/options{}.jsonl", dir, n)};
  };
  const auto replay_seconds = [&](const std::vector<std::string>& args) {
    double best = 1e9;
    for (int i = 0; i < 2; ++i) {
      const auto started = std::chrono::steady_clock::now();
      CHECK(run_measured(args).first == 0);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
    return best;
  };
  const int given = static_cast<int>(rulebook::test::games(64'000));
  const double options_small = replay_seconds(options(given / 8));
  const double options_large = replay_seconds(options(given));
  INFO(given / 8 << " options given: " << options_small << " s; " << given << ": " << options_large << " s");
  CHECK(options_large < kLinearGrowthBound * options_small);
  // An option the ruleset does not have names the first 20 of its options, not all of them.
  const auto unknown =
      run_rulebook(fmt::format("simulate {} --games 1 --option nope=1", quoted_path(fmt::format("{}/options{}.rules", dir, given))));
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.err, "has no option 'nope' (options: o0, o1,"));
  CHECK(contains(unknown.err, fmt::format("o19, and {} more)", given - 20)));
  CHECK(unknown.err.size() < 1000);
  std::filesystem::remove_all(dir);
}

}  // namespace reliability_hostile_input_test
