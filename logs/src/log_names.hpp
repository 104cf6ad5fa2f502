// The names a game log uses: seats (by name or number), zones (`hand(Ann)`, `hand(0)`),
// cards, rule labels, enum values; and game values written back in log notation. A name the
// game does not have is a LogError (bad input) at the line and key given.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "log_reader.hpp"
#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter::detail {

// Maps by name that can be searched with a string_view from the log (no allocation per line).
struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <class T>
using NameMap = std::unordered_map<std::string, T, NameHash, std::equal_to<>>;

class LogNames {
 public:
  LogNames() = default;
  // `names`: one per seat, one per human player (the first seats), or empty when the log
  // names no seats.
  LogNames(const Machine& machine, std::int32_t seats, std::vector<std::string> names);

  // Log values to game values. `key` is the part of the line a message points at.
  [[nodiscard]] PlayerId player(const LogLine& line, LogValue j, std::string_view key) const;
  [[nodiscard]] std::int32_t zone(const LogLine& line, LogValue j, std::string_view key) const;
  [[nodiscard]] std::int32_t rule(const LogLine& line, LogValue j) const;
  [[nodiscard]] std::int64_t enum_value(const LogLine& line, LogValue j, std::int32_t enum_id) const;
  [[nodiscard]] CardId card(const State& state, const LogLine& line, LogValue j, std::string_view key);
  // " (did you mean 'X'?)" for a card name the game does not have, or "" (the hint card() gives).
  [[nodiscard]] std::string card_hint(const State& state, std::string_view written);
  // A zone by its log name (`hand(Ann)` or `hand(0)`), or -1.
  [[nodiscard]] std::int32_t zone_named(std::string_view name) const;
  // A list of distinct cards.
  [[nodiscard]] std::vector<CardId> cards(const State& state, const LogLine& line, LogValue j, std::string_view key);

  // Game values in log notation, seats by name: `7H`, `Ann`, `[Ann,Bob]`, `hand(Ann)`.
  [[nodiscard]] std::string notation(const State& state, const Value& v) const;
  [[nodiscard]] std::string zone_text(std::int32_t instance) const;
  [[nodiscard]] std::string cards_text(const State& state, const std::vector<CardId>& cards) const;
  // A player in messages: its name, or `player 2` when the log names no seats.
  [[nodiscard]] std::string who(PlayerId p) const;

 private:
  const Machine* machine_ = nullptr;
  std::int32_t seats_ = 0;
  std::vector<std::string> names_;  // by player identity: the name, or the number
  bool named_ = false;
  std::size_t named_count_ = 0;  // the seats the log names: all, the human ones, or none
  NameMap<PlayerId> player_by_name_;
  NameMap<std::int32_t> zone_by_name_;
  NameMap<std::int32_t> label_by_name_;
  NameMap<CardId> card_by_name_;  // filled at the first card: the cards exist once a game starts
};

}  // namespace rulebook::interpreter::detail
