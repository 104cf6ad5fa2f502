// Why a choice a log gives is not legal: the part of the decision's domain or filter that
// rules it out, quoted from the rule file with the values its names have for that choice.
// A replay prints these as notes of an illegal step (replay.cpp).
#pragma once

#include <vector>

#include "log_names.hpp"
#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/source.hpp"
#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter::detail {

// Notes, outermost first, that follow `choice` down the pending decision's domain (`c in
// hand(p)`, through definitions, comprehensions, set differences and if-then-else) to the
// first condition that is false for it, or to the collection it is not in. Empty when no
// reason is found (the choice is legal, or the rules fault evaluating it).
std::vector<grammar::DiagnosticNote> why_illegal(const Machine& machine, const grammar::SourceManager& sources,
                                                 const LogNames& names, const State& state, const Value& choice);

// The same for a move of alternative `alternative` of a decision with alternatives.
std::vector<grammar::DiagnosticNote> why_illegal_alternative(const Machine& machine, const grammar::SourceManager& sources,
                                                             const LogNames& names, const State& state, std::int32_t alternative,
                                                             const Value& choice);

}  // namespace rulebook::interpreter::detail
