// The formatter's layout of a decision with alternatives (format.cpp, whose Formatter makes
// this a friend): `choose by p {`, one alternative a line with its block opened on that line,
// `}`. Kept apart so that format.cpp stays one readable file.
#pragma once

#include <string>

#include "expr_printer.hpp"
#include "rulebook/grammar/ast.hpp"

namespace rulebook::authoring::detail {

template <typename F>
void format_alternatives(F& f, const grammar::ast::MixedChooseStmt& n, const std::string& prefix) {
  f.line(prefix + "choose by " + f.exprs_.print(n.chooser, kPrecAdd) + " {");
  ++f.indent_;
  f.at_block_start_ = true;
  for (const grammar::ast::Alternative& alt : n.alternatives) {
    f.begin_node(alt.span);  // its comments, and a blank line if the source had one
    std::string head = alt.name.text;
    if (alt.var && alt.domain) head += " " + alt.var->text + " in " + f.exprs_.print(*alt.domain, kPrecAdd);
    if (alt.body && alt.guard) {
      f.block(*alt.body, head + " where ", *alt.guard);
    } else if (alt.body) {
      f.block(*alt.body, head);
    } else if (alt.guard) {
      f.expr_line(head + " where ", *alt.guard);
    } else {
      f.line(head);
    }
    f.mark_end(alt.span);
    f.trailing_comment(alt.span.end_line);
  }
  --f.indent_;
  f.line("}");
}

}  // namespace rulebook::authoring::detail
