// The formatter: AST back to text in one canonical layout, keeping the comments.
//
// Comments are not in the tree, so they are taken from the source text and placed by
// position: before printing a node, every comment that starts before it is printed on its
// own lines; a comment on the line where a statement ends stays at the end of that line.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "rulebook/authoring/format.hpp"
#include "rulebook/grammar/parse.hpp"
#include "rulebook/grammar/spelling.hpp"
#include "expr_printer.hpp"
#include "format_alternatives.hpp"
#include "format_text.hpp"

namespace rulebook::authoring {

namespace ast = grammar::ast;
using grammar::Comment;
using grammar::SourceFile;
using grammar::SourceSpan;
using grammar::spelling;

namespace {

using namespace detail;  // ExprPrinter, precedences

class Formatter {
  template <typename F> friend void detail::format_alternatives(F&, const ast::MixedChooseStmt&, const std::string&);
 public:
  explicit Formatter(const SourceFile& source)
      : source_(source), comments_(scan_comments(source)) {}

  std::string run(const ast::RulesFile& file) {
    flush_comments(file.title_span.begin);
    blank_line_if_gap(file.title_span.line);
    if (file.kind == ast::FileKind::kGame) {
      line("game " + quote(file.title));
    } else {
      line("variant " + quote(file.title) + " of " + quote(file.base_path));
    }
    mark_end(file.kind == ast::FileKind::kGame ? file.title_span : file.base_span);
    trailing_comment(last_end_line_);
    for (const ast::Decl& d : file.decls) {
      std::visit([&](const auto& n) { decl(n, d.span); }, d.node);
      trailing_comment(d.span.end_line);
    }
    flush_comments(source_.text.size());
    return out_;
  }

 private:
  // ---- output ----

  void line(std::string_view text) {
    if (continue_line_) {
      continue_line_ = false;
    } else {
      out_.append(static_cast<std::size_t>(indent_) * 2, ' ');
    }
    out_ += text;
    out_ += '\n';
    at_block_start_ = false;
  }

  // At most one blank line in a row: a node that starts after a gap and takes a comment from
  // inside itself as a leading one would otherwise print the gap twice (and a second pass,
  // one: not idempotent).
  void blank_line_if_gap(std::uint32_t next_line) {
    if (!at_block_start_ && !out_.empty() && !out_.ends_with("\n\n") && last_end_line_ != 0 && next_line > last_end_line_ + 1) {
      out_ += '\n';
    }
  }

  void mark_end(const SourceSpan& span) { last_end_line_ = std::max(last_end_line_, span.end_line); }

  // Prints, on their own lines, the comments that start before `offset`.
  void flush_comments(std::size_t offset) {
    while (next_comment_ < comments_.size() && comments_[next_comment_].begin < offset) {
      const Comment& c = comments_[next_comment_++];
      blank_line_if_gap(c.line);
      line(std::string_view(source_.text).substr(c.begin, c.end - c.begin));
      last_end_line_ = std::max(last_end_line_, c.line);
    }
  }

  // A comment on the source line where the node just printed ended stays on its line.
  void trailing_comment(std::uint32_t end_line) {
    if (next_comment_ >= comments_.size() || comments_[next_comment_].line != end_line) return;
    const Comment& c = comments_[next_comment_++];
    out_.pop_back();  // the newline
    out_ += "  ";
    out_ += std::string_view(source_.text).substr(c.begin, c.end - c.begin);
    out_ += '\n';
  }

  // Starts a node at `span`: its leading comments, and a blank line if the source had one.
  void begin_node(const SourceSpan& span) {
    flush_comments(span.begin);
    blank_line_if_gap(span.line);
  }

