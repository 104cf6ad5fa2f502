// Type checking of statements: what each may do where it stands, the targets of moves and
// assignments, and the blocks they open.
#include <algorithm>

#include <fmt/format.h>

#include "checker.hpp"

namespace rulebook::grammar {

// ---- statements --------------------------------------------------------------------------

void Checker::block(const ast::Block& b, StmtContext context) {
  push_scope();
  for (const ast::Stmt& s : b.stmts) stmt(s, context);
  pop_scope();
}

void Checker::assignable_target(const ast::Expr& target, const Type& value_type, bool must_be_int,
                                const char* verb) {
  std::string name;
  bool has_arg = false;
  if (const auto* ref = std::get_if<ast::NameRef>(&target.node)) {
    name = ref->name;
  } else if (const auto* c = std::get_if<ast::Call>(&target.node)) {
    name = c->callee.text;
    has_arg = true;
  }
  if (const Local* local = find_local(name)) {
    diagnostics_.error(Code::kNotAssignable, target.span, fmt::format("cannot {} '{}': it is a local name; only variables "
                                                "declared with 'var' can change", verb, name))
        .notes.push_back({local->span, "it is bound here"});
    return;
  }
  const Symbol* symbol = find_global(name);
  if (symbol != nullptr && symbol->kind != Symbol::Kind::kVar) {
    std::string why = "only variables declared with 'var' can change";
    if (symbol->kind == Symbol::Kind::kOption) why = "options are fixed for the whole game";
    if (symbol->kind == Symbol::Kind::kDef) why = "definitions are computed, not stored";
    if (symbol->kind == Symbol::Kind::kScore) why = "a score is computed; change the variables it reads";
    diagnostics_.error(Code::kNotAssignable, target.span, fmt::format("cannot {} {} '{}': {}", verb, kind_name(symbol->kind), name, why));
    return;
  }
  const Type type = expr(target);
  (void)has_arg;
  if (must_be_int) {
    if (!assignable(Type::integer(), type)) {
      diagnostics_.error(Code::kNotAssignable, target.span, fmt::format("'add' needs an int variable, but '{}' is {}", name, to_string(type)));
    }
  } else if (!assignable(type, value_type)) {
    diagnostics_.error(Code::kTypeMismatch, target.span, fmt::format("type mismatch in assignment: '{}' is {}, but the value is {}",
                                                name, to_string(type), to_string(value_type)));
  }
}

void Checker::stmt(const ast::Stmt& s, StmtContext context) {
  const std::string label = std::move(pending_label_);
  pending_label_.clear();
  auto no_effects_here = [&](const char* what) {
    if (context.in_simultaneous) {
      diagnostics_.error(Code::kNotInSimultaneous, s.span, fmt::format("'{}' is not allowed in a simultaneous block: it only collects "
                                             "secret choices; act on them after the block", what));
    }
  };
  std::visit(
      [&](const auto& node) {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, ast::RuleStmt>) {
          auto [it, inserted] = program_.rule_labels.try_emplace(node.label.text, node.label.span);
          if (!inserted) {
            diagnostics_.error(Code::kAlreadyDefined, node.label.span, fmt::format("rule label '{}' is used twice", node.label.text))
                .notes.push_back({it->second, "the first one is here"});
          }
          const auto& body = node.body->node;
          if (std::holds_alternative<ast::RepeatStmt>(body) || std::holds_alternative<ast::WhileStmt>(body) ||
              std::holds_alternative<ast::ForEachStmt>(body)) {
            loop_labels_[node.label.text] = node.label.span;
          }
          pending_label_ = node.label.text;
          stmt(*node.body, context);
        } else if constexpr (std::is_same_v<T, ast::PhaseStmt>) {
          no_effects_here("phase");
          block(node.body, context);
        } else if constexpr (std::is_same_v<T, ast::RepeatStmt>) {
          expect(node.count, Type::integer(), "'repeat' count");
          block(node.body, context);
        } else if constexpr (std::is_same_v<T, ast::WhileStmt>) {
          no_effects_here(node.until ? "until" : "while");
          expect(node.condition, Type::boolean(), node.until ? "'until' condition" : "'while' condition");
          block(node.body, context);
        } else if constexpr (std::is_same_v<T, ast::ForEachStmt>) {
          const Type domain = expect_collection(node.domain, "'for each'");
          if (node.order) order(*node.order, domain, node.domain);
          push_scope();
          bind(node.var, domain.element_type());
          block(node.body, context);
          pop_scope();
        } else if constexpr (std::is_same_v<T, ast::IfStmt>) {
          for (const ast::IfBranch& branch : node.branches) {
            expect(branch.condition, Type::boolean(), "'if' condition");
            block(branch.body, context);
          }
          if (node.else_body) block(*node.else_body, context);
        } else if constexpr (std::is_same_v<T, ast::SimultaneousStmt>) {
          no_effects_here("simultaneous");
          const Type domain = expect_collection(node.domain, "'simultaneous for each'");
          if (!domain.is_error() && !domain.element_type().is(Type::Kind::kPlayer)) {
            diagnostics_.error(Code::kTypeMismatch, node.domain.span, "'simultaneous for each' ranges over players");
          }
          push_scope();
          bind(node.var, Type::player());
          StmtContext inner = context;
          inner.in_simultaneous = true;
          block(node.body, inner);
          pop_scope();
        } else if constexpr (std::is_same_v<T, ast::ChooseStmt>) {
          const Type domain = expect_collection(node.domain, "'choose'");
          if (!node.at_random) expect(node.chooser, Type::player(), "the player who chooses");
          if (!label.empty() && node.at_random) {
            random_choices_[label] = s.span;  // no player decides it: no policy entry may name it
          } else if (!label.empty()) {
            choose_types_[label] = domain.element_type();
            check_policy_entries(label, domain.element_type());
          }
          // The chosen name is visible in the filter and in the rest of the block.
          bind(node.var, domain.element_type());
          if (node.filter) expect(*node.filter, Type::boolean(), "'where' condition");
        } else if constexpr (std::is_same_v<T, ast::MixedChooseStmt>) {
          mixed_choose(node, s.span, label, context);
        } else if constexpr (std::is_same_v<T, ast::LetStmt>) {
          const Type t = expr(node.value);
          if (t.is(Type::Kind::kZone)) {
            diagnostics_.error(Code::kLetZone, node.value.span, "'let' cannot name a zone; name the zone's cards with a set "
                                                "comprehension, or write the zone where it is used");
          }
          bind(node.name, t);
        } else if constexpr (std::is_same_v<T, ast::MoveStmt>) {
          no_effects_here("move");
          const Type cards = expr(node.cards);
          if (!cards.is_error() && !cards.is(Type::Kind::kCard) &&
              !(cards.is_collection() && assignable(Type::card(), cards.element_type()))) {
            diagnostics_.error(Code::kTypeMismatch, node.cards.span, fmt::format("'move' takes a card, a set of cards or a zone, "
                                                            "but this is {}", to_string(cards)));
          }
          zone_target(node.target, node.placement.has_value());
        } else if constexpr (std::is_same_v<T, ast::DealStmt>) {
          no_effects_here("deal");
          expect(node.count, Type::integer(), "'deal' count");
          expect(node.source, Type::zone(), "'deal' source");
          // Dealing takes cards from the top; an unordered zone has none, and which cards it
          // would give depends on how the engine happens to store them.
          if (const ast::ZoneDecl* z = zone_decl_of(program_, node.source); z != nullptr && z->shape == ast::ZoneShape::kSet) {
            diagnostics_.error(Code::kNeedsPile, node.source.span, fmt::format("zone '{}' is an unordered set; 'deal' takes cards "
                                                        "from the top of a pile", z->name.text))
                .notes.push_back({SourceSpan{}, fmt::format("'move' the cards to take out of '{}' by name, or declare it as a pile", z->name.text)});
          }
          zone_target(node.target, false);
        } else if constexpr (std::is_same_v<T, ast::ShuffleStmt>) {
          no_effects_here("shuffle");
          expect(node.zone, Type::zone(), "'shuffle'");
        } else if constexpr (std::is_same_v<T, ast::FlipStmt>) {
          no_effects_here("flip");
          const Type cards = expr(node.cards);
          if (!cards.is_error() && !cards.is(Type::Kind::kCard) &&
              !(cards.is_collection() && assignable(Type::card(), cards.element_type()))) {
            diagnostics_.error(Code::kTypeMismatch, node.cards.span, fmt::format("'flip' takes a card, a set of cards or a zone, "
                                                            "but this is {}", to_string(cards)));
          }
        } else if constexpr (std::is_same_v<T, ast::SetStmt>) {
          const Type value = expr(node.value);
          assignable_target(node.target, value, false, "set");
        } else if constexpr (std::is_same_v<T, ast::AddStmt>) {
          expect(node.amount, Type::integer(), "'add' amount");
          assignable_target(node.target, Type::integer(), true, "add to");
        } else if constexpr (std::is_same_v<T, ast::SwapSeatsStmt>) {
          no_effects_here("swap seats");
          expect(node.first, Type::player(), "'swap seats'");
          expect(node.second, Type::player(), "'swap seats'");
        } else if constexpr (std::is_same_v<T, ast::EndGameStmt>) {
          no_effects_here("end game");
          if (node.winners) expect(*node.winners, Type::set_of(Type::player()), "winners");
        }
      },
      s.node);
}

