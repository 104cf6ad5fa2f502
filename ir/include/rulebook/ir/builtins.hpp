// The IR's view of the builtin table (rulebook/grammar/builtins.def.hpp, which says why the
// table lives in grammar/): the `Builtin` enum, the names, lookup by name, the signature
// the checker enforced, and the fault kinds each builtin may raise. Nothing here lists a
// builtin; everything is expanded from RULEBOOK_BUILTINS.
//
// Dispatch: the executor and the symbolic encoder switch over `Builtin` with no default, so
// under -Wswitch -Werror a builtin added to the table without a case in either is a compile
// error, not a "cannot lower" at run time.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "rulebook/grammar/builtins.def.hpp"
#include "rulebook/ir/fault_kinds.hpp"

namespace rulebook::ir {

// The table's fault column is a `|` of the kMay bits of fault_kinds.hpp.

enum class Builtin : std::uint8_t {
#define RULEBOOK_BUILTIN_ENUM(name, spelling, lo, hi, args, result, faults) k##name,
  RULEBOOK_BUILTINS(RULEBOOK_BUILTIN_ENUM)
#undef RULEBOOK_BUILTIN_ENUM
};

inline constexpr std::array kBuiltinNames = {
#define RULEBOOK_BUILTIN_NAME(name, spelling, lo, hi, args, result, faults) std::string_view{spelling},
    RULEBOOK_BUILTINS(RULEBOOK_BUILTIN_NAME)
#undef RULEBOOK_BUILTIN_NAME
};

inline constexpr std::array kBuiltinFaults = {
#define RULEBOOK_BUILTIN_FAULTS(name, spelling, lo, hi, args, result, faults) FaultMask{faults},
    RULEBOOK_BUILTINS(RULEBOOK_BUILTIN_FAULTS)
#undef RULEBOOK_BUILTIN_FAULTS
};

static_assert(kBuiltinNames.size() == grammar::kBuiltinSignatures.size());

[[nodiscard]] constexpr std::string_view builtin_name(Builtin b) { return kBuiltinNames[static_cast<std::size_t>(b)]; }

[[nodiscard]] constexpr std::optional<Builtin> builtin_by_name(std::string_view spelling) {
  const auto i = grammar::builtin_index(spelling);
  if (!i) return std::nullopt;
  return static_cast<Builtin>(*i);
}

[[nodiscard]] constexpr const grammar::BuiltinSignature& builtin_signature(Builtin b) {
  return grammar::kBuiltinSignatures[static_cast<std::size_t>(b)];
}

[[nodiscard]] constexpr FaultMask builtin_faults(Builtin b) { return kBuiltinFaults[static_cast<std::size_t>(b)]; }

[[nodiscard]] constexpr bool builtin_may_raise(Builtin b, FaultKind kind) {
  return may_raise(builtin_faults(b), kind);
}

}  // namespace rulebook::ir
