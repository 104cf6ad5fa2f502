// rulebook-difftest as a user runs it: reproducible files, its summary and exit codes
// (docs/verification.md, "How the verifier is tested").
#include <cstdlib>
#include <filesystem>
#include <string>

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "rulebook/differential/generate.hpp"
#include "support.hpp"

namespace differential_difftest_cli_test {  // this file's own names (unity builds put several files in one)
namespace {

rulebook::test::RunResult difftest(const std::string& args) {
  const std::string dir = rulebook::test::temp_folder();
  const std::string out = dir + "/stdout", err = dir + "/stderr";
  const std::string command = fmt::format("'{}' {} </dev/null >'{}' 2>'{}'", RULEBOOK_DIFFTEST_EXECUTABLE, args, out, err);
  const int status = std::system(command.c_str());
  rulebook::test::RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = rulebook::test::read_text(out);
  r.err = rulebook::test::read_text(err);
  std::filesystem::remove_all(dir);
  return r;
}

}  // namespace

TEST_CASE("rulebook-difftest: --print gives the generator's file of a seed, the same every time", "[differential]") {
  const auto a = difftest("--print --seed 7");
  const auto b = difftest("--print --seed 7");
  REQUIRE(a.exit_code == 0);
  CHECK(a.out == b.out);
  CHECK(a.out == rulebook::differential::generate_checked(7));
}

TEST_CASE("rulebook-difftest: files that agree exit 0 with a summary, bad usage and bad files exit 2", "[differential]") {
  const std::string found = rulebook::test::source_path("tests/differential/found/walk-with-swaps.rules");
  const auto ok = difftest(rulebook::test::quoted_path(found));
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("1 files (0 drafts), 1 explored completely") != std::string::npos);
  CHECK(ok.out.find("0 file(s) disagree") != std::string::npos);

  const auto zero = difftest("--count 0");
  CHECK(zero.exit_code == 2);
  CHECK(zero.err.find("--count") != std::string::npos);
  CHECK(difftest("--no-such-option").exit_code == 2);
  CHECK(difftest("/nonexistent/file.rules").exit_code == 2);

  const std::string dir = rulebook::test::temp_folder();
  const std::string bad = dir + "/bad.rules";
  rulebook::test::write_text(bad, "game \"t\"\nplayers 2\nround { set nope := 1 }\n");
  const auto refused = difftest(rulebook::test::quoted_path(bad));
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("does not pass check") != std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace differential_difftest_cli_test
