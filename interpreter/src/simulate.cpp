#include "rulebook/interpreter/simulate.hpp"

#include <atomic>
#include <chrono>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "rulebook/interpreter/agent.hpp"

namespace rulebook::interpreter {

std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index) {
  // The run's seed is first scrambled into a key, and the games count up from the key. With
  // seed + index (as before) game i of seed s was game i-1 of seed s+1, so runs under
  // "different" seeds shared all but one game. Now two runs of n games share a game only if
  // their keys lie within n of each other: a chance of about 2n / 2^64.
  std::uint64_t key_state = seed;
  const std::uint64_t key = Rng::splitmix64(key_state);
  std::uint64_t x = key + index;
  return Rng::splitmix64(x);
}

GameResult play_random_game(const Machine& machine, const GameConfig& config, std::int64_t max_moves,
                            EventSink* sink) {
  GameResult result;
  result.seed = config.seed;
  State state = machine.start(config, sink);
  for (std::int64_t p = 0; p < state.num_seats; ++p) result.automated.push_back(p >= state.num_players);
  // Agents draw from their own generator, so that their choices never disturb the game's.
  RandomAgent agent(agent_seed(config.seed));
  while (!state.finished) {
    if (state.moves >= max_moves) {
      result.capped = true;
      if (sink != nullptr) sink->stopped(state, max_moves);
      break;
    }
    const View view = machine.view(state, state.decision->player, agent.detail());
    machine.apply(state, agent.choose(view), sink);
  }
  result.winners = state.winners;
  result.rounds = state.rounds;
  result.moves = state.moves;
  result.fault = state.fault;
  if (state.fault) result.fault_state = machine.summary(state);
  result.reached = state.reached;
  result.fired = state.fired;
  if (!state.fault) {
    // The values only: GameResult's scores are compared with the native engines' (bench/native),
    // and no report reads them; a report that shows scores takes Machine::scores, faults and all.
    for (const auto& row : machine.scores(state)) {
      std::vector<std::int64_t>& values = result.scores.emplace_back();
      for (const ScoreValue& v : row) values.push_back(v.value);
    }
  }
  if (!state.fault) result.payoffs = state.payoffs;
  return result;
}

std::vector<GameResult> simulate(const Machine& machine, const GameConfig& config, std::int64_t games,
                                 std::int64_t max_moves, int jobs,
                                 const std::function<void(std::int64_t)>& progress, const std::atomic<bool>* cancel, std::int64_t first) {
  std::vector<GameResult> results(static_cast<std::size_t>(games));
  std::atomic<std::int64_t> next{0};
  std::atomic<std::int64_t> done{0};
  std::atomic<std::int64_t> first_fault{games};
  std::atomic<std::int64_t> started{games};  // after a cancel: the games that started
  auto worker = [&] {
    for (;;) {
      const std::int64_t g = next.fetch_add(1);
      if (g >= games || g > first_fault.load()) return;
      if (cancel != nullptr && cancel->load()) {
        // Games are taken in order, so the games below the first one refused all started.
        std::int64_t seen = started.load();
        while (g < seen && !started.compare_exchange_weak(seen, g)) {
        }
        return;
      }
      GameConfig game = config;
      game.seed = game_seed(config.seed, static_cast<std::uint64_t>(first + g));
      results[static_cast<std::size_t>(g)] = play_random_game(machine, game, max_moves);
      if (results[static_cast<std::size_t>(g)].fault) {
        std::int64_t seen = first_fault.load();
        while (g < seen && !first_fault.compare_exchange_weak(seen, g)) {
        }
      }
      done.fetch_add(1);
    }
  };
  const int count = std::max(1, jobs);
  std::atomic<int> running{count};
  auto run_worker = [&] {
    worker();
    running.fetch_sub(1);
  };
  if (count == 1 && !progress) {
    run_worker();
  } else {
    std::vector<std::thread> threads;
    // A thread that cannot be started (a process or memory limit: `ulimit -u`, `-v`) leaves
    // the games to those that could, or to this one; the results do not depend on how many
    // play them. (The thread already started would otherwise end the process unjoined.)
    for (int i = 0; i < count; ++i) {
      try {
        threads.emplace_back(run_worker);
      } catch (const std::system_error&) {
        running.fetch_sub(count - i);
        break;
      }
    }
    if (threads.empty()) {
      running.store(1);
      run_worker();
    }
    while (progress && running.load() > 0) {
      progress(done.load());
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    for (std::thread& t : threads) t.join();
    if (progress) progress(done.load());
  }
  // Keep results up to and including the first fault: the same for any number of jobs.
  const std::int64_t fault_at = first_fault.load();
  if (fault_at < games) {
    results.resize(static_cast<std::size_t>(fault_at + 1));
  } else if (started.load() < games) {
    results.resize(static_cast<std::size_t>(started.load()));
  }
  return results;
}

}  // namespace rulebook::interpreter
