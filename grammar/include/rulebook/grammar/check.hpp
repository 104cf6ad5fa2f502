// Resolution and type checking: names, duplicates, types, arity, and the structural rules
// of a ruleset. All problems of one run are reported together.
#pragma once

#include <optional>

#include "rulebook/grammar/ast.hpp"
#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/program.hpp"

namespace rulebook::grammar {

// Checks a game file (a variant must be composed with its base first: see load.hpp).
// Returns the program when there is no error; warnings do not prevent it.
std::optional<Program> check_program(ast::RulesFile file, Diagnostics& diagnostics);

}  // namespace rulebook::grammar