  // An expression after `prefix` on one line if it fits. Otherwise a declaration
  // (`as_body`) puts the expression on the following lines, one step in; a statement keeps
  // the first line after the prefix and indents the rest one step.
  void expr_line(const std::string& prefix, const ast::Expr& e, const std::string& suffix = "",
                 bool as_body = false) {
    const std::size_t used = static_cast<std::size_t>(indent_) * 2;
    const std::string flat = prefix + exprs_.print(e) + suffix;
    if (used + flat.size() <= kFormatWidth) {
      line(flat);
      return;
    }
    if (as_body) {
      std::string head = prefix;
      while (!head.empty() && head.back() == ' ') head.pop_back();
      line(head);
      ++indent_;
      emit(exprs_.layout(e, kPrecOr, width_left(0)), suffix);
      --indent_;
      return;
    }
    ExprPrinter::Lines lines = exprs_.layout(e, kPrecOr, width_left(prefix.size()));
    lines.front().second = prefix + lines.front().second;
    for (std::size_t i = 1; i < lines.size(); ++i) lines[i].first += 1;
    emit(lines, suffix);
  }

  // Columns left on a line after the indentation and `taken` more.
  std::size_t width_left(std::size_t taken) const {
    const std::size_t used = static_cast<std::size_t>(indent_) * 2 + taken;
    return kFormatWidth - std::min(kFormatWidth - 40, used);
  }

  void emit(const ExprPrinter::Lines& lines, const std::string& suffix) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      indent_ += lines[i].first;
      line(lines[i].second + (i + 1 == lines.size() ? suffix : ""));
      indent_ -= lines[i].first;
    }
  }

  // ---- statements ----

  // A block whose header ends with an expression (`if C`, `while C`): when the header is too
  // wide the expression wraps, its later lines two steps in so they stand apart from the body.
  void block(const ast::Block& b, const std::string& prefix, const ast::Expr& e) {
    const std::string flat = prefix + exprs_.print(e);
    if (static_cast<std::size_t>(indent_) * 2 + flat.size() + 2 <= kFormatWidth) {
      block(b, flat);
      return;
    }
    ExprPrinter::Lines lines = exprs_.layout(e, kPrecOr, width_left(prefix.size() + 2));
    lines.front().second = prefix + lines.front().second;
    for (std::size_t i = 1; i < lines.size(); ++i) lines[i].first += 2;
    lines.back().second += " {";
    emit(lines, "");
    open_block(b);
  }

  void block(const ast::Block& b, const std::string& header) {
    line(header + " {");
    open_block(b);
  }

  void open_block(const ast::Block& b) {
    ++indent_;
    at_block_start_ = true;
    for (const ast::Stmt& s : b.stmts) stmt(s);
    flush_comments(b.span.end);
    --indent_;
    line("}");
    mark_end(b.span);
  }

  void stmt(const ast::Stmt& s) {
    begin_node(s.span);
    stmt_body(s, "");
    mark_end(s.span);
    trailing_comment(s.span.end_line);
  }

  static bool has_block(const ast::Stmt& s) {
    if (const auto* r = std::get_if<ast::RuleStmt>(&s.node)) return has_block(*r->body);
    return std::holds_alternative<ast::PhaseStmt>(s.node) ||
           std::holds_alternative<ast::RepeatStmt>(s.node) ||
           std::holds_alternative<ast::WhileStmt>(s.node) ||
           std::holds_alternative<ast::ForEachStmt>(s.node) ||
           std::holds_alternative<ast::IfStmt>(s.node) ||
           std::holds_alternative<ast::SimultaneousStmt>(s.node) || std::holds_alternative<ast::MixedChooseStmt>(s.node);
  }

  // `prefix` is what goes before the statement on its first line (a rule label).
  void stmt_body(const ast::Stmt& s, const std::string& prefix) {
    // A one-line statement takes the comments inside it as leading comments.
    if (!has_block(s)) flush_comments(s.span.end);
    std::visit([&](const auto& n) { stmt_node(n, prefix); }, s.node);
  }

