// Every way the interpreter can stop a game with a rule fault, in one table. Each fault the
// executor raises names its kind; the verifier checks an obligation of the same kind
// wherever the rules can raise it, and reports it under the property the table names. A
// kind that the verifier cannot meet in a checked program says why in its property column
// ("none: ..."); tests/verifier/fault_kinds_test.cpp fails for a kind that has neither an
// obligation nor such a reason.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace rulebook::ir {

// X(name, property, what the rules asked for)
#define RULEBOOK_FAULT_KINDS(X)                                                                            \
  X(TakeFromEmpty, "conservation", "a deal, top or bottom takes more cards than the zone holds")         \
  X(NoLegalChoice, "playability", "a choice has no legal option")                                       \
  X(IllegalPolicyChoice, "playability", "an automated seat's policy picks an option that is not legal")  \
  X(NonePlayer, "well-defined", "none where a player is needed")                                        \
  X(NoneCard, "well-defined", "none where a card is needed")                                            \
  X(NoSeat, "well-defined", "a seat number outside the table")                                          \
  X(NoneInSet, "well-defined", "none as a member of a set literal")                                     \
  X(EmptyExtremum, "well-defined", "max or min over an empty set")                                      \
  X(FirstNotFound, "well-defined", "'first' finds no element")                                          \
  X(DivisionByZero, "well-defined", "a division or remainder by zero")                                  \
  X(IntegerOverflow, "well-defined", "an integer result outside 64 bits")                               \
  X(NegativeRepeat, "well-defined", "a repeat count below zero")                                        \
  X(NoOppositeSeat, "well-defined", "opposite() with an odd number of seats")                           \
  X(TooManySubsets, "well-defined", "subsets() of more than 20 players")                                \
  X(EndlessLoop, "game-termination", "50,000,000 instructions without a decision or an end")          \
  X(ShuffleOrder, "none: only a log's given order can be wrong; a game's own shuffles never are",        \
    "a shuffle result that is not an order of the zone's cards")                                        \
  X(Unsupported, "none: the checker refuses these programs", "a construct the interpreter does not run") \
  X(TypeMismatch, "none: the checker gives every expression its type", "a value of the wrong type")

enum class FaultKind : std::uint8_t {
#define RULEBOOK_FAULT_ENUM(name, property, what) k##name,
  RULEBOOK_FAULT_KINDS(RULEBOOK_FAULT_ENUM)
#undef RULEBOOK_FAULT_ENUM
};

struct FaultKindInfo {
  std::string_view name;      // `TakeFromEmpty`
  std::string_view property;  // the verifier property that covers it, or "none: why"
  std::string_view what;
};

inline constexpr std::array kFaultKinds = {
#define RULEBOOK_FAULT_INFO(name, property, what) FaultKindInfo{#name, property, what},
    RULEBOOK_FAULT_KINDS(RULEBOOK_FAULT_INFO)
#undef RULEBOOK_FAULT_INFO
};

[[nodiscard]] constexpr const FaultKindInfo& fault_kind_info(FaultKind kind) {
  return kFaultKinds[static_cast<std::size_t>(kind)];
}

// A set of fault kinds: what an operation of the IR may raise (the tables of ir.hpp and
// builtins.hpp write a `|` of the kMay bits).
using FaultMask = std::uint32_t;
inline constexpr FaultMask kNoFaults = 0;
#define RULEBOOK_FAULT_BIT(name, property, what) \
  inline constexpr FaultMask kMay##name = FaultMask{1} << static_cast<unsigned>(FaultKind::k##name);
RULEBOOK_FAULT_KINDS(RULEBOOK_FAULT_BIT)
#undef RULEBOOK_FAULT_BIT
static_assert(kFaultKinds.size() <= 32, "a fault mask has 32 bits");
[[nodiscard]] constexpr bool may_raise(FaultMask mask, FaultKind kind) {
  return (mask >> static_cast<unsigned>(kind) & 1U) != 0;
}

}  // namespace rulebook::ir
