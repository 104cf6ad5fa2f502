// Parsing: rule text to AST. PEGTL stays behind this header so its templates compile once.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "rulebook/grammar/ast.hpp"
#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/source.hpp"

namespace rulebook::grammar {

// The most syntax errors reported for one file before the parser gives up.
inline constexpr std::size_t kMaxSyntaxErrors = 25;
// How deep expressions and blocks may nest; deeper is a syntax error.
inline constexpr std::size_t kMaxNesting = 200;
// How deep an expression's tree may be, counting each operator of a chain such as
// `a + b + c` as a level (the parser reads a chain without nesting, but the tree is as deep
// as the chain is long). Deeper is a syntax error at the operator that goes past it.
// 500, not more: evaluating a 1000-level expression took 1.4 MB of stack in the release
// build and 7 MB under AddressSanitizer, too close to the usual 8 MiB.
inline constexpr std::size_t kMaxExpressionDepth = 500;

// Parses one file. Syntax errors go to `diagnostics`, several per run: after an error the
// parser skips to the next statement or declaration and goes on. The tree holds everything
// that parsed; it is only meaningful when no error was reported.
ast::RulesFile parse_rules(const SourceManager& sources, FileId file, Diagnostics& diagnostics);

// Whether `text` starts as a rule file does: with 'game' or 'variant', after an optional
// byte-order mark, blank lines and comments. A variant's base that does not is not shown in
// a message (it may be any file; its first line is none of the user's business).
bool starts_like_rule_file(std::string_view text);

// A comment as written (`# ...`, without the newline), for the formatter.
struct Comment {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::uint32_t line = 0;
};

// Every comment of a file in order, skipping '#' inside strings.
std::vector<Comment> scan_comments(const SourceFile& file);

// Number of problems PEGTL's grammar analysis finds (left recursion, loops that consume
// nothing); 0 for a sound grammar. Used by the tests.
std::size_t analyze_grammar();

}  // namespace rulebook::grammar
