// The verifier's abstract state: what it keeps of a game as a vector of integers. Cards are
// counted per zone instance and card class (cards that no fixed card predicate of the rules
// tells apart); scalar variables, seats and the locals of the rules' control flow are kept as
// they are; card identities, pile order, facing and sets held in variables are not kept.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "rulebook/ir/ir.hpp"
#include "rulebook/interpreter/state.hpp"

namespace rulebook::verifier {

namespace ri = rulebook::interpreter;

// What a fixed configuration (player count and options) makes constant.
struct Setting {
  std::int32_t players = 0;
  std::int32_t seats = 0;
  std::vector<ir::Value> options;
  std::vector<ir::CardInfo> cards;
};

struct CardClasses {
  std::vector<std::int32_t> class_of;        // by card id
  std::vector<std::int64_t> size;            // by class
  std::vector<ri::CardId> representative;    // by class: its first card
  std::vector<std::string> predicates;       // the predicates that split the deck (source text)
  // The same predicates as expressions over a card slot, and their value for each class:
  // a predicate that defines the classes has one value on every card of a class, even
  // where the attributes it reads (a rank) differ within the class.
  std::vector<std::pair<ir::ExprId, ir::Slot>> predicate_exprs;
  std::vector<std::vector<bool>> signature;  // by class, then by predicate
  std::vector<std::int32_t> predicate_at;    // by expression id: index into predicate_exprs, or -1
  [[nodiscard]] std::int32_t count() const { return static_cast<std::int32_t>(size.size()); }
};
CardClasses card_classes(const ir::Ir& ir, const Setting& setting);

// How a local slot is kept.
enum class SlotShape : std::uint8_t {
  kUntracked,   // not kept: reading it gives any value
  kScalar,      // int, bool, player or enum: one integer
  kCard,        // a card: its zone instance and class (-1, -1 for none)
  kPlayerList,  // a for-each list of players: one 0/1 per player still to visit, and the seat
                // the walk started at (the walk goes round the table from there)
  kCountList,   // any other for-each list: how many elements are still to visit
};

// A value defined by the other dimensions, kept as an extra dimension so that the ranges of
// an invariant can speak of it:
// - read through a player-valued variable: the number of cards of a per-player zone, or a
//   per-player variable, at that player (`count(hand(turn))`, `automated(p)`); 0 when the
//   player is none;
// - the number of cards of one zone instance over all card classes (where there is more than
//   one class): `count(pile(p)) <= 1` and "`top(pile(p))` has a card" are ranges of it, which
//   no range of the classes' counts apart can state;
// - whether two player-valued locals that live together hold the same player: "the victim
//   is not the chooser" is the range 0 of it, which no box or equality of the two
//   players states.
struct Derived {
  std::int32_t player_dim = -1;    // the dimension holding the player, or -1 for a total
  std::int32_t zone = -1;          // a per-player zone, or
  std::int32_t var = -1;           // a per-player scalar variable, or
  std::int32_t instance = -1;      // a zone instance whose cards of every class are counted, or
  std::int32_t same_as_dim = -1;   // with player_dim: 1 when both hold the same player
};

struct Layout {
  std::int32_t classes = 0;
  std::int32_t instances = 0;
  std::int32_t seats = 0;
  bool seats_move = false;                   // `swap seats` occurs: seat_of is kept
  std::vector<std::int32_t> var_index;       // by var storage slot: index or -1
  std::vector<std::int32_t> seat_index;      // by player: index of seat_of[p] (seats_move only)
  std::vector<SlotShape> local_shape;        // by local slot
  std::vector<std::int32_t> local_index;     // by local slot: first index or -1
  std::vector<std::int32_t> list_position;   // by local slot: a for-each list's position slot
  std::vector<std::int32_t> list_direction;  // by local slot: +1 clockwise, -1 counter-clockwise,
                                             // 0 order not kept (seats move inside the loop)
  std::vector<std::string> names;            // by index, for tables and invariants
  // By index: the dimensions of one per-player zone (every player, every class) or of one
  // per-player variable share a family id; -1: none. The invariant search widens them
  // together.
  std::vector<std::int32_t> family;
  // By index: the player a dimension belongs to (a per-player variable, a zone instance of
  // one player and its total, a walk's "still to visit" bit for that player), or -1.
  std::vector<std::int32_t> owner;
  std::int32_t base_size = 0;                // dimensions before the derived ones
  std::vector<Derived> derived;              // dimensions base_size.. size()-1
  std::vector<std::vector<bool>> dead;       // by position: dimensions of stale locals
  std::vector<std::vector<std::int32_t>> key_dims;  // by position: dimensions that split the invariant
  [[nodiscard]] std::int32_t size() const { return static_cast<std::int32_t>(names.size()); }
  [[nodiscard]] std::int32_t count_index(std::int32_t instance, std::int32_t cls) const {
    return instance * classes + cls;
  }
};

// The kind of value each local slot and variable storage slot holds, from the IR's types
// (slot_kinds.cpp): kNone for `none`, kZone for what the layout does not keep (a zone, a
// slot of no one type), the element kind of a set in local_element.
struct SlotKinds {
  std::vector<ir::Kind> local;
  std::vector<ir::Kind> local_element;
  std::vector<ir::Kind> var;
};
SlotKinds slot_kinds(const ir::Ir& ir);

// Larger than kMaxStateNumbers (size_limits.hpp): only the names are filled in (`dead` and
// `key_dims` stay empty), for the caller to report the size.
Layout make_layout(const ir::Ir& ir, const Setting& setting, const CardClasses& classes, const SlotKinds& kinds);

// The abstract state of a concrete game.
std::vector<std::int64_t> project(const ir::Ir& ir, const Layout& layout, const CardClasses& classes,
                                  const ri::State& state);

}  // namespace rulebook::verifier
