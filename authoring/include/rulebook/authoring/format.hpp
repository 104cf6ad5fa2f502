// The canonical layout of a rule file (`rulebook fmt`). The span-free dump of the tree that
// checks its round trip is the front end's: rulebook/grammar/dump.hpp.
#pragma once

#include <string>

#include "rulebook/grammar/ast.hpp"
#include "rulebook/grammar/source.hpp"

namespace rulebook::authoring {

// Lines wider than this are wrapped where the formatter knows how: long `and`/`or` chains.
inline constexpr std::size_t kFormatWidth = 100;

// Prints `file` in canonical layout: two-space indentation, one statement or declaration
// per line, the fewest parentheses that keep the meaning, at most one blank line where the
// source had any. Comments of `source` (the text `file` was parsed from) are kept: each
// goes before the node that follows it, or stays at the end of the line it ended.
// Formatting is idempotent, and the result parses to the same tree as the input.
std::string format_rules(const grammar::ast::RulesFile& file, const grammar::SourceFile& source);

}  // namespace rulebook::authoring
