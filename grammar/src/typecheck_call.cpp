// Type checking of calls: builtins against their signatures in the builtin table
// (rulebook/grammar/builtins.def.hpp), definitions, and per-player variables and zones.
#include <fmt/format.h>

#include "checker.hpp"

namespace rulebook::grammar {

bool is_builtin_function(const std::string& name);
const char* kind_name(Symbol::Kind kind);

bool Checker::arity(const ast::Call& node, SourceSpan span, std::size_t lo, std::size_t hi) {
  const std::size_t argc = node.args.size();
  if (argc >= lo && argc <= hi) return true;
  const std::string expected = lo == hi ? fmt::format("{}", lo) : fmt::format("{} or {}", lo, hi);
  diagnostics_.error(Code::kArgumentCount, span, fmt::format("'{}' takes {} argument{}, but {} {} given", node.callee.text,
                                                             expected, hi == 1 ? "" : "s", argc, argc == 1 ? "was" : "were"));
  for (const ast::Expr& a : node.args) expr(a);
  return false;
}

// A builtin's call, checked against its line of the table: the arity, each argument's type
// and hook, then the result type.
Type Checker::builtin_call(const BuiltinSignature& sig, const ast::Call& node, SourceSpan span) {
  const std::string& name = node.callee.text;
  if (!arity(node, span, sig.min_args, sig.max_args)) return Type::error();
  const std::string quoted = fmt::format("'{}'", name);
  Type first = Type::error();
  for (std::size_t i = 0; i < node.args.size(); ++i) {
    const BuiltinArg& a = sig.args[i];
    const ast::Expr& e = node.args[i];
    const char* what = a.label != nullptr ? a.label : quoted.c_str();
    Type t = Type::error();
    switch (a.type) {
      case BuiltinArgType::kInt: t = expect(e, Type::integer(), what); break;
      case BuiltinArgType::kCard: t = expect(e, Type::card(), what); break;
      case BuiltinArgType::kPlayer: t = expect(e, Type::player(), what); break;
      case BuiltinArgType::kCollection: t = expect_collection(e, what); break;
      case BuiltinArgType::kZone:
        t = expr(e);
        if (!t.is_error() && !t.is(Type::Kind::kZone)) {
          diagnostics_.error(Code::kTypeMismatch, e.span, fmt::format("'{}' takes a zone, but this is {}", name, to_string(t)));
          continue;
        }
        break;
    }
    if (i == 0) first = t;
    switch (a.hook) {
      case BuiltinHook::kNone: break;
      case BuiltinHook::kPileOnly:
        if (const ast::ZoneDecl* z = zone_decl_of(program_, e); z != nullptr && z->shape == ast::ZoneShape::kSet) {
          diagnostics_.error(Code::kNeedsPile, e.span,
                             fmt::format("zone '{}' is an unordered set; only a pile has a {}", z->name.text, name));
        }
        break;
      case BuiltinHook::kOfPlayers:
        if (!t.is_error() && !t.element_type().is_error() && !t.element_type().is(Type::Kind::kPlayer)) {
          diagnostics_.error(Code::kTypeMismatch, e.span, fmt::format("'{}' takes a set of players, not {}", name, to_string(t)));
        }
        break;
    }
  }
  switch (sig.result) {
    case BuiltinResult::kInt: return Type::integer();
    case BuiltinResult::kBool: return Type::boolean();
    case BuiltinResult::kCard: return Type::card();
    case BuiltinResult::kPlayer: return Type::player();
    case BuiltinResult::kEnumOfName: return Type::enumeration(name);
    case BuiltinResult::kCardOrCards: return node.args.size() == sig.max_args ? Type::set_of(Type::card()) : Type::card();
    case BuiltinResult::kSetsOfFirst: return Type::set_of(Type::set_of(first.element_type()));
  }
  return Type::error();
}

Type Checker::call(const ast::Call& node, SourceSpan span) {
  const std::string& name = node.callee.text;
  const std::size_t argc = node.args.size();
  if (find_local(name) != nullptr) {
    diagnostics_.error(Code::kNotCallable, node.callee.span, fmt::format("'{}' is a local name, not something that can be called", name));
    return Type::error();
  }
  if (const auto index = builtin_index(name)) return builtin_call(kBuiltinSignatures[*index], node, span);
  const Symbol* symbol = find_global(name);
  if (symbol == nullptr) {
    unknown_name(name, node.callee.span);
    for (const ast::Expr& a : node.args) expr(a);
    return Type::error();
  }
  if (symbol->kind == Symbol::Kind::kDef) {
    used_defs_.insert(name);
    const auto& def = std::get<ast::DefDecl>(program_.file.decls[symbol->decl_index].node);
    if (!arity(node, span, def.params.size(), def.params.size())) return Type::error();
    for (std::size_t i = 0; i < argc; ++i) {
      const std::string what = fmt::format("argument {} of '{}'", i + 1, name);
      expect(node.args[i], resolve_type(def.params[i].type), what.c_str());
    }
    return def_type(name);
  }
  if (symbol->per_player) {
    if (!arity(node, span, 1, 1)) return Type::error();
    expect(node.args[0], Type::player(), fmt::format("the player of '{}'", name).c_str());
    return symbol->type;
  }
  diagnostics_.error(Code::kArgumentCount, node.callee.span, fmt::format("{} '{}' takes no arguments", kind_name(symbol->kind), name))
      .notes.push_back({symbol->span, fmt::format("'{}' is defined here", name)});
  return Type::error();
}

}  // namespace rulebook::grammar
