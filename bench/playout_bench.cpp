// Interpreter speed: whole random games per ruleset (start, views, legal moves, apply), and
// replaying the logs of the same games (reading the log, checking every step).
#include <benchmark/benchmark.h>

#include <string>

#include "rulebook/grammar/load.hpp"
#include "rulebook/logs/log.hpp"
#include "rulebook/ir/lower.hpp"
#include "rulebook/logs/replay.hpp"
#include "native/native.hpp"
#include "rulebook/interpreter/simulate.hpp"

namespace g = rulebook::grammar;
namespace ri = rulebook::interpreter;

namespace {

// Both benchmarks cycle through the same games.
constexpr std::uint64_t kGames = 100;

ri::Machine load_machine(const char* relative, g::SourceManager& sources) {
  g::Diagnostics diagnostics;
  const auto result = g::load_ruleset(std::string(RULEBOOK_SOURCE_DIR) + "/" + relative, sources, diagnostics);
  if (result.status != g::LoadStatus::kOk) throw std::runtime_error("cannot load ruleset");
  return ri::Machine(ri::lower(*result.program, sources));
}

ri::Machine load_machine(const char* relative) {
  g::SourceManager sources;
  return load_machine(relative, sources);
}

void random_game(benchmark::State& state, const char* relative, std::int64_t players) {
  const ri::Machine machine = load_machine(relative);
  ri::GameConfig config;
  config.players = players;
  std::uint64_t seed = 0;
  std::int64_t moves = 0;
  for (auto _ : state) {
    config.seed = 1 + seed++ % kGames;
    const ri::GameResult result = ri::play_random_game(machine, config, 1'000'000);
    moves += result.moves;
    benchmark::DoNotOptimize(result);
  }
  state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate);
}

void replay_game(benchmark::State& state, const char* relative, std::int64_t players) {
  g::SourceManager rule_sources;
  const ri::Machine machine = load_machine(relative, rule_sources);
  // The logs of the games random_game plays, each added to its own copy of the sources.
  std::vector<g::SourceManager> sources(kGames, rule_sources);
  std::vector<g::FileId> logs;
  for (std::uint64_t i = 0; i < kGames; ++i) {
    ri::GameConfig config;
    config.players = players;
    config.seed = 1 + i;
    ri::LogWriter writer(machine, config);
    (void)ri::play_random_game(machine, config, 1'000'000, &writer);
    logs.push_back(sources[i].add("game.jsonl", writer.text()));
  }
  std::uint64_t game = 0;
  std::int64_t moves = 0;
  for (auto _ : state) {
    const std::uint64_t i = game++ % kGames;
    const ri::ReplayResult result = ri::replay(machine, sources[i], logs[i], {});
    if (result.outcome != ri::ReplayOutcome::kOk) state.SkipWithError("a log did not replay");
    moves += result.steps;
    benchmark::DoNotOptimize(result);
  }
  state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate);
}

// The same games written directly in C++ (bench/native/): the same seeds, generator and
// random agent, so the two sides play games of the same kind and length.
template <typename Play>
void native_game(benchmark::State& state, Play play, std::int32_t players) {
  std::uint64_t seed = 0;
  std::int64_t moves = 0;
  for (auto _ : state) {
    rulebook::native::RandomDriver driver(1 + seed++ % kGames);
    const rulebook::native::Result result = play(players, driver);
    moves += result.moves;
    benchmark::DoNotOptimize(result);
  }
  state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate);
}

rulebook::native::Result native_molestation(std::int32_t players, rulebook::native::Driver& driver) {
  return rulebook::native::play_molestation(players, driver);
}
rulebook::native::Result native_clusterfk(std::int32_t players, rulebook::native::Driver& driver) {
  return rulebook::native::play_clusterfk(players, driver);
}

// Whole simulations on `jobs` threads: the games per second of `rulebook simulate --jobs N`.
void simulate_games(benchmark::State& state, const char* relative, std::int64_t players) {
  const ri::Machine machine = load_machine(relative);
  ri::GameConfig config;
  config.players = players;
  config.seed = 1;
  constexpr std::int64_t kSimulated = 400;
  const int jobs = static_cast<int>(state.range(0));
  for (auto _ : state) {
    const std::vector<ri::GameResult> results = ri::simulate(machine, config, kSimulated, 1'000'000, jobs);
    benchmark::DoNotOptimize(results.data());
  }
  state.counters["games/s"] =
      benchmark::Counter(static_cast<double>(kSimulated) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK_CAPTURE(simulate_games, molestation_4p, "rulesets/molestation-game.rules", 4)
    ->Arg(1)->Arg(2)->UseRealTime()->MinTime(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate_games, clusterfk_4p, "rulesets/clusterfk.rules", 4)
    ->Arg(1)->Arg(2)->UseRealTime()->MinTime(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(native_game, molestation_4p, native_molestation, 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(native_game, molestation_2p, native_molestation, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(native_game, clusterfk_4p, native_clusterfk, 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(replay_game, molestation_4p, "rulesets/molestation-game.rules", 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(replay_game, clusterfk_4p, "rulesets/clusterfk.rules", 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(random_game, molestation_4p, "rulesets/molestation-game.rules", 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(random_game, molestation_2p, "rulesets/molestation-game.rules", 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(random_game, clusterfk_4p, "rulesets/clusterfk.rules", 4)->Unit(benchmark::kMillisecond);
