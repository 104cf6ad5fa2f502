// Type checking of expressions against the symbol table: every name resolved, every
// operand of the right type (calls: typecheck_call.cpp; statements: typecheck_stmt.cpp).
#include <algorithm>

#include <unordered_set>

#include <fmt/format.h>

#include "checker.hpp"
#include "rulebook/grammar/spelling.hpp"
#include "rulebook/grammar/suggest.hpp"

namespace rulebook::grammar {

bool is_builtin_function(const std::string& name);

const char* kind_name(Symbol::Kind kind) {
  switch (kind) {
    case Symbol::Kind::kOption: return "option";
    case Symbol::Kind::kVar: return "variable";
    case Symbol::Kind::kZone: return "zone";
    case Symbol::Kind::kDef: return "definition";
    case Symbol::Kind::kEnumValue: return "enum value";
    case Symbol::Kind::kScore: return "score";
    case Symbol::Kind::kConstant: return "constant";
    case Symbol::Kind::kCardKind: return "card kind";
  }
  return "name";
}

// ---- scopes ------------------------------------------------------------------------------

void Checker::bind(const ast::Ident& name, Type type) {
  if (const Symbol* global = find_global(name.text); global != nullptr && !global->builtin &&
      (global->kind == Symbol::Kind::kEnumValue || global->kind == Symbol::Kind::kCardKind)) {
    diagnostics_.error(Code::kReservedName, name.span, fmt::format("'{}' is an enum value and cannot be used as a local name",
                                              name.text))
        .notes.push_back({global->span, "it is defined here"});
  }
  if (is_builtin_function(name.text)) {
    diagnostics_.error(Code::kReservedName, name.span, fmt::format("'{}' is a builtin function and cannot be used as a local name",
                                              name.text));
  }
  program_.local_types[&name] = type;
  scopes_.add(Local{name.text, std::move(type), name.span, LocalRef{&name, -1}});
}

const Local* Checker::find_local(const std::string& name) const { return scopes_.find(name); }

const Symbol* Checker::find_global(const std::string& name) const {
  auto it = program_.globals.find(name);
  return it == program_.globals.end() ? nullptr : &it->second;
}

void Checker::unknown_name(const std::string& name, SourceSpan span) {
  // A local name used after its block: where it was bound says more than a near spelling.
  if (auto ended = ended_locals_.find(name); ended != ended_locals_.end()) {
    diagnostics_.error(Code::kUnknownName, span, fmt::format("'{}' is out of scope here: it is a local name, visible only "
                                                             "in the block (or expression) that binds it", name))
        .notes.push_back({ended->second, fmt::format("'{}' is bound here", name)});
    return;
  }
  if (++suggestions_ > kMaxSuggestions) {
    diagnostics_.error(Code::kUnknownName, span, fmt::format("unknown name '{}'", name));
    return;
  }
  // A name closest to an enum type (a set of its values where a set is expected): list them.
  ClosestName closest(name, suggestion_work_);
  for (const Local& local : scopes_.all()) closest.consider(local.name);
  for (const auto& [global_name, symbol] : program_.globals) closest.consider(global_name);
  const std::string nearest_name = closest.best();
  for (const EnumInfo& e : program_.enums) closest.consider(e.name);
  suggestion_work_ = closest.work_left();
  for (const EnumInfo& e : program_.enums) {
    if (closest.best() == nearest_name || e.name != closest.best()) continue;
    std::string values;
    for (const std::string& v : e.values) values += (values.empty() ? "" : ", ") + v;
    Diagnostic& d = diagnostics_.error(Code::kUnknownName, span, fmt::format("unknown name '{}'; did you mean the enum '{}'?", name, e.name));
    d.notes.push_back({e.span, fmt::format("'{}' as a set holds its values: {}", e.name, values)});
    return;
  }
  const std::string& hint = nearest_name;
  if (hint.empty()) {
    diagnostics_.error(Code::kUnknownName, span, fmt::format("unknown name '{}'", name));
  } else {
    diagnostics_.error(Code::kUnknownName, span, fmt::format("unknown name '{}'; did you mean '{}'?", name, hint));
  }
}

// ---- types -------------------------------------------------------------------------------

Type Checker::resolve_type(const ast::TypeExpr& t) {
  switch (t.kind) {
    case ast::TypeExpr::Kind::kInt: return Type::integer();
    case ast::TypeExpr::Kind::kBool: return Type::boolean();
    case ast::TypeExpr::Kind::kPlayer: return Type::player();
    case ast::TypeExpr::Kind::kCard: return Type::card();
    case ast::TypeExpr::Kind::kSetOf: return Type::set_of(resolve_type(t.element.front()));
    case ast::TypeExpr::Kind::kNamed: {
      if (find_enum(t.name) != nullptr) return Type::enumeration(t.name);
      diagnostics_.error(Code::kUnknownName, t.span, fmt::format("unknown type '{}'", t.name));
      return Type::error();
    }
  }
  return Type::error();
}

Type Checker::def_type(const std::string& name) {
  if (auto it = def_types_.find(name); it != def_types_.end()) return it->second;
  const auto found = program_.globals.find(name);
  // A definition whose name was rejected (a builtin, a duplicate) has no type of its own.
  if (found == program_.globals.end() || found->second.kind != Symbol::Kind::kDef) return Type::error();
  const Symbol& symbol = found->second;
  const auto& def = std::get<ast::DefDecl>(program_.file.decls[symbol.decl_index].node);
  if (std::find(def_stack_.begin(), def_stack_.end(), name) != def_stack_.end()) {
    diagnostics_.error(Code::kRecursiveDefinition, def.name.span, fmt::format("definition '{}' depends on itself; recursion is not "
                                                  "allowed (use a quantifier or a loop)", name));
    def_types_[name] = Type::error();
    return Type::error();
  }
  def_stack_.push_back(name);
  // A definition sees only its parameters and globals, never the locals of its caller.
  LocalScopes saved;
  std::swap(saved, scopes_);
  push_scope();
  for (const ast::Param& p : def.params) bind(p.name, resolve_type(p.type));
  // A set, not a comparison of every pair: 32,000 parameters took 2.4 s.
  std::unordered_set<std::string> seen;
  for (const ast::Param& p : def.params) {
    if (!seen.insert(p.name.text).second) {
      diagnostics_.error(Code::kAlreadyDefined, p.name.span, fmt::format("parameter '{}' is declared twice", p.name.text));
    }
  }
  Type result = def.result ? expect(def.body, resolve_type(*def.result), "definition body")
                           : expr(def.body);
  if (def.result) result = resolve_type(*def.result);
  pop_scope();
  std::swap(scopes_, saved);
  def_stack_.pop_back();
  def_types_[name] = result;
  program_.globals[name].type = result;
  return result;
}

Type Checker::expect(const ast::Expr& e, const Type& expected, const char* what) {
  const Type actual = expr(e);
  if (!assignable(expected, actual)) {
    diagnostics_.error(Code::kTypeMismatch, e.span, fmt::format("type mismatch in {}: expected {}, but this is {}", what,
                                           to_string(expected), to_string(actual)));
    return Type::error();
  }
  return actual.is(Type::Kind::kNone) ? expected : actual;
}

Type Checker::expect_collection(const ast::Expr& e, const char* what) {
  const Type actual = expr(e);
  if (actual.is_error() || actual.is_collection()) return actual;
  diagnostics_.error(Code::kTypeMismatch, e.span, fmt::format("type mismatch in {}: expected a set or a zone, but this is {}",
                                         what, to_string(actual)));
  return Type::error();
}

const ast::ZoneDecl* zone_decl_of(const Program& program, const ast::Expr& e) {
  std::string name;
  if (const auto* ref = std::get_if<ast::NameRef>(&e.node)) name = ref->name;
  else if (const auto* call = std::get_if<ast::Call>(&e.node)) name = call->callee.text;
  else return nullptr;
  auto it = program.globals.find(name);
  if (it == program.globals.end() || it->second.kind != Symbol::Kind::kZone || it->second.builtin) {
    return nullptr;
  }
  return std::get_if<ast::ZoneDecl>(&program.file.decls[it->second.decl_index].node);
}

// ---- expressions -------------------------------------------------------------------------

Type Checker::expr(const ast::Expr& e) {
  Type type = expr_type(e);
  ExprFacts facts{type, {}};
  if (const auto* name = std::get_if<ast::NameRef>(&e.node)) {
    if (const Local* local = find_local(name->name)) facts.local = local->ref;
  }
  program_.expr_facts[&e] = std::move(facts);
  return type;
}

Type Checker::expr_type(const ast::Expr& e) {
  return std::visit(
      [&](const auto& node) -> Type {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, ast::IntLit>) {
          return Type::integer();
        } else if constexpr (std::is_same_v<T, ast::BoolLit>) {
          return Type::boolean();
        } else if constexpr (std::is_same_v<T, ast::NoneLit>) {
          return Type::none();
        } else if constexpr (std::is_same_v<T, ast::PlayersLit>) {
          return Type::set_of(Type::player());
        } else if constexpr (std::is_same_v<T, ast::SeatLit>) {
          expect(*node.index, Type::integer(), "seat number");
          return Type::player();
        } else if constexpr (std::is_same_v<T, ast::NameRef>) {
          if (const Local* local = find_local(node.name)) return local->type;
          const Symbol* symbol = find_global(node.name);
          if (symbol == nullptr) {
            // An enum type's name, where no other name has it, is the set of its values.
            if (const EnumInfo* info = find_enum(node.name)) return Type::set_of(Type::enumeration(info->name));
            unknown_name(node.name, e.span);
            return Type::error();
          }
          if (symbol->per_player) {
            diagnostics_.error(Code::kArgumentCount, e.span, fmt::format("{} '{}' is per player: write {}(PLAYER)",
                                                   kind_name(symbol->kind), node.name, node.name));
            return Type::error();
          }
          if (symbol->kind == Symbol::Kind::kDef) {
            used_defs_.insert(node.name);
            const auto& def = std::get<ast::DefDecl>(program_.file.decls[symbol->decl_index].node);
            if (!def.params.empty()) {
              diagnostics_.error(Code::kArgumentCount, e.span, fmt::format("definition '{}' takes {} argument{}, but none were given",
                                                     node.name, def.params.size(),
                                                     def.params.size() == 1 ? "" : "s"));
              return Type::error();
            }
            return def_type(node.name);
          }
          return symbol->type;
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          return call(node, e.span);
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          if (node.op == ast::UnaryOp::kNot) return expect(*node.operand, Type::boolean(), "'not'");
          expect(*node.operand, Type::integer(), "negation");
          return Type::integer();
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          return binary(node, e.span);
        } else if constexpr (std::is_same_v<T, ast::SetLit>) {
          Type element = Type::error();
          for (const ast::Expr& item : node.elements) {
            const Type t = expr(item);
            Type joined;
            if (!unify(element, t, joined)) {
              diagnostics_.error(Code::kTypeMismatch, item.span, fmt::format("set elements must have one type: this is {}, "
                                                        "the others are {}", to_string(t), to_string(element)));
              return Type::error();
            }
            element = joined;
          }
          if (element.is(Type::Kind::kZone)) {
            diagnostics_.error(Code::kTypeMismatch, e.span, "a set cannot hold zones");
            return Type::error();
          }
          // The interpreter builds sets of sets only as families of players (subsets); a
          // literal of sets would be a run-time fault that no verifier property covers
          // (fault kind Unsupported promises the checker refuses it).
          if (element.is(Type::Kind::kSet)) {
            diagnostics_.error(Code::kTypeMismatch, e.span,
                               "a set literal cannot hold sets; a family of sets of players is written with subsets(...)");
            return Type::error();
          }
          return Type::set_of(element);
        } else if constexpr (std::is_same_v<T, ast::Comprehension>) {
          const Type domain = expect_collection(*node.domain, "comprehension");
          push_scope();
          bind(node.var, domain.element_type());
          expect(*node.filter, Type::boolean(), "'where' condition");
          pop_scope();
          return Type::set_of(domain.element_type());
        } else if constexpr (std::is_same_v<T, ast::Quantifier>) {
          const Type domain = expect_collection(*node.domain, "quantifier");
          push_scope();
          bind(node.var, domain.element_type());
          Type result = Type::integer();
          if (node.kind == ast::QuantKind::kSum) {
            expect(*node.body, Type::integer(), "'sum' body");
          } else {
            expect(*node.body, Type::boolean(), "quantifier body");
            result = node.kind == ast::QuantKind::kCount ? Type::integer() : Type::boolean();
          }
          pop_scope();
          return result;
        } else if constexpr (std::is_same_v<T, ast::Extremum>) {
          const Type domain = expect_collection(*node.domain, node.is_max ? "'max'" : "'min'");
          push_scope();
          bind(node.var, domain.element_type());
          if (node.value) {
            expect(node.keys.front(), Type::integer(), node.is_max ? "'max' value" : "'min' value");
            pop_scope();
            return Type::integer();
          }
          for (const ast::Expr& key : node.keys) {
            const Type k = expr(key);
            if (!k.is_error() && !k.is(Type::Kind::kInt) && !k.is(Type::Kind::kBool)) {
              diagnostics_.error(Code::kTypeMismatch, key.span, fmt::format("an ordering key must be int or bool, but this is {}",
                                                       to_string(k)));
            }
          }
          pop_scope();
          return domain.element_type();
        } else if constexpr (std::is_same_v<T, ast::First>) {
          const Type domain = expect_collection(*node.domain, "'first'");
          if (node.order) order(*node.order, domain, *node.domain);
          push_scope();
          bind(node.var, domain.element_type());
          if (node.filter) expect(**node.filter, Type::boolean(), "'where' condition");
          pop_scope();
          return domain.element_type();
        } else if constexpr (std::is_same_v<T, ast::Conditional>) {
          expect(*node.condition, Type::boolean(), "condition");
          const Type a = expr(*node.then_value);
          const Type b = expr(*node.else_value);
          Type joined;
          if (!unify(a, b, joined)) {
            diagnostics_.error(Code::kTypeMismatch, e.span, fmt::format("the branches of 'if' have different types: {} and {}",
                                                   to_string(a), to_string(b)));
            return Type::error();
          }
          return joined;
        }
      },
      e.node);
}

