// Resolution: builtins and global declarations into the symbol table, declaration-level
// rules (exactly one round, seats against players, option ranges), policies, and the
// warning for unused definitions.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "checker.hpp"
#include "rulebook/grammar/builtins.def.hpp"
#include "expansion.hpp"

namespace rulebook::grammar {

namespace {

template <typename T>
const T* as(const ast::Decl& d) {
  return std::get_if<T>(&d.node);
}

}  // namespace

// Builtin functions (the table in builtins.def.hpp); their names cannot be redefined.
bool is_builtin_function(const std::string& name) { return builtin_index(name).has_value(); }

std::optional<Program> check_program(ast::RulesFile file, Diagnostics& diagnostics) {
  Checker checker(diagnostics);
  return checker.run(std::move(file));
}

std::optional<Program> Checker::run(ast::RulesFile file) {
  const std::size_t errors_before = diagnostics_.error_count();
  program_.file = std::move(file);
  declare_builtins();
  declare_globals();
  // The policies' entries, for the choices they name (check_policy_entries).
  for (const ast::Decl& decl : program_.file.decls) {
    const auto* policy = as<ast::PolicyDecl>(decl);
    if (policy == nullptr) continue;
    std::set<std::string> seen;
    for (const ast::PolicyEntry& entry : policy->entries) {
      if (seen.insert(entry.rule.text).second) policy_entries_[entry.rule.text].push_back(&entry);
    }
  }
  check_declarations();
  check_policies();
  warn_unused_definitions();
  // Sizes are only meaningful once every name resolves and no definition is recursive.
  if (diagnostics_.error_count() == errors_before) check_expansion(program_, diagnostics_);
  if (diagnostics_.error_count() != errors_before) return std::nullopt;
  return std::move(program_);
}

bool Checker::define(Symbol symbol) {
  if (is_builtin_function(symbol.name)) {
    diagnostics_.error(Code::kReservedName, symbol.span,
                       fmt::format("'{}' is a builtin function and cannot be redefined", symbol.name));
    return false;
  }
  auto [it, inserted] = program_.globals.try_emplace(symbol.name, symbol);
  if (!inserted) {
    const Symbol& previous = it->second;
    Diagnostic& d = diagnostics_.error(Code::kAlreadyDefined, symbol.span, fmt::format("'{}' is already defined", symbol.name));
    if (previous.builtin) {
      d.message = fmt::format("'{}' is a builtin name and cannot be redefined", symbol.name);
    } else {
      d.notes.push_back({previous.span, fmt::format("'{}' was first defined here", symbol.name)});
    }
    return false;
  }
  return true;
}

void Checker::declare_builtins() {
  add_enum(EnumInfo{"suit", {"clubs", "diamonds", "hearts", "spades"}, true, {}});
  add_enum(EnumInfo{"color", {"red", "black"}, true, {}});
  add_enum(EnumInfo{"kind", {"standard", "joker"}, true, {}});
  for (const EnumInfo& e : program_.enums) {
    for (std::size_t i = 0; i < e.values.size(); ++i) {
      Symbol s{Symbol::Kind::kEnumValue, e.values[i], Type::enumeration(e.name), false, 0,
               static_cast<std::int64_t>(i), true, {}};
      program_.globals.emplace(s.name, s);
    }
  }
  auto constant = [&](const char* name, Type type, std::int64_t value) {
    program_.globals.emplace(name, Symbol{Symbol::Kind::kConstant, name, std::move(type), false, 0,
                                          value, true, {}});
  };
  // Face card ranks, so that rules read `rank(c) == queen`.
  constant("jack", Type::integer(), 11);
  constant("queen", Type::integer(), 12);
  constant("king", Type::integer(), 13);
  constant("ace", Type::integer(), 14);
  constant("num_players", Type::integer(), 0);
  constant("num_seats", Type::integer(), 0);
  constant("all_cards", Type::set_of(Type::card()), 0);
  program_.globals.emplace("box", Symbol{Symbol::Kind::kZone, "box", Type::zone(), false, 0, 0, true, {}});
  program_.globals.emplace("automated", Symbol{Symbol::Kind::kVar, "automated", Type::boolean(),
                                               true, 0, 0, true, {}});
}

// A payoff's conditions are bools, its numerators and denominators ints.
void Checker::payoff_value(const ast::PayoffValue& v) {
  if (v.condition) expect(*v.condition, Type::boolean(), "payoff condition");
  for (const ast::PayoffValue& b : v.branches) payoff_value(b);
  if (v.numerator) expect(*v.numerator, Type::integer(), "payoff");
  if (v.denominator) expect(*v.denominator, Type::integer(), "payoff denominator");
}

void Checker::declare_globals() {
  const ast::RulesFile& file = program_.file;
  const ast::PlayersDecl* players = nullptr;
  SourceSpan players_span;
  std::optional<SourceSpan> seats_span, cards_span, setup_span, round_span, policy_span;
  std::map<std::string, SourceSpan> invariants, payoffs;

  auto once = [&](std::optional<SourceSpan>& seen, const SourceSpan& here, const char* what) {
    if (seen) {
      diagnostics_.error(Code::kDeclaredTwice, here, fmt::format("a ruleset has at most one {}", what))
          .notes.push_back({*seen, "the first one is here"});
      return false;
    }
    seen = here;
    return true;
  };

  for (std::size_t index = 0; index < file.decls.size(); ++index) {
    const ast::Decl& decl = file.decls[index];
    if (const auto* p = as<ast::PlayersDecl>(decl)) {
      if (players != nullptr) {
        diagnostics_.error(Code::kDeclaredTwice, decl.span, "a ruleset has at most one 'players' declaration")
            .notes.push_back({players_span, "the first one is here"});
        continue;
      }
      players = p;
      players_span = decl.span;
      if (p->min < 1 || p->max < p->min) {
        diagnostics_.error(Code::kEmptyRange, decl.span, fmt::format("the player range {}..{} is empty or below 1",
                                                  p->min, p->max));
      } else if (p->max > 64) {
        diagnostics_.error(Code::kOverLimit, decl.span, "at most 64 players are supported");
      }
      program_.players_min = p->min;
      program_.players_max = p->max;
      program_.players_default = p->max;
      if (p->default_count) {
        if (*p->default_count < p->min || *p->default_count > p->max) {
          diagnostics_.error(Code::kEmptyRange, p->default_span,
                             fmt::format("the default of {} players is outside the range {}..{}", *p->default_count,
                                         p->min, p->max));
        } else {
          program_.players_default = *p->default_count;
        }
      }
    } else if (const auto* s = as<ast::SeatsDecl>(decl)) {
      if (!once(seats_span, decl.span, "'seats' declaration")) continue;
      program_.seats = s->count;
      program_.seats_declared = true;
    } else if (const auto* c = as<ast::CardsDecl>(decl)) {
      if (!once(cards_span, decl.span, "'cards' declaration")) continue;
      if (c->jokers && *c->jokers > 8) {
        diagnostics_.error(Code::kOverLimit, c->jokers_span, "at most 8 jokers are supported");
      }
      if (c->kinds.size() > kMaxCardKinds) {
        diagnostics_.error(Code::kOverLimit, c->kinds[kMaxCardKinds].name.span,
                           fmt::format("a game has at most {} card kinds; this is kind number {} of {}", kMaxCardKinds,
                                       kMaxCardKinds + 1, c->kinds.size()));
      }
      for (const ast::CardKindItem& item : c->kinds) {
        auto& kinds = program_.enums[2].values;
        Symbol sym{Symbol::Kind::kCardKind, item.name.text, Type::enumeration("kind"), false,
                   index, static_cast<std::int64_t>(kinds.size()), false, item.name.span};
        if (define(sym)) kinds.push_back(item.name.text);
      }
      check_card_names(*c);
      if (!c->standard52 && !c->jokers && c->kinds.empty()) {
        diagnostics_.error(Code::kEmptyRange, decl.span, "the card list is empty");
      }
    } else if (const auto* e = as<ast::EnumDecl>(decl)) {
      if (const EnumInfo* first = find_enum(e->name.text)) {
        Diagnostic& d = diagnostics_.error(Code::kAlreadyDefined, e->name.span, fmt::format("enum '{}' is already defined", e->name.text));
        if (first->builtin) {
          d.message = fmt::format("'{}' is a builtin enum", e->name.text);
        } else {
          d.notes.push_back({first->span, "the first one is here"});
        }
        continue;
      }
      EnumInfo info{e->name.text, {}, false, e->name.span};
      for (const ast::Ident& value : e->values) {
        Symbol sym{Symbol::Kind::kEnumValue, value.text, Type::enumeration(e->name.text), false,
                   index, static_cast<std::int64_t>(info.values.size()), false, value.span};
        if (define(sym)) info.values.push_back(value.text);
      }
      add_enum(std::move(info));
    } else if (const auto* z = as<ast::ZoneDecl>(decl)) {
      define(Symbol{Symbol::Kind::kZone, z->name.text, Type::zone(), z->param.has_value(), index, 0,
                    false, z->name.span});
    } else if (const auto* v = as<ast::VarDecl>(decl)) {
      define(Symbol{Symbol::Kind::kVar, v->name.text, Type::error(), v->param.has_value(), index, 0,
                    false, v->name.span});
    } else if (const auto* o = as<ast::OptionDecl>(decl)) {
      define(Symbol{Symbol::Kind::kOption, o->name.text, Type::error(), false, index, 0, false,
                    o->name.span});
    } else if (const auto* d = as<ast::DefDecl>(decl)) {
      define(Symbol{Symbol::Kind::kDef, d->name.text, Type::error(), false, index, 0, false,
                    d->name.span});
    } else if (const auto* sc = as<ast::ScoreDecl>(decl)) {
      define(Symbol{Symbol::Kind::kScore, sc->name.text, Type::integer(), true, index, 0, false,
                    sc->name.span});
    } else if (as<ast::SetupDecl>(decl) != nullptr) {
      once(setup_span, decl.span, "'setup' block");
    } else if (as<ast::RoundDecl>(decl) != nullptr) {
      once(round_span, decl.span, "'round' block");
    } else if (as<ast::PolicyDecl>(decl) != nullptr) {
      once(policy_span, decl.span, "'policy' (it applies to every automated seat)");
    } else if (const auto* pay = as<ast::PayoffDecl>(decl)) {
      // Payoffs have names of their own (they are not values an expression can read).
      auto [it, inserted] = payoffs.try_emplace(pay->name.text, pay->name.span);
      if (!inserted) {
        diagnostics_.error(Code::kAlreadyDefined, pay->name.span, fmt::format("payoff '{}' is already defined", pay->name.text))
            .notes.push_back({it->second, "the first one is here"});
      }
    } else if (const auto* inv = as<ast::InvariantDecl>(decl)) {
      auto [it, inserted] = invariants.try_emplace(inv->name.text, inv->name.span);
      if (!inserted) {
        diagnostics_.error(Code::kAlreadyDefined, inv->name.span, fmt::format("invariant '{}' is already defined", inv->name.text))
            .notes.push_back({it->second, "the first one is here"});
      }
    } else if (as<ast::OptionOverride>(decl) != nullptr || as<ast::RuleOverride>(decl) != nullptr ||
               as<ast::DefOverride>(decl) != nullptr) {
      diagnostics_.error(Code::kOverrideOutsideVariant, decl.span, "'override' is only allowed in a variant file");
    }
  }

  if (players == nullptr) {
    diagnostics_.error(Code::kMissingDeclaration, file.title_span, "the ruleset has no 'players' declaration (for example 'players 2..4')");
  }
  if (!cards_span) diagnostics_.error(Code::kMissingDeclaration, file.title_span, "the ruleset has no 'cards' declaration");
  if (!round_span) diagnostics_.error(Code::kMissingDeclaration, file.title_span, "the ruleset has no 'round' block");
  if (seats_span) {
    if (program_.seats < program_.players_max) {
      diagnostics_.error(Code::kOverLimit, *seats_span, fmt::format("{} seats cannot hold up to {} players",
                                                  program_.seats, program_.players_max));
    } else if (program_.seats > 64) {
      diagnostics_.error(Code::kOverLimit, *seats_span, "at most 64 seats are supported");
    }
  } else {
    program_.seats = program_.players_max;
  }
}

// The value of a number literal or of its negation.
static std::optional<std::int64_t> literal_int(const ast::Expr& e) {
  if (const auto* lit = std::get_if<ast::IntLit>(&e.node)) return lit->value;
  if (const auto* u = std::get_if<ast::Unary>(&e.node); u != nullptr && u->op == ast::UnaryOp::kNegate) {
    if (const auto* lit = std::get_if<ast::IntLit>(&u->operand->node)) return -lit->value;
  }
  return std::nullopt;
}

// A number (or its negation), true, false, none or an enum value: what lowering takes as an
// option's default.
bool Checker::is_literal_default(const ast::Expr& e) const {
  if (std::holds_alternative<ast::IntLit>(e.node) || std::holds_alternative<ast::BoolLit>(e.node) ||
      std::holds_alternative<ast::NoneLit>(e.node)) {
    return true;
  }
  if (const auto* u = std::get_if<ast::Unary>(&e.node); u != nullptr && u->op == ast::UnaryOp::kNegate) {
    return std::holds_alternative<ast::IntLit>(u->operand->node);
  }
  if (const auto* n = std::get_if<ast::NameRef>(&e.node)) {
    const auto it = program_.globals.find(n->name);
    if (it == program_.globals.end()) {
      // An enum type's name is a set, computed, not a literal; any other unknown name is
      // reported already.
      return find_enum(n->name) == nullptr;
    }
    return it->second.kind == Symbol::Kind::kEnumValue;
  }
  return false;
}

void Checker::check_declarations() {
  const ast::RulesFile& file = program_.file;
  for (const ast::Decl& decl : file.decls) {
    if (const auto* c = as<ast::CardsDecl>(decl)) {
      for (const ast::CardKindItem& item : c->kinds) expect(item.count, Type::integer(), "card count");
      check_card_total(*c, decl.span);
    } else if (const auto* v = as<ast::VarDecl>(decl)) {
      const Type type = resolve_type(v->type);
      program_.globals[v->name.text].type = type;
      push_scope();
      if (v->param) bind(*v->param, Type::player());
      expect(v->init, type, "initial value");
      pop_scope();
      // Initial values are set in declaration order: reading this variable or a later one
      // would read it before it has a value (a rule fault when the game starts).
      std::vector<std::string> bound;
      if (v->param) bound.push_back(v->param->text);
      std::set<std::string> defs_seen;
      std::vector<std::pair<std::string, SourceSpan>> reads;
      variables_read(v->init, bound, defs_seen, reads);
      for (const auto& [name, span] : reads) {
        const Symbol* read = find_global(name);
        if (read == nullptr || read->kind != Symbol::Kind::kVar) continue;
        const std::size_t here = static_cast<std::size_t>(&decl - file.decls.data());
        if (read->decl_index < here) continue;
        auto& d = diagnostics_.error(Code::kReadBeforeSet, span,
                                     read->decl_index == here
                                         ? fmt::format("the initial value of '{}' reads '{}' itself", v->name.text, name)
                                         : fmt::format("the initial value of '{}' reads '{}', which is declared after it and "
                                                       "has no value yet",
                                                       v->name.text, name));
        d.notes.push_back({read->span, fmt::format("'{}' is declared here; declare it before '{}'", name, v->name.text)});
        break;
      }
    } else if (const auto* o = as<ast::OptionDecl>(decl)) {
      const Type type = resolve_type(o->type);
      if (!type.is(Type::Kind::kInt) && !type.is(Type::Kind::kBool) && !type.is(Type::Kind::kEnum) &&
          !type.is_error()) {
        diagnostics_.error(Code::kBadOption, o->type.span, fmt::format("an option must be int, bool or an enum, not {}",
                                                     to_string(type)));
      }
      program_.globals[o->name.text].type = type;
      expect(o->default_value, type, "option default");
      // `--option` replaces the default with a value typed on the command line, and the IR
      // holds it as a constant: only what can be typed there is a default (the fuzzer found
      // `= (1 - 1)` passing here and stopping every command that runs the game).
      if (!is_literal_default(o->default_value)) {
        diagnostics_.error(Code::kBadOption, o->default_value.span,
                           "an option's default must be a literal: a number (as 3 or -1), true, false or an enum "
                           "value, not an expression");
      }
      if (o->range) {
        if (!type.is(Type::Kind::kInt)) {
          diagnostics_.error(Code::kBadOption, decl.span, "only an int option can have a range");
        } else if (o->range->first > o->range->second) {
          diagnostics_.error(Code::kEmptyRange, decl.span, fmt::format("the range {}..{} is empty", o->range->first,
                                                    o->range->second));
        } else if (const std::optional<std::int64_t> value = literal_int(o->default_value)) {
          if (*value < o->range->first || *value > o->range->second) {
            diagnostics_.error(Code::kBadOption, o->default_value.span,
                               fmt::format("the default {} is outside the range {}..{}", *value,
                                           o->range->first, o->range->second));
          }
        }
      }
    }
  }
  // Definitions may be used before they are declared; types are inferred on demand.
  for (std::size_t index = 0; index < file.decls.size(); ++index) {
    const auto* d = as<ast::DefDecl>(file.decls[index]);
    if (d == nullptr) continue;
    // Only the declaration that owns the name: a rejected duplicate was reported already.
    const auto it = program_.globals.find(d->name.text);
    if (it != program_.globals.end() && it->second.kind == Symbol::Kind::kDef &&
        it->second.decl_index == index) {
      def_type(d->name.text);
    }
  }
  for (const ast::Decl& decl : file.decls) {
    if (const auto* sc = as<ast::ScoreDecl>(decl)) {
      push_scope();
      bind(sc->param, Type::player());
      expect(sc->value, Type::integer(), "score");
      pop_scope();
    } else if (const auto* pay = as<ast::PayoffDecl>(decl)) {
      push_scope();
      bind(pay->param, Type::player());
      payoff_value(pay->value);
      pop_scope();
    } else if (const auto* setup = as<ast::SetupDecl>(decl)) {
      block(setup->body, StmtContext{});
    } else if (const auto* round = as<ast::RoundDecl>(decl)) {
      block(round->body, StmtContext{false, true});
    }
  }
  for (const ast::Decl& decl : file.decls) {
    if (const auto* inv = as<ast::InvariantDecl>(decl)) {
      expect(inv->condition, Type::boolean(), "invariant");
    } else if (const auto* t = as<ast::TerminatesDecl>(decl)) {
      const std::string& target = t->target.text;
      if (target != "game" && target != "round" && loop_labels_.count(target) == 0) {
        Diagnostic& d = diagnostics_.error(Code::kNoSuchLoop, 
            t->target.span, fmt::format("'terminates {}' names no loop: expected 'game', 'round' or "
                                        "the label of a repeat, while, until or for rule", target));
        if (auto it = program_.rule_labels.find(target); it != program_.rule_labels.end()) {
          d.notes.push_back({it->second, fmt::format("rule '{}' is here, and it is not a loop", target)});
        }
      }
      if (t->measure) expect(*t->measure, Type::integer(), "termination measure");
    }
  }
}

void Checker::check_policy_entries(const std::string& label, const Type& element) {
  const auto entries = policy_entries_.find(label);
  if (entries == policy_entries_.end()) return;
  // Typed with the names visible at the choice, plus `chooser` and `legal`.
  for (const ast::PolicyEntry* entry : entries->second) {
    push_scope();
    scopes_.add(Local{"chooser", Type::player(), entry->rule.span, LocalRef{nullptr, 0}});
    scopes_.add(Local{"legal", Type::set_of(element), entry->rule.span, LocalRef{nullptr, 1}});
    program_.policy_legal_types[label] = element;
    expect(entry->choice, element, "policy choice");
    // `chooser` and `legal` are the entry's own, not names whose scope ended in the rules
    // (pop_scope would record them, and an unknown `legal` later would be "out of scope").
    scopes_.pop();
  }
}

void Checker::check_policies() {
  for (const ast::Decl& decl : program_.file.decls) {
    const auto* policy = as<ast::PolicyDecl>(decl);
    if (policy == nullptr) continue;
    std::map<std::string, SourceSpan> seen;
    for (const ast::PolicyEntry& entry : policy->entries) {
      auto [it, inserted] = seen.try_emplace(entry.rule.text, entry.rule.span);
      if (!inserted) {
        diagnostics_.error(Code::kAlreadyDefined, entry.rule.span, fmt::format("the policy already has an entry for '{}'", entry.rule.text))
            .notes.push_back({it->second, "the first one is here"});
        continue;
      }
      if (auto mixed = mixed_labels_.find(entry.rule.text); mixed != mixed_labels_.end()) {
        diagnostics_.error(Code::kBadPolicy, entry.rule.span, fmt::format("policies cannot choose for a decision with "
                                                                          "alternatives yet (rule '{}')", entry.rule.text))
            .notes.push_back({mixed->second, "the decision is here"});
        continue;
      }
      if (choose_types_.find(entry.rule.text) == choose_types_.end()) {
        auto label = program_.rule_labels.find(entry.rule.text);
        const auto random = random_choices_.find(entry.rule.text);
        if (random != random_choices_.end()) {
          diagnostics_.error(Code::kBadPolicy, entry.rule.span,
                             fmt::format("the policy names rule '{}', which is a random choice: no player decides it",
                                         entry.rule.text))
              .notes.push_back({random->second, "the choice is drawn 'at random' here"});
        } else if (label == program_.rule_labels.end()) {
          diagnostics_.error(Code::kBadPolicy, entry.rule.span, fmt::format("the policy names rule '{}', which does not exist",
                                                          entry.rule.text));
        } else {
          diagnostics_.error(Code::kBadPolicy, entry.rule.span, fmt::format("the policy names rule '{}', which is not a choice",
                                                          entry.rule.text))
              .notes.push_back({label->second, fmt::format("rule '{}' is here", entry.rule.text)});
        }
        continue;
      }
      // The entry's choice was typed where the choice stands (check_policy_entries).
    }
  }
}

void Checker::warn_unused_definitions() {
  for (const ast::Decl& decl : program_.file.decls) {
    if (const auto* d = as<ast::DefDecl>(decl)) {
      const auto it = program_.globals.find(d->name.text);
      const bool owns_name = it != program_.globals.end() && it->second.kind == Symbol::Kind::kDef &&
                             it->second.span.file == d->name.span.file &&
                             it->second.span.begin == d->name.span.begin;
      if (owns_name && used_defs_.count(d->name.text) == 0) {
        diagnostics_.warning(Code::kUnusedDefinition, d->name.span, fmt::format("definition '{}' is never used", d->name.text));
      }
    }
  }
}

}  // namespace rulebook::grammar
