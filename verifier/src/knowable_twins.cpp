#include "knowable_twins.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "counterexample.hpp"
#include "rulebook/interpreter/agent.hpp"
#include "rulebook/interpreter/simulate.hpp"

namespace rulebook::verifier {

namespace {

using Shuffle = std::vector<ri::CardId>;
using Draws = std::vector<std::vector<std::size_t>>;  // per segment: before the first move, after each move

void put(std::string& out, std::int64_t v) {
  out += std::to_string(v);
  out += ',';
}

// FNV-1a over the text, chained: equal histories give equal hashes. A collision could make
// two different histories look equal, so a conflict found by hashes is checked on the texts.
std::uint64_t mix(std::uint64_t h, const std::string& text) {
  h ^= 0x9E3779B97F4A7C15ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001B3ULL;
  }
  return h;
}

// Watches one game: what each player has seen so far (a hash chain, and for one player the
// whole text), the shuffles as played and the random draws. Shuffles and draws can be given.
class Observer : public ri::EventSink {
 public:
  explicit Observer(const ri::Machine& machine) : machine_(machine) {}

  void observe(const ri::State& state, const std::string& what) {
    if (seen.size() < state.seat_of.size()) seen.resize(state.seat_of.size(), 0);
    // The scores are shown to everyone at the table (`play` prints them at every choice).
    std::string scores;
    if (!machine_.ir().scores.empty()) {
      for (const std::vector<ri::ScoreValue>& score : machine_.scores(state)) {
        for (const ri::ScoreValue& v : score) scores += ri::score_text(v) + ",";
      }
    }
    for (std::size_t p = 0; p < seen.size(); ++p) {
      std::string key = what;
      key += '|';
      key += scores;
      view_key(state, static_cast<ri::PlayerId>(p), key);
      seen[p] = mix(seen[p], key);
      if (static_cast<std::int32_t>(p) == exact_player) exact_text += key + "\n";
    }
  }
  bool shuffle_result(const ri::State& /*state*/, std::int32_t /*zone*/, Shuffle& cards) override {
    const std::size_t k = next_shuffle_++;
    if (forced_shuffles == nullptr || k >= forced_shuffles->size()) return false;
    Shuffle want = (*forced_shuffles)[k], have = cards;
    std::sort(want.begin(), want.end());
    std::sort(have.begin(), have.end());
    if (want != have) return false;  // other cards than in the first game: the generator's order
    cards = (*forced_shuffles)[k];
    return true;
  }
  void shuffled(const ri::State& state, std::int32_t zone) override {
    shuffles.push_back(state.zones[static_cast<std::size_t>(zone)]);
    observe(state, fmt::format("shuffled {}", zone));
  }
  void dealt(const ri::State& state, std::int32_t from, std::int32_t to, const std::vector<ri::CardId>& cards) override {
    observe(state, fmt::format("dealt {} from {} to {}", cards.size(), from, to));
  }
  void chose(const ri::State& state, ri::PlayerId player, std::int32_t rule, const ri::Value& choice,
             bool by_policy) override {
    observe(state, fmt::format("chose {} {} {} {}", player, rule, machine_.value_text(state, choice), by_policy));
  }
  bool draw_result(const ri::State& /*state*/, std::int32_t /*rule*/, const std::vector<ri::Value>& options,
                   std::size_t& index) override {
    if (forced_draws == nullptr) return false;
    const std::size_t k = segment < draws.size() ? draws[segment].size() : 0;
    const std::vector<std::size_t>* script = segment < forced_draws->size() ? &(*forced_draws)[segment] : nullptr;
    index = script != nullptr && k < script->size() && (*script)[k] < options.size() ? (*script)[k] : 0;
    return true;
  }
  void drew(const ri::State& state, std::int32_t rule, const std::vector<ri::Value>& options, std::size_t index) override {
    if (draws.size() <= segment) draws.resize(segment + 1);
    draws[segment].push_back(index);
    observe(state, fmt::format("drew {} {}", rule, machine_.value_text(state, options[index])));
  }
  void moved(const ri::State& state, ri::CardId /*card*/, std::int32_t from, bool /*was_face_up*/) override {
    observe(state, fmt::format("moved from {}", from));
  }
  void flipped(const ri::State& state, ri::CardId /*card*/, bool /*was_face_up*/) override { observe(state, "flipped"); }
  void round_ended(const ri::State& state) override { observe(state, "round ended"); }
  void round_started(const ri::State& state) override { observe(state, "round started"); }
  // A swap of seats raises no event: the views after one are taken at the next instruction.
  [[nodiscard]] bool observes_steps() const override { return true; }
  void stepping(const ri::State& state) override {
    if (after_swap_) observe(state, "seats");
    const auto pc = static_cast<std::size_t>(state.pc);
    after_swap_ = pc < machine_.ir().code.size() && machine_.ir().code[pc].code == ir::OpCode::kSwapSeats;
  }

