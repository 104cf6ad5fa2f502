// The verifier's speed: every property of a shipped ruleset for one player count, end to
// end (sampling, invariant search, property checks). One iteration each: a run takes
// seconds to minutes. Compare the figures of one run side by side.
#include <stdexcept>
#include <string>

#include <benchmark/benchmark.h>

#include "rulebook/grammar/load.hpp"
#include "rulebook/ir/lower.hpp"
#include "rulebook/verifier/verify.hpp"

namespace {

namespace g = rulebook::grammar;
namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;

void verify_ruleset(benchmark::State& state, const char* relative, std::int64_t players) {
  g::SourceManager sources;
  g::Diagnostics diagnostics;
  const auto result = g::load_ruleset(std::string(RULEBOOK_SOURCE_DIR) + "/" + relative, sources, diagnostics);
  if (result.status != g::LoadStatus::kOk) throw std::runtime_error("cannot load ruleset");
  const ri::Machine machine(ri::lower(*result.program, sources));
  rv::VerifyOptions options;
  options.players = players;
  for (auto _ : state) {
    const rv::VerifyReport report = rv::verify(machine, options);
    benchmark::DoNotOptimize(report.findings.size());
    state.counters["queries"] = static_cast<double>(report.stats.queries);
    state.counters["inference_s"] = report.stats.inference_seconds;
  }
}

}  // namespace

BENCHMARK_CAPTURE(verify_ruleset, clusterfk_4p, "rulesets/clusterfk.rules", 4)
    ->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(verify_ruleset, molestation_2p, "rulesets/molestation-game.rules", 2)
    ->Unit(benchmark::kSecond)->Iterations(1);
