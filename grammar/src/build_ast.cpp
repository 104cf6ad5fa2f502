// The parse tree to the AST, the builder's core: the file and its headers, trimmed source
// spans (without the layout and comments after a node), leaves (names, strings, integer
// literals) and types. Expressions, statements and declarations have a file each.
#include "build_ast.hpp"
#include "rulebook/grammar/printable.hpp"

namespace rulebook::grammar::detail {

Builder::Builder(const SourceFile& file, FileId id, Diagnostics& diagnostics)
    : file_(file), id_(id), diagnostics_(diagnostics), comment_start_(file.text.size(), kNone) {
  for (const Comment& c : scan_comments(file)) {
    for (std::size_t i = c.begin; i < c.end; ++i) comment_start_[i] = c.begin;
  }
}

ast::RulesFile Builder::file(const Node& root) {
  std::size_t reported = 0;
  for (const ExpressionDepth::Excess& excess : ExpressionDepth{}.find(root)) {
    too_deep_.insert(excess.node);
    if (reported++ < kMaxSyntaxErrors) {
      diagnostics_.error(Code::kNestingTooDeep, span(*excess.at), ExpressionDepth::message());
    }
  }
  ast::RulesFile out;
  out.span = span_of(0, file_.text.size());
  for (const auto& child : root.children) {
    const Node& n = *child;
    if (n.is_type<peg::game_header>()) {
      out.kind = ast::FileKind::kGame;
      out.title = string_of(*n.children.at(0), false);
      out.title_span = span(*n.children.at(0));
    } else if (n.is_type<peg::variant_header>()) {
      out.kind = ast::FileKind::kVariant;
      out.title = string_of(*n.children.at(0), false);
      out.title_span = span(*n.children.at(0));
      out.base_path = string_of(*n.children.at(1), false);
      out.base_span = span(*n.children.at(1));
    } else {
      out.decls.push_back(decl(n));
    }
  }
  return out;
}

std::size_t Builder::trim_end(std::size_t begin, std::size_t end) const {
  while (end > begin) {
    const char c = file_.text[end - 1];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      --end;
    } else if (comment_start_[end - 1] != kNone) {
      end = comment_start_[end - 1];
    } else {
      break;
    }
  }
  return end;
}

std::pair<std::uint32_t, std::uint32_t> Builder::line_column(std::size_t offset) const {
  return file_.line_column(offset);
}

SourceSpan Builder::span_of(std::size_t begin, std::size_t end) const {
  SourceSpan s;
  s.file = id_;
  s.begin = begin;
  s.end = std::max(begin, trim_end(begin, end));
  std::tie(s.line, s.column) = line_column(s.begin);
  std::tie(s.end_line, s.end_column) = line_column(s.end);
  return s;
}

ast::Ident Builder::ident(const Node& n) const {
  const Node& leaf = n.is_type<peg::ident>() ? n : *n.children.at(0);
  return ast::Ident{leaf.string(), span(leaf)};
}

std::string Builder::string_of(const Node& string_node, bool newlines) {
  // title/base_path/option_doc hold a string_body child (absent when empty).
  if (string_node.children.empty()) return {};
  // Strings are printed (a title heads every report): a control character would reach the
  // terminal (ESC starts escape sequences) or, as a newline in a title, print a line that
  // looks like the tool's own. Only an option's description may have `\n` line breaks.
  {
    const Node& body = *string_node.children.front();
    const std::string_view raw = body.string_view();
    const std::size_t base = body.begin().byte;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '\\' && i + 1 < raw.size()) {
        if (raw[i + 1] == 'n' && !newlines) {
          diagnostics_.error(Code::kSyntax, span_of(base + i, base + i + 2),
                             "a line break (\\n) in a title or a path: only an option's description may have more "
                             "than one line");
          return {};
        }
        ++i;
        continue;
      }
      if (const std::size_t length = control_character_at(raw, i); length != 0) {
        diagnostics_.error(Code::kSyntax, span_of(base + i, base + i + length),
                           fmt::format("a control character ({}) in a string: strings are printed, so they hold "
                                       "printable text only",
                                       printable(raw.substr(i, length))));
        return {};
      }
    }
  }
  const std::string_view raw = string_node.children.front()->string_view();
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      ++i;
      out += raw[i] == 'n' ? '\n' : raw[i];
    } else {
      out += raw[i];
    }
  }
  return out;
}

std::int64_t Builder::integer(const Node& n) {
  const Node& leaf = n.is_type<peg::integer>() ? n : *n.children.at(0);
  const std::string_view digits = leaf.string_view();
  std::int64_t value = 0;
  const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (result.ec != std::errc() || value > kMaxLiteral) {
    diagnostics_.error(Code::kIntegerTooLarge, span(leaf), fmt::format("integer literal {} is too large (the limit is {})",
                                               digits, kMaxLiteral));
    return 0;
  }
  return value;
}

std::string_view Builder::trimmed(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && is_ident_char(s[n])) ++n;
  return s.substr(0, n);
}

ast::TypeExpr Builder::type(const Node& n) {
  ast::TypeExpr t;
  t.span = span(n);
  if (n.is_type<peg::type_int>()) t.kind = ast::TypeExpr::Kind::kInt;
  else if (n.is_type<peg::type_bool>()) t.kind = ast::TypeExpr::Kind::kBool;
  else if (n.is_type<peg::type_player>()) t.kind = ast::TypeExpr::Kind::kPlayer;
  else if (n.is_type<peg::type_card>()) t.kind = ast::TypeExpr::Kind::kCard;
  else if (n.is_type<peg::type_set>()) {
    t.kind = ast::TypeExpr::Kind::kSetOf;
    t.element.push_back(type(*n.children.at(0)));
  } else {
    t.kind = ast::TypeExpr::Kind::kNamed;
    t.name = ident(n).text;
  }
  return t;
}

}  // namespace rulebook::grammar::detail
