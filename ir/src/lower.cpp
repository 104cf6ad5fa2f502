// Lowering, part one: the driver, the declarations (zones, variables, options, definitions,
// scores, cards, claims), the types and the slots. See lowerer.hpp.
#include "rulebook/ir/lower.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "lowerer.hpp"

namespace rulebook::ir {
namespace detail {

void Lowerer::run() {
  ir_.title = program_.file.title;
  ir_.players_min = program_.players_min;
  ir_.players_max = program_.players_max;
  ir_.players_default = program_.players_default;
  ir_.seats = program_.seats;
  ir_.fixed_seats = program_.seats_declared;
  for (const grammar::EnumInfo& e : program_.enums) {
    enum_ids_.try_emplace(e.name, static_cast<std::int32_t>(ir_.enums.size()));
    ir_.enums.push_back(EnumInfo{e.name, e.values, e.builtin});
  }
  ir_.local_slots = kFirstFreeSlot;
  ir_.local_names.resize(static_cast<std::size_t>(ir_.local_slots));
  ir_.local_types.resize(static_cast<std::size_t>(ir_.local_slots), TypeTable::kUnknownType);
  declare();
  type_policy_slots();
  lower_bodies();
  lower_claims();
}

// ---- declarations ----

void Lowerer::declare() {
  ir_.zones.push_back(ZoneInfo{"box", false, true, Visibility::kHidden, 0});
  ir_.zone_instances = 1;
  zone_ids_["box"] = 0;
  ir_.vars.push_back(VarInfo{"automated", TypeTable::kBoolType, true, false, -1, 0, -1});
  ir_.var_slots = static_cast<std::int32_t>(ir_.seats);
  var_ids_["automated"] = 0;
  const auto seats = static_cast<std::int32_t>(ir_.seats);
  for (const ast::Decl& decl : program_.file.decls) {
    if (const auto* z = std::get_if<ast::ZoneDecl>(&decl.node)) {
      zone_ids_[z->name.text] = static_cast<std::int32_t>(ir_.zones.size());
      ir_.zones.push_back(ZoneInfo{z->name.text, z->param.has_value(), z->shape == ast::ZoneShape::kPile,
                                   visibility(z->visibility), ir_.zone_instances});
      ir_.zone_instances += z->param ? seats : 1;
    } else if (const auto* v = std::get_if<ast::VarDecl>(&decl.node)) {
      var_ids_[v->name.text] = static_cast<std::int32_t>(ir_.vars.size());
      const TypeId type = type_id(program_.globals.at(v->name.text).type);
      ir_.vars.push_back(VarInfo{v->name.text, type, v->param.has_value(), v->per_round, -1, ir_.var_slots, -1});
      ir_.var_slots += v->param ? seats : 1;
    } else if (const auto* o = std::get_if<ast::OptionDecl>(&decl.node)) {
      option_ids_[o->name.text] = static_cast<std::int32_t>(ir_.options.size());
      OptionInfo info;
      info.name = o->name.text;
      info.type = type_id(program_.globals.at(o->name.text).type);
      if (o->range) {
        info.has_range = true;
        info.min = o->range->first;
        info.max = o->range->second;
      }
      info.doc = o->doc;
      ir_.options.push_back(std::move(info));
    } else if (const auto* d = std::get_if<ast::DefDecl>(&decl.node)) {
      def_ids_[d->name.text] = static_cast<std::int32_t>(ir_.defs.size());
      ir_.defs.push_back(DefInfo{d->name.text, {}, -1});
    } else if (const auto* s = std::get_if<ast::ScoreDecl>(&decl.node)) {
      def_ids_[s->name.text] = static_cast<std::int32_t>(ir_.defs.size());
      ir_.defs.push_back(DefInfo{s->name.text, {}, -1});
    } else if (const auto* c = std::get_if<ast::CardsDecl>(&decl.node)) {
      cards_ = c;
    } else if (const auto* p = std::get_if<ast::PolicyDecl>(&decl.node)) {
      for (const ast::PolicyEntry& e : p->entries) policy_[e.rule.text] = &e.choice;
    }
  }
}

// Appends the node for `v` (and its children after it) to `info`; returns its index.
std::int32_t Lowerer::payoff_node(const ast::PayoffValue& v, PayoffInfo& info) {
  const auto at = static_cast<std::int32_t>(info.nodes.size());
  info.nodes.emplace_back();
  PayoffNode n;
  if (v.condition) {
    n.condition = expr(*v.condition);
    n.then_node = payoff_node(v.branches.at(0), info);
    n.else_node = payoff_node(v.branches.at(1), info);
  } else {
    n.numerator = expr(*v.numerator);
    if (v.denominator) n.denominator = expr(*v.denominator);
  }
  info.nodes[static_cast<std::size_t>(at)] = n;
  return at;
}

void Lowerer::lower_bodies() {
  for (const ZoneInfo& z : ir_.zones) {
    const std::int32_t width = z.per_player ? static_cast<std::int32_t>(ir_.seats) : 1;
    for (std::int32_t i = 0; i < width; ++i) {
      ir_.instance_is_pile.push_back(z.pile ? 1 : 0);
      ir_.instance_names.push_back(z.per_player ? fmt::format("{}({})", z.name, i) : z.name);
    }
  }
  // Options first: their defaults are constants (they may not depend on state).
  for (const ast::Decl& decl : program_.file.decls) {
    if (const auto* o = std::get_if<ast::OptionDecl>(&decl.node)) {
      OptionInfo& info = ir_.options[static_cast<std::size_t>(option_ids_.at(o->name.text))];
      info.default_value = constant_value(o->default_value);
    }
  }
  if (cards_ != nullptr) {
    ir_.standard52 = cards_->standard52;
    ir_.jokers = cards_->jokers.value_or(0);
    for (const ast::CardKindItem& k : cards_->kinds) ir_.card_kinds.emplace_back(k.name.text, expr(k.count));
  }
  for (const ast::Decl& decl : program_.file.decls) {
    if (const auto* v = std::get_if<ast::VarDecl>(&decl.node)) {
      VarInfo& info = ir_.vars[static_cast<std::size_t>(var_ids_.at(v->name.text))];
      if (v->param) info.param = bind(*v->param);
      info.init = expr(v->init);
    } else if (const auto* d = std::get_if<ast::DefDecl>(&decl.node)) {
      DefInfo& info = ir_.defs[static_cast<std::size_t>(def_ids_.at(d->name.text))];
      for (const ast::Param& p : d->params) info.params.push_back(bind(p.name));
      info.body = expr(d->body);
    } else if (const auto* s = std::get_if<ast::ScoreDecl>(&decl.node)) {
      const std::int32_t id = def_ids_.at(s->name.text);
      DefInfo& info = ir_.defs[static_cast<std::size_t>(id)];
      info.params.push_back(bind(s->param));
      info.body = expr(s->value);
      ir_.scores.push_back(ScoreInfo{s->name.text, info.params[0], id});
    } else if (const auto* pay = std::get_if<ast::PayoffDecl>(&decl.node)) {
      PayoffInfo info{pay->name.text, bind(pay->param), {}, decl.span};
      payoff_node(pay->value, info);
      ir_.payoffs.push_back(std::move(info));
    }
  }
  for (const ast::Decl& decl : program_.file.decls) {
    if (const auto* setup = std::get_if<ast::SetupDecl>(&decl.node)) block(setup->body);
  }
  ir_.round_start = static_cast<std::int32_t>(ir_.code.size());
  emit(make(OpCode::kRoundStart));
  for (const ast::Decl& decl : program_.file.decls) {
    if (const auto* round = std::get_if<ast::RoundDecl>(&decl.node)) {
      ir_.round_span = decl.span;
      block(round->body);
    }
  }
  auto loop = make(OpCode::kJump);
  loop.target = ir_.round_start;
  emit(loop);
}

// Claims for the verifier: they read globals only, like definitions.
void Lowerer::lower_claims() {
  for (const ast::Decl& decl : program_.file.decls) {
    if (const auto* inv = std::get_if<ast::InvariantDecl>(&decl.node)) {
      ir_.invariants.push_back(InvariantInfo{inv->name.text, expr(inv->condition), decl.span});
    } else if (const auto* t = std::get_if<ast::TerminatesDecl>(&decl.node)) {
      TerminationClaim claim;
      claim.name = t->target.text;
      claim.span = decl.span;
      if (claim.name == "game") {
        claim.target = TerminationClaim::Target::kGame;
      } else if (claim.name == "round") {
        claim.target = TerminationClaim::Target::kRound;
      } else {
        claim.target = TerminationClaim::Target::kLoop;
        for (std::size_t i = 0; i < ir_.labels.size(); ++i) {
          if (ir_.labels[i] == claim.name) claim.label = static_cast<std::int32_t>(i);
        }
      }
      if (t->measure) claim.measure = expr(*t->measure);
      ir_.terminations.push_back(claim);
    }
  }
}

Value Lowerer::constant_value(const ast::Expr& e) {
  if (const auto* i = std::get_if<ast::IntLit>(&e.node)) return Value::integer(i->value);
  if (const auto* b = std::get_if<ast::BoolLit>(&e.node)) return Value::boolean(b->value);
  if (const auto* u = std::get_if<ast::Unary>(&e.node); u != nullptr && u->op == ast::UnaryOp::kNegate) {
    Value v = constant_value(*u->operand);
    v.scalar = -v.scalar;
    return v;
  }
  if (const auto* n = std::get_if<ast::NameRef>(&e.node)) {
    const auto it = program_.globals.find(n->name);
    if (it != program_.globals.end() && it->second.kind == grammar::Symbol::Kind::kEnumValue) {
      return Value::enumeration(enum_id(it->second.type.enum_name), it->second.value);
    }
  }
  if (std::holds_alternative<ast::NoneLit>(e.node)) return Value::none();
  throw std::runtime_error(fmt::format("line {}: an option default must be a literal", e.span.line));
}

// ---- types and slots ----

std::int32_t Lowerer::enum_id(const std::string& name) const {
  const auto it = enum_ids_.find(name);
  return it == enum_ids_.end() ? -1 : it->second;
}

TypeId Lowerer::type_id(const grammar::Type& type) {
  using K = grammar::Type::Kind;
  switch (type.kind) {
    case K::kError: return TypeTable::kUnknownType;
    case K::kInt: return TypeTable::kIntType;
    case K::kBool: return TypeTable::kBoolType;
    case K::kPlayer: return TypeTable::kPlayerType;
    case K::kCard: return TypeTable::kCardType;
    case K::kZone: return TypeTable::kZoneType;
    case K::kNone: return TypeTable::kNoneType;
    case K::kEnum: return ir_.types.intern(TypeInfo{TypeKind::kEnum, enum_id(type.enum_name), -1});
    case K::kSet: return ir_.types.set_of(type.element.empty() ? TypeTable::kUnknownType : type_id(type.element.front()));
  }
  return TypeTable::kUnknownType;
}

const grammar::ExprFacts& Lowerer::facts(const ast::Expr& e) const {
  const auto it = program_.expr_facts.find(&e);
  if (it == program_.expr_facts.end()) {
    throw std::runtime_error(fmt::format("internal error: the checker left the expression at line {}, column {} untyped",
                                         e.span.line, e.span.column));
  }
  return it->second;
}

Slot Lowerer::bind(const ast::Ident& name) {
  const auto type = program_.local_types.find(&name);
  const Slot slot = internal_slot(type == program_.local_types.end() ? TypeTable::kUnknownType : type_id(type->second));
  ir_.local_names[static_cast<std::size_t>(slot)] = name.text;
  slots_[&name] = slot;
  return slot;
}

Slot Lowerer::internal_slot(TypeId type) {
  const Slot slot = ir_.local_slots++;
  ir_.local_names.resize(static_cast<std::size_t>(ir_.local_slots));
  ir_.local_types.resize(static_cast<std::size_t>(ir_.local_slots), TypeTable::kUnknownType);
  ir_.local_types[static_cast<std::size_t>(slot)] = type;
  return slot;
}

// `chooser` is a player wherever a policy runs; `legal` is the set of the choice's options, of
// one type when every policy's choice has the same, else of no one type (unknown).
void Lowerer::type_policy_slots() {
  if (program_.policy_legal_types.empty()) return;
  ir_.local_names[static_cast<std::size_t>(Ir::kChooserSlot)] = "chooser";
  ir_.local_names[static_cast<std::size_t>(Ir::kLegalSlot)] = "legal";
  ir_.local_types[static_cast<std::size_t>(Ir::kChooserSlot)] = TypeTable::kPlayerType;
  std::optional<TypeId> legal;
  for (const auto& [label, element] : program_.policy_legal_types) {
    const TypeId t = ir_.types.set_of(type_id(element));
    legal = !legal || *legal == t ? t : TypeTable::kUnknownType;
  }
  ir_.local_types[static_cast<std::size_t>(Ir::kLegalSlot)] = *legal;
}

// ---- the grammar's operators, as the IR spells them ----

BinaryOp binary_op(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::kOr: return BinaryOp::kOr;
    case ast::BinaryOp::kAnd: return BinaryOp::kAnd;
    case ast::BinaryOp::kEq: return BinaryOp::kEq;
    case ast::BinaryOp::kNe: return BinaryOp::kNe;
    case ast::BinaryOp::kLt: return BinaryOp::kLt;
    case ast::BinaryOp::kLe: return BinaryOp::kLe;
    case ast::BinaryOp::kGt: return BinaryOp::kGt;
    case ast::BinaryOp::kGe: return BinaryOp::kGe;
    case ast::BinaryOp::kIn: return BinaryOp::kIn;
    case ast::BinaryOp::kNotIn: return BinaryOp::kNotIn;
    case ast::BinaryOp::kAdd: return BinaryOp::kAdd;
    case ast::BinaryOp::kSub: return BinaryOp::kSub;
    case ast::BinaryOp::kMul: return BinaryOp::kMul;
    case ast::BinaryOp::kDiv: return BinaryOp::kDiv;
    case ast::BinaryOp::kMod: return BinaryOp::kMod;
  }
  throw std::runtime_error("unknown binary operator");
}

QuantKind quant_kind(ast::QuantKind kind) {
  switch (kind) {
    case ast::QuantKind::kExists: return QuantKind::kExists;
    case ast::QuantKind::kAll: return QuantKind::kAll;
    case ast::QuantKind::kCount: return QuantKind::kCount;
    case ast::QuantKind::kSum: return QuantKind::kSum;
  }
  throw std::runtime_error("unknown quantifier");
}

OrderKind order_kind(ast::OrderKind kind) {
  switch (kind) {
    case ast::OrderKind::kClockwise: return OrderKind::kClockwise;
    case ast::OrderKind::kCounterclockwise: return OrderKind::kCounterclockwise;
    case ast::OrderKind::kBottomToTop: return OrderKind::kBottomToTop;
    case ast::OrderKind::kTopToBottom: return OrderKind::kTopToBottom;
  }
  throw std::runtime_error("unknown order");
}

Visibility visibility(ast::Visibility v) {
  switch (v) {
    case ast::Visibility::kPublic: return Visibility::kPublic;
    case ast::Visibility::kHidden: return Visibility::kHidden;
    case ast::Visibility::kOwner: return Visibility::kOwner;
  }
  throw std::runtime_error("unknown visibility");
}

}  // namespace detail

std::shared_ptr<const Ir> lower(const grammar::Program& program, const grammar::SourceManager& sources) {
  auto ir = std::make_shared<Ir>();
  detail::Lowerer lowerer(program, *ir);
  lowerer.run();
  // FNV-1a over every source text, in load order: logs name the exact rules they ran.
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const grammar::SourceFile& file = sources.file(static_cast<grammar::FileId>(i));
    ir->file_paths.push_back(file.path);
    for (const char c : file.text) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 0x100000001b3ULL;
    }
  }
  ir->source_hash = fmt::format("{:016x}", hash);
  return ir;
}

}  // namespace rulebook::ir
