// Lassos through chance (lassos.hpp, chance_lasso): a game that comes back to a state it was
// in, shuffles and random draws on the way, shows that the game need not end, as long as
// chance can fall the same way again. The log fixes chance: each shuffle leaves the cards in
// the order they are listed in the `cards` block (one of its outcomes, as good as any), and
// the random choices draw what the log records. The random generator's state is then not
// part of "the same state": nothing it would decide is left to it.
//
// How a cycle is found: games of the random agent are played with chance so fixed, and the
// states at the decisions inside the loop are compared with alike cards as one (a round in
// which nobody scores leaves the same counts, not the same cards). A state seen before gives
// a candidate cycle; its moves and draws are played again, turn after turn, until the state
// after a turn is, card by card, one the game was in after an earlier turn. Only that is
// reported; the alike comparison only says where to look.
#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "lasso_words.hpp"
#include "lassos.hpp"
#include "liveness.hpp"
#include "rulebook/interpreter/agent.hpp"
#include "rulebook/interpreter/simulate.hpp"

namespace rulebook::verifier {

namespace {

// Sampled games played, moves applied in all, and candidate cycles played again, at most.
constexpr std::size_t kWalks = 64;
constexpr std::int64_t kChanceMoves = 400000;
constexpr int kCandidates = 64;
// Turns of a candidate cycle played before it is given up.
constexpr int kTurns = 24;

// Chance as the lasso fixes it: shuffles in the listed order; draws as scripted, or the
// generator's when no script is given; every draw and every shuffle's result recorded.
class FixedChance : public InsideLoop {
 public:
  void script(const std::vector<std::size_t>* draws) {
    script_ = draws;
    drawn.clear();
    broken_ = false;
  }
  [[nodiscard]] ri::SinkVerdict verdict() const override {
    return broken_ ? ri::SinkVerdict::kStop : ri::SinkVerdict::kContinue;
  }
  // Whether the move drew exactly as scripted (a draw past the script, or an option the
  // draw does not have, breaks it).
  [[nodiscard]] bool as_scripted() const { return !broken_ && (script_ == nullptr || drawn.size() == script_->size()); }
  bool shuffle_result(const ri::State& /*state*/, std::int32_t /*zone*/, std::vector<ri::CardId>& cards) override {
    std::sort(cards.begin(), cards.end());
    shuffles.push_back(cards);
    return true;
  }
  bool draw_result(const ri::State& /*state*/, std::int32_t /*rule*/, const std::vector<ri::Value>& options,
                   std::size_t& index) override {
    if (script_ == nullptr) return false;
    const std::size_t k = drawn.size();
    if (k >= script_->size() || (*script_)[k] >= options.size()) {
      broken_ = true;
      index = 0;
    } else {
      index = (*script_)[k];
    }
    return true;
  }
  void drew(const ri::State& /*state*/, std::int32_t /*rule*/, const std::vector<ri::Value>& /*options*/,
            std::size_t index) override {
    drawn.push_back(index);
  }

  std::vector<std::size_t> drawn;                 // by the last move
  std::vector<std::vector<ri::CardId>> shuffles;  // every shuffle so far, bottom to top

 private:
  const std::vector<std::size_t>* script_ = nullptr;
  bool broken_ = false;
};

// A game's moves and what its random choices drew: draws[0] before the first decision,
// draws[m + 1] after move m (as replay_moves takes them).
struct Moves {
  std::vector<std::size_t> moves;
  std::vector<std::vector<std::size_t>> draws;
};

class ChanceLassos {
 public:
  ChanceLassos(const Context& ctx, const Loop& loop) : ctx_(ctx), loop_(loop), live_(live_locals(ctx.ir)) {}

  std::optional<Counterexample> run() {
    std::size_t walks = 0;
    for (const ri::GameResult& game : ctx_.sampling.games) {
      if (walks++ == kWalks || budget_ <= 0 || candidates_ >= kCandidates) break;
      if (auto cex = walk(game.seed)) return cex;
    }
    return std::nullopt;
  }

 private:
  // Whether the cycle may pass through `state`: inside the loop and, for a loop of a
  // round, in the round it started in.
  bool in_scope(const ri::State& state, std::int64_t round) const {
    return inside(loop_, state.pc) && (loop_.game || state.rounds == round);
  }

  // One move with fixed chance; false when the move is not legal there, or its draws do not
  // go as scripted.
  bool play(ri::State& state, FixedChance& chance, std::size_t move, const std::vector<std::size_t>* draws) const {
    if (state.finished || !state.decision || move >= state.decision->options.size()) return false;
    chance.script(draws);
    ctx_.machine.apply(state, move, &chance);
    return chance.as_scripted() && !state.fault;
  }

  std::optional<Counterexample> walk(std::uint64_t seed) {
    ri::GameConfig config = ctx_.config;
    config.seed = seed;
    FixedChance chance;
    ri::State state = ctx_.machine.start(config, &chance);
    Moves game;
    game.draws.push_back(chance.drawn);
    ri::RandomAgent agent(ri::agent_seed(seed));
    std::unordered_map<std::uint64_t, std::size_t> seen;  // alike words (no generator): moves before
    std::int64_t round = state.rounds;
    while (!state.finished && state.decision && static_cast<std::int64_t>(game.moves.size()) < ctx_.options.bound &&
           budget_ > 0) {
      if (!in_scope(state, round)) {
        seen.clear();
        round = state.rounds;
      } else {
        const std::uint64_t key = hash_words(words_of(state, SearchSymmetry::kAlikeCards, false, &live_));
        if (const auto it = seen.find(key); it != seen.end() && candidates_ < kCandidates) {
          ++candidates_;
          if (auto cex = close(config, game, it->second, state)) return cex;
        }
        seen[key] = game.moves.size();
      }
      const std::size_t move = agent.choose(ctx_.machine.view(state, state.decision->player, agent.detail()));
      if (!play(state, chance, move, nullptr)) return std::nullopt;
      --budget_;
      game.moves.push_back(move);
      game.draws.push_back(chance.drawn);
    }
    return std::nullopt;
  }

