// The IR: the contract between the front end and every back end (the interpreter, the
// verifier, a compiler). The checked program is lowered once to flat tables with every name
// resolved to an index and every expression, slot, variable, option and definition typed
// (types.hpp). Expressions are a pool of nodes; statements are a list of instructions with
// explicit jumps, so the control position of a paused game is one integer plus the local
// slots. Nothing here names a grammar type except SourceSpan (where a fault is reported);
// docs/ir.md describes every field, and `rulebook check --dump-ir` prints them.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>
#include <utility>

#include "rulebook/grammar/source.hpp"
#include "rulebook/ir/builtins.hpp"
#include "rulebook/ir/fault_kinds.hpp"
#include "rulebook/ir/types.hpp"
#include "rulebook/ir/value.hpp"

namespace rulebook::ir {

using ExprId = std::int32_t;  // -1: absent
using Slot = std::int32_t;

// The IR's own operators (lowering maps the grammar's onto them).
enum class BinaryOp : std::uint8_t {
  kOr, kAnd,
  kEq, kNe, kLt, kLe, kGt, kGe, kIn, kNotIn,
  kAdd, kSub, kMul, kDiv, kMod,
};
enum class QuantKind : std::uint8_t { kExists, kAll, kCount, kSum };
// Extremum's sub: bit 1 max (else min); bit 2 the value of its one key (`max x in D: E`),
// else the element with the largest keys (`max x in D by K`).
inline constexpr std::uint8_t kExtremumMax = 1;
inline constexpr std::uint8_t kExtremumValue = 2;
// Walk orders: around the table, or through a pile.
enum class OrderKind : std::uint8_t { kClockwise, kCounterclockwise, kBottomToTop, kTopToBottom };
// Who sees the cards of a zone.
enum class Visibility : std::uint8_t { kPublic, kHidden, kOwner };

struct EnumInfo {
  std::string name;
  std::vector<std::string> values;  // `none` is not listed; every enum has it
  bool builtin = false;             // suit, color, kind
};

// ---- the operations, one table each ----------------------------------------------------------
// X(name, may fault: FaultMask of fault_kinds.hpp, what the operands are). The enums, the names
// that `rulebook check --dump-ir` prints and the fault masks come from these tables; a back end
// switches over the enum with -Wswitch under -Werror, so a new operation that one of them does
// not implement is a compile error, not a run-time surprise.
#define RULEBOOK_EXPR_OPS(X)                                                                        \
  X(Const, kNoFaults, "constant")                                                                   \
  X(Local, kNoFaults, "index: slot")                                                                \
  X(Var, kMayNonePlayer, "index: var; kids[0] the player for a per-player var")       \
  X(Option, kNoFaults, "index: option")                                                             \
  X(Zone, kMayNonePlayer, "index: zone; kids[0] the player for a per-player zone")    \
  X(Seat, kMayNoSeat, "kids[0]: the seat number")                                     \
  X(Players, kNoFaults, "every player, as a set")                                                   \
  X(AllCards, kNoFaults, "every card, as a set")                                                    \
  X(NumPlayers, kNoFaults, "the number of players")                                                 \
  X(NumSeats, kNoFaults, "the number of seats")                                                     \
  X(Builtin, kNoFaults, "sub: Builtin (its faults: builtins.hpp); kids: arguments")           \
  X(Def, kNoFaults, "index: def; kids: arguments")                                                  \
  X(Not, kNoFaults, "kids[0]")                                                                      \
  X(Neg, kMayIntegerOverflow, "kids[0]")                                              \
  X(Binary, kMayDivisionByZero | kMayIntegerOverflow, "sub: BinaryOp")   \
  X(SetLit, kMayNoneInSet, "kids: elements")                                          \
  X(Comprehension, kNoFaults, "index: slot; kids: domain, filter")                                  \
  X(Quant, kMayIntegerOverflow, "sub: QuantKind; index: slot; kids: domain, body")    \
  X(Extremum, kMayEmptyExtremum, "sub: kExtremumMax | kExtremumValue; index: slot; kids: domain, keys") \
  X(First, kMayFirstNotFound | kMayNonePlayer,                           \
    "sub: OrderKind + 1 (0: none); index: slot; kids: domain, from or -1, filter or -1")           \
  X(Cond, kNoFaults, "kids: condition, then, else")

#define RULEBOOK_OPCODES(X)                                                                         \
  X(Let, kNoFaults, "a: slot, b: value")                                                            \
  X(Choose, kMayNoLegalChoice | kMayIllegalPolicyChoice | kMayNonePlayer, \
    "a: slot, b: domain, c: chooser (-1: drawn at random), d: filter, e: policy choice (or -1)")                         \
  X(ChooseMixed, kMayNoLegalChoice | kMayNonePlayer,                                               \
    "a: alternative slot (int), b: decision (Ir::mixed_choices), c: chooser")                      \
  X(Move, kMayNoneCard | kMayNonePlayer, "a: cards, b: target zone; flags: placement, face") \
  X(Deal, kMayTakeFromEmpty | kMayNonePlayer, "a: count, b: source, c: target; flags: face") \
  X(Shuffle, kMayShuffleOrder, "a: zone")                                             \
  X(Flip, kMayNoneCard, "a: cards; flags: face")                                      \
  X(Set, kMayNonePlayer, "a: var, b: player expr or -1, c: value; flags: deferred")   \
  X(Add, kMayNonePlayer | kMayIntegerOverflow,                           \
    "a: var, b: player expr or -1, c: amount; flags: deferred")                                    \
  X(SwapSeats, kMayNonePlayer, "a, b: players")                                       \
  X(EndGame, kNoFaults, "a: winners or -1")                                                         \
  X(Jump, kNoFaults, "target")                                                                      \
  X(JumpIfFalse, kMayEndlessLoop, "a: condition, target")                             \
  X(RepeatInit, kMayNegativeRepeat, "a: counter slot, b: count")                      \
  X(RepeatNext, kNoFaults, "a: counter slot, target: after the loop")                               \
  X(ForInit, kMayNonePlayer,                                                          \
    "a: list slot, b: domain, c: order kind + 1 (0: none), d: start player or -1, e: position slot") \
  X(ForNext, kNoFaults, "a: list slot, e: position slot, b: variable slot, target: after the loop") \
  X(BeginSecret, kNoFaults, "start of a simultaneous block: writes are held back")                  \
  X(EndSecret, kNoFaults, "end of a simultaneous block: held-back writes are applied in order")     \
  X(Fire, kNoFaults, "a labelled rule starts: a: label")                                            \
  X(RoundStart, kNoFaults, "per-round variables reset, round counter")

enum class ExprOp : std::uint8_t {
#define RULEBOOK_OP_ENUM(name, faults, operands) k##name,
  RULEBOOK_EXPR_OPS(RULEBOOK_OP_ENUM)
};
enum class OpCode : std::uint8_t {
  RULEBOOK_OPCODES(RULEBOOK_OP_ENUM)
#undef RULEBOOK_OP_ENUM
};

struct OpInfo {
  std::string_view name;      // `Binary`, `JumpIfFalse`
  FaultMask faults;           // the fault kinds it may raise itself (not its operands)
  std::string_view operands;  // what its fields hold
};

inline constexpr std::array kExprOps = {
#define RULEBOOK_OP_INFO(name, faults, operands) OpInfo{#name, faults, operands},
    RULEBOOK_EXPR_OPS(RULEBOOK_OP_INFO)
};
inline constexpr std::array kOpCodes = {
    RULEBOOK_OPCODES(RULEBOOK_OP_INFO)
#undef RULEBOOK_OP_INFO
};

[[nodiscard]] constexpr const OpInfo& op_info(ExprOp op) { return kExprOps[static_cast<std::size_t>(op)]; }
[[nodiscard]] constexpr const OpInfo& op_info(OpCode code) { return kOpCodes[static_cast<std::size_t>(code)]; }

struct ExprNode {
  ExprOp op = ExprOp::kConst;
  std::uint8_t sub = 0;
  std::int32_t index = -1;
  TypeId type = TypeTable::kUnknownType;  // the checker's type of the expression
  Value constant;
  std::vector<ExprId> kids;

