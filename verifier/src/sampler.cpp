#include "sampler.hpp"

#include <unordered_set>

namespace rulebook::verifier {

namespace {

class KindSink : public ri::EventSink {
 public:
  explicit KindSink(SlotKinds& kinds) : kinds_(kinds) {}
  [[nodiscard]] bool observes_steps() const override { return true; }
  void stepping(const ri::State& state) override { observe_kinds(state, kinds_); }

 private:
  SlotKinds& kinds_;
};

std::uint64_t hash_point(const std::vector<std::int64_t>& point) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const std::int64_t v : point) {
    h ^= static_cast<std::uint64_t>(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 1099511628211ULL;
  }
  return h;
}

class SampleSink : public ri::EventSink {
 public:
  SampleSink(const ri::Machine& machine, const Layout& layout, const CardClasses& classes, Invariants& invariants,
             Sampling& out)
      : machine_(machine), layout_(layout), classes_(classes), invariants_(invariants), out_(out),
        seen_(machine.ir().code.size()) {}
  void start_game(std::uint64_t seed) { seed_ = seed; }
  [[nodiscard]] bool observes_steps() const override { return true; }
  void stepping(const ri::State& state) override {
    const ri::Ir& ir = machine_.ir();
    ++out_.states;
    if (!invariants_.is_cut(state.pc)) return;  // decisions are cut points
    const std::vector<std::int64_t> point = project(ir, layout_, classes_, state);
    if (out_.states == 1) invariants_.set_initial(state.pc, point);
    if (seen_[static_cast<std::size_t>(state.pc)].insert(hash_point(point)).second) {
      invariants_.at(state.pc).add(point);
    }
    if (ir.code[static_cast<std::size_t>(state.pc)].code == ri::OpCode::kChoose) check_invariants(state, false);
  }
  void ended(const ri::State& state) override {
    if (!state.fault) check_invariants(state, true);
  }

 private:
  void check_invariants(const ri::State& state, bool at_end) {
    const ri::Ir& ir = machine_.ir();
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

SlotKinds observe_slot_kinds(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t games,
                             std::int64_t max_moves) {
  SlotKinds kinds;
  KindSink sink(kinds);
  for (std::int64_t g = 0; g < games; ++g) {
    ri::GameConfig game = config;
    game.seed = ri::game_seed(config.seed, static_cast<std::uint64_t>(g));
    (void)ri::play_random_game(machine, game, max_moves, &sink);
  }
  return kinds;
}

Sampling sample(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t games, std::int64_t max_moves,
                const Layout& layout, const CardClasses& classes, Invariants& invariants) {
  Sampling out;
  out.broken.resize(machine.ir().invariants.size());
  SampleSink sink(machine, layout, classes, invariants, out);
  for (std::int64_t g = 0; g < games; ++g) {
    ri::GameConfig game = config;
    game.seed = ri::game_seed(config.seed, static_cast<std::uint64_t>(g));
    sink.start_game(game.seed);
    out.games.push_back(ri::play_random_game(machine, game, max_moves, &sink));
  }
  return out;
}

}  // namespace rulebook::verifier
