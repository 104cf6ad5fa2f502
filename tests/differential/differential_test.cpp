// The differential check of the verifier (docs/verification.md, "How the verifier is tested"):
// on a fixed set of generated files, and on every file it ever found a disagreement in, no
// `proved` that exhaustive play contradicts, no `refuted` whose counterexample does not replay
// or that a complete exploration shows false.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "rulebook/differential/check.hpp"
#include "rulebook/differential/generate.hpp"
#include "support.hpp"

namespace rd = rulebook::differential;

namespace differential_differential_test {  // this file's own names (unity builds put several files in one)
namespace {

std::string described(const rd::FileCheck& r) {
  std::string out;
  for (const rd::Disagreement& d : r.disagreements) {
    out += fmt::format("{} {}: the verifier {}; but {}\n", d.property, d.subject, d.verifier, d.truth);
  }
  return out;
}

}  // namespace

TEST_CASE("differential check: the verifier agrees with exhaustive play on the fixed seeds", "[differential][long]") {
  // Seeds 1 to 40 (under the sanitizers a sample); `rulebook-difftest --seed 1 --count 40`
  // runs the same check from the command line.
  std::int64_t compared = 0, complete = 0, checked = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    if (!rulebook::test::sampled(static_cast<std::size_t>(seed - 1))) continue;
    const std::string text = rd::generate_checked(seed);
    const rd::FileCheck r = rd::check_rules(text, fmt::format("seed-{}", seed));
    INFO(fmt::format("seed {}:\n{}", seed, text));
    REQUIRE(r.checked);
    CHECK(described(r).empty());
    compared += r.properties;
    complete += r.truth.complete ? 1 : 0;
    ++checked;
  }
  // The check compares something: most files explore completely and most findings are decided.
  CHECK(complete * 2 >= checked);
  CHECK(compared >= checked * 3);
}

TEST_CASE("differential check: every file it ever found a disagreement in agrees now", "[differential]") {
  const std::string folder = rulebook::test::source_path("tests/differential/found");
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() == ".rules") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& path : files) {
    const rd::FileCheck r = rd::check_rules(rulebook::test::read_text(path), std::filesystem::path(path).filename().string());
    INFO(path);
    REQUIRE(r.checked);
    CHECK(described(r).empty());
  }
}

}  // namespace differential_differential_test
