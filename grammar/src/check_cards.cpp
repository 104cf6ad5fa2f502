// The checks of a `cards` declaration that the types do not make: card names that two kinds
// would share, and counts past what the interpreter plays.
#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <variant>

#include <fmt/format.h>

#include "checker.hpp"

namespace rulebook::grammar {

// Cards are named by their kind and a number (note1, note2, ...; jokers JK1, JK2, ...), and logs
// name cards, so two cards must never share a name. They would when a kind's name is another's
// followed by digits (kinds `note` and `note1`: note1's first card and note's eleventh are both
// note11), or is `JK` followed by digits or nothing while the deck has jokers. Counts may depend
// on options, so the names alone decide.
void Checker::check_card_names(const ast::CardsDecl& cards) {
  // Each name against the kinds it could extend: the name without 1, 2, ... of its trailing
  // digits, looked up; comparing every pair was quadratic in the kinds.
  std::unordered_map<std::string_view, const ast::CardKindItem*> by_name;
  for (const ast::CardKindItem& item : cards.kinds) by_name.emplace(item.name.text, &item);
  const auto is_digit = [](char ch) { return ch >= '0' && ch <= '9'; };
  for (const ast::CardKindItem& item : cards.kinds) {
    const std::string& name = item.name.text;
    std::size_t digits = 0;
    while (digits < name.size() && is_digit(name[name.size() - 1 - digits])) ++digits;
    if (cards.jokers && *cards.jokers > 0 && name.size() == 2 + digits && name.compare(0, 2, "JK") == 0) {
      const std::string message =
          name == "JK" ? std::string("card kind 'JK' would name its cards JK1, JK2, ..., the names of the jokers; rename the kind")
                       : fmt::format("card kind '{}' is 'JK' followed by digits: its cards could share a name with a joker "
                                     "({}1 is also the name of joker number {}1); rename the kind",
                                     name, name, name.substr(2));
      diagnostics_.error(Code::kAlreadyDefined, item.name.span, message);
      continue;
    }
    for (std::size_t cut = 1; cut <= digits && cut < name.size(); ++cut) {
      const auto other = by_name.find(std::string_view(name).substr(0, name.size() - cut));
      if (other == by_name.end()) continue;
      const std::string& base = other->second->name.text;
      diagnostics_.error(Code::kAlreadyDefined, item.name.span,
                         fmt::format("card kind '{}' is kind '{}' followed by digits: their cards could share a name "
                                     "(cards are named by kind and number: {}1 is also the name of {}'s card number {}1); "
                                     "rename one of the kinds", name, base, name, base, name.substr(base.size())))
          .notes.push_back({other->second->name.span, fmt::format("kind '{}' is declared here", base)});
      break;
    }
  }
}

// A count the checker can know (a literal, or an option's range or default) must be within
// what the interpreter plays; other counts are checked when a game starts. Returns the most
// cards the count can give, as far as the checker knows (0 when it cannot know).
std::int64_t Checker::check_card_count(const ast::CardKindItem& item) {
  // `why` says where a count that is not written comes from.
  const auto over = [&](std::int64_t count, const SourceSpan& at, const std::string& why) {
    if (count >= 0 && count <= kMaxCardsOfAKind) return;
    diagnostics_.error(Code::kOverLimit, at,
                       why.empty() ? fmt::format("a card kind has 0 to {} cards, not {}", kMaxCardsOfAKind, count)
                                   : fmt::format("{} {}, but a card kind has 0 to {} cards", why, count,
                                                 kMaxCardsOfAKind));
  };
  const ast::Expr& count = item.count;
  if (const auto* lit = std::get_if<ast::IntLit>(&count.node)) {
    over(lit->value, count.span, "");
    return lit->value;
  }
  if (const auto* neg = std::get_if<ast::Unary>(&count.node)) {
    const auto* lit = std::get_if<ast::IntLit>(&neg->operand->node);
    if (neg->op == ast::UnaryOp::kNegate && lit != nullptr) over(-lit->value, count.span, "");
    return 0;
  }
  const auto* ref = std::get_if<ast::NameRef>(&count.node);
  if (ref == nullptr) return 0;
  const auto global = program_.globals.find(ref->name);
  if (global == program_.globals.end() || global->second.kind != Symbol::Kind::kOption) return 0;
  const auto* option = std::get_if<ast::OptionDecl>(&program_.file.decls.at(global->second.decl_index).node);
  if (option == nullptr) return 0;
  if (option->range) {
    const std::string why = fmt::format("the range of option '{}' allows", ref->name);
    over(option->range->first, count.span, why);
    over(option->range->second, count.span, why);
    return option->range->second;
  }
  if (const auto* lit = std::get_if<ast::IntLit>(&option->default_value.node)) {
    over(lit->value, count.span, fmt::format("option '{}' is by default", ref->name));
    return lit->value;
  }
  return 0;
}

// The cards of every kind together, as far as the checker knows them.
void Checker::check_card_total(const ast::CardsDecl& cards, const SourceSpan& at) {
  std::int64_t total = (cards.standard52 ? 52 : 0) + cards.jokers.value_or(0);
  for (const ast::CardKindItem& item : cards.kinds) {
    total += std::clamp<std::int64_t>(check_card_count(item), 0, kMaxCardsOfAKind);
  }
  if (total <= kMaxCardsInAGame) return;
  diagnostics_.error(Code::kOverLimit, at,
                     fmt::format("the cards declared here come to {} (counting each option at the top of its range), "
                                 "but a game has at most {} cards of every kind together",
                                 total, kMaxCardsInAGame));
}

}  // namespace rulebook::grammar
