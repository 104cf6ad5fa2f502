// A checked program: the (variant-composed) AST plus what the checker learned about it.
// This is what the interpreter and the verifier start from.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "rulebook/grammar/ast.hpp"
#include "rulebook/grammar/source.hpp"
#include "rulebook/grammar/types.hpp"

namespace rulebook::grammar {

// The most cards of one declared kind (`note: N` in `cards`). The checker rejects a larger
// literal count, or an option whose range allows one; the interpreter checks the count it
// computes (from an option given on the command line, say) against the same number.
inline constexpr std::int64_t kMaxCardsOfAKind = 10000;
// The most cards in a game, of every kind together (52 standard cards and jokers included),
// and the most declared kinds: each kind was limited, the total was not, and a 14 KB file
// declared ten million cards. The checker adds up the counts it knows (literals, option
// ranges); the interpreter checks the total it computes.
inline constexpr std::int64_t kMaxCardsInAGame = 100000;
inline constexpr std::size_t kMaxCardKinds = 1000;

struct EnumInfo {
  std::string name;
  std::vector<std::string> values;  // `none` is not listed; every enum has it
  bool builtin = false;
  SourceSpan span;
};

// A global name and what it denotes.
struct Symbol {
  enum class Kind { kOption, kVar, kZone, kDef, kEnumValue, kScore, kConstant, kCardKind };
  Kind kind = Kind::kConstant;
  std::string name;
  Type type;                      // value type; a def's result type; kZone for zones
  bool per_player = false;        // zones, vars and scores indexed by a player
  std::size_t decl_index = 0;     // index into Program::file.decls (not for builtins)
  std::int64_t value = 0;         // constants and enum values (ordinal)
  bool builtin = false;
  SourceSpan span;
};

// A local name as the checker resolved it: the name that binds it, or one of the two names a
// policy entry sees without a binder (`chooser` 0, `legal` 1).
struct LocalRef {
  const ast::Ident* binder = nullptr;
  std::int8_t policy_slot = -1;
  [[nodiscard]] bool is_local() const { return binder != nullptr || policy_slot >= 0; }
};

// What the checker learned about one expression: its type and, for a local name, which one.
struct ExprFacts {
  Type type;
  LocalRef local;
};

// Move-only: the facts below are keyed by the address of nodes of `file`, which a move keeps
// and a copy would not.
struct Program {
  Program() = default;
  Program(Program&&) noexcept = default;
  Program& operator=(Program&&) noexcept = default;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  ~Program() = default;

  ast::RulesFile file;            // a variant's decls are already applied to its base
  std::string base_title;         // set for variants
  std::int64_t players_min = 0;
  std::int64_t players_max = 0;
  std::int64_t players_default = 0;  // `default N`, else players_max
  std::int64_t seats = 0;         // the most seats a game can have
  bool seats_declared = false;    // `seats N`: always N seats, the extra ones automated;
                                  // otherwise a game has one seat per player
  std::vector<EnumInfo> enums;
  std::map<std::string, Symbol> globals;
  std::map<std::string, SourceSpan> rule_labels;  // every `rule NAME:` in the program
  // The checker's output for lowering (ir/): every expression's type and resolution, and the
  // type of every name a binder, parameter, `let` or `choose` introduces.
  std::unordered_map<const ast::Expr*, ExprFacts> expr_facts;
  std::unordered_map<const ast::Ident*, Type> local_types;
  // The element type of the `legal` set each policy entry sees, by rule label.
  std::map<std::string, Type> policy_legal_types;
};

}  // namespace rulebook::grammar
