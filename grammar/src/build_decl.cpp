// The parse tree to the AST: declarations (players, cards, zones, variables, options,
// definitions, scores, setup and round, policies, claims for the verifier, overrides).
#include "build_ast.hpp"

namespace rulebook::grammar::detail {

void Builder::listed_twice(const SourceSpan& here, std::string_view item, const SourceSpan& first) {
  diagnostics_.error(Code::kDeclaredTwice, here,
                     fmt::format("'{}' is listed twice in the cards; a deck has each of its "
                                 "cards once", item))
      .notes.push_back({first, "the first one is here"});
}

ast::DefDecl Builder::def(const Node& n) {
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

// A payoff's value: `payoff_cond` (condition, then, else) or `payoff_ratio` (N [over D]).
ast::PayoffValue Builder::payoff_value(const Node& n) {
  ast::PayoffValue v;
  v.span = span(n);
  const auto& c = n.children;
  if (n.is_type<peg::payoff_cond>()) {
    v.condition = expr(*c.at(0));
    v.branches.push_back(payoff_value(*c.at(1)));
    v.branches.push_back(payoff_value(*c.at(2)));
    return v;
  }
  v.numerator = expr(*c.at(0));
  if (c.size() > 2) v.denominator = expr(*c.at(2));  // c[1] is `over`
  return v;
}

ast::Decl Builder::decl(const Node& n) {
  const SourceSpan s = span(n);
  auto make_decl = [&](ast::Decl::Node node) { return ast::Decl{std::move(node), s}; };
  const auto& c = n.children;
  if (n.is_type<peg::players_decl>()) {
    const std::int64_t lo = integer(*c.at(0));
    ast::PlayersDecl players{lo, lo, std::nullopt, {}};
    for (std::size_t i = 1; i < c.size(); ++i) {
      if (c[i]->is_type<peg::players_default>()) {
        players.default_count = integer(*c[i]->children.at(0));
        players.default_span = span(*c[i]);
      } else {
        players.max = integer(*c[i]);
      }
    }
    return make_decl(std::move(players));
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
        o.doc = string_of(*c[i], true);
      }
    }
    return make_decl(std::move(o));
  }
  if (n.is_type<peg::def_decl>()) return make_decl(def(n));
  if (n.is_type<peg::score_decl>()) {
    return make_decl(ast::ScoreDecl{ident(*c.at(0)), ident(*c.at(1)->children.at(0)), expr(*c.at(2))});
  }
  if (n.is_type<peg::payoff_decl>()) {
    return make_decl(ast::PayoffDecl{ident(*c.at(0)), ident(*c.at(1)->children.at(0)), payoff_value(*c.at(2))});
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

}  // namespace rulebook::grammar::detail
