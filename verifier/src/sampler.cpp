#include "sampler.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <unordered_set>

#include "rulebook/interpreter/agent.hpp"
#include "stop_sinks.hpp"

namespace rulebook::verifier {

namespace {

std::uint64_t hash_point(const std::vector<std::int64_t>& point) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const std::int64_t v : point) {
    h ^= static_cast<std::uint64_t>(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 1099511628211ULL;
  }
  return h;
}

class SampleSink : public LoopWatch {
 public:
  SampleSink(const ri::Machine& machine, const Layout& layout, const CardClasses& classes, Invariants& invariants,
             Sampling& out)
      : LoopWatch(kStepsWithoutDecision, kStepsPerGame), machine_(machine), layout_(layout), classes_(classes), invariants_(invariants), out_(out),
        seen_(machine.ir().code.size()) {}
  void start_game(std::uint64_t seed, std::chrono::steady_clock::time_point stop_at) {
    seed_ = seed;
    reset(stop_at);
  }
  void stepping(const ri::State& state) override {
    LoopWatch::stepping(state);
    if (stop() != Stop::kNone) return;  // the machine stops before this state's instruction
    const ir::Ir& ir = machine_.ir();
    ++out_.states;
    if (!invariants_.is_cut(state.pc)) return;  // decisions are cut points
    const std::vector<std::int64_t> point = project(ir, layout_, classes_, state);
    if (out_.states == 1) invariants_.set_initial(state.pc, point);
    if (seen_[static_cast<std::size_t>(state.pc)].insert(hash_point(point)).second) {
      invariants_.at(state.pc).add(point);
      auto& kept = out_.points[state.pc];
      if (kept.size() < kPointsPerCut) kept.push_back(point);
    }
  }
  void ended(const ri::State& state) override {
    if (!state.fault) check_invariants(state, true);
  }
  // The game waits for a decision: where declared invariants must hold (as the search checks
  // them). Not at every choose instruction: an automated seat's policy decides at once, a
  // random draw is no decision, and a choice without a legal option faults instead.
  void waiting(const ri::State& state) {
    if (stop() == Stop::kNone) check_invariants(state, false);
  }

 private:
  void check_invariants(const ri::State& state, bool at_end) {
    const ir::Ir& ir = machine_.ir();
    for (std::size_t i = 0; i < ir.invariants.size(); ++i) {
      if (out_.broken[i]) continue;
      const auto v = machine_.evaluate(state, ir.invariants[i].condition);
      if (v && v->truthy()) continue;
      out_.broken[i] = BrokenInvariant{seed_, state.moves, at_end};
    }
  }
  const ri::Machine& machine_;
  const Layout& layout_;
  const CardClasses& classes_;
  Invariants& invariants_;
  Sampling& out_;
  std::vector<std::unordered_set<std::uint64_t>> seen_;
  std::uint64_t seed_ = 0;
};

}  // namespace

ri::GameResult play_sample_game(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t max_moves,
                                std::int64_t max_rounds, ri::EventSink* sink, bool* by_rounds,
                                const std::function<void(const ri::State&)>& waiting) {
  ri::GameResult result;
  result.seed = config.seed;
  ri::State state = machine.start(config, sink);
  ri::RandomAgent agent(ri::agent_seed(config.seed));  // as play_random_game: replayable from the seed
  // A sink that stops the game (its verdict) leaves it half run: the caller asks the sink why.
  ri::SinkVerdict verdict = sink != nullptr ? sink->verdict() : ri::SinkVerdict::kContinue;
  while (!state.finished && verdict == ri::SinkVerdict::kContinue) {
    if (waiting) waiting(state);
    if (state.moves >= max_moves || state.rounds > max_rounds) {
      result.capped = true;
      if (by_rounds != nullptr) *by_rounds = state.moves < max_moves;
      if (sink != nullptr) sink->stopped(state, max_moves);
      break;
    }
    const ri::View view = machine.view(state, state.decision->player, agent.detail());
    verdict = machine.apply(state, agent.choose(view), sink);
  }
  result.winners = state.winners;
  result.rounds = state.rounds;
  result.moves = state.moves;
  result.fault = state.fault;
  result.reached = state.reached;
  result.fired = state.fired;
  return result;
}