  // Where the game stands in the shuffles it has played.
  [[nodiscard]] std::size_t shuffles_played() const { return next_shuffle_; }
  void resume(std::size_t shuffles_played) { next_shuffle_ = shuffles_played; }

  std::vector<std::uint64_t> seen;
  std::int32_t exact_player = -1;
  std::string exact_text;
  std::vector<Shuffle> shuffles;
  Draws draws;
  std::size_t segment = 0;
  const std::vector<Shuffle>* forced_shuffles = nullptr;
  const Draws* forced_draws = nullptr;

 private:
  // What a player sees (as the differential check's exploration takes it): each zone's cards
  // it may know, their facing and number, the seats, the round, who decides and by which rule.
  void view_key(const ri::State& state, ri::PlayerId viewer, std::string& key) const {
    const ri::View v = machine_.view(state, viewer);
    for (const ri::ZoneView& z : v.zones) {
      put(key, z.instance);
      put(key, static_cast<std::int64_t>(z.cards.size()));
      for (std::size_t i = 0; i < z.cards.size(); ++i) {
        put(key, z.cards[i] ? *z.cards[i] : -1);
        put(key, i < z.face_up.size() && z.face_up[i] ? 1 : 0);
      }
    }
    for (const std::int32_t seat : v.seat_of) put(key, seat);
    put(key, v.rounds);
    put(key, v.to_move ? *v.to_move : -1);
    put(key, v.rule);
    put(key, v.mixed);
  }
  const ri::Machine& machine_;
  std::size_t next_shuffle_ = 0;
  bool after_swap_ = false;
};

// The options of the pending decision as text, sorted (the order of legal moves is not a
// thing a player sees).
std::string options_text(const ri::Machine& machine, const ri::State& state) {
  std::vector<std::string> texts;
  for (std::size_t m = 0; m < machine.legal_moves(state).size(); ++m) texts.push_back(machine.move_text(state, m));
  std::sort(texts.begin(), texts.end());
  std::string out;
  for (const std::string& t : texts) out += (out.empty() ? "" : ", ") + t;
  return out;
}

struct DecisionPoint {
  ri::State state;                  // before the move
  std::vector<std::uint64_t> seen;  // by player, including this decision's view
  std::size_t shuffles_before = 0;
  std::size_t move = 0;
  std::string move_text;
  std::string options;
};

// The sampled game of `seed`, played by the random agent, every decision kept.
struct Played {
  std::vector<DecisionPoint> decisions;
  std::vector<Shuffle> shuffles;
  Draws draws;
};

Played play_sampled(const ri::Machine& machine, const ri::GameConfig& config, std::size_t max_moves) {
  Played out;
  Observer obs(machine);
  ri::State state = machine.start(config, &obs);
  ri::RandomAgent agent(ri::agent_seed(config.seed));
  while (!state.finished && !state.fault && state.decision && out.decisions.size() < max_moves) {
    obs.observe(state, "decision");
    DecisionPoint d{state, obs.seen, obs.shuffles_played(), 0, {}, options_text(machine, state)};
    d.move = agent.choose(machine.view(state, state.decision->player, agent.detail()));
    d.move_text = machine.move_text(state, d.move);
    out.decisions.push_back(std::move(d));
    obs.segment = out.decisions.size();
    machine.apply(state, out.decisions.back().move, &obs);
  }
  out.shuffles = std::move(obs.shuffles);
  out.draws = std::move(obs.draws);
  return out;
}

struct Twin {
  std::size_t decision = 0;        // where the chooser's options differ
  std::vector<std::size_t> moves;  // the twin's moves up to there
  std::vector<Shuffle> shuffles;
  Draws draws;
  std::string seen;                // with `exact`: the chooser's whole view up to there
  std::string options;
};

// Plays the twin whose shuffles are `shuffles`, from decision `from` of the first game (or
// the start, -1), moving as the first game did (by text) while some player has seen the same
// in both; the first decision at which the chooser has seen the same and its options differ.
// With `exact` >= 0 (a player), from the start, recording that player's view.
std::optional<Twin> play_twin(const ri::Machine& machine, const ri::GameConfig& config, const Played& first,
                              const std::vector<Shuffle>& shuffles, std::int64_t from,
                              std::int32_t exact = -1, std::size_t stop_at = 0) {
  Observer obs(machine);
  obs.forced_shuffles = &shuffles;
  obs.forced_draws = &first.draws;
  obs.exact_player = exact;
  Twin twin;
  ri::State state;
  std::size_t k = 0;
  if (from < 0) {
    state = machine.start(config, &obs);
  } else {
    const DecisionPoint& d = first.decisions[static_cast<std::size_t>(from)];
    state = d.state;
    obs.seen = d.seen;
    obs.resume(d.shuffles_before);
    k = static_cast<std::size_t>(from);
    obs.segment = k + 1;
    machine.apply(state, d.move, &obs);
    ++k;
  }
  for (; k < first.decisions.size() && !state.finished && !state.fault && state.decision; ++k) {
    obs.observe(state, "decision");
    const DecisionPoint& d = first.decisions[k];
    const auto chooser = static_cast<std::size_t>(state.decision->player);
    const std::string options = options_text(machine, state);
    const std::size_t players = std::min(obs.seen.size(), d.seen.size());
    if (chooser < players && obs.seen[chooser] == d.seen[chooser] && options != d.options && (exact < 0 || k == stop_at)) {
      twin.decision = k;
      twin.options = options;
      twin.seen = std::move(obs.exact_text);
      twin.shuffles = std::move(obs.shuffles);
      twin.draws = std::move(obs.draws);
      return twin;
    }
    if (exact >= 0 && k == stop_at) return std::nullopt;
    bool alike = false;
    for (std::size_t p = 0; p < players; ++p) alike = alike || obs.seen[p] == d.seen[p];
    if (!alike) return std::nullopt;
    std::size_t move = machine.legal_moves(state).size();
    for (std::size_t m = 0; m < machine.legal_moves(state).size() && move == machine.legal_moves(state).size(); ++m) {
      if (machine.move_text(state, m) == d.move_text) move = m;
    }
    if (move == machine.legal_moves(state).size()) return std::nullopt;  // the first game's move is not there
    twin.moves.push_back(move);
    obs.segment = k + 1;
    machine.apply(state, move, &obs);
  }
  return std::nullopt;
}

// The first game once more from the start, recording what `player` saw up to decision `k`.
std::string first_seen(const ri::Machine& machine, const ri::GameConfig& config, const Played& first,
                       std::int32_t player, std::size_t k) {
  Observer obs(machine);
  obs.forced_shuffles = &first.shuffles;
  obs.forced_draws = &first.draws;
  obs.exact_player = player;
  ri::State state = machine.start(config, &obs);
  for (std::size_t m = 0; m < k && !state.finished; ++m) {
    obs.observe(state, "decision");
    obs.segment = m + 1;
    machine.apply(state, first.decisions[m].move, &obs);
  }
  obs.observe(state, "decision");
  return obs.exact_text;
}

}  // namespace