  // The state after the first `moves` moves of `game`, chance fixed as it fell.
  std::optional<ri::State> replay(const ri::GameConfig& config, const Moves& game, std::size_t moves) const {
    FixedChance chance;
    chance.script(&game.draws[0]);
    ri::State state = ctx_.machine.start(config, &chance);
    if (!chance.as_scripted()) return std::nullopt;
    for (std::size_t m = 0; m < moves; ++m) {
      if (!play(state, chance, game.moves[m], &game.draws[m + 1])) return std::nullopt;
    }
    return state;
  }

  // The moves of `game` from `start` on lead from a state to one alike (`now`, after all of
  // them): played again until a state repeats card by card.
  std::optional<Counterexample> close(const ri::GameConfig& config, const Moves& game, std::size_t start,
                                      const ri::State& now) {
    const std::optional<ri::State> first = replay(config, game, start);
    if (!first) return std::nullopt;
    const Words alike = words_of(*first, SearchSymmetry::kAlikeCards, false, &live_);
    if (alike != words_of(now, SearchSymmetry::kAlikeCards, false, &live_)) return std::nullopt;  // a hash collision
    const std::size_t length = game.moves.size() - start;
    // Exact words (no generator) after each turn: the moves played by then.
    StatesSeen after_turn;  // tag: the turns played by then
    const auto repeats = [&](const ri::State& state, std::size_t turns) {
      return after_turn.seen(words_of(state, SearchSymmetry::kExact, false), turns);
    };
    repeats(*first, 0);
    // Every turn is played again, the first too: a loop of a round is watched at every
    // instruction, which the random agent's game was not.
    ri::State state = *first;
    FixedChance chance;
    if (!loop_.game) chance.watch(&loop_);
    for (std::size_t turns = 1; turns <= kTurns; ++turns) {
      for (std::size_t m = start; m < game.moves.size(); ++m) {
        if (--budget_ < 0 || !in_scope(state, now.rounds) || !play(state, chance, game.moves[m], &game.draws[m + 1]) ||
            chance.left()) {
          return std::nullopt;
        }
      }
      if (state.finished || !state.decision || words_of(state, SearchSymmetry::kAlikeCards, false, &live_) != alike) {
        return std::nullopt;
      }
      if (const std::optional<std::size_t> earlier = repeats(state, turns)) {
        return lasso(config, game, start, length, *earlier, turns);
      }
    }
    return std::nullopt;
  }

  // The game: the moves of `game` before `start`, then its moves from `start` on `turns`
  // times; the state after turn `earlier` comes back after the last.
  Counterexample lasso(const ri::GameConfig& config, const Moves& game, std::size_t start, std::size_t length,
                       std::size_t earlier, std::size_t turns) const {
    Moves all;
    all.moves.assign(game.moves.begin(), game.moves.begin() + static_cast<std::ptrdiff_t>(start));
    all.draws.assign(game.draws.begin(), game.draws.begin() + static_cast<std::ptrdiff_t>(start + 1));
    for (std::size_t t = 0; t < turns; ++t) {
      all.moves.insert(all.moves.end(), game.moves.begin() + static_cast<std::ptrdiff_t>(start), game.moves.end());
      all.draws.insert(all.draws.end(), game.draws.begin() + static_cast<std::ptrdiff_t>(start + 1), game.draws.end());
    }
    // The shuffles' results, as the log will give them.
    FixedChance chance;
    chance.script(&all.draws[0]);
    ri::State state = ctx_.machine.start(config, &chance);
    for (std::size_t m = 0; m < all.moves.size(); ++m) play(state, chance, all.moves[m], &all.draws[m + 1]);
    const std::size_t lead_in = start + earlier * length;
    const std::vector<std::size_t> before_moves(all.moves.begin(), all.moves.begin() + static_cast<std::ptrdiff_t>(lead_in));
    const std::size_t before =
        replay_moves(ctx_.machine, config, before_moves, all.draws, chance.shuffles, ctx_.layout, ctx_.classes, "")
            .steps.size();
    Counterexample out =
        replay_moves(ctx_.machine, config, all.moves, all.draws, chance.shuffles, ctx_.layout, ctx_.classes, "");
    const std::size_t after = out.steps.size();
    out.violation = fmt::format(
        "after move {} the game is in exactly the state it was in after move {} (the random generator aside: in this "
        "log every shuffle leaves the cards in the order the cards block lists them, and every random choice draws "
        "as recorded): {} {} can repeat forever, chance falling the same way each time",
        after, before, after - before == 1 ? "this" : "these",
        after - before == 1 ? "move" : fmt::format("{} moves", after - before));
    return out;
  }

  const Context& ctx_;
  const Loop& loop_;
  const LiveLocals live_;
  std::int64_t budget_ = kChanceMoves;
  int candidates_ = 0;
};

}  // namespace

std::optional<Counterexample> chance_lasso(const Context& ctx, const Loop& loop) { return ChanceLassos(ctx, loop).run(); }

}  // namespace rulebook::verifier
