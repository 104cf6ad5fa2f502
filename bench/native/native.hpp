// Hand-written C++ implementations of the two shipped games, with no rules language: the
// baseline the interpreter's speed is measured against (bench/), and a second, independent
// reading of the rulebooks that the differential test (tests/native/) compares with the
// rule files move by move. Not part of the product's library.
//
// A game runs from start to end in one call and asks a Driver for everything it does not
// decide itself: the result of each shuffle, and each human decision. The random driver
// shuffles and chooses as the interpreter's simulations do (the same generator, seeded the
// same way); the differential test's driver takes both from an interpreter log.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rulebook/interpreter/rng.hpp"

namespace rulebook::native {

// How the options of a decision are written in a log (docs/log-format.md).
enum class OptionKind : std::uint8_t {
  kCard,       // a card id: its name
  kPlayer,     // a player identity: its number
  kEnum,       // an ordinal: `enum_names[ordinal]`
  kBool,       // 0 or 1: false or true
  kPlayerSet,  // a bit mask of player identities: an array of numbers
};

// One decision: `player` picks one of `options` in the rule labelled `rule`.
struct Choice {
  std::int32_t player = 0;
  std::string_view rule;
  OptionKind kind = OptionKind::kCard;
  const std::vector<std::int32_t>* options = nullptr;
  const std::vector<std::string>* names = nullptr;  // card names (kCard) or enum names (kEnum)
};

// An option as a log writes it: "note3", 2, "pass", true, [1,3].
std::string option_json(const Choice& choice, std::int32_t option);

class Driver {
 public:
  virtual ~Driver() = default;
  // Puts `cards` (the zone's cards, bottom to top) in their order after the shuffle.
  virtual void shuffle(std::string_view zone, std::vector<std::int32_t>& cards) = 0;
  // The index of the chosen option (`choice.options` is never empty).
  virtual std::size_t choose(const Choice& choice) = 0;
  // An automated seat's decision, made by the game's own policy (only reported).
  virtual void policy(const Choice& /*choice*/, std::size_t /*index*/) {}
};

// What a finished game reports.
struct Result {
  std::vector<std::int32_t> winners;               // player identities, ascending
  std::vector<std::vector<std::int64_t>> scores;   // by declared score, then by player
  std::int64_t rounds = 0;
  std::int64_t moves = 0;                          // decisions, an automated seat's included
};

// Shuffles with the game's generator and chooses uniformly with the agent's: the same
// algorithm, seeds and agent as `rulebook simulate` (rng.hpp, simulate.hpp).
class RandomDriver final : public Driver {
 public:
  explicit RandomDriver(std::uint64_t game_seed);
  void shuffle(std::string_view zone, std::vector<std::int32_t>& cards) override;
  std::size_t choose(const Choice& choice) override;

 private:
  interpreter::Rng game_;
  interpreter::Rng agent_;
};

// The names of the cards by id, as logs write them.
std::vector<std::string> clusterfk_cards(std::int32_t notes = 40);
std::vector<std::string> molestation_cards();

// Clusterf**k! with the default options (40 notes, no optional rules), 4 to 8 players.
Result play_clusterfk(std::int32_t players, Driver& driver, std::int32_t notes = 40);

// Molestation Game v3.0, 2 to 4 players (four seats; the others are air dummies).
Result play_molestation(std::int32_t players, Driver& driver);

}  // namespace rulebook::native
