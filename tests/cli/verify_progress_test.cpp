// `verify` progress (issue 22): a status line on stderr that says the player count, the
// stage (sampling, search, invariant candidates left, the property being decided); drawn on
// a terminal by default, forced with --progress, never on stdout, and absent when stderr is
// no terminal (so scripted output stays byte-identical). The terminal case runs the
// executable on a pseudo-terminal (forkpty).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "support.hpp"

using rulebook::test::run_rulebook;
using rulebook::test::source_path;

namespace cli_verify_progress_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::quoted_path;

const std::string kFile = source_path("tests/verifier/corpus/01-path-bonus-deal.fixed.rules");
const std::string kArgs = " --players 2 --games 30 --search-states 2000";

void check_progress_lines(const std::string& err) {
  // The kinds of the slots come from the IR's types: no games are played to guess them.
  CHECK(err.find("first games") == std::string::npos);
  CHECK(err.find("verify, 2 players: sampling [") != std::string::npos);
  CHECK(err.find("verify, 2 players: exhaustive search, ") != std::string::npos);
  CHECK(err.find("verify, 2 players: invariant search, ") != std::string::npos);
  CHECK(err.find("position(s) with candidates left") != std::string::npos);
  CHECK(err.find("verify, 2 players: deciding conservation, playability, well-defined (0/10 properties done)") !=
        std::string::npos);
  CHECK(err.find("verify, 2 players: deciding invariant (9/10 properties done)") != std::string::npos);
}

// Runs the executable with `args` on a pseudo-terminal as stdin and stderr, stdout to `out`;
// returns what the terminal showed.
std::string on_terminal(const std::vector<std::string>& args, const std::string& out, int& status) {
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0) ::_exit(127);
    std::vector<char*> argv;
    std::string exe = RULEBOOK_EXECUTABLE;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  std::string shown;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n > 0) {
      shown.append(buffer, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once the child has closed the terminal
    }
  }
  ::close(master);
  ::waitpid(pid, &status, 0);
  return shown;
}

}  // namespace

TEST_CASE("verify --progress: the stages on stderr, nothing on stdout, the same stdout as without", "[vgraph][verify]") {
  const auto with = run_rulebook("verify " + quoted_path(kFile) + kArgs + " --progress --format json");
  const auto without = run_rulebook("verify " + quoted_path(kFile) + kArgs + " --format json");
  INFO(with.err);
  check_progress_lines(with.err);
  CHECK(with.out.find("verify, 2 players") == std::string::npos);
  CHECK(without.err.empty());  // stderr is no terminal here: no progress by default
  CHECK(with.exit_code == without.exit_code);
  // The JSON is the same but for the seconds.
  const auto strip = [](std::string text) {
    std::string out;
    std::size_t at = 0;
    while (at < text.size()) {
      const std::size_t line_end = std::min(text.find('\n', at), text.size());
      const std::string line = text.substr(at, line_end - at);
      if (line.find("seconds\"") == std::string::npos) out += line + "\n";
      at = line_end + 1;
    }
    return out;
  };
  CHECK(strip(with.out) == strip(without.out));
}

TEST_CASE("verify: progress on a terminal by default, never with --no-progress, stdout stays clean", "[vgraph][verify]") {
  const std::string dir = rulebook::test::temp_folder();
  int status = 0;
  const std::string shown =
      on_terminal({"verify", kFile, "--players", "2", "--games", "30", "--search-states", "2000"}, dir + "/out.txt", status);
  INFO(shown);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);  // as in the corpus: some properties unknown
  check_progress_lines(shown);
  const std::string out = rulebook::test::read_text(dir + "/out.txt");
  CHECK(out.find("verify, 2 players") == std::string::npos);
  CHECK(out.find("Path: rare bonus deal, 2 players") != std::string::npos);

  const std::string quiet = on_terminal({"verify", kFile, "--players", "2", "--games", "30", "--search-states", "2000",
                                         "--no-progress"},
                                        dir + "/quiet.txt", status);
  CHECK(quiet.find("verify, 2 players") == std::string::npos);
  CHECK(rulebook::test::read_text(dir + "/quiet.txt").find("Path: rare bonus deal, 2 players") != std::string::npos);
}

TEST_CASE("verify --progress: the long witness games are a stage of their own", "[vgraph][verify]") {
  // docs/verification.md, "Progress": a rule that fires only after the sampled games' cap is
  // shown by long games, and the line says how many are played of how many at most.
  const auto r = run_rulebook("verify " + quoted_path(source_path("tests/verifier/cases/late-rule.rules")) +
                              " --players 2 --games 20 --bound 50 --property reachability --progress");
  CHECK(r.exit_code == 0);
  // The line is drawn at most ten times a second: the count shown may be 0 or 1.
  CHECK(r.err.find("verify, 2 players: long witness games, ") != std::string::npos);
  CHECK(r.err.find(" played (at most 20)") != std::string::npos);
  CHECK(r.out.find("late: fires in a long simulated game") != std::string::npos);
}

TEST_CASE("verify: --progress and --no-progress together are bad input", "[vgraph][verify]") {
  const auto r = run_rulebook("verify " + quoted_path(kFile) + " --progress --no-progress");
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
}

}  // namespace cli_verify_progress_test