std::optional<KnowableConflict> find_knowable_conflict(const Context& ctx, std::int64_t games, double seconds) {
  const auto started = std::chrono::steady_clock::now();
  const auto out_of_time = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() > seconds;
  };
  const ri::Machine& machine = ctx.machine;
  constexpr std::size_t kMaxMoves = 400;  // decisions of a sampled game looked at
  const auto n = std::min<std::int64_t>(games, static_cast<std::int64_t>(ctx.sampling.games.size()));
  for (std::int64_t g = 0; g < n && !out_of_time(); ++g) {
    ri::GameConfig config = ctx.config;
    config.seed = ctx.sampling.games[static_cast<std::size_t>(g)].seed;
    const Played first = play_sampled(machine, config, kMaxMoves);
    if (first.decisions.empty()) continue;
    for (std::size_t s = 0; s < first.shuffles.size() && !out_of_time(); ++s) {
      // The last decision before shuffle s: the twin starts there.
      std::int64_t from = -1;
      while (from + 1 < static_cast<std::int64_t>(first.decisions.size()) &&
             first.decisions[static_cast<std::size_t>(from + 1)].shuffles_before <= s) {
        ++from;
      }
      const std::size_t size = first.shuffles[s].size();
      // The top card, then the bottom one, traded with each other card: who holds which card
      // after a deal from the top, and what a top() or bottom() reads.
      for (std::size_t end = 0; end < 2 && size > 1; ++end) {
        const std::size_t a = end == 0 ? size - 1 : 0;
        for (std::size_t b = 0; b < size && !out_of_time(); ++b) {
          if (b == a || (end == 1 && b == size - 1)) continue;
          std::vector<Shuffle> shuffles = first.shuffles;
          std::swap(shuffles[s][a], shuffles[s][b]);
          const auto twin = play_twin(machine, config, first, shuffles, from);
          if (!twin) continue;
          // Checked on the whole texts, from the start.
          const DecisionPoint& d = first.decisions[twin->decision];
          const std::int32_t chooser = d.state.decision->player;
          const auto exact = play_twin(machine, config, first, shuffles, -1, chooser, twin->decision);
          if (!exact || exact->seen != first_seen(machine, config, first, chooser, twin->decision)) continue;
          std::vector<std::size_t> moves;
          for (std::size_t m = 0; m < twin->decision; ++m) moves.push_back(first.decisions[m].move);
          const ir::Ir& ir = machine.ir();
          const std::int32_t rule = d.state.decision->rule;
          const std::string where =
              rule >= 0 ? fmt::format("'{}' ({})", ir.labels[static_cast<std::size_t>(rule)],
                                      machine.where(ir.label_spans[static_cast<std::size_t>(rule)]))
                        : std::string("a choice");
          const std::string seat = fmt::format("seat {}", d.state.seat_of[static_cast<std::size_t>(chooser)]);
          KnowableConflict c;
          c.message = fmt::format("{} at {} has seen the same in two games (the second trades two cards of shuffle {} "
                                  "of the first) and has the options [{}] in one and [{}] in the other",
                                  seat, where, s + 1, d.options, exact->options);
          c.game = replay_moves(machine, config, moves, first.draws, first.shuffles, ctx.layout, ctx.classes,
                                fmt::format("{} has the options [{}]", seat, d.options));
          c.twin = replay_moves(machine, config, exact->moves, exact->draws, exact->shuffles, ctx.layout, ctx.classes,
                                fmt::format("{} has seen the same and has the options [{}]", seat, exact->options));
          return c;
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace rulebook::verifier
