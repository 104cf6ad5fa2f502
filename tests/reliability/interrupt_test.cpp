// Nothing lost on Ctrl-C: `simulate` prints what it has, and every file the tool writes is
// either the old one or the whole new one (docs/reliability.md, "Nothing lost").
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "support.hpp"

using rulebook::test::read_text;
using rulebook::test::source_path;

namespace reliability_interrupt_test {  // this file's own names (unity builds put several files in one)
namespace {

// Starts `rulebook ARGS` in the background, sends SIGINT after `delay` seconds, and returns
// its exit code; its output is in DIR/out and DIR/err.
int interrupt_after(const std::string& dir, const std::string& args, double delay) {
  const std::string script = fmt::format(
      "NO_COLOR=1 '{}' {} >'{}/out' 2>'{}/err' & pid=$!; sleep {}; kill -INT $pid; wait $pid; echo $? >'{}/rc'",
      RULEBOOK_EXECUTABLE, args, dir, dir, delay, dir);
  const int status = std::system(script.c_str());
  REQUIRE(WIFEXITED(status));
  return std::stoi(read_text(dir + "/rc"));
}

}  // namespace

TEST_CASE("interrupt: simulate stops on SIGINT with exit 130 and prints the statistics so far", "[interrupt]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string file = source_path("rulesets/clusterfk.rules");
  const int rc = interrupt_after(dir, fmt::format("simulate '{}' --games 10000000 --jobs 2", file), 1.5);
  CHECK(rc == 130);
  const std::string err = read_text(dir + "/err");
  const std::string out = read_text(dir + "/out");
  INFO(err);
  const auto at = err.find("interrupted: ");
  REQUIRE(at != std::string::npos);
  const long played = std::stol(err.substr(at + 13));
  CHECK(played > 0);
  CHECK(played < 10000000);
  CHECK(err.find(fmt::format("{} of 10000000 games played", played)) != std::string::npos);
  // The statistics are of the games played, and the same as a run of that many games.
  CHECK(out.find(fmt::format("Clusterf**k!: {} games, 8 players, seed 1", played)) == 0);
  const auto whole = rulebook::test::run_rulebook(fmt::format("simulate '{}' --games {}", file, played));
  CHECK(whole.exit_code == 0);
  CHECK(whole.out == out);
  std::filesystem::remove_all(dir);
}

TEST_CASE("interrupt: simulate --logs leaves only whole logs, and no temporary file", "[interrupt]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string logs = dir + "/logs";
  const std::string file = source_path("rulesets/molestation-game.rules");
  // 3,000 games are played in about a second, then their logs are written: the signal comes
  // while they are written, or, on a slow machine, before; either way nothing is half written.
  const int rc = interrupt_after(dir, fmt::format("simulate '{}' --games 3000 --jobs 2 --logs '{}'", file, logs), 2.0);
  CHECK((rc == 130 || rc == 0));
  const std::string err = read_text(dir + "/err");
  INFO(err);
  CHECK((rc == 0 || err.find("interrupted: ") != std::string::npos));
  std::size_t count = 0;
  std::string names;
  if (std::filesystem::exists(logs)) {
    for (const auto& entry : std::filesystem::directory_iterator(logs)) {
      const std::string name = entry.path().filename().string();
      CHECK(name.rfind("game-", 0) == 0);  // a temporary file starts with '.'
      names += " '" + entry.path().string() + "'";
      ++count;
    }
  }
  if (count > 0) {
    // Every log there replays to its end.
    const auto replay = rulebook::test::run_rulebook(fmt::format("replay '{}'{}", file, names));
    CHECK(replay.exit_code == 0);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("interrupt: fmt --write interrupted at any moment leaves the old file or the new one", "[interrupt]") {
  const std::string dir = rulebook::test::temp_folder();
  const std::string original = read_text(source_path("rulesets/clusterfk.rules"));
  // Badly laid out, so that fmt rewrites it: every line indented by two more spaces.
  std::string messy;
  for (std::size_t start = 0; start < original.size();) {
    const std::size_t end = original.find('\n', start);
    messy += "  " + original.substr(start, end - start + 1);
    start = end + 1;
  }
  const auto formatted = rulebook::test::run_rulebook(fmt::format("fmt '{}'", source_path("rulesets/clusterfk.rules")));
  REQUIRE(formatted.exit_code == 0);
  for (int i = 0; i < 12; ++i) {
    rulebook::test::write_text(dir + "/game.rules", messy);
    const int rc = interrupt_after(dir, fmt::format("fmt --write '{}/game.rules'", dir), 0.002 * i);
    const std::string now = read_text(dir + "/game.rules");
    CHECK((now == messy || now == formatted.out));
    CHECK((rc == 0 || rc == 130 || rc == 1));
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      CHECK(entry.path().filename().string().rfind(".game.rules", 0) != 0);
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace reliability_interrupt_test
