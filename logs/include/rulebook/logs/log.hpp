// Game logs: versioned JSON Lines (see docs/log-format.md). A LogWriter listens to a game
// and collects its lines; the caller writes them out (atomically).
#pragma once

#include <cstdint>
#include <string>

#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter {

inline constexpr int kLogVersion = 1;

// How much log one stretch of play with no decision may write: a round that loops with no
// decision would otherwise log millions of rounds (226 MB) before the rules fault. Past it
// the log is cut: one `{"cut": ...}` line, then nothing but the last line (the end or the
// fault, which counts the events left out). A game writes a few kilobytes between two
// decisions (a whole deal is one line), so no game that ends comes near it.
inline constexpr std::size_t kMaxLogBytesWithoutDecision = std::size_t{1} << 20;

class LogWriter : public EventSink {
 public:
  // The header line is written with the first event, from the state it sees.
  LogWriter(const Machine& machine, GameConfig config) : machine_(machine), config_(std::move(config)) {}

  void shuffled(const State& state, std::int32_t zone_instance) override;
  void dealt(const State& state, std::int32_t from, std::int32_t to, const std::vector<CardId>& cards) override;
  void chose(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) override;
  void drew(const State& state, std::int32_t rule, const std::vector<Value>& options, std::size_t index) override;
  void round_started(const State& state) override;
  void ended(const State& state) override;
  void stopped(const State& state, std::int64_t max_moves) override;

  [[nodiscard]] const std::string& text() const { return text_; }

 private:
  void begin_line(const State& state);  // writes the header before the first event
  // False when the event is left out: the log is cut, or is cut here.
  bool recording(const State& state);
  void line(const State& state, const std::string& json);
  void header(const State& state);
  const Machine& machine_;
  GameConfig config_;
  std::string text_;
  std::size_t decision_end_ = 0;  // where the text stood after the last decision's line
  bool cut_ = false;
  std::int64_t unrecorded_ = 0;   // events left out after the cut
};

// A choice as it appears in a log: a card "7H", a player as its number, an enum value by
// name, a bool, an int, a set as an array. Returned as JSON text.
std::string choice_json(const Machine& machine, const State& state, const Value& choice);

// Where a fault is, as a `fault` line's "at" gives it: FILE:LINE (the file's name without its
// folder), or "?".
std::string fault_place(const Machine& machine, const Fault& fault);

}  // namespace rulebook::interpreter