Sampling sample(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t games, std::int64_t max_moves,
                std::int64_t max_rounds, const Layout& layout, const CardClasses& classes, Invariants& invariants,
                std::chrono::steady_clock::time_point stop_at, const std::function<void(std::int64_t)>& played) {
  Sampling out;
  out.broken.resize(machine.ir().invariants.size());
  SampleSink sink(machine, layout, classes, invariants, out);
  for (std::int64_t g = 0; g < games; ++g) {
    // The first game gives the start state (Invariants::set_initial): it is always played.
    if (g > 0 && std::chrono::steady_clock::now() >= stop_at) {
      out.cut_by_budget = true;
      break;
    }
    ri::GameConfig game = config;
    game.seed = ri::game_seed(config.seed, static_cast<std::uint64_t>(g));
    sink.start_game(game.seed, g > 0 ? stop_at : std::chrono::steady_clock::time_point::max());
    bool by_rounds = false;
    ri::GameResult played_game = play_sample_game(machine, game, max_moves, max_rounds, &sink, &by_rounds,
                                                  [&sink](const ri::State& state) { sink.waiting(state); });
    if (sink.stop() == LoopWatch::Stop::kNoDecision && out.long_loops == 0) {
      // Played again without the watch (a few seconds): either to the interpreter's own
      // fault, the counterexample (later games would likely loop too: sampling stops here),
      // or the loop was long but finite and the game went on (kept, and sampling goes on;
      // later games stopped this way are kept as long games, without playing them again).
      bool whole_by_rounds = false;
      ri::GameResult whole = play_sample_game(machine, game, max_moves, max_rounds, nullptr, &whole_by_rounds);
      const bool endless = whole.fault && whole.fault->kind == ir::FaultKind::kEndlessLoop;
      out.games.push_back(std::move(whole));
      if (endless) {
        out.looped = true;
        break;
      }
      // The whole game is kept as played (a fault after the loop is a real one); its states
      // after the watch stopped it are not candidates, which only weakens the invariants.
      out.long_loops = 1;
      out.first_long_loop = g;
      if (out.games.back().capped) ++(whole_by_rounds ? out.capped_rounds : out.capped_moves);
      if (played) played(g + 1);
      continue;
    }
    if (sink.stop() != LoopWatch::Stop::kNone) {
      // Played again without the sink to its last decision: a capped game its seed replays.
      // Its states up to the stop are real states and stay as candidates.
      out.games.push_back(play_sample_game(machine, game, std::min(max_moves, sink.stopped_moves()), max_rounds, nullptr));
      if (sink.stop() == LoopWatch::Stop::kBudget) {
        out.budget_stopped = true;
        out.cut_by_budget = g + 1 < games;
        break;
      }
      if (sink.stop() == LoopWatch::Stop::kNoDecision) {
        if (out.long_loops++ == 0) out.first_long_loop = g;
      } else if (out.long_games++ == 0) {
        out.first_long = g;
      }
    } else {
      out.games.push_back(std::move(played_game));
      if (out.games.back().capped) ++(by_rounds ? out.capped_rounds : out.capped_moves);
    }
    if (played) played(g + 1);
  }
  return out;
}

void play_long_witnesses(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t first,
                         std::int64_t max_games, double seconds, std::vector<bool>& open_labels,
                         std::vector<bool>& open_seats, Sampling& out,
                         const std::function<void(std::int64_t)>& played) {
  const auto started = std::chrono::steady_clock::now();
  const auto open = [](const std::vector<bool>& v) { return std::find(v.begin(), v.end(), true) != v.end(); };
  for (std::int64_t k = 0; k < max_games && (open(open_labels) || open(open_seats)); ++k) {
    // The first game is always played: the caller skips the phase when it has no time.
    if (k > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() >= seconds) break;
    ri::GameConfig game = config;
    const std::int64_t index = first + k;
    game.seed = ri::game_seed(config.seed, static_cast<std::uint64_t>(index));
    ri::GameResult result = ri::play_random_game(machine, game, kWitnessMoves);
    ++out.witness_games;
    if (played) played(out.witness_games);
    bool shows = false;
    for (std::size_t l = 0; l < open_labels.size() && l < result.fired.size(); ++l) {
      if (open_labels[l] && result.fired[l] > 0) {
        open_labels[l] = false;
        shows = true;
      }
    }
    for (const ri::PlayerId p : result.winners) {
      if (p >= 0 && static_cast<std::size_t>(p) < open_seats.size() && open_seats[static_cast<std::size_t>(p)]) {
        open_seats[static_cast<std::size_t>(p)] = false;
        shows = true;
      }
    }
    if (shows) out.witnesses.emplace_back(index, std::move(result));
  }
  out.witness_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

}  // namespace rulebook::verifier
