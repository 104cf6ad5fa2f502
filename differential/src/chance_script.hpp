// The chance events of one move in exhaustive play (explore.cpp): every draw and shuffle order
// played as a script says, with the instructions the move runs and its length.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "rulebook/differential/explore.hpp"
#include "rulebook/interpreter/machine.hpp"

namespace rulebook::differential::detail {

// Plays the chance events of one move as a script says (past its end: the first option),
// and stops a move that runs too long or draws too often.
class ChanceScript : public interpreter::EventSink {
 public:
  ChanceScript(const ExploreLimits& limits, bool step_limit) : limits_(limits), step_limit_(step_limit) {}
  void reset(const std::vector<std::size_t>* script) {
    script_ = script;
    taken.clear();
    among.clear();
    drawn.clear();
    steps_ = 0;
    long_ = overflow_ = big_shuffle = false;
    lo_pc = INT32_MAX;
    hi_pc = -1;
  }
  // Every instruction, for the range of those a move runs (which loops a cycle goes round).
  [[nodiscard]] bool observes_steps() const override { return true; }
  void stepping(const interpreter::State& state) override {
    lo_pc = std::min(lo_pc, state.pc);
    hi_pc = std::max(hi_pc, state.pc);
    if (step_limit_ && ++steps_ > limits_.steps_without_decision) long_ = true;
  }
  [[nodiscard]] interpreter::SinkVerdict verdict() const override {
    return long_ || overflow_ ? interpreter::SinkVerdict::kStop : interpreter::SinkVerdict::kContinue;
  }
  bool draw_result(const interpreter::State& /*state*/, std::int32_t /*rule*/, const std::vector<interpreter::Value>& options,
                   std::size_t& index) override {
    index = next(options.size());
    drawn.push_back(index);
    return true;
  }
  bool shuffle_result(const interpreter::State& /*state*/, std::int32_t /*zone*/, std::vector<interpreter::CardId>& cards) override {
    std::sort(cards.begin(), cards.end());
    if (static_cast<std::int64_t>(cards.size()) > limits_.max_shuffled_cards) {
      big_shuffle = true;
      (void)next(1);
      return true;
    }
    std::size_t orders = 1;
    for (std::size_t k = 2; k <= cards.size(); ++k) orders *= k;
    std::size_t index = next(orders);
    // The index-th order in lexicographic order (factorial number system).
    std::vector<interpreter::CardId> left = cards;
    for (std::size_t i = 0; i < cards.size(); ++i) {
      orders /= (cards.size() - i);
      const std::size_t pick = index / orders;
      index %= orders;
      cards[i] = left[pick];
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(pick));
    }
    return true;
  }
  [[nodiscard]] bool ran_long() const { return long_; }
  [[nodiscard]] bool overflowed() const { return overflow_; }
  std::vector<std::size_t> taken, among;
  std::vector<std::size_t> drawn;  // the draws alone (everyone sees them; a shuffle's order nobody does)
  bool big_shuffle = false;
  std::int32_t lo_pc = INT32_MAX, hi_pc = -1;  // the instructions the move ran (none: hi_pc < 0)

 private:
  std::size_t next(std::size_t options) {
    const std::size_t k = taken.size();
    const std::size_t index = script_ != nullptr && k < script_->size() && (*script_)[k] < options ? (*script_)[k] : 0;
    taken.push_back(index);
    among.push_back(options);
    if (static_cast<std::int64_t>(taken.size()) > limits_.max_chance_events) overflow_ = true;
    return index;
  }
  const ExploreLimits& limits_;
  bool step_limit_ = true;
  const std::vector<std::size_t>* script_ = nullptr;
  std::int64_t steps_ = 0;
  bool long_ = false, overflow_ = false;
};

}  // namespace rulebook::differential::detail
