// The verifier's event sinks that stop the interpreter: the oracle's stop at the next cut
// point, and the sampler's watch over games that run too long. Both steer the machine by
// their verdict (EventSink::verdict), never by an exception through the executor: the
// machine stops before the instruction the sink saw, leaves the state as the sink saw it,
// and the caller asks the sink why it stopped after apply(), refresh() or start() returned.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "rulebook/interpreter/machine.hpp"

namespace rulebook::verifier {

// Stops the run at the first cut point after the start (skipping the first `skip` steps:
// a run that starts at a cut point passes it first).
class CutSink : public interpreter::EventSink {
 public:
  explicit CutSink(const std::vector<bool>& cuts) : cuts_(cuts) {}
  void restart(std::int32_t skip) {
    skip_ = skip;
    reached_ = false;
  }
  [[nodiscard]] bool reached() const { return reached_; }
  [[nodiscard]] bool observes_steps() const override { return true; }
  void stepping(const interpreter::State& state) override {
    if (skip_-- > 0) return;
    if (cuts_[static_cast<std::size_t>(state.pc)]) reached_ = true;
  }
  [[nodiscard]] interpreter::SinkVerdict verdict() const override {
    return reached_ ? interpreter::SinkVerdict::kStop : interpreter::SinkVerdict::kContinue;
  }
  // The next random choice draws option `index` (the oracle tries several options of one
  // draw); how many options the last draw had.
  void force_draw(std::size_t index) { forced_ = index; }
  [[nodiscard]] std::size_t drawn_among() const { return drawn_among_; }
  bool draw_result(const interpreter::State& /*state*/, std::int32_t /*rule*/, const std::vector<interpreter::Value>& options,
                   std::size_t& index) override {
    drawn_among_ = options.size();
    if (forced_ >= options.size()) return false;
    index = forced_;
    forced_ = SIZE_MAX;
    return true;
  }

 private:
  const std::vector<bool>& cuts_;
  std::size_t forced_ = SIZE_MAX;
  std::size_t drawn_among_ = 0;
  std::int32_t skip_ = 0;
  bool reached_ = false;
};

// Counts the instructions since the last decision, and those of the whole game, and stops
// the game when it runs `without_decision` instructions without a decision, `per_game` in
// all, or is under way when the budget (`stop_at`) is spent. Why it stopped is kept for the
// caller.
class LoopWatch : public interpreter::EventSink {
 public:
  enum class Stop : std::uint8_t {
    kNone,
    kNoDecision,  // too long without a decision
    kTooLong,     // too long in all
    kBudget,      // under way when the budget was spent
  };
  LoopWatch(std::int64_t without_decision, std::int64_t per_game) : without_decision_(without_decision), per_game_(per_game) {}
  [[nodiscard]] bool observes_steps() const override { return true; }
  void stepping(const interpreter::State& state) override {
    if (++steps_ > without_decision_) {
      halt(Stop::kNoDecision, state);
    } else if (++total_ > per_game_) {
      halt(Stop::kTooLong, state);
    } else if ((total_ & 0xFFFF) == 0 && std::chrono::steady_clock::now() >= stop_at_) {
      // The clock is read every 65,536 instructions only: a step costs less than reading it.
      halt(Stop::kBudget, state);
    }
  }
  [[nodiscard]] interpreter::SinkVerdict verdict() const override {
    return stop_ == Stop::kNone ? interpreter::SinkVerdict::kContinue : interpreter::SinkVerdict::kStop;
  }
  // A policy's choice is no decision: the interpreter runs on and keeps counting.
  void chose(const interpreter::State& /*state*/, interpreter::PlayerId /*player*/, std::int32_t /*rule*/,
             const ir::Value& /*choice*/, bool by_policy) override {
    if (!by_policy) steps_ = 0;
  }
  // A new game; `stop_at` ends it at its last decision (none for the first game).
  void reset(std::chrono::steady_clock::time_point stop_at = std::chrono::steady_clock::time_point::max()) {
    steps_ = 0;
    total_ = 0;
    stop_at_ = stop_at;
    stop_ = Stop::kNone;
    stopped_moves_ = 0;
  }
  [[nodiscard]] Stop stop() const { return stop_; }
  // The decisions made before the stop: a long game is kept up to its last decision.
  [[nodiscard]] std::int64_t stopped_moves() const { return stopped_moves_; }

 private:
  void halt(Stop why, const interpreter::State& state) {
    stop_ = why;
    stopped_moves_ = state.moves;
  }
  std::int64_t without_decision_;
  std::int64_t per_game_;
  std::int64_t steps_ = 0;
  std::int64_t total_ = 0;
  std::chrono::steady_clock::time_point stop_at_ = std::chrono::steady_clock::time_point::max();
  Stop stop_ = Stop::kNone;
  std::int64_t stopped_moves_ = 0;
};

}  // namespace rulebook::verifier