  void stmt_node(const ast::RuleStmt& n, const std::string& prefix) {
    flush_comments(n.body->span.begin);
    stmt_body(*n.body, prefix + "rule " + n.label.text + ": ");
  }
  void stmt_node(const ast::PhaseStmt& n, const std::string& prefix) {
    block(n.body, prefix + "phase " + n.name.text);
  }
  void stmt_node(const ast::RepeatStmt& n, const std::string& prefix) {
    block(n.body, prefix + "repeat ", n.count);
  }
  void stmt_node(const ast::WhileStmt& n, const std::string& prefix) {
    block(n.body, prefix + (n.until ? "until " : "while "), n.condition);
  }
  void stmt_node(const ast::ForEachStmt& n, const std::string& prefix) {
    std::string header = prefix + "for each " + n.var.text + " in " + exprs_.print(n.domain, kPrecAdd);
    if (n.order) header += " " + exprs_.order(*n.order);
    block(n.body, header);
  }
  void stmt_node(const ast::IfStmt& n, const std::string& prefix) {
    for (std::size_t i = 0; i < n.branches.size(); ++i) {
      const std::string head = i == 0 ? prefix + "if " : "else if ";
      if (i != 0) reopen_after_brace();
      block(n.branches[i].body, head, n.branches[i].condition);
    }
    if (n.else_body) {
      reopen_after_brace();
      block(*n.else_body, "else");
    }
  }
  // `} else {`: the closing brace just printed is continued on its line.
  void reopen_after_brace() {
    out_.pop_back();  // newline after '}'
    out_ += ' ';
    continue_line_ = true;
  }
  void stmt_node(const ast::SimultaneousStmt& n, const std::string& prefix) {
    block(n.body, prefix + "simultaneous for each " + n.var.text + " in " +
                      exprs_.print(n.domain, kPrecAdd));
  }
  void stmt_node(const ast::ChooseStmt& n, const std::string& prefix) {
    std::string text = prefix + "choose " + n.var.text + " in " + exprs_.print(n.domain, kPrecAdd) +
                       (n.at_random ? std::string(" at random") : " by " + exprs_.print(n.chooser, kPrecAdd));
    if (n.filter) {
      expr_line(text + " where ", *n.filter);
    } else {
      line(text);
    }
  }
  void stmt_node(const ast::MixedChooseStmt& n, const std::string& prefix) { detail::format_alternatives(*this, n, prefix); }
  void stmt_node(const ast::LetStmt& n, const std::string& prefix) {
    expr_line(prefix + "let " + n.name.text + " = ", n.value);
  }
  void stmt_node(const ast::MoveStmt& n, const std::string& prefix) {
    std::string text = prefix + "move " + exprs_.print(n.cards) + " to " + exprs_.print(n.target, kPrecAdd);
    if (n.placement) text += n.placement == ast::Placement::kTop ? " at top" : " at bottom";
    if (n.face) text += " " + std::string(face_text(*n.face));
    line(text);
  }
  void stmt_node(const ast::DealStmt& n, const std::string& prefix) {
    std::string text = prefix + "deal " + exprs_.print(n.count, kPrecAdd) + " from " +
                       exprs_.print(n.source, kPrecAdd) + " to " + exprs_.print(n.target, kPrecAdd);
    if (n.face) text += " " + std::string(face_text(*n.face));
    line(text);
  }
  void stmt_node(const ast::ShuffleStmt& n, const std::string& prefix) {
    line(prefix + "shuffle " + exprs_.print(n.zone, kPrecAdd));
  }
  void stmt_node(const ast::FlipStmt& n, const std::string& prefix) {
    line(prefix + "flip " + exprs_.print(n.cards) + " " + std::string(face_text(n.face)));
  }
  void stmt_node(const ast::SetStmt& n, const std::string& prefix) {
    expr_line(prefix + "set " + exprs_.print(n.target, kPrecPrimary) + " := ", n.value);
  }
  void stmt_node(const ast::AddStmt& n, const std::string& prefix) {
    line(prefix + "add " + exprs_.print(n.amount) + " to " + exprs_.print(n.target, kPrecPrimary));
  }
  void stmt_node(const ast::SwapSeatsStmt& n, const std::string& prefix) {
    line(prefix + "swap seats " + exprs_.print(n.first, kPrecAdd) + " and " +
         exprs_.print(n.second, kPrecAdd));
  }
  void stmt_node(const ast::EndGameStmt& n, const std::string& prefix) {
    if (n.winners) {
      expr_line(prefix + "end game winners ", *n.winners);
    } else {
      line(prefix + "end game");
    }
  }

