// Agents decide from a player's view, never from the full state.
#pragma once

#include <cstddef>

#include "rulebook/interpreter/machine.hpp"
#include "rulebook/interpreter/rng.hpp"

namespace rulebook::interpreter {

class Agent {
 public:
  virtual ~Agent() = default;
  // The index of the chosen move in `view.legal` (which is not empty).
  virtual std::size_t choose(const View& view) = 0;
  // How much of its view the agent looks at.
  [[nodiscard]] virtual ViewDetail detail() const { return ViewDetail::kFull; }
};

// Picks uniformly among the legal moves, with its own seeded generator.
class RandomAgent : public Agent {
 public:
  explicit RandomAgent(std::uint64_t seed) : rng_(seed) {}
  std::size_t choose(const View& view) override {
    return static_cast<std::size_t>(rng_.below(view.legal.size()));
  }
  [[nodiscard]] ViewDetail detail() const override { return ViewDetail::kDecisionOnly; }

 private:
  Rng rng_;
};

}  // namespace rulebook::interpreter
