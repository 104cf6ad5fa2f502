// The second half of parsing: the PEGTL parse tree, built by the selector in parse.cpp, to
// the AST, with trimmed source spans on every node. Private to the grammar library.
#pragma once

#include <algorithm>
#include <charconv>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <tao/pegtl/contrib/parse_tree.hpp>

#include "expression_depth.hpp"
#include "grammar.hpp"
#include "rulebook/grammar/ast.hpp"
#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/parse.hpp"

namespace rulebook::grammar::detail {

namespace pegtl = tao::pegtl;
namespace peg = rulebook::grammar::peg;
using Node = pegtl::parse_tree::node;

inline bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// ---- parse tree to AST -------------------------------------------------------------------

class Builder {
 public:
  Builder(const SourceFile& file, FileId id, Diagnostics& diagnostics)
      : file_(file), id_(id), diagnostics_(diagnostics), comment_start_(file.text.size(), kNone) {
    for (const Comment& c : scan_comments(file)) {
      for (std::size_t i = c.begin; i < c.end; ++i) comment_start_[i] = c.begin;
    }
  }

  ast::RulesFile file(const Node& root) {
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
        out.title = string_of(*n.children.at(0));
        out.title_span = span(*n.children.at(0));
      } else if (n.is_type<peg::variant_header>()) {
        out.kind = ast::FileKind::kVariant;
        out.title = string_of(*n.children.at(0));
        out.title_span = span(*n.children.at(0));
        out.base_path = string_of(*n.children.at(1));
        out.base_span = span(*n.children.at(1));
      } else {
        out.decls.push_back(decl(n));
      }
    }
    return out;
  }

 private:
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

  // ---- spans ----

  std::size_t trim_end(std::size_t begin, std::size_t end) const {
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

  std::pair<std::uint32_t, std::uint32_t> line_column(std::size_t offset) const {
    const auto& starts = file_.line_starts;
    const auto it = std::upper_bound(starts.begin(), starts.end(), offset);
    const auto line = static_cast<std::size_t>(it - starts.begin());
    return {static_cast<std::uint32_t>(line),
            static_cast<std::uint32_t>(offset - starts[line - 1] + 1)};
  }

 public:
  SourceSpan span_of(std::size_t begin, std::size_t end) const {
    SourceSpan s;
    s.file = id_;
    s.begin = begin;
    s.end = std::max(begin, trim_end(begin, end));
    std::tie(s.line, s.column) = line_column(s.begin);
    std::tie(s.end_line, s.end_column) = line_column(s.end);
    return s;
  }

 private:
  SourceSpan span(const Node& n) const { return span_of(n.begin().byte, n.end().byte); }

  // ---- leaves ----

  ast::Ident ident(const Node& n) const {
    const Node& leaf = n.is_type<peg::ident>() ? n : *n.children.at(0);
    return ast::Ident{leaf.string(), span(leaf)};
  }

  std::string string_of(const Node& string_node) const {
    // title/base_path/option_doc hold a string_body child (absent when empty).
    if (string_node.children.empty()) return {};
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

  std::int64_t integer(const Node& n) {
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

  static constexpr std::int64_t kMaxLiteral = 1'000'000'000;

  // The word a keyword node starts with (its text also holds the layout after it).
  static std::string_view trimmed(std::string_view s) {
    std::size_t n = 0;
    while (n < s.size() && is_ident_char(s[n])) ++n;
    return s.substr(0, n);
  }

  // ---- types ----

  ast::TypeExpr type(const Node& n) {
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

  // ---- expressions ----

  static bool is_operator(const Node& n) {
    return n.is_type<peg::op_or>() || n.is_type<peg::op_and>() || n.is_type<peg::op_eq>() ||
           n.is_type<peg::op_ne>() || n.is_type<peg::op_le>() || n.is_type<peg::op_ge>() ||
           n.is_type<peg::op_lt>() || n.is_type<peg::op_gt>() || n.is_type<peg::op_not_in>() ||
           n.is_type<peg::op_in>() || n.is_type<peg::op_plus>() || n.is_type<peg::op_minus>() ||
           n.is_type<peg::op_times>() || n.is_type<peg::op_divide>() ||
           n.is_type<peg::op_modulo>();
  }

  static ast::BinaryOp binary_op(const Node& n) {
    if (n.is_type<peg::op_or>()) return ast::BinaryOp::kOr;
    if (n.is_type<peg::op_and>()) return ast::BinaryOp::kAnd;
    if (n.is_type<peg::op_eq>()) return ast::BinaryOp::kEq;
    if (n.is_type<peg::op_ne>()) return ast::BinaryOp::kNe;
    if (n.is_type<peg::op_le>()) return ast::BinaryOp::kLe;
    if (n.is_type<peg::op_ge>()) return ast::BinaryOp::kGe;
    if (n.is_type<peg::op_lt>()) return ast::BinaryOp::kLt;
    if (n.is_type<peg::op_gt>()) return ast::BinaryOp::kGt;
    if (n.is_type<peg::op_not_in>()) return ast::BinaryOp::kNotIn;
    if (n.is_type<peg::op_in>()) return ast::BinaryOp::kIn;
    if (n.is_type<peg::op_plus>()) return ast::BinaryOp::kAdd;
    if (n.is_type<peg::op_minus>()) return ast::BinaryOp::kSub;
    if (n.is_type<peg::op_times>()) return ast::BinaryOp::kMul;
    if (n.is_type<peg::op_divide>()) return ast::BinaryOp::kDiv;
    return ast::BinaryOp::kMod;
  }

  ast::Expr make(ast::Expr::Node node, SourceSpan s) { return ast::Expr{std::move(node), s}; }

  ast::Order order(const Node& n, const Node* start) {
    ast::Order o;
    o.span = span(n);
    if (n.is_type<peg::order_cw>()) o.kind = ast::OrderKind::kClockwise;
    else if (n.is_type<peg::order_ccw>()) o.kind = ast::OrderKind::kCounterclockwise;
    else if (n.is_type<peg::order_up>()) o.kind = ast::OrderKind::kBottomToTop;
    else o.kind = ast::OrderKind::kTopToBottom;
    if (start != nullptr) {
      o.from.push_back(expr(*start));
      o.span = span_of(n.begin().byte, start->end().byte);
    }
    return o;
  }

  static bool is_order(const Node& n) {
    return n.is_type<peg::order_cw>() || n.is_type<peg::order_ccw>() ||
           n.is_type<peg::order_up>() || n.is_type<peg::order_down>();
  }
  static bool is_seat_order(const Node& n) {
    return n.is_type<peg::order_cw>() || n.is_type<peg::order_ccw>();
  }

  // Reads an optional order starting at children[i]; advances i past it.
  std::optional<ast::Order> maybe_order(const Node& n, std::size_t& i) {
    if (i >= n.children.size() || !is_order(*n.children[i])) return std::nullopt;
    const Node& word = *n.children[i];
    const Node* start = nullptr;
    ++i;
    if (is_seat_order(word)) start = n.children.at(i++).get();
    return order(word, start);
  }

 public:
  ast::Expr expr(const Node& n) {
    const SourceSpan s = span(n);
    // Too deep to build (reported in file()): a placeholder keeps every later pass bounded.
    if (too_deep_.count(&n) != 0) return make(ast::IntLit{0}, s);
    // Operator chains (folded when there is no operator): left-associative.
    if (n.children.size() >= 3 && is_operator(*n.children[1]) &&
        (n.is_type<peg::or_expr>() || n.is_type<peg::and_expr>() || n.is_type<peg::cmp_expr>() ||
         n.is_type<peg::add_expr>() || n.is_type<peg::mul_expr>())) {
      ast::Expr lhs = expr(*n.children[0]);
      for (std::size_t i = 1; i + 1 < n.children.size(); i += 2) {
        ast::Expr rhs = expr(*n.children[i + 1]);
        SourceSpan joined = span_of(lhs.span.begin, n.children[i + 1]->end().byte);
        lhs = make(ast::Binary{binary_op(*n.children[i]), std::move(lhs), std::move(rhs)}, joined);
      }
      return lhs;
    }
    if (n.is_type<peg::not_expr>()) {
      return make(ast::Unary{ast::UnaryOp::kNot, expr(*n.children.at(1))}, s);
    }
    if (n.is_type<peg::negate_expr>()) {
      return make(ast::Unary{ast::UnaryOp::kNegate, expr(*n.children.at(1))}, s);
    }
    if (n.is_type<peg::integer>()) return make(ast::IntLit{integer(n)}, s);
    if (n.is_type<peg::true_lit>()) return make(ast::BoolLit{true}, s);
    if (n.is_type<peg::false_lit>()) return make(ast::BoolLit{false}, s);
    if (n.is_type<peg::none_lit>()) return make(ast::NoneLit{}, s);
    if (n.is_type<peg::players_lit>()) return make(ast::PlayersLit{}, s);
    if (n.is_type<peg::seat_lit>()) return make(ast::SeatLit{expr(*n.children.at(0))}, s);
    if (n.is_type<peg::name_ref>()) return make(ast::NameRef{ident(n).text}, s);
    if (n.is_type<peg::call>()) {
      ast::Call call;
      const Node& callee = *n.children.at(0);
      call.callee = ast::Ident{std::string(trimmed(callee.string_view())), span(callee)};
      for (std::size_t i = 1; i < n.children.size(); ++i) call.args.push_back(expr(*n.children[i]));
      return make(std::move(call), s);
    }
    if (n.is_type<peg::set_literal>()) {
      ast::SetLit set;
      for (const auto& c : n.children) set.elements.push_back(expr(*c));
      return make(std::move(set), s);
    }
    if (n.is_type<peg::comprehension>()) {
      return make(ast::Comprehension{ident(*n.children.at(0)), expr(*n.children.at(1)),
                                     expr(*n.children.at(2))},
                  s);
    }
    if (n.is_type<peg::quantifier>()) {
      const std::string_view word = trimmed(n.children.at(0)->string_view());
      ast::QuantKind kind = ast::QuantKind::kExists;
      if (word == "all") kind = ast::QuantKind::kAll;
      else if (word == "count") kind = ast::QuantKind::kCount;
      else if (word == "sum") kind = ast::QuantKind::kSum;
      return make(ast::Quantifier{kind, ident(*n.children.at(1)), expr(*n.children.at(2)),
                                  expr(*n.children.at(3))},
                  s);
    }
    if (n.is_type<peg::extremum>()) {
      ast::Extremum e;
      e.is_max = trimmed(n.children.at(0)->string_view()) == "max";
      e.var = ident(*n.children.at(1));
      e.domain = expr(*n.children.at(2));
      const Node& key = *n.children.at(3);
      if (key.is_type<peg::key_list>()) {
        for (const auto& k : key.children) e.keys.push_back(expr(*k));
      } else {
        e.keys.push_back(expr(key));
      }
      return make(std::move(e), s);
    }
    if (n.is_type<peg::first_expr>()) {
      ast::First f;
      f.var = ident(*n.children.at(0));
      f.domain = expr(*n.children.at(1));
      std::size_t i = 2;
      f.order = maybe_order(n, i);
      if (i < n.children.size()) f.filter = ast::Box<ast::Expr>(expr(*n.children[i]));
      return make(std::move(f), s);
    }
    if (n.is_type<peg::conditional>()) {
      return make(ast::Conditional{expr(*n.children.at(0)), expr(*n.children.at(1)),
                                   expr(*n.children.at(2))},
                  s);
    }
    // Folded chains keep the single child's node; anything else is a bug in the selector.
    if (n.children.size() == 1) return expr(*n.children[0]);
    diagnostics_.error(Code::kInternal, s, fmt::format("internal error: unexpected parse node {}", n.type));
    return make(ast::IntLit{0}, s);
  }

 private:
  // ---- statements ----

  ast::Block block(const Node& n) {
    ast::Block b;
    b.span = span(n);
    for (const auto& c : n.children) b.stmts.push_back(stmt(*c));
    return b;
  }

  std::optional<ast::Face> maybe_face(const Node& n, std::size_t i) {
    if (i >= n.children.size()) return std::nullopt;
    if (n.children[i]->is_type<peg::face_up>()) return ast::Face::kUp;
    if (n.children[i]->is_type<peg::face_down>()) return ast::Face::kDown;
    return std::nullopt;
  }

  ast::Stmt stmt(const Node& n) {
    const SourceSpan s = span(n);
    auto make_stmt = [&](ast::Stmt::Node node) { return ast::Stmt{std::move(node), s}; };
    const auto& c = n.children;
    if (n.is_type<peg::rule_stmt>()) {
      return make_stmt(ast::RuleStmt{ident(*c.at(0)), stmt(*c.at(1))});
    }
    if (n.is_type<peg::phase_stmt>()) return make_stmt(ast::PhaseStmt{ident(*c.at(0)), block(*c.at(1))});
    if (n.is_type<peg::repeat_stmt>()) return make_stmt(ast::RepeatStmt{expr(*c.at(0)), block(*c.at(1))});
    if (n.is_type<peg::while_stmt>()) return make_stmt(ast::WhileStmt{false, expr(*c.at(0)), block(*c.at(1))});
    if (n.is_type<peg::until_stmt>()) return make_stmt(ast::WhileStmt{true, expr(*c.at(0)), block(*c.at(1))});
    if (n.is_type<peg::for_stmt>()) {
      ast::ForEachStmt f{ident(*c.at(0)), expr(*c.at(1)), std::nullopt, {}};
      std::size_t i = 2;
      f.order = maybe_order(n, i);
      f.body = block(*c.at(i));
      return make_stmt(std::move(f));
    }
    if (n.is_type<peg::if_stmt>()) {
      ast::IfStmt f;
      f.branches.push_back(ast::IfBranch{expr(*c.at(0)), block(*c.at(1))});
      for (std::size_t i = 2; i < c.size(); ++i) {
        if (c[i]->is_type<peg::else_if>()) {
          f.branches.push_back(ast::IfBranch{expr(*c[i]->children.at(0)), block(*c[i]->children.at(1))});
        } else {
          f.else_body = block(*c[i]->children.at(0));
        }
      }
      return make_stmt(std::move(f));
    }
    if (n.is_type<peg::simultaneous_stmt>()) {
      return make_stmt(ast::SimultaneousStmt{ident(*c.at(0)), expr(*c.at(1)), block(*c.at(2))});
    }
    if (n.is_type<peg::choose_stmt>()) {
      ast::ChooseStmt ch{ident(*c.at(0)), expr(*c.at(1)), expr(*c.at(2)), std::nullopt};
      if (c.size() > 3) ch.filter = expr(*c[3]);
      return make_stmt(std::move(ch));
    }
    if (n.is_type<peg::let_stmt>()) return make_stmt(ast::LetStmt{ident(*c.at(0)), expr(*c.at(1))});
    if (n.is_type<peg::move_stmt>()) {
      ast::MoveStmt m{expr(*c.at(0)), expr(*c.at(1)), std::nullopt, std::nullopt};
      for (std::size_t i = 2; i < c.size(); ++i) {
        if (c[i]->is_type<peg::at_top>()) m.placement = ast::Placement::kTop;
        else if (c[i]->is_type<peg::at_bottom>()) m.placement = ast::Placement::kBottom;
        else m.face = maybe_face(n, i);
      }
      return make_stmt(std::move(m));
    }
    if (n.is_type<peg::deal_stmt>()) {
      return make_stmt(ast::DealStmt{expr(*c.at(0)), expr(*c.at(1)), expr(*c.at(2)), maybe_face(n, 3)});
    }
    if (n.is_type<peg::shuffle_stmt>()) return make_stmt(ast::ShuffleStmt{expr(*c.at(0))});
    if (n.is_type<peg::flip_stmt>()) {
      return make_stmt(ast::FlipStmt{expr(*c.at(0)), maybe_face(n, 1).value_or(ast::Face::kUp)});
    }
    if (n.is_type<peg::set_stmt>()) return make_stmt(ast::SetStmt{expr(*c.at(0)), expr(*c.at(1))});
    if (n.is_type<peg::add_stmt>()) return make_stmt(ast::AddStmt{expr(*c.at(0)), expr(*c.at(1))});
    if (n.is_type<peg::swap_stmt>()) return make_stmt(ast::SwapSeatsStmt{expr(*c.at(0)), expr(*c.at(1))});
    if (n.is_type<peg::end_stmt>()) {
      ast::EndGameStmt e;
      if (!c.empty()) e.winners = expr(*c[0]);
      return make_stmt(std::move(e));
    }
    diagnostics_.error(Code::kInternal, s, fmt::format("internal error: unexpected statement node {}", n.type));
    return make_stmt(ast::EndGameStmt{});
  }

  // ---- declarations ----

  void listed_twice(const SourceSpan& here, std::string_view item, const SourceSpan& first) {
    diagnostics_.error(Code::kDeclaredTwice, here,
                       fmt::format("'{}' is listed twice in the cards; a deck has each of its "
                                   "cards once", item))
        .notes.push_back({first, "the first one is here"});
  }

  ast::DefDecl def(const Node& n) {
    ast::DefDecl d;
    const auto& c = n.children;
    d.name = ident(*c.at(0));
    std::size_t i = 1;
    if (i < c.size() && c[i]->is_type<peg::params>()) {
      d.has_params = true;
      for (const auto& p : c[i]->children) {
        d.params.push_back(ast::Param{ident(*p->children.at(0)), type(*p->children.at(1))});
      }
      ++i;
    }
    if (i < c.size() && c[i]->is_type<peg::result_type>()) {
      d.result = type(*c[i]->children.at(0));
      ++i;
    }
    d.body = expr(*c.at(i));
    return d;
  }

  ast::Decl decl(const Node& n) {
    const SourceSpan s = span(n);
    auto make_decl = [&](ast::Decl::Node node) { return ast::Decl{std::move(node), s}; };
    const auto& c = n.children;
    if (n.is_type<peg::players_decl>()) {
      const std::int64_t lo = integer(*c.at(0));
      return make_decl(ast::PlayersDecl{lo, c.size() > 1 ? integer(*c[1]) : lo});
    }
    if (n.is_type<peg::seats_decl>()) return make_decl(ast::SeatsDecl{integer(*c.at(0))});
    if (n.is_type<peg::cards_decl>()) {
      ast::CardsDecl cards;
      for (const auto& item : c) {
        // Each standard card and joker exists once, with a name of its own ("QH", "JK1"):
        // a second `standard52` or `jokers` would be silently the same deck, so it is an error.
        if (item->is_type<peg::standard52_item>()) {
          if (cards.standard52) {
            listed_twice(span(*item), "standard52", cards.standard52_span);
            continue;
          }
          cards.standard52 = true;
          cards.standard52_span = span(*item);
        } else if (item->is_type<peg::jokers_item>()) {
          if (cards.jokers) {
            listed_twice(span(*item), "jokers", cards.jokers_span);
            continue;
          }
          cards.jokers = integer(*item->children.at(0));
          cards.jokers_span = span(*item);
        } else {
          cards.kinds.push_back(ast::CardKindItem{ident(*item->children.at(0)), expr(*item->children.at(1))});
        }
      }
      return make_decl(std::move(cards));
    }
    if (n.is_type<peg::enum_decl>()) {
      ast::EnumDecl e{ident(*c.at(0)), {}};
      for (std::size_t i = 1; i < c.size(); ++i) e.values.push_back(ident(*c[i]));
      return make_decl(std::move(e));
    }
    if (n.is_type<peg::zone_decl>()) {
      ast::ZoneDecl z;
      z.name = ident(*c.at(0));
      std::size_t i = 1;
      if (c.at(i)->is_type<peg::player_param>()) z.param = ident(*c[i++]->children.at(0));
      z.shape = trimmed(c.at(i++)->string_view()) == "set" ? ast::ZoneShape::kSet : ast::ZoneShape::kPile;
      const std::string_view vis = trimmed(c.at(i)->string_view());
      z.visibility = vis == "public" ? ast::Visibility::kPublic
                     : vis == "owner" ? ast::Visibility::kOwner
                                      : ast::Visibility::kHidden;
      return make_decl(std::move(z));
    }
    if (n.is_type<peg::var_decl>()) {
      ast::VarDecl v;
      v.name = ident(*c.at(0));
      std::size_t i = 1;
      if (c.at(i)->is_type<peg::player_param>()) v.param = ident(*c[i++]->children.at(0));
      v.type = type(*c.at(i++));
      v.init = expr(*c.at(i++));
      v.per_round = i < c.size() && c[i]->is_type<peg::per_round>();
      return make_decl(std::move(v));
    }
    if (n.is_type<peg::option_decl>()) {
      ast::OptionDecl o;
      o.name = ident(*c.at(0));
      o.type = type(*c.at(1));
      o.default_value = expr(*c.at(2));
      for (std::size_t i = 3; i < c.size(); ++i) {
        if (c[i]->is_type<peg::option_range>()) {
          o.range = std::pair{integer(*c[i]->children.at(0)), integer(*c[i]->children.at(1))};
        } else {
          o.doc = string_of(*c[i]);
        }
      }
      return make_decl(std::move(o));
    }
    if (n.is_type<peg::def_decl>()) return make_decl(def(n));
    if (n.is_type<peg::score_decl>()) {
      return make_decl(ast::ScoreDecl{ident(*c.at(0)), ident(*c.at(1)->children.at(0)), expr(*c.at(2))});
    }
    if (n.is_type<peg::setup_decl>()) return make_decl(ast::SetupDecl{block(*c.at(0))});
    if (n.is_type<peg::round_decl>()) return make_decl(ast::RoundDecl{block(*c.at(0))});
    if (n.is_type<peg::policy_decl>()) {
      ast::PolicyDecl p{ident(*c.at(0)), {}};
      for (std::size_t i = 1; i < c.size(); ++i) {
        p.entries.push_back(ast::PolicyEntry{ident(*c[i]->children.at(0)), expr(*c[i]->children.at(1))});
      }
      return make_decl(std::move(p));
    }
    if (n.is_type<peg::invariant_decl>()) {
      return make_decl(ast::InvariantDecl{ident(*c.at(0)), expr(*c.at(1))});
    }
    if (n.is_type<peg::terminates_decl>()) {
      ast::TerminatesDecl t;
      const Node& target = *c.at(0);
      if (target.is_type<peg::terminates_game>()) t.target = ast::Ident{"game", span(target)};
      else if (target.is_type<peg::terminates_round>()) t.target = ast::Ident{"round", span(target)};
      else t.target = ident(target);
      if (c.size() > 1) t.measure = expr(*c[1]);
      return make_decl(std::move(t));
    }
    if (n.is_type<peg::override_decl>()) {
      const Node& what = *c.at(0);
      if (what.is_type<peg::override_option>()) {
        return make_decl(ast::OptionOverride{ident(*what.children.at(0)), expr(*what.children.at(1))});
      }
      if (what.is_type<peg::rule_stmt>()) return make_decl(ast::RuleOverride{stmt(what)});
      return make_decl(ast::DefOverride{def(what)});
    }
    diagnostics_.error(Code::kInternal, s, fmt::format("internal error: unexpected declaration node {}", n.type));
    return make_decl(ast::SeatsDecl{});
  }

  const SourceFile& file_;
  FileId id_;
  Diagnostics& diagnostics_;
  std::vector<std::size_t> comment_start_;
  std::unordered_set<const Node*> too_deep_;  // expressions past kMaxExpressionDepth
};

}  // namespace rulebook::grammar::detail
