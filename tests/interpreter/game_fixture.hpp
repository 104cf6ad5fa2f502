// Building a machine from rule text and looking into its state by name, for interpreter tests.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rulebook/interpreter/machine.hpp"

namespace rulebook::test {

// A machine for `text` (a whole game file); fails the test on any diagnostic error.
std::shared_ptr<interpreter::Machine> machine_for(const std::string& text);
// A machine for a shipped ruleset (path relative to the source folder).
std::shared_ptr<interpreter::Machine> machine_for_file(const std::string& relative);

// A running game with convenient accessors.
struct Game {
  std::shared_ptr<interpreter::Machine> machine;
  interpreter::State state;

  // The value of a variable as text (`points(2)` for a per-player one).
  [[nodiscard]] std::string var(const std::string& name, int player = -1) const;
  [[nodiscard]] std::int64_t int_var(const std::string& name, int player = -1) const;
  // The cards of a zone by name (`hand`, player 1): a pile bottom to top, a set in card order.
  [[nodiscard]] std::vector<std::string> zone(const std::string& name, int player = -1) const;
  [[nodiscard]] std::string zone_text(const std::string& name, int player = -1) const;
  // Legal moves of the pending decision, as text.
  [[nodiscard]] std::vector<std::string> legal() const;
  // Applies the legal move whose text is `choice`; fails the test if there is none.
  void choose(const std::string& choice);
  [[nodiscard]] std::string fault_rule() const;
  // After editing cards by hand: the pending decision is computed again.
  void refresh() { machine->refresh(state); }
};

Game start_game(const std::string& text, std::int64_t players = 0, std::uint64_t seed = 1,
                std::map<std::string, std::string> options = {});

// Runs `setup { <setup> set probe := <expression> }` in a small test game and returns the
// value of `probe` as text; `type` is the probe's declared type.
std::string eval_text(const std::string& type, const std::string& expression, const std::string& setup = "");

// Moves every card named in `names` to the top of zone `zone` (to set up a scenario's state):
// cards are taken from wherever they are, in the order given (the last ends on top). A name
// ending in `*` is put face down, any other face up.
void stack(Game& game, const std::string& zone, int player, const std::vector<std::string>& names);

// Moves every card of a zone to the top of another (to clear it for a scenario).
void empty_into(Game& game, const std::string& zone, int player, const std::string& target);

// Takes the first legal move until `done` holds or the game is over (at most 100000 moves).
// A rule fault fails the test unless `allow_fault`.
void play_first_moves_until(Game& game, const std::function<bool(const Game&)>& done, bool allow_fault = false);

}  // namespace rulebook::test
