// Interpreter speed: whole random games per ruleset (start, views, legal moves, apply).
#include <benchmark/benchmark.h>

#include <string>

#include "rulebook/grammar/load.hpp"
#include "rulebook/interpreter/lower.hpp"
#include "rulebook/interpreter/simulate.hpp"

namespace g = rulebook::grammar;
namespace ri = rulebook::interpreter;

namespace {

ri::Machine load(const char* relative) {
  g::SourceManager sources;
  g::Diagnostics diagnostics;
  const auto result = g::load_ruleset(std::string(RULEBOOK_SOURCE_DIR) + "/" + relative, sources, diagnostics);
  if (result.status != g::LoadStatus::kOk) throw std::runtime_error("cannot load ruleset");
  return ri::Machine(ri::lower(*result.program, sources));
}

void random_game(benchmark::State& state, const char* relative, std::int64_t players) {
  const ri::Machine machine = load(relative);
  ri::GameConfig config;
  config.players = players;
  std::uint64_t seed = 0;
  std::int64_t moves = 0;
  for (auto _ : state) {
    config.seed = ++seed;
    const ri::GameResult result = ri::play_random_game(machine, config, 1'000'000);
    moves += result.moves;
    benchmark::DoNotOptimize(result);
  }
  state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK_CAPTURE(random_game, molestation_4p, "rulesets/molestation-game.rules", 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(random_game, molestation_2p, "rulesets/molestation-game.rules", 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(random_game, clusterfk_4p, "rulesets/clusterfk.rules", 4)->Unit(benchmark::kMillisecond);