// `choose by p { ALTERNATIVE ... }`: each alternative opens its own scope (its element, its
// guard, its block); names are unique in the decision. Policies and simultaneous blocks cannot
// take one yet: a policy would need a way to name a move, and the secret choices of a
// simultaneous block are plain values.
void Checker::mixed_choose(const ast::MixedChooseStmt& node, SourceSpan span, const std::string& label,
                           StmtContext context) {
  if (context.in_simultaneous) {
    diagnostics_.error(Code::kNotInSimultaneous, span, "a decision with alternatives is not allowed in a simultaneous "
                                                      "block yet; use 'choose x in SET by p' there");
  }
  if (!label.empty()) mixed_labels_[label] = span;
  expect(node.chooser, Type::player(), "the player who chooses");
  std::map<std::string, SourceSpan> seen;
  for (const ast::Alternative& alt : node.alternatives) {
    auto [it, inserted] = seen.try_emplace(alt.name.text, alt.name.span);
    if (!inserted) {
      diagnostics_.error(Code::kAlreadyDefined, alt.name.span, fmt::format("alternative '{}' is named twice in this decision",
                                                                             alt.name.text))
          .notes.push_back({it->second, "the first one is here"});
    }
    if (!alt.name.text.empty() && !(alt.name.text[0] >= 'a' && alt.name.text[0] <= 'z')) {
      diagnostics_.error(Code::kReservedName, alt.name.span, fmt::format("alternative '{}' must start with a lower-case letter "
                                                                           "(a move is written with its name, beside card names such as 7H)",
                                                                           alt.name.text));
    }
    push_scope();
    if (alt.var && alt.domain) {
      const Type domain = expect_collection(*alt.domain, "an alternative's 'in'");
      bind(*alt.var, domain.element_type());
    }
    if (alt.guard) expect(*alt.guard, Type::boolean(), "'where' condition");
    if (alt.body) block(*alt.body, context);
    pop_scope();
  }
}

void Checker::zone_target(const ast::Expr& target, bool placed) {
  const Type t = expr(target);
  if (!t.is_error() && !t.is(Type::Kind::kZone)) {
    diagnostics_.error(Code::kTypeMismatch, target.span, fmt::format("the target must be a zone, but this is {}", to_string(t)));
    return;
  }
  if (placed) {
    if (const ast::ZoneDecl* z = zone_decl_of(program_, target); z != nullptr && z->shape == ast::ZoneShape::kSet) {
      diagnostics_.error(Code::kNeedsPile, target.span, fmt::format("zone '{}' is an unordered set; 'at top' and 'at bottom' need a pile",
                                                  z->name.text));
    }
  }
}

}  // namespace rulebook::grammar
