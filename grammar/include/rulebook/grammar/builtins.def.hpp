// The one table of builtin functions. Every list of builtins is generated from it: the
// resolver's reserved names and the checker's type rules here (grammar's view), the IR's
// `Builtin` enum, names, `builtin_by_name` and fault masks in rulebook/ir/builtins.hpp.
//
// Why here: the grammar library sits below ir/ (ir links grammar), so the checker cannot
// include an ir header. The table is a macro, and a macro's columns are only tokens until
// someone expands them: the grammar expands the columns it understands (spelling, arity,
// argument and result types) and drops the fault column, whose `kMay...` names only ir/
// defines. So one table serves both layers with no upward link. The order of the lines is
// the order of `ir::Builtin`; adding one is docs/contributing.md's "Adding a builtin".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rulebook::grammar {

// What the checker asks of an argument; each is one generic check in Checker::call.
enum class BuiltinArgType : std::uint8_t {
  kInt,         // an integer
  kCard,        // a card
  kPlayer,      // a player
  kZone,        // a zone ("'top' takes a zone, but this is ...")
  kCollection,  // a set or a zone
};

// The genuinely special checks, named so a line of the table says it has one.
enum class BuiltinHook : std::uint8_t {
  kNone,
  kPileOnly,    // the zone must be a pile, not an unordered set (top, bottom)
  kOfPlayers,   // the collection must hold players (subsets)
};

enum class BuiltinResult : std::uint8_t {
  kInt,
  kBool,
  kCard,
  kPlayer,
  kEnumOfName,     // the enum named like the builtin: suit(c) is a suit
  kCardOrCards,    // a card; with its optional count, a set of cards (top, bottom)
  kSetsOfFirst,    // sets of the first argument's elements (subsets)
};

struct BuiltinArg {
  BuiltinArgType type = BuiltinArgType::kInt;
  const char* label = nullptr;  // what a type mismatch names; null: the builtin, 'name'
  BuiltinHook hook = BuiltinHook::kNone;
};

[[nodiscard]] constexpr BuiltinArg arg(BuiltinArgType type) { return {type, nullptr, BuiltinHook::kNone}; }
[[nodiscard]] constexpr BuiltinArg arg(BuiltinArgType type, const char* label) { return {type, label, BuiltinHook::kNone}; }
[[nodiscard]] constexpr BuiltinArg arg(BuiltinArgType type, BuiltinHook hook) { return {type, nullptr, hook}; }

inline constexpr std::size_t kMaxBuiltinArgs = 3;

struct BuiltinSignature {
  std::string_view spelling;
  std::size_t min_args = 0;
  std::size_t max_args = 0;
  std::array<BuiltinArg, kMaxBuiltinArgs> args{};  // the first max_args are used
  BuiltinResult result = BuiltinResult::kInt;
};

// X(name, spelling, min args, max args, (arguments), result, faults it may raise)
// The arguments are in parentheses (one column); the fault column is a `|` of ir's
// `kMay<FaultKind>` bits, or kNoFaults, and leaves out the kinds no checked program can
// raise (TypeMismatch, Unsupported).
#define RULEBOOK_BUILTINS(X)                                                                              \
  X(Count, "count", 1, 1, (arg(kCollection)), kInt, kNoFaults)                                         \
  X(Empty, "empty", 1, 1, (arg(kCollection)), kBool, kNoFaults)                                        \
  X(Top, "top", 1, 2, (arg(kZone, kPileOnly), arg(kInt, "card count")), kCardOrCards, kMayTakeFromEmpty) \
  X(Bottom, "bottom", 1, 2, (arg(kZone, kPileOnly), arg(kInt, "card count")), kCardOrCards, kMayTakeFromEmpty) \
  X(Rank, "rank", 1, 1, (arg(kCard)), kInt, kMayNoneCard)                                               \
  X(Suit, "suit", 1, 1, (arg(kCard)), kEnumOfName, kMayNoneCard)                                        \
  X(Color, "color", 1, 1, (arg(kCard)), kEnumOfName, kMayNoneCard)                                      \
  X(Kind, "kind", 1, 1, (arg(kCard)), kEnumOfName, kMayNoneCard)                                        \
  X(FaceUp, "face_up", 1, 1, (arg(kCard)), kBool, kMayNoneCard)                                         \
  X(FaceDown, "face_down", 1, 1, (arg(kCard)), kBool, kMayNoneCard)                                     \
  X(Index, "index", 1, 1, (arg(kCard)), kInt, kMayNoneCard)                                             \
  X(LeftOf, "left_of", 1, 1, (arg(kPlayer)), kPlayer, kMayNonePlayer)                                   \
  X(RightOf, "right_of", 1, 1, (arg(kPlayer)), kPlayer, kMayNonePlayer)                                 \
  X(Opposite, "opposite", 1, 1, (arg(kPlayer)), kPlayer, kMayNonePlayer | kMayNoOppositeSeat)           \
  X(Distance, "distance", 2, 2, (arg(kPlayer), arg(kPlayer)), kInt, kMayNonePlayer)                     \
  X(Subsets, "subsets", 3, 3,                                                                             \
    (arg(kCollection, kOfPlayers), arg(kInt, "smallest subset size"), arg(kInt, "largest subset size")),  \
    kSetsOfFirst, kMayTooManySubsets)                                                                     \
  X(Max, "max", 2, 2, (arg(kInt), arg(kInt)), kInt, kNoFaults)                                         \
  X(Min, "min", 2, 2, (arg(kInt), arg(kInt)), kInt, kNoFaults)                                         \
  X(Abs, "abs", 1, 1, (arg(kInt)), kInt, kMayIntegerOverflow)

namespace builtin_table {
// The table's bare names (kInt, kPileOnly, ...) resolve here and nowhere else.
using enum BuiltinArgType;
using enum BuiltinHook;
using grammar::arg;
#define RULEBOOK_BUILTIN_ARGS(...) {__VA_ARGS__}
#define RULEBOOK_BUILTIN_SIGNATURE(name, spelling, lo, hi, args, result, faults) \
  BuiltinSignature{spelling, lo, hi, RULEBOOK_BUILTIN_ARGS args, BuiltinResult::result},
inline constexpr std::array kSignatures = {RULEBOOK_BUILTINS(RULEBOOK_BUILTIN_SIGNATURE)};
#undef RULEBOOK_BUILTIN_SIGNATURE
#undef RULEBOOK_BUILTIN_ARGS
}  // namespace builtin_table

// Every builtin's signature, in the table's order (the index is ir::Builtin's value).
inline constexpr const auto& kBuiltinSignatures = builtin_table::kSignatures;

[[nodiscard]] constexpr std::optional<std::size_t> builtin_index(std::string_view spelling) {
  for (std::size_t i = 0; i < kBuiltinSignatures.size(); ++i) {
    if (kBuiltinSignatures[i].spelling == spelling) return i;
  }
  return std::nullopt;
}

}  // namespace rulebook::grammar
