// Bounded explicit-state search for concrete counterexamples: every decision of the game is
// tried, breadth-first from the start, with states deduplicated, so that a fault, a broken
// invariant, a rule that fires or a seat that wins behind a rare sequence of choices (one a
// random agent picks once in a million games) is found with the shortest sequence of moves.
// The search sees one seed: shuffles come from the generator inside ri::State, so a copied
// state continues with the same cards, and exhausting the search covers every sequence of
// decisions, not every shuffle. Random choices (`choose ... at random`) after a decision are
// tried with every option, each combination a successor; those of the setup, before the
// first decision, come from the seed.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "layout.hpp"
#include "rulebook/interpreter/machine.hpp"

namespace rulebook::verifier {

// Whether the rules have a random choice (a `Choose` with no chooser).
inline bool has_random_choice(const ir::Ir& ir) {
  for (const ir::Instr& in : ir.code) {
    if (in.code == ir::OpCode::kChoose && in.c < 0) return true;
  }
  return false;
}

// Successors of one move tried at most, over the combinations of its draws.
inline constexpr std::size_t kMaxDrawRunsPerMove = 4096;

// The random choices of a move drawn as listed (the search tries every option of each, and a
// counterexample replays them); draws past the list take option 0. Records what each draw took
// and among how many options.
class DrawScript : public ri::EventSink {
 public:
  void reset(const std::vector<std::size_t>* script) {
    script_ = script;
    taken.clear();
    among.clear();
  }
  // A move may draw at most kMaxDraws times: a loop that ends only when a draw says so would
  // otherwise run on (draw 0 each time past the script) until the interpreter's own limit,
  // thousands of times over the odometer. Past it the machine stops (verdict) mid-move and
  // the search drops the run as not tried.
  static constexpr std::size_t kMaxDraws = 256;
  [[nodiscard]] bool overflowed() const { return taken.size() > kMaxDraws; }
  [[nodiscard]] ri::SinkVerdict verdict() const override {
    return overflowed() ? ri::SinkVerdict::kStop : ri::SinkVerdict::kContinue;
  }
  bool draw_result(const ri::State& /*state*/, std::int32_t /*rule*/, const std::vector<ri::Value>& options,
                   std::size_t& index) override {
    const std::size_t k = taken.size();
    index = script_ != nullptr && k < script_->size() && (*script_)[k] < options.size() ? (*script_)[k] : 0;
    taken.push_back(index);
    among.push_back(options.size());
    return true;
  }
  std::vector<std::size_t> taken, among;

 private:
  const std::vector<std::size_t>* script_ = nullptr;
};

// What to look for; any combination.
struct SearchGoal {
  bool faults = true;                  // a state where the rules fault (State::fault set)
  std::vector<ir::ExprId> invariants;  // declared invariants (ir.invariants[i].condition):
                                       // false at a decision or at the end
  std::vector<std::int32_t> labels;    // labelled rules to see fire (State::fired[label] > 0)
  std::vector<ri::PlayerId> winners;   // seats to see win (State::winners)
  bool lassos = true;                  // a cycle of decisions the game can repeat forever
};

struct SearchHit {
  enum class What { kFault, kInvariant, kFired, kWon, kLasso } what;
  // kFault: the label of the faulting rule (-1 outside any); kInvariant: the position in
  // SearchGoal::invariants; kFired: the label; kWon: the player; kLasso: the position in
  // `moves` where the cycle starts (moves from there on lead back to the same state).
  std::int32_t index = -1;
  std::vector<std::size_t> moves;  // indexes into the legal moves, from the start
  // Per move, the options its random choices (`choose ... at random`) drew, in order; empty
  // when the rules have none (then every draw comes from the seed's generator).
  std::vector<std::vector<std::size_t>> draws;
};

struct SearchResult {
  std::vector<SearchHit> hits;  // in the order they were found (shortest first), a lasso last
  std::int64_t states = 0;      // distinct states visited
  bool exhausted = false;       // every reachable state within the depth was visited (not
                                // set when the search stopped early, every item found);
                                // then a missing hit does not exist, for this seed's shuffles
  bool cut = false;             // stopped by the state or time budget, or draws_cut
  bool draws_cut = false;       // some move's draws were not all tried (too many draws in
                                // one move, or too many combinations of them)
  bool depth_limited = false;   // some state at max_depth still had moves: exhaustion is
                                // within the depth only
};

// How states are told apart.
enum class SearchSymmetry {
  // Every card by its identity: exact, and what an exhausted search promises.
  kExact,
  // Cards of equal rank, suit, color and kind (20 chips) are one: a state keeps which kind
  // of card lies at each position and refers to cards by position, so hands that differ only
  // in which chip is where are one state. Hits are real games either way (their moves are
  // played, not derived); but where rules visit a set of alike cards in identity order and
  // the order shows later (face-up ones first), states told alike are not quite alike, so
  // exhaustion is not a proof.
  kAlikeCards,
};

// Breadth-first over decisions from `machine.start(config)`, up to `max_states` distinct
// states, `max_seconds` and `max_depth` moves. Reports the first (shortest) hit for each
// goal item: each faulting place, each invariant, label and winner, and one lasso (the one
// reached soonest, with its shortest cycle), looked for in the explored graph when the
// search stops. `searched` is called every 4,096 states expanded, with the states found.
SearchResult search_states(const ri::Machine& machine, const ri::GameConfig& config, const SearchGoal& goal,
                           std::int64_t max_states, double max_seconds, std::int64_t max_depth,
                           SearchSymmetry symmetry = SearchSymmetry::kExact,
                           const std::function<void(std::int64_t)>& searched = {});

// What search_states compares: the state as words, without the counters that only count
// (rounds, moves, steps: no expression of the IR reads them) and with `reached` reduced to
// "has fired" for the goal's labels. Two states with equal words have the same future.
// Without the `generator`, the same future for the same outcomes of shuffles and draws.
void state_words(const ri::State& state, const SearchGoal& goal, SearchSymmetry symmetry,
                 std::vector<std::uint64_t>& words, bool generator = true);

}  // namespace rulebook::verifier
