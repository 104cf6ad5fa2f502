// The rule-file generator's state, shared by its two halves: generate.cpp draws the
// declarations and statements, generate_expr.cpp the typed expressions. A fixed frame
// (players, cards, zones, a round counter that ends the game after a few rounds in most files)
// holds random declarations, statements and expressions. Expressions are built from what is in
// scope with their types, so that nearly every draft passes `check`; compound ones are
// parenthesised, so precedence never matters. Defects come from the draws themselves: a deal
// from a pile that may be empty, a division by a value that may be 0, a choice whose filter may
// leave nothing, a loop that may not end.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "rulebook/differential/generate.hpp"

namespace rulebook::differential::detail {

enum class Type { kInt, kBool, kPlayer, kCard };

struct Local {
  std::string name;
  Type type;
};

struct Zone {
  std::string name;
  bool per_player = false;
  bool pile = true;
};

class Generator {
 public:
  Generator(std::uint64_t seed, const GeneratorLimits& limits) : rng_(seed), limits_(limits) {}

  std::string file();

 private:
  std::mt19937_64 rng_;
  GeneratorLimits limits_;
  std::int32_t players_ = 1, seats_ = 1;
  std::string cards_text_;
  std::vector<std::string> kinds_;
  std::vector<Zone> zones_;
  std::vector<Local> scope_;
  std::vector<Local> policy_rules_;  // labelled choices (type of their domain) a policy may name
  bool has_option_ = false;           // option o: int
  bool has_bool_option_ = false;      // option ob: bool
  bool has_enum_ = false;             // enum mood { calm, angry } and var m: mood
  bool has_group_ = false;            // var grp: set of player
  bool has_def_ = false;              // def big(x: int): bool
  std::int32_t labels_ = 0, names_ = 0, phases_ = 0;

  // Uniform in 0..n-1 (by the remainder: the same on every standard library).
  std::int32_t below(std::int32_t n) { return static_cast<std::int32_t>(rng_() % static_cast<std::uint64_t>(n)); }
  bool chance(std::int32_t one_in) { return below(one_in) == 0; }
  std::string pick(std::initializer_list<const char*> options) {
    return *(options.begin() + below(static_cast<std::int32_t>(options.size())));
  }
  std::string pick_of(const std::vector<std::string>& options) {
    return options[static_cast<std::size_t>(below(static_cast<std::int32_t>(options.size())))];
  }
  std::string label() { return "r" + std::to_string(++labels_); }
  std::string fresh() { return "x" + std::to_string(++names_); }

  // generate_expr.cpp
  std::string player_expr(std::int32_t depth);
  std::string zone_expr(bool pile_only, std::int32_t depth);
  std::string card_expr(std::int32_t depth);
  std::string card_condition(const std::string& c, std::int32_t depth);
  std::string int_expr(std::int32_t depth);
  std::string bool_expr(std::int32_t depth);
  std::string comparison(std::int32_t depth);

  // generate.cpp
  void declare_cards();
  void declare_zones();
  std::string declarations();
  std::string indent(std::int32_t level) const { return std::string(static_cast<std::size_t>(2 * level), ' '); }
  std::string block(std::int32_t level, std::int32_t statements);
  std::string labelled(std::string text);
  std::string statement(std::int32_t level);
  std::string simple_statement(std::int32_t level);
  std::string compound_statement(std::int32_t level);
  std::string choice(std::int32_t level);
  std::string move_statement();
  std::string end_game();
  std::string setup();
  std::string round();
};

}  // namespace rulebook::differential::detail
