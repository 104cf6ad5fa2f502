// `rulebook record` driven through a pseudo-terminal, as a scorekeeper would type: a whole
// game whose log replays, impossible answers refused, undo, prefix completion, a session
// killed mid-game and resumed from its saved log, and a bad -o path.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support.hpp"

namespace cli_record_test {  // this file's own names (unity builds put several files in one)
namespace {

using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::source_path;
using rulebook::test::temp_folder;

const std::string kRules = source_path("tests/cli/data/record-high-card.rules");

// One `rulebook record` run on a pseudo-terminal.
class Session {
 public:
  explicit Session(const std::vector<std::string>& args) {
    pid_ = forkpty(&master_, nullptr, nullptr, nullptr);
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::setenv("NO_COLOR", "1", 1);
      std::vector<char*> argv;
      std::string exe = RULEBOOK_EXECUTABLE;
      argv.push_back(exe.data());
      std::vector<std::string> copies = args;
      for (std::string& a : copies) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(exe.c_str(), argv.data());
      ::_exit(127);
    }
  }
  ~Session() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) ::close(master_);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Waits until the output after what was last expected holds `text`.
  void expect(const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
      const std::size_t at = out_.find(text, seen_);
      if (at != std::string::npos) {
        seen_ = at + text.size();
        return;
      }
      INFO("waiting for: " << text << "\noutput so far:\n" << out_);
      REQUIRE(std::chrono::steady_clock::now() < deadline);
      REQUIRE(read_some(500));
    }
  }
  void type(const std::string& line) {
    const std::string text = line + "\n";
    REQUIRE(::write(master_, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }
  // Ends the input (Ctrl-D at the start of a line) and waits for the exit code.
  int end_input() {
    REQUIRE(::write(master_, "\x04", 1) == 1);
    return wait_exit();
  }
  int wait_exit() {
    while (read_some(20000)) {
    }
    int status = 0;
    REQUIRE(::waitpid(pid_, &status, 0) == pid_);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  void kill_now() {
    REQUIRE(::kill(pid_, SIGKILL) == 0);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  [[nodiscard]] const std::string& output() const { return out_; }

 private:
  // False at the end of the output (the program exited).
  bool read_some(int timeout_ms) {
    pollfd p{master_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return true;
    char buffer[4096];
    const ssize_t n = ::read(master_, buffer, sizeof buffer);
    if (n <= 0) return false;  // EIO: the terminal's other side is closed
    out_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  pid_t pid_ = -1;
  int master_ = -1;
  std::string out_;
  std::size_t seen_ = 0;
};

// Round 1 up to Ann's decision: both hands and the turned card.
void deal_round_one(Session& s) {
  s.expect("2 cards from the shuffled deck into hand(Ann): which?");
  s.type("7H 8C");
  s.expect("2 cards from the shuffled deck into hand(Bob): which?");
  s.type("KS 2D");
  s.expect("1 card from the shuffled deck into table: which?");
  s.type("9D");
  s.expect("Ann chooses in play_card: 8C, 7H");
}

// From Bob's decision in round 1 to the end of the game.
void finish_game(Session& s) {
  s.expect("Bob chooses in play_card: 2D, KS");
  s.type("2D");
  s.expect("2 cards from the shuffled deck into hand(Ann): which?");
  s.type("AH AS");
  s.expect("2 cards from the shuffled deck into hand(Bob): which?");
  s.type("3C 4C");
  s.expect("1 card from the shuffled deck into table: which?");
  s.type("5C");
  s.expect("Ann chooses in play_card: AH, AS");
  s.type("as");
  s.expect("Bob chooses in play_card: 3C, 4C");
  s.type("4C");
  s.expect("the game is over after 2 rounds: Ann won");
}

}  // namespace

TEST_CASE("record: a whole game typed at a terminal gives a log that replays", "[record]") {
  const std::string log = temp_folder() + "/game.jsonl";
  Session s({"record", kRules, "--names", "Ann,Bob", "-o", log});
  s.expect("recording to");
  deal_round_one(s);
  s.type("7H");
  finish_game(s);
  CHECK(s.wait_exit() == 0);
  const auto replay = run_rulebook("replay '" + kRules + "' '" + log + "'");
  INFO(replay.out << replay.err);
  CHECK(replay.exit_code == 0);
  CHECK(replay.out.find("ok: 4 steps, the game ended in round 2") != std::string::npos);
  CHECK(replay.out.find("winners: Ann") != std::string::npos);
  const std::string text = read_text(log);
  CHECK(text.find("// seen hand(Bob): KS 2D") != std::string::npos);
  CHECK(text.find(R"({"move":{"choice":"AS","player":0,"rule":"play_card"}})") != std::string::npos);
}

TEST_CASE("record: an impossible answer is refused with its reason and the session goes on", "[record]") {
  const std::string log = temp_folder() + "/game.jsonl";
  Session s({"record", kRules, "--names", "Ann,Bob", "-o", log});
  s.expect("2 cards from the shuffled deck into hand(Ann): which?");
  s.type("7H 8C");
  s.expect("2 cards from the shuffled deck into hand(Bob): which?");
  s.type("7H 2D");
  s.expect("impossible: 7H cannot be one of them: it has been seen already, and is in hand(Ann)");
  s.expect("2 cards from the shuffled deck into hand(Bob): which?");
  s.type("KS 2D");
  s.expect("1 card from the shuffled deck into table: which?");
  s.type("9D");
  s.expect("Ann chooses in play_card: 8C, 7H");
  s.type("KS");
  // The replay's explanation of the illegal step.
  s.expect("impossible: step 1: Ann may not choose KS in rule 'play_card'");
  s.expect("KS is in hand(Bob)");
  s.expect("Ann chooses in play_card: 8C, 7H");
  s.type("7H");
  finish_game(s);
  CHECK(s.wait_exit() == 0);
  CHECK(run_rulebook("replay '" + kRules + "' '" + log + "'").exit_code == 0);
}

TEST_CASE("record: undo takes back the last answer, a prefix completes a choice", "[record]") {
  const std::string log = temp_folder() + "/game.jsonl";
  Session s({"record", kRules, "--names", "Ann,Bob", "-o", log});
  deal_round_one(s);
  s.type("7");
  s.expect("= 7H");
  s.expect("Bob chooses in play_card: 2D, KS");
  s.type("KS");
  s.expect("2 cards from the shuffled deck into hand(Ann): which?");
  s.type("undo");
  s.expect("undone: the last answer is taken back");
  s.expect("Bob chooses in play_card: 2D, KS");
  s.type("?");
  s.expect("2D KS");
  s.type("x");
  s.expect("impossible:");
  s.type("quit");
  s.expect("saved;");
  CHECK(s.wait_exit() == 0);
  const std::string text = read_text(log);
  CHECK(text.find(R"("choice":"7H")") != std::string::npos);
  CHECK(text.find(R"("choice":"KS")") == std::string::npos);
  const auto replay = run_rulebook("replay --partial '" + kRules + "' '" + log + "'");
  CHECK(replay.exit_code == 0);
  CHECK(replay.out.find("ok: 1 steps, the game is still in progress") != std::string::npos);
}

TEST_CASE("record: ambiguous prefixes ask for more", "[record]") {
  const std::string log = temp_folder() + "/game.jsonl";
  Session s({"record", kRules, "--names", "Ann,Bob", "-o", log});
  s.expect("2 cards from the shuffled deck into hand(Ann): which?");
  s.type("AH AS");
  s.expect("hand(Bob): which?");
  s.type("KS 2D");
  s.expect("into table: which?");
  s.type("9D");
  s.expect("Ann chooses in play_card: AH, AS");
  s.type("a");
  s.expect("impossible: 'a' is the start of AH, AS: type more of it");
  CHECK(s.end_input() == 0);
}

TEST_CASE("record: a session killed mid-game resumes from its saved log", "[record]") {
  const std::string log = temp_folder() + "/game.jsonl";
  {
    Session s({"record", kRules, "--names", "Ann,Bob", "-o", log});
    deal_round_one(s);
    s.type("7H");
    s.expect("Bob chooses in play_card: 2D, KS");  // printed after the save
    s.kill_now();
  }
  const auto partial = run_rulebook("replay --partial '" + kRules + "' '" + log + "'");
  INFO(partial.out << partial.err);
  CHECK(partial.exit_code == 0);
  CHECK(partial.out.find("next: Bob to choose in rule 'play_card'") != std::string::npos);
  {
    Session s({"record", kRules, "-o", log});
    s.expect("going on from the end of '" + log + "' (4 answers so far)");
    finish_game(s);
    CHECK(s.wait_exit() == 0);
  }
  CHECK(run_rulebook("replay '" + kRules + "' '" + log + "'").exit_code == 0);
}

TEST_CASE("record: input that ends while cards are asked for leaves a log that resumes there", "[record]") {
  const std::string log = temp_folder() + "/game.jsonl";
  {
    Session s({"record", kRules, "--names", "Ann,Bob", "-o", log});
    s.expect("hand(Ann): which?");
    s.type("7H 8C");
    s.expect("hand(Bob): which?");
    CHECK(s.end_input() == 0);
    CHECK(s.output().find("input ended: saved") != std::string::npos);
  }
  Session s({"record", kRules, "-o", log});
  s.expect("(1 answers so far)");
  s.expect("2 cards from the shuffled deck into hand(Bob): which?");
  CHECK(s.end_input() == 0);
}

TEST_CASE("record: a bad -o path or a log of other rules is an error, and nothing is written", "[record]") {
  const std::string dir = temp_folder();
  auto r = run_rulebook("record '" + kRules + "' -o '" + dir + "/missing/game.jsonl'");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no folder") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir + "/missing"));
  r = run_rulebook("record '" + kRules + "' -o '" + dir + "'");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("not a regular file but a folder") != std::string::npos);
  // A log that does not replay is left as it is.
  rulebook::test::write_text(dir + "/bad.jsonl", "{\"log\":\"rulebook\",\"version\":1,\"players\":2}\n{\"move\":{\"player\":0,\"choice\":\"7H\"}}\n");
  r = run_rulebook("record '" + kRules + "' -o '" + dir + "/bad.jsonl'");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("is not a log of these rules to go on from; it is left as it is") != std::string::npos);
  CHECK(read_text(dir + "/bad.jsonl").find("7H") != std::string::npos);
}

}  // namespace cli_record_test
