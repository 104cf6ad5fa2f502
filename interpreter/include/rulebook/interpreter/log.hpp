// Game logs: versioned JSON Lines (see docs/log-format.md). A LogWriter listens to a game
// and collects its lines; the caller writes them out (atomically).
#pragma once

#include <cstdint>
#include <string>

#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter {

inline constexpr int kLogVersion = 1;

class LogWriter : public EventSink {
 public:
  // The header line is written with the first event, from the state it sees.
  LogWriter(const Machine& machine, GameConfig config) : machine_(machine), config_(std::move(config)) {}

  void shuffled(const State& state, std::int32_t zone_instance) override;
  void dealt(const State& state, std::int32_t from, std::int32_t to, const std::vector<CardId>& cards) override;
  void chose(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) override;
  void round_started(const State& state) override;
  void ended(const State& state) override;
  void stopped(const State& state, std::int64_t max_moves) override;

  [[nodiscard]] const std::string& text() const { return text_; }

 private:
  void begin_line(const State& state);  // writes the header before the first event
  void line(const State& state, const std::string& json);
  void header(const State& state);
  const Machine& machine_;
  GameConfig config_;
  std::string text_;
};

// A choice as it appears in a log: a card "7H", a player as its number, an enum value by
// name, a bool, an int, a set as an array. Returned as JSON text.
std::string choice_json(const Machine& machine, const State& state, const Value& choice);

}  // namespace rulebook::interpreter
