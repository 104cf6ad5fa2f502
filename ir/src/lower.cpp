// Lowering: the checked AST to the interpreter's IR. Every name is resolved here, once, to
// a slot, a variable, a zone, an option or a definition; statements become instructions
// with explicit jumps. The checker has already accepted the program, so a construct it
// rejects cannot arrive here; what cannot be lowered is a bug and throws.
#include "rulebook/ir/lower.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace rulebook::ir {

namespace {

namespace ast = grammar::ast;

class Lowerer {
 public:
  Lowerer(const grammar::Program& program, Ir& ir) : program_(program), ir_(ir) {}

  void run() {
    ir_.title = program_.file.title;
    ir_.players_min = program_.players_min;
    ir_.players_max = program_.players_max;
    ir_.seats = program_.seats;
    ir_.fixed_seats = program_.seats_declared;
    ir_.enums = program_.enums;
    ir_.local_slots = kFirstFreeSlot;
    declare();
    lower_bodies();
    ir_.local_names.resize(static_cast<std::size_t>(ir_.local_slots));
  }

  static constexpr Slot kFirstFreeSlot = Ir::kLegalSlot + 1;

 private:
  // ---- declarations ----

  void declare() {
    ir_.zones.push_back(ZoneInfo{"box", false, true, ast::Visibility::kHidden, 0});
    ir_.zone_instances = 1;
    zone_ids_["box"] = 0;
    ir_.vars.push_back(VarInfo{"automated", true, false, -1, 0, -1});
    ir_.var_slots = static_cast<std::int32_t>(ir_.seats);
    var_ids_["automated"] = 0;
    const auto seats = static_cast<std::int32_t>(ir_.seats);
    for (const ast::Decl& decl : program_.file.decls) {
      if (const auto* z = std::get_if<ast::ZoneDecl>(&decl.node)) {
        zone_ids_[z->name.text] = static_cast<std::int32_t>(ir_.zones.size());
        ir_.zones.push_back(ZoneInfo{z->name.text, z->param.has_value(), z->shape == ast::ZoneShape::kPile,
                                     z->visibility, ir_.zone_instances});
        ir_.zone_instances += z->param ? seats : 1;
      } else if (const auto* v = std::get_if<ast::VarDecl>(&decl.node)) {
        var_ids_[v->name.text] = static_cast<std::int32_t>(ir_.vars.size());
        ir_.vars.push_back(VarInfo{v->name.text, v->param.has_value(), v->per_round, -1, ir_.var_slots, -1});
        ir_.var_slots += v->param ? seats : 1;
      } else if (const auto* o = std::get_if<ast::OptionDecl>(&decl.node)) {
        option_ids_[o->name.text] = static_cast<std::int32_t>(ir_.options.size());
        OptionInfo info;
        info.name = o->name.text;
        info.type = program_.globals.at(o->name.text).type;
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

  void lower_bodies() {
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
        push_scope();
        if (v->param) info.param = bind(v->param->text);
        info.init = expr(v->init);
        pop_scope();
      } else if (const auto* d = std::get_if<ast::DefDecl>(&decl.node)) {
        DefInfo& info = ir_.defs[static_cast<std::size_t>(def_ids_.at(d->name.text))];
        push_scope();
        for (const ast::Param& p : d->params) info.params.push_back(bind(p.name.text));
        info.body = expr(d->body);
        pop_scope();
      } else if (const auto* s = std::get_if<ast::ScoreDecl>(&decl.node)) {
        const std::int32_t id = def_ids_.at(s->name.text);
        DefInfo& info = ir_.defs[static_cast<std::size_t>(id)];
        push_scope();
        info.params.push_back(bind(s->param.text));
        info.body = expr(s->value);
        pop_scope();
        ir_.scores.push_back(ScoreInfo{s->name.text, info.params[0], id});
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
    Instr loop = make(OpCode::kJump);
    loop.target = ir_.round_start;
    emit(loop);
    // Claims for the verifier: they read globals only, like definitions.
    for (const ast::Decl& decl : program_.file.decls) {
      if (const auto* inv = std::get_if<ast::InvariantDecl>(&decl.node)) {
        push_scope();
        ir_.invariants.push_back(InvariantInfo{inv->name.text, expr(inv->condition), decl.span});
        pop_scope();
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
        if (t->measure) {
          push_scope();
          claim.measure = expr(*t->measure);
          pop_scope();
        }
        ir_.terminations.push_back(claim);
      }
    }
  }

  Value constant_value(const ast::Expr& e) {
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

  // ---- scopes ----

  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() { scopes_.pop_back(); }
  Slot bind(const std::string& name) {
    const Slot slot = ir_.local_slots++;
    ir_.local_names.resize(static_cast<std::size_t>(ir_.local_slots));
    ir_.local_names[static_cast<std::size_t>(slot)] = name;
    scopes_.back().emplace_back(name, slot);
    return slot;
  }
  Slot find_local(const std::string& name) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      for (auto it = scope->rbegin(); it != scope->rend(); ++it) {
        if (it->first == name) return it->second;
      }
    }
    return -1;
  }

  std::int32_t enum_id(const std::string& name) const {
    for (std::size_t i = 0; i < ir_.enums.size(); ++i) {
      if (ir_.enums[i].name == name) return static_cast<std::int32_t>(i);
    }
    return -1;
  }

  // ---- expressions ----

  ExprId add(ExprNode node) {
    ir_.exprs.push_back(std::move(node));
    return static_cast<ExprId>(ir_.exprs.size() - 1);
  }
  ExprId node(ExprOp op, const grammar::SourceSpan& span, std::vector<ExprId> kids = {}, std::int32_t index = -1,
              std::uint8_t sub = 0) {
    ExprNode n;
    n.op = op;
    n.sub = sub;
    n.index = index;
    n.kids = std::move(kids);
    n.span = span;
    return add(std::move(n));
  }
  ExprId constant(Value v, const grammar::SourceSpan& span) {
    ExprNode n;
    n.op = ExprOp::kConst;
    n.constant = std::move(v);
    n.span = span;
    return add(std::move(n));
  }

  ExprId expr(const ast::Expr& e) {
    return std::visit([&](const auto& n) { return lower(n, e.span); }, e.node);
  }

  ExprId lower(const ast::IntLit& n, const grammar::SourceSpan& s) { return constant(Value::integer(n.value), s); }
  ExprId lower(const ast::BoolLit& n, const grammar::SourceSpan& s) { return constant(Value::boolean(n.value), s); }
  ExprId lower(const ast::NoneLit&, const grammar::SourceSpan& s) { return constant(Value::none(), s); }
  ExprId lower(const ast::PlayersLit&, const grammar::SourceSpan& s) { return node(ExprOp::kPlayers, s); }
  ExprId lower(const ast::SeatLit& n, const grammar::SourceSpan& s) { return node(ExprOp::kSeat, s, {expr(*n.index)}); }

  ExprId lower(const ast::NameRef& n, const grammar::SourceSpan& s) {
    if (const Slot slot = find_local(n.name); slot >= 0) return node(ExprOp::kLocal, s, {}, slot);
    const auto it = program_.globals.find(n.name);
    if (it == program_.globals.end()) throw std::runtime_error("unresolved name " + n.name);
    const grammar::Symbol& sym = it->second;
    switch (sym.kind) {
      case grammar::Symbol::Kind::kOption: return node(ExprOp::kOption, s, {}, option_ids_.at(n.name));
      case grammar::Symbol::Kind::kVar: return node(ExprOp::kVar, s, {}, var_ids_.at(n.name));
      case grammar::Symbol::Kind::kZone: return node(ExprOp::kZone, s, {}, zone_ids_.at(n.name));
      case grammar::Symbol::Kind::kDef: return node(ExprOp::kDef, s, {}, def_ids_.at(n.name));
      case grammar::Symbol::Kind::kEnumValue:
      case grammar::Symbol::Kind::kCardKind:
        return constant(Value::enumeration(enum_id(sym.type.enum_name), sym.value), s);
      case grammar::Symbol::Kind::kConstant:
        if (n.name == "num_players") return node(ExprOp::kNumPlayers, s);
        if (n.name == "num_seats") return node(ExprOp::kNumSeats, s);
        if (n.name == "all_cards") return node(ExprOp::kAllCards, s);
        return constant(Value::integer(sym.value), s);
      case grammar::Symbol::Kind::kScore: break;
    }
    throw std::runtime_error("cannot lower name " + n.name);
  }

  ExprId lower(const ast::Call& n, const grammar::SourceSpan& s) {
    std::vector<ExprId> args;
    for (const ast::Expr& a : n.args) args.push_back(expr(a));
    const std::string& name = n.callee.text;
    if (const auto b = builtin_by_name(name)) {
      return node(ExprOp::kBuiltin, s, std::move(args), -1, static_cast<std::uint8_t>(*b));
    }
    if (const auto v = var_ids_.find(name); v != var_ids_.end()) return node(ExprOp::kVar, s, std::move(args), v->second);
    if (const auto z = zone_ids_.find(name); z != zone_ids_.end()) return node(ExprOp::kZone, s, std::move(args), z->second);
    if (const auto d = def_ids_.find(name); d != def_ids_.end()) return node(ExprOp::kDef, s, std::move(args), d->second);
    throw std::runtime_error("cannot lower call of " + name);
  }

  ExprId lower(const ast::Unary& n, const grammar::SourceSpan& s) {
    return node(n.op == ast::UnaryOp::kNot ? ExprOp::kNot : ExprOp::kNeg, s, {expr(*n.operand)});
  }
  ExprId lower(const ast::Binary& n, const grammar::SourceSpan& s) {
    const ExprId lhs = expr(*n.lhs);
    const ExprId rhs = expr(*n.rhs);
    return node(ExprOp::kBinary, s, {lhs, rhs}, -1, static_cast<std::uint8_t>(n.op));
  }
  ExprId lower(const ast::SetLit& n, const grammar::SourceSpan& s) {
    std::vector<ExprId> kids;
    for (const ast::Expr& e : n.elements) kids.push_back(expr(e));
    return node(ExprOp::kSetLit, s, std::move(kids));
  }
  ExprId lower(const ast::Comprehension& n, const grammar::SourceSpan& s) {
    const ExprId domain = expr(*n.domain);
    push_scope();
    const Slot slot = bind(n.var.text);
    const ExprId filter = expr(*n.filter);
    pop_scope();
    return node(ExprOp::kComprehension, s, {domain, filter}, slot);
  }
  ExprId lower(const ast::Quantifier& n, const grammar::SourceSpan& s) {
    const ExprId domain = expr(*n.domain);
    push_scope();
    const Slot slot = bind(n.var.text);
    const ExprId body = expr(*n.body);
    pop_scope();
    return node(ExprOp::kQuant, s, {domain, body}, slot, static_cast<std::uint8_t>(n.kind));
  }
  ExprId lower(const ast::Extremum& n, const grammar::SourceSpan& s) {
    std::vector<ExprId> kids{expr(*n.domain)};
    push_scope();
    const Slot slot = bind(n.var.text);
    for (const ast::Expr& k : n.keys) kids.push_back(expr(k));
    pop_scope();
    return node(ExprOp::kExtremum, s, std::move(kids), slot, n.is_max ? 1 : 0);
  }
  ExprId lower(const ast::First& n, const grammar::SourceSpan& s) {
    const ExprId domain = expr(*n.domain);
    ExprId from = -1;
    std::uint8_t order = 0;
    if (n.order) {
      order = static_cast<std::uint8_t>(static_cast<int>(n.order->kind) + 1);
      if (!n.order->from.empty()) from = expr(n.order->from.front());
    }
    push_scope();
    const Slot slot = bind(n.var.text);
    const ExprId filter = n.filter ? expr(**n.filter) : -1;
    pop_scope();
    return node(ExprOp::kFirst, s, {domain, from, filter}, slot, order);
  }
  ExprId lower(const ast::Conditional& n, const grammar::SourceSpan& s) {
    const ExprId c = expr(*n.condition);
    const ExprId t = expr(*n.then_value);
    const ExprId f = expr(*n.else_value);
    return node(ExprOp::kCond, s, {c, t, f});
  }

  // ---- statements ----

  static Instr make(OpCode code, const grammar::SourceSpan& span = {}) {
    Instr instr;
    instr.code = code;
    instr.span = span;
    return instr;
  }

  std::int32_t emit(Instr instr) {
    instr.rule = current_rule_;
    ir_.code.push_back(instr);
    return static_cast<std::int32_t>(ir_.code.size() - 1);
  }
  std::int32_t here() const { return static_cast<std::int32_t>(ir_.code.size()); }
  void patch(std::int32_t at) { ir_.code[static_cast<std::size_t>(at)].target = here(); }
  // Ends a loop whose test is at `top`: jump back to it, and let the test exit to here.
  void close_loop(std::int32_t top) {
    Instr back = make(OpCode::kJump);
    back.target = top;
    emit(back);
    patch(top);
  }

  void block(const ast::Block& b) {
    push_scope();
    for (const ast::Stmt& s : b.stmts) stmt(s);
    pop_scope();
  }

  void stmt(const ast::Stmt& s) {
    std::visit([&](const auto& n) { lower_stmt(n, s.span); }, s.node);
  }

  static std::uint8_t face_flags(const std::optional<ast::Face>& f) {
    if (!f) return 0;
    return *f == ast::Face::kUp ? kFaceUp : kFaceDown;
  }

  void lower_stmt(const ast::RuleStmt& n, const grammar::SourceSpan& s) {
    const auto label = static_cast<std::int32_t>(ir_.labels.size());
    ir_.labels.push_back(n.label.text);
    ir_.label_spans.push_back(n.label.span);
    const std::int32_t saved = current_rule_;
    ir_.label_parents.push_back(saved);
    current_rule_ = label;
    Instr fire = make(OpCode::kFire, s);
    fire.a = label;
    emit(fire);
    stmt(*n.body);
    current_rule_ = saved;
  }
  void lower_stmt(const ast::PhaseStmt& n, const grammar::SourceSpan&) { block(n.body); }
  void lower_stmt(const ast::RepeatStmt& n, const grammar::SourceSpan& s) {
    Instr init = make(OpCode::kRepeatInit, s);
    init.a = ir_.local_slots++;
    init.b = expr(n.count);
    emit(init);
    Instr next = make(OpCode::kRepeatNext, s);
    next.a = init.a;
    const std::int32_t top = emit(next);
    block(n.body);
    close_loop(top);
  }
  void lower_stmt(const ast::WhileStmt& n, const grammar::SourceSpan& s) {
    ExprId cond = expr(n.condition);
    if (n.until) cond = node(ExprOp::kNot, n.condition.span, {cond});
    Instr test = make(OpCode::kJumpIfFalse, s);
    test.a = cond;
    const std::int32_t top = emit(test);
    block(n.body);
    close_loop(top);
  }
  void for_each(const ast::Ident& var, const ast::Expr& domain, const std::optional<ast::Order>& order,
                const ast::Block& body, const grammar::SourceSpan& s) {
    Instr init = make(OpCode::kForInit, s);
    init.a = ir_.local_slots++;
    init.b = expr(domain);
    init.e = ir_.local_slots++;
    if (order) {
      init.c = static_cast<std::int32_t>(order->kind) + 1;
      if (!order->from.empty()) init.d = expr(order->from.front());
    } else {
      init.c = 0;
    }
    emit(init);
    push_scope();
    Instr next = make(OpCode::kForNext, s);
    next.a = init.a;
    next.e = init.e;
    next.b = bind(var.text);
    const std::int32_t top = emit(next);
    block(body);
    pop_scope();
    close_loop(top);
  }
  void lower_stmt(const ast::ForEachStmt& n, const grammar::SourceSpan& s) { for_each(n.var, n.domain, n.order, n.body, s); }
  void lower_stmt(const ast::IfStmt& n, const grammar::SourceSpan& s) {
    std::vector<std::int32_t> to_end;
    for (const ast::IfBranch& branch : n.branches) {
      Instr test = make(OpCode::kJumpIfFalse, s);
      test.a = expr(branch.condition);
        const std::int32_t at = emit(test);
      block(branch.body);
      Instr skip = make(OpCode::kJump);
      to_end.push_back(emit(skip));
      patch(at);
    }
    if (n.else_body) block(*n.else_body);
    for (const std::int32_t at : to_end) patch(at);
  }
  void lower_stmt(const ast::SimultaneousStmt& n, const grammar::SourceSpan& s) {
    Instr begin = make(OpCode::kBeginSecret, s);
    emit(begin);
    const bool saved = deferred_;
    deferred_ = true;
    for_each(n.var, n.domain, std::nullopt, n.body, s);
    deferred_ = saved;
    Instr end = make(OpCode::kEndSecret, s);
    emit(end);
  }
  void lower_stmt(const ast::ChooseStmt& n, const grammar::SourceSpan& s) {
    Instr choose = make(OpCode::kChoose, s);
    choose.b = expr(n.domain);
    choose.c = expr(n.chooser);
    // The policy entry for this rule is lowered where the choice stands, with `chooser`
    // and `legal` at their fixed slots.
    if (current_rule_ >= 0) {
      const auto p = policy_.find(ir_.labels[static_cast<std::size_t>(current_rule_)]);
      if (p != policy_.end()) {
        push_scope();
        scopes_.back().emplace_back("chooser", Ir::kChooserSlot);
        scopes_.back().emplace_back("legal", Ir::kLegalSlot);
        choose.e = expr(*p->second);
        pop_scope();
      }
    }
    choose.a = bind(n.var.text);
    if (n.filter) choose.d = expr(*n.filter);
    emit(choose);
  }
  void lower_stmt(const ast::LetStmt& n, const grammar::SourceSpan& s) {
    Instr let = make(OpCode::kLet, s);
    let.b = expr(n.value);
    let.a = bind(n.name.text);
    emit(let);
  }
  void lower_stmt(const ast::MoveStmt& n, const grammar::SourceSpan& s) {
    Instr move = make(OpCode::kMove, s);
    move.a = expr(n.cards);
    move.b = expr(n.target);
    move.flags = face_flags(n.face);
    if (n.placement) move.flags |= *n.placement == ast::Placement::kTop ? kAtTop : kAtBottom;
    emit(move);
  }
  void lower_stmt(const ast::DealStmt& n, const grammar::SourceSpan& s) {
    Instr deal = make(OpCode::kDeal, s);
    deal.a = expr(n.count);
    deal.b = expr(n.source);
    deal.c = expr(n.target);
    deal.flags = face_flags(n.face);
    emit(deal);
  }
  void lower_stmt(const ast::ShuffleStmt& n, const grammar::SourceSpan& s) {
    Instr shuffle = make(OpCode::kShuffle, s);
    shuffle.a = expr(n.zone);
    emit(shuffle);
  }
  void lower_stmt(const ast::FlipStmt& n, const grammar::SourceSpan& s) {
    Instr flip = make(OpCode::kFlip, s);
    flip.a = expr(n.cards);
    flip.flags = face_flags(n.face);
    emit(flip);
  }
  void assignment(OpCode code, const ast::Expr& target, const ast::Expr& value, const grammar::SourceSpan& s) {
    Instr instr = make(code, s);
    if (const auto* ref = std::get_if<ast::NameRef>(&target.node)) {
      instr.a = var_ids_.at(ref->name);
    } else {
      const auto& call = std::get<ast::Call>(target.node);
      instr.a = var_ids_.at(call.callee.text);
      instr.b = expr(call.args.at(0));
    }
    instr.c = expr(value);
    if (deferred_) instr.flags |= kDeferred;
    emit(instr);
  }
  void lower_stmt(const ast::SetStmt& n, const grammar::SourceSpan& s) { assignment(OpCode::kSet, n.target, n.value, s); }
  void lower_stmt(const ast::AddStmt& n, const grammar::SourceSpan& s) { assignment(OpCode::kAdd, n.target, n.amount, s); }
  void lower_stmt(const ast::SwapSeatsStmt& n, const grammar::SourceSpan& s) {
    Instr swap = make(OpCode::kSwapSeats, s);
    swap.a = expr(n.first);
    swap.b = expr(n.second);
    emit(swap);
  }
  void lower_stmt(const ast::EndGameStmt& n, const grammar::SourceSpan& s) {
    Instr end = make(OpCode::kEndGame, s);
    if (n.winners) end.a = expr(*n.winners);
    emit(end);
  }

  const grammar::Program& program_;
  Ir& ir_;
  std::vector<std::vector<std::pair<std::string, Slot>>> scopes_;
  std::map<std::string, std::int32_t> zone_ids_, var_ids_, option_ids_, def_ids_;
  std::map<std::string, const ast::Expr*> policy_;
  const ast::CardsDecl* cards_ = nullptr;
  std::int32_t current_rule_ = -1;
  bool deferred_ = false;
};

}  // namespace

std::shared_ptr<const Ir> lower(const grammar::Program& program, const grammar::SourceManager& sources) {
  auto ir = std::make_shared<Ir>();
  Lowerer lowerer(program, *ir);
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
