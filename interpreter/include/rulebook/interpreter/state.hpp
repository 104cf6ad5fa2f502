// The state of one game: everything needed to continue it, as flat value arrays so that a
// copy is an independent game.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rulebook/grammar/source.hpp"
#include "rulebook/interpreter/uses_ir.hpp"
#include "rulebook/interpreter/rational.hpp"
#include "rulebook/ir/fault_kinds.hpp"
#include "rulebook/ir/ir.hpp"
#include "rulebook/interpreter/rng.hpp"
#include "rulebook/ir/value.hpp"

namespace rulebook::interpreter {


using PlayerId = std::int32_t;  // a player's identity; player p starts in seat p
using CardId = std::int32_t;

// A decision the game waits for: `player` picks one of `options`.
struct Decision {
  PlayerId player = -1;
  std::int32_t rule = -1;   // label id of the choosing rule, or -1
  std::int32_t instr = -1;  // the choose instruction
  std::vector<Value> options;
  bool secret = false;      // inside a simultaneous block: others do not learn the choice yet
  // A decision with alternatives (kChooseMixed): its index in Ir::mixed_choices, and for each
  // option the alternative it belongs to (an option without an element is `none`). Empty and
  // -1 for a plain `choose`.
  std::int32_t mixed = -1;
  std::vector<std::int32_t> alternatives;
};

// The alternative of the last move applied (for sinks that write it down), or -1 and -1.
struct LastAlternative {
  std::int32_t mixed = -1;
  std::int32_t alternative = -1;
};

// A rule fault: the rules asked for something impossible. The game stops; it is never skipped.
struct Fault {
  std::string message;
  FaultKind kind = FaultKind::kTypeMismatch;
  std::int32_t rule = -1;  // label id of the innermost enclosing rule, or -1
  grammar::SourceSpan span;
};

// A write held back until a simultaneous block ends.
struct HeldWrite {
  std::int32_t slot = -1;  // variable storage slot
  bool add = false;
  Value value;
};

struct State {
  // Control: the next instruction, and the slots of locals (lets, loop state, choices).
  std::int32_t pc = 0;
  std::vector<Value> locals;
  // Variables (per-player ones take one slot per player) and option values.
  std::vector<Value> vars;
  std::vector<Value> options;
  // The cards of this game (kind counts may depend on options); shared, never changed.
  std::shared_ptr<const std::vector<CardInfo>> cards;
  // Cards: each zone instance lists its cards bottom to top; each card knows its zone and facing.
  std::vector<std::vector<CardId>> zones;
  std::vector<std::int32_t> card_zone;
  std::vector<std::uint8_t> card_face_up;
  // Seating: seat_of[player], player_at[seat].
  std::vector<std::int32_t> seat_of;
  std::vector<PlayerId> player_at;
  std::int32_t num_players = 0;
  std::int32_t num_seats = 0;
  Rng rng;

  std::optional<Decision> decision;
  LastAlternative last_alternative;
  std::vector<HeldWrite> held;
  bool holding = false;

  bool finished = false;
  std::vector<PlayerId> winners;
  // By declared payoff, then by player: set when the game ends by its rules (`end game`).
  std::vector<std::vector<Rational>> payoffs;
  std::optional<Fault> fault;

  std::int64_t rounds = 0;
  std::int64_t moves = 0;
  std::int64_t steps = 0;  // instructions run, against endless loops without decisions
  std::vector<std::uint32_t> reached;  // per rule label: how often it started
  std::vector<std::uint32_t> fired;    // per rule label: how often it started and then acted
  std::vector<std::uint8_t> acting;    // per rule label: it has acted since it last started
};

}  // namespace rulebook::interpreter
