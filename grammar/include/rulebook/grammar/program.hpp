// A checked program: the (variant-composed) AST plus what the checker learned about it.
// This is what the interpreter and the verifier start from.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rulebook/grammar/ast.hpp"
#include "rulebook/grammar/source.hpp"
#include "rulebook/grammar/types.hpp"

namespace rulebook::grammar {

// The most cards of one declared kind (`note: N` in `cards`). The checker rejects a larger
// literal count, or an option whose range allows one; the interpreter checks the count it
// computes (from an option given on the command line, say) against the same number.
inline constexpr std::int64_t kMaxCardsOfAKind = 10000;

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

struct Program {
  ast::RulesFile file;            // a variant's decls are already applied to its base
  std::string base_title;         // set for variants
  std::int64_t players_min = 0;
  std::int64_t players_max = 0;
  std::int64_t seats = 0;         // the most seats a game can have
  bool seats_declared = false;    // `seats N`: always N seats, the extra ones automated;
                                  // otherwise a game has one seat per player
  std::vector<EnumInfo> enums;
  std::map<std::string, Symbol> globals;
  std::map<std::string, SourceSpan> rule_labels;  // every `rule NAME:` in the program
};

}  // namespace rulebook::grammar