  // `sub` read as what it is for each op.
  [[nodiscard]] BinaryOp binary_op() const { return static_cast<BinaryOp>(sub); }
  [[nodiscard]] QuantKind quant_kind() const { return static_cast<QuantKind>(sub); }
  [[nodiscard]] bool has_order() const { return sub != 0; }
  [[nodiscard]] OrderKind order_kind() const { return static_cast<OrderKind>(sub - 1); }
};


// The instructions that act on the game: a labelled rule "fires" when one of them runs inside it
// (simulate's coverage tells this from merely reaching the rule, as a labelled `if` is reached
// at every test).
constexpr bool is_effect(OpCode code) {
  switch (code) {
    case OpCode::kChoose: case OpCode::kChooseMixed: case OpCode::kMove: case OpCode::kDeal: case OpCode::kShuffle: case OpCode::kFlip:
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
  Visibility visibility = Visibility::kHidden;
  std::int32_t first_instance = 0;  // instances: first_instance + player, or first_instance
};

struct VarInfo {
  std::string name;
  TypeId type = TypeTable::kUnknownType;
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
  TypeId type = TypeTable::kUnknownType;
  std::string doc;
};

struct DefInfo {
  std::string name;
  std::vector<Slot> params;  // their types: Ir::local_types
  ExprId body = -1;          // its type is the result type
};

struct ScoreInfo {
  std::string name;
  Slot param = -1;
  ExprId value = -1;
};

// `payoff NAME(p): VALUE`, as a small tree: node 0 is the root. A conditional node has a
// condition and two child nodes; a ratio has a numerator and a denominator (or -1 for 1).
struct PayoffNode {
  ExprId condition = -1;
  std::int32_t then_node = -1, else_node = -1;
  ExprId numerator = -1, denominator = -1;
};

struct PayoffInfo {
  std::string name;
  Slot param = -1;
  std::vector<PayoffNode> nodes;
  grammar::SourceSpan span;
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

// One alternative of a decision with alternatives (`choose by p { ... }`): every element of
// `domain` that passes `guard` (bound at `slot`) is a move, or the alternative itself when it has
// no element and its guard holds (or has none).
struct AlternativeInfo {
  std::string name;
  Slot slot = -1;      // the element's slot, or -1
  ExprId domain = -1;  // or -1: no element
  ExprId guard = -1;   // or -1: always
  grammar::SourceSpan span;
};
struct MixedChoice {
  std::vector<AlternativeInfo> alternatives;  // in the order written: the order of the moves
};

struct Ir {
  std::string title;
  std::int64_t players_min = 0, players_max = 0;
  std::int64_t players_default = 0;  // without --players: `default N`, else players_max
  std::int64_t seats = 0;     // storage width of per-player zones and variables (the most seats)
  bool fixed_seats = false;   // `seats N` declared: every game has N seats; else one per player
  std::vector<EnumInfo> enums;  // 0 suit, 1 color, 2 kind, then declared ones
  TypeTable types;
  std::vector<ExprNode> exprs;
  std::vector<Instr> code;
  // Where each node and instruction came from, by ExprId and by instruction index: a side
  // table, not a field, because the evaluators' loops read nodes and instructions and a span
  // is read only when something is reported (a fault, a log line, a diagnostic). A span is
  // 40 bytes: without it an instruction is 32 bytes, not 72, and a node 80, not 120. Whoever appends a node or an instruction
  // appends its span (add_expr, add_instr), so the tables stay as long as what they describe.
  std::vector<grammar::SourceSpan> expr_spans;
  std::vector<grammar::SourceSpan> instr_spans;
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
  std::vector<PayoffInfo> payoffs;
  std::vector<InvariantInfo> invariants;
  std::vector<TerminationClaim> terminations;
  std::vector<MixedChoice> mixed_choices;  // by the b operand of kChooseMixed
  // Card kinds: standard52 and jokers are fixed; declared kinds have a count expression.
  bool standard52 = false;
  std::int64_t jokers = 0;
  std::vector<std::pair<std::string, ExprId>> card_kinds;
  std::int32_t local_slots = 0;
  std::vector<std::string> local_names;  // by slot: the bound name (`p`, `c`), or empty
  std::vector<TypeId> local_types;       // by slot: what it holds (a loop's list: a set)
  std::vector<std::string> file_paths;   // by FileId, for source locations in messages
  std::string source_hash;               // FNV-1a of the rule texts, hex

  // Policies see the automated player and the legal choices at these slots.
  static constexpr Slot kChooserSlot = 0;
  static constexpr Slot kLegalSlot = 1;

  [[nodiscard]] const grammar::SourceSpan& span_of(ExprId id) const { return expr_spans[static_cast<std::size_t>(id)]; }
  [[nodiscard]] const grammar::SourceSpan& instr_span(std::int32_t pc) const {
    return instr_spans[static_cast<std::size_t>(pc)];
  }
  // The same for a node or an instruction of this IR held by reference (the evaluators walk
  // references into `exprs` and `code`); a copy has no place here, and is a logic error.
  [[nodiscard]] const grammar::SourceSpan& span_of(const ExprNode& node) const {
    return expr_spans[index_in(exprs, node, "expression")];
  }
  [[nodiscard]] const grammar::SourceSpan& span_of(const Instr& instr) const {
    return instr_spans[index_in(code, instr, "instruction")];
  }
  ExprId add_expr(ExprNode node, const grammar::SourceSpan& span) {
    exprs.push_back(std::move(node));
    expr_spans.push_back(span);
    return static_cast<ExprId>(exprs.size() - 1);
  }
  std::int32_t add_instr(const Instr& instr, const grammar::SourceSpan& span) {
    code.push_back(instr);
    instr_spans.push_back(span);
    return static_cast<std::int32_t>(code.size() - 1);
  }

  template <typename T>
  static std::size_t index_in(const std::vector<T>& all, const T& item, const char* what) {
    const T* at = &item;
    if (all.empty() || at < all.data() || at >= all.data() + all.size()) {
      throw std::logic_error(std::string("span_of: the ") + what + " is not one of this IR's");
    }
    return static_cast<std::size_t>(at - all.data());
  }

  [[nodiscard]] std::int32_t zone_instance(std::int32_t zone, std::int64_t player) const {
    return zones[static_cast<std::size_t>(zone)].first_instance +
           (zones[static_cast<std::size_t>(zone)].per_player ? static_cast<std::int32_t>(player) : 0);
  }
};

}  // namespace rulebook::ir