void Checker::order(const ast::Order& o, const Type& domain, const ast::Expr& domain_expr) {
  if (o.kind == ast::OrderKind::kClockwise || o.kind == ast::OrderKind::kCounterclockwise) {
    if (!domain.is_error() && !domain.element_type().is(Type::Kind::kPlayer)) {
      diagnostics_.error(Code::kTypeMismatch, o.span, fmt::format("a seat order walks players, but the set holds {}",
                                             to_string(domain.element_type())));
    }
    expect(o.from.front(), Type::player(), "starting player");
  } else if (!domain.is_error() && !domain.is(Type::Kind::kZone)) {
    diagnostics_.error(Code::kTypeMismatch, o.span, "'bottom to top' and 'top to bottom' walk a zone");
  } else if (const ast::ZoneDecl* z = zone_decl_of(program_, domain_expr);
             z != nullptr && z->shape == ast::ZoneShape::kSet) {
    diagnostics_.error(Code::kNeedsPile, o.span, fmt::format("zone '{}' is an unordered set; only a pile has a bottom and a top",
                                           z->name.text));
  }
}

Type Checker::binary(const ast::Binary& node, SourceSpan span) {
  const std::string op(spelling(node.op));
  switch (node.op) {
    case ast::BinaryOp::kOr:
    case ast::BinaryOp::kAnd:
      expect(*node.lhs, Type::boolean(), fmt::format("'{}'", op).c_str());
      expect(*node.rhs, Type::boolean(), fmt::format("'{}'", op).c_str());
      return Type::boolean();
    case ast::BinaryOp::kLt:
    case ast::BinaryOp::kLe:
    case ast::BinaryOp::kGt:
    case ast::BinaryOp::kGe:
    case ast::BinaryOp::kMul:
    case ast::BinaryOp::kDiv:
    case ast::BinaryOp::kMod: {
      const std::string what = fmt::format("'{}'", op);
      expect(*node.lhs, Type::integer(), what.c_str());
      expect(*node.rhs, Type::integer(), what.c_str());
      const bool arithmetic = node.op == ast::BinaryOp::kMul || node.op == ast::BinaryOp::kDiv ||
                              node.op == ast::BinaryOp::kMod;
      return arithmetic ? Type::integer() : Type::boolean();
    }
    case ast::BinaryOp::kEq:
    case ast::BinaryOp::kNe: {
      const Type a = expr(*node.lhs);
      const Type b = expr(*node.rhs);
      Type joined;
      if (a.is(Type::Kind::kZone) || b.is(Type::Kind::kZone)) {
        diagnostics_.error(Code::kTypeMismatch, span, "zones cannot be compared; compare their cards, e.g. count(a) == count(b)");
      } else if (!unify(a, b, joined)) {
        diagnostics_.error(Code::kTypeMismatch, span, fmt::format("cannot compare {} with {}", to_string(a), to_string(b)));
      }
      return Type::boolean();
    }
    case ast::BinaryOp::kIn:
    case ast::BinaryOp::kNotIn: {
      const Type element = expr(*node.lhs);
      const Type set = expect_collection(*node.rhs, fmt::format("'{}'", op).c_str());
      if (!set.is_error() && !assignable(set.element_type(), element)) {
        diagnostics_.error(Code::kTypeMismatch, node.lhs->span, fmt::format("'{}' tests membership of {}, but this is {}", op,
                                                       to_string(set.element_type()), to_string(element)));
      }
      return Type::boolean();
    }
    case ast::BinaryOp::kAdd:
    case ast::BinaryOp::kSub: {
      // `seat n + 1` reads as `(seat n) + 1`, a player plus an int: say what was meant once.
      if (const auto* seat = std::get_if<ast::SeatLit>(&node.lhs->node)) {
        const Type index = expr(*node.lhs);
        expr(*node.rhs);
        if (!index.is_error()) {
          // Short operands are quoted back as written; anything longer is elided.
          auto text = [](const ast::Expr& x) -> std::string {
            if (const auto* n = std::get_if<ast::NameRef>(&x.node)) return n->name;
            if (const auto* i = std::get_if<ast::IntLit>(&x.node)) return std::to_string(i->value);
            return "...";
          };
          diagnostics_.error(Code::kTypeMismatch, span, fmt::format("'seat {0} {1} {2}' reads as '(seat {0}) {1} {2}', a player {3} an "
                                                                    "int; write 'seat ({0} {1} {2})'",
                                                                    text(*seat->index), op, text(*node.rhs), op == "+" ? "plus" : "minus"));
        }
        return Type::error();
      }
      const Type a = expr(*node.lhs);
      const Type b = expr(*node.rhs);
      if (a.is_collection() || b.is_collection()) {
        Type joined;
        if (!a.is_collection() && !a.is_error()) {
          diagnostics_.error(Code::kTypeMismatch, node.lhs->span, fmt::format("'{}' on sets needs a set on both sides, but this is {}; "
                                                         "write {{x}} for a set of one", op, to_string(a)));
          return Type::error();
        }
        if (!b.is_collection() && !b.is_error()) {
          diagnostics_.error(Code::kTypeMismatch, node.rhs->span, fmt::format("'{}' on sets needs a set on both sides, but this is {}; "
                                                         "write {{x}} for a set of one", op, to_string(b)));
          return Type::error();
        }
        if (!unify(a, b, joined)) {
          diagnostics_.error(Code::kTypeMismatch, span, fmt::format("cannot combine {} with {}", to_string(a), to_string(b)));
          return Type::error();
        }
        return joined.is(Type::Kind::kZone) ? Type::set_of(Type::card()) : joined;
      }
      const std::string what = fmt::format("'{}'", op);
      if (!assignable(Type::integer(), a)) {
        diagnostics_.error(Code::kTypeMismatch, node.lhs->span, fmt::format("type mismatch in {}: expected int or a set, but this is {}",
                                                       what, to_string(a)));
      }
      if (!assignable(Type::integer(), b)) {
        diagnostics_.error(Code::kTypeMismatch, node.rhs->span, fmt::format("type mismatch in {}: expected int or a set, but this is {}",
                                                       what, to_string(b)));
      }
      return Type::integer();
    }
  }
  return Type::error();
}

}  // namespace rulebook::grammar