  // ---- declarations ----

  void decl(const ast::PlayersDecl& n, const SourceSpan& span) {
    begin_node(span);
    std::string text = n.min == n.max ? fmt::format("players {}", n.min) : fmt::format("players {}..{}", n.min, n.max);
    if (n.default_count) text += fmt::format(" default {}", *n.default_count);
    line(text);
    mark_end(span);
  }
  void decl(const ast::SeatsDecl& n, const SourceSpan& span) {
    begin_node(span);
    line(fmt::format("seats {}", n.count));
    mark_end(span);
  }
  void decl(const ast::CardsDecl& n, const SourceSpan& span) {
    begin_node(span);
    line("cards {");
    ++indent_;
    at_block_start_ = true;
    // Items print in the order written; standard52 and jokers carry their own spans.
    struct Item {
      std::size_t begin;
      std::uint32_t end_line;
      std::string text;
      SourceSpan span;
    };
    std::vector<Item> items;
    if (n.standard52) items.push_back({n.standard52_span.begin, n.standard52_span.end_line, "standard52", n.standard52_span});
    if (n.jokers) items.push_back({n.jokers_span.begin, n.jokers_span.end_line, fmt::format("jokers {}", *n.jokers), n.jokers_span});
    for (const ast::CardKindItem& k : n.kinds) {
      SourceSpan s = k.name.span;
      s.end = k.count.span.end;
      s.end_line = k.count.span.end_line;
      items.push_back({k.name.span.begin, k.count.span.end_line, k.name.text + ": " + exprs_.print(k.count), s});
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.begin < b.begin; });
    for (const Item& item : items) {
      begin_node(item.span);
      line(item.text);
      mark_end(item.span);
      trailing_comment(item.end_line);
    }
    flush_comments(span.end);
    --indent_;
    line("}");
    mark_end(span);
  }
  void decl(const ast::EnumDecl& n, const SourceSpan& span) {
    begin_node(span);
    flush_comments(span.end);
    std::string text = "enum " + n.name.text + " { ";
    for (std::size_t i = 0; i < n.values.size(); ++i) {
      if (i != 0) text += ", ";
      text += n.values[i].text;
    }
    line(text + " }");
    mark_end(span);
  }
  static std::string param_suffix(const std::optional<ast::Ident>& param) {
    return param ? "(" + param->text + ")" : "";
  }
  void decl(const ast::ZoneDecl& n, const SourceSpan& span) {
    begin_node(span);
    line(fmt::format("zone {}{}: {} {}", n.name.text, param_suffix(n.param),
                     n.shape == ast::ZoneShape::kPile ? "pile" : "set",
                     spelling(n.visibility)));
    mark_end(span);
  }
  void decl(const ast::VarDecl& n, const SourceSpan& span) {
    begin_node(span);
    flush_comments(span.end);
    expr_line(fmt::format("var {}{}: {} = ", n.name.text, param_suffix(n.param), spelling(n.type)),
              n.init, n.per_round ? " per round" : "", true);
    mark_end(span);
  }
  void decl(const ast::OptionDecl& n, const SourceSpan& span) {
    begin_node(span);
    flush_comments(span.end);
    std::string text = fmt::format("option {}: {} = {}", n.name.text, spelling(n.type),
                                   exprs_.print(n.default_value, kPrecAdd));
    if (n.range) text += fmt::format(" in {}..{}", n.range->first, n.range->second);
    if (!n.doc.empty()) text += " " + quote(n.doc);
    line(text);
    mark_end(span);
  }
  std::string def_header(const ast::DefDecl& n) const {
    std::string text = "def " + n.name.text;
    if (n.has_params) {
      text += "(";
      for (std::size_t i = 0; i < n.params.size(); ++i) {
        if (i != 0) text += ", ";
        text += n.params[i].name.text + ": " + spelling(n.params[i].type);
      }
      text += ")";
    }
    if (n.result) text += ": " + spelling(*n.result);
    return text + " = ";
  }
  void decl(const ast::DefDecl& n, const SourceSpan& span) {
    begin_node(span);
    flush_comments(span.end);
    expr_line(def_header(n), n.body, "", true);
    mark_end(span);
  }
  void decl(const ast::ScoreDecl& n, const SourceSpan& span) {
    begin_node(span);
    flush_comments(span.end);
    expr_line("score " + n.name.text + "(" + n.param.text + ") = ", n.value, "", true);
    mark_end(span);
  }
  void decl(const ast::PayoffDecl& n, const SourceSpan& span) {
    begin_node(span);
    flush_comments(span.end);
    line("payoff " + n.name.text + "(" + n.param.text + "): " + payoff_text(exprs_, n.value));
    mark_end(span);
  }
  void decl(const ast::SetupDecl& n, const SourceSpan& span) {
    begin_node(span);
    block(n.body, "setup");
  }
  void decl(const ast::RoundDecl& n, const SourceSpan& span) {
    begin_node(span);
    block(n.body, "round");
  }
  void decl(const ast::PolicyDecl& n, const SourceSpan& span) {
    begin_node(span);
    line("policy " + n.name.text + " {");
    ++indent_;
    at_block_start_ = true;
    for (const ast::PolicyEntry& e : n.entries) {
      SourceSpan s = e.rule.span;
      s.end = e.choice.span.end;
      s.end_line = e.choice.span.end_line;
      begin_node(s);
      flush_comments(s.end);
      expr_line(e.rule.text + ": ", e.choice);
      mark_end(s);
      trailing_comment(s.end_line);
    }
    flush_comments(span.end);
    --indent_;
    line("}");
    mark_end(span);
  }
  void decl(const ast::InvariantDecl& n, const SourceSpan& span) {
    begin_node(span);
    flush_comments(span.end);
    expr_line("invariant " + n.name.text + ": ", n.condition, "", true);
    mark_end(span);
  }
  void decl(const ast::TerminatesDecl& n, const SourceSpan& span) {
    begin_node(span);
    flush_comments(span.end);
    if (n.measure) {
      expr_line("terminates " + n.target.text + " by ", *n.measure);
    } else {
      line("terminates " + n.target.text);
    }
    mark_end(span);
  }
  void decl(const ast::OptionOverride& n, const SourceSpan& span) {
    begin_node(span);
    flush_comments(span.end);
    expr_line("override option " + n.name.text + " = ", n.value);
    mark_end(span);
  }
  void decl(const ast::RuleOverride& n, const SourceSpan& span) {
    begin_node(span);
    flush_comments(n.rule.span.begin);
    stmt_body(n.rule, "override ");
    mark_end(span);
  }
  void decl(const ast::DefOverride& n, const SourceSpan& span) {
    begin_node(span);
    flush_comments(span.end);
    expr_line("override " + def_header(n.def), n.def.body, "", true);
    mark_end(span);
  }

  const SourceFile& source_;
  std::vector<Comment> comments_;
  std::size_t next_comment_ = 0;
  ExprPrinter exprs_;
  std::string out_;
  int indent_ = 0;
  std::uint32_t last_end_line_ = 0;
  bool at_block_start_ = false;
  bool continue_line_ = false;  // the next line() continues the last line (`} else {`)
};

}  // namespace

std::string format_rules(const ast::RulesFile& file, const SourceFile& source) {
  std::string formatted = Formatter(source).run(file);
  // A byte-order mark stays: the editor that wrote it may want it there.
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (std::string_view(source.text).starts_with(kByteOrderMark)) formatted.insert(0, kByteOrderMark);
  return formatted;
}

}  // namespace rulebook::authoring
