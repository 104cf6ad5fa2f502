// The interpreter's program: the checked AST lowered once to flat tables with every name
// resolved to an index. Expressions are a pool of nodes; statements are a list of
// instructions with explicit jumps, so the control position of a paused game is one integer
// plus the local slots.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rulebook/grammar/program.hpp"
#include "rulebook/ir/builtins.hpp"
#include "rulebook/ir/value.hpp"

namespace rulebook::ir {

using ExprId = std::int32_t;  // -1: absent
using Slot = std::int32_t;

enum class ExprOp : std::uint8_t {
  kConst,          // constant
  kLocal,          // index: slot
  kVar,            // index: var; kids[0] the player for a per-player var
  kOption,         // index: option
  kZone,           // index: zone; kids[0] the player for a per-player zone
  kSeat,           // kids[0]: the seat number
  kPlayers,        // every player, as a set
  kAllCards,
  kNumPlayers,
  kNumSeats,
  kBuiltin,        // sub: Builtin
  kDef,            // index: def; kids: arguments
  kNot,
  kNeg,
  kBinary,         // sub: grammar::ast::BinaryOp
  kSetLit,
  kComprehension,  // index: slot; kids: domain, filter
  kQuant,          // sub: QuantKind; index: slot; kids: domain, body
  kExtremum,       // sub: 1 max, 0 min; index: slot; kids: domain, keys...
  kFirst,          // sub: OrderKind + 1 (0: none); index: slot; kids: domain, from or -1, filter or -1
  kCond,           // kids: condition, then, else
};

struct ExprNode {
  ExprOp op = ExprOp::kConst;
  std::uint8_t sub = 0;
  std::int32_t index = -1;
  Value constant;
  std::vector<ExprId> kids;
  grammar::SourceSpan span;
};

enum class OpCode : std::uint8_t {
  kLet,          // a: slot, b: value
  kChoose,       // a: slot, b: domain, c: chooser, d: filter, e: policy choice (or -1)
  kMove,         // a: cards, b: target zone; flags: placement, face
  kDeal,         // a: count, b: source, c: target; flags: face
  kShuffle,      // a: zone
  kFlip,         // a: cards; flags: face
  kSet,          // a: var, b: player expr or -1, c: value; flags: deferred
  kAdd,          // a: var, b: player expr or -1, c: amount; flags: deferred
  kSwapSeats,    // a, b: players
  kEndGame,      // a: winners or -1
  kJump,         // target
  kJumpIfFalse,  // a: condition, target
  kRepeatInit,   // a: counter slot, b: count
  kRepeatNext,   // a: counter slot, target: after the loop
  kForInit,      // a: list slot, b: domain, c: order kind + 1 (0: none), d: start player or -1, e: position slot
  kForNext,      // a: list slot, e: position slot, b: variable slot, target: after the loop
  kBeginSecret,  // start of a simultaneous block: writes are held back
  kEndSecret,    // end of a simultaneous block: held-back writes are applied in order
  kFire,         // a labelled rule starts: a: label
  kRoundStart,   // per-round variables reset, round counter
};

// The instructions that act on the game: a labelled rule "fires" when one of them runs inside it
// (simulate's coverage tells this from merely reaching the rule, as a labelled `if` is reached
// at every test).
constexpr bool is_effect(OpCode code) {
  switch (code) {
    case OpCode::kChoose: case OpCode::kMove: case OpCode::kDeal: case OpCode::kShuffle: case OpCode::kFlip:
    case OpCode::kSet: case OpCode::kAdd: case OpCode::kSwapSeats: case OpCode::kEndGame:
      return true;
    default:
      return false;
  }
}

// Flag bits of kMove / kDeal / kFlip / kSet / kAdd.
inline constexpr std::uint8_t kFaceUp = 1;
inline constexpr std::uint8_t kFaceDown = 2;
inline constexpr std::uint8_t kAtTop = 4;
inline constexpr std::uint8_t kAtBottom = 8;
inline constexpr std::uint8_t kDeferred = 16;

struct Instr {
  OpCode code = OpCode::kJump;
  std::uint8_t flags = 0;
  std::int32_t a = -1, b = -1, c = -1, d = -1, e = -1;
  std::int32_t target = -1;
  std::int32_t rule = -1;  // innermost enclosing labelled rule, for faults and logs
  grammar::SourceSpan span;
};

struct CardInfo {
  std::string name;        // card notation: 7H, 10S, QD, JK1, note3
  std::int64_t rank = 0;   // 2..14 for standard cards, 0 otherwise
  std::int64_t suit = -1;  // ordinal of the builtin enum suit, or -1
  std::int64_t color = -1;
  std::int64_t kind = 0;   // ordinal of the builtin enum kind
};

struct ZoneInfo {
  std::string name;
  bool per_player = false;
  bool pile = true;
  grammar::ast::Visibility visibility = grammar::ast::Visibility::kHidden;
  std::int32_t first_instance = 0;  // instances: first_instance + player, or first_instance
};

struct VarInfo {
  std::string name;
  bool per_player = false;
  bool per_round = false;
  ExprId init = -1;
  std::int32_t first_slot = 0;  // storage: first_slot + player, or first_slot
  Slot param = -1;              // per-player: the slot the initializer reads the player from
};

struct OptionInfo {
  std::string name;
  Value default_value;
  bool has_range = false;
  std::int64_t min = 0, max = 0;
  grammar::Type type;
  std::string doc;
};

struct DefInfo {
  std::string name;
  std::vector<Slot> params;
  ExprId body = -1;
};

struct ScoreInfo {
  std::string name;
  Slot param = -1;
  ExprId value = -1;
};

// `invariant NAME: condition`: holds in every reachable state (checked by the verifier).
struct InvariantInfo {
  std::string name;
  ExprId condition = -1;
  grammar::SourceSpan span;
};

// `terminates game|round|LABEL [by measure]`.
struct TerminationClaim {
  enum class Target : std::uint8_t { kGame, kRound, kLoop };
  Target target = Target::kGame;
  std::string name;          // `game`, `round` or the loop's rule label
  std::int32_t label = -1;   // kLoop: the label id
  ExprId measure = -1;       // or -1
  grammar::SourceSpan span;
};

struct Ir {
  std::string title;
  std::int64_t players_min = 0, players_max = 0;
  std::int64_t seats = 0;     // storage width of per-player zones and variables (the most seats)
  bool fixed_seats = false;   // `seats N` declared: every game has N seats; else one per player
  std::vector<grammar::EnumInfo> enums;  // 0 suit, 1 color, 2 kind, then declared ones
  std::vector<ExprNode> exprs;
  std::vector<Instr> code;
  std::int32_t round_start = 0;          // index of the kRoundStart instruction
  grammar::SourceSpan round_span;        // the `round` declaration, where a fault names the round
  std::vector<std::string> labels;       // rule labels by id
  std::vector<grammar::SourceSpan> label_spans;
  std::vector<std::int32_t> label_parents;  // the enclosing labelled rule of each, or -1
  std::vector<ZoneInfo> zones;           // zone 0 is the builtin `box`
  std::int32_t zone_instances = 0;
  std::vector<std::uint8_t> instance_is_pile;  // by zone instance: ordered (pile) or not (set)
  std::vector<std::string> instance_names;     // by zone instance: `deck`, `hand(2)`
  std::vector<VarInfo> vars;             // var 0 is the builtin `automated`
  std::int32_t var_slots = 0;
  std::vector<OptionInfo> options;
  std::vector<DefInfo> defs;
  std::vector<ScoreInfo> scores;
  std::vector<InvariantInfo> invariants;
  std::vector<TerminationClaim> terminations;
  // Card kinds: standard52 and jokers are fixed; declared kinds have a count expression.
  bool standard52 = false;
  std::int64_t jokers = 0;
  std::vector<std::pair<std::string, ExprId>> card_kinds;
  std::int32_t local_slots = 0;
  std::vector<std::string> local_names;  // by slot: the bound name (`p`, `c`), or empty
  std::vector<std::string> file_paths;   // by FileId, for source locations in messages
  std::string source_hash;               // FNV-1a of the rule texts, hex

  // Policies see the automated player and the legal choices at these slots.
  static constexpr Slot kChooserSlot = 0;
  static constexpr Slot kLegalSlot = 1;

  [[nodiscard]] std::int32_t zone_instance(std::int32_t zone, std::int64_t player) const {
    return zones[static_cast<std::size_t>(zone)].first_instance +
           (zones[static_cast<std::size_t>(zone)].per_player ? static_cast<std::int32_t>(player) : 0);
  }
};

}  // namespace rulebook::ir
