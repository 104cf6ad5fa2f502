// Lowering: the checked program to the IR. The checker's output drives it: each expression's
// type and, for a local name, the binder it refers to (grammar::Program::expr_facts), so
// lowering keeps no scopes of its own and never resolves a local by its spelling. Global
// names map to the tables built here from the declarations. The checker has accepted the
// program, so a construct it rejects cannot arrive here; what cannot be lowered is a bug and
// throws (lower.cpp: declarations and the driver, lower_expr.cpp, lower_stmt.cpp).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "rulebook/grammar/program.hpp"
#include "rulebook/ir/ir.hpp"

namespace rulebook::ir::detail {

namespace ast = grammar::ast;

class Lowerer {
 public:
  Lowerer(const grammar::Program& program, Ir& ir) : program_(program), ir_(ir) {}
  void run();

  static constexpr Slot kFirstFreeSlot = Ir::kLegalSlot + 1;

 private:
  // ---- lower.cpp: declarations, types, slots ----
  void declare();
  void lower_bodies();
  void lower_claims();
  std::int32_t payoff_node(const ast::PayoffValue& v, PayoffInfo& info);
  Value constant_value(const ast::Expr& e);
  std::int32_t enum_id(const std::string& name) const;
  TypeId type_id(const grammar::Type& type);
  const grammar::ExprFacts& facts(const ast::Expr& e) const;
  Slot bind(const ast::Ident& name);
  Slot internal_slot(TypeId type);
  void type_policy_slots();

  // ---- lower_expr.cpp ----
  ExprId add(ExprNode node, const grammar::SourceSpan& span);
  ExprId node(ExprOp op, const ast::Expr& e, std::vector<ExprId> kids = {}, std::int32_t index = -1,
              std::uint8_t sub = 0);
  ExprId constant(Value v, const ast::Expr& e);
  ExprId expr(const ast::Expr& e);
  ExprId lower(const ast::IntLit& n, const ast::Expr& e);
  ExprId lower(const ast::BoolLit& n, const ast::Expr& e);
  ExprId lower(const ast::NoneLit& n, const ast::Expr& e);
  ExprId lower(const ast::PlayersLit& n, const ast::Expr& e);
  ExprId lower(const ast::SeatLit& n, const ast::Expr& e);
  ExprId lower(const ast::NameRef& n, const ast::Expr& e);
  ExprId lower(const ast::Call& n, const ast::Expr& e);
  ExprId lower(const ast::Unary& n, const ast::Expr& e);
  ExprId lower(const ast::Binary& n, const ast::Expr& e);
  ExprId lower(const ast::SetLit& n, const ast::Expr& e);
  ExprId lower(const ast::Comprehension& n, const ast::Expr& e);
  ExprId lower(const ast::Quantifier& n, const ast::Expr& e);
  ExprId lower(const ast::Extremum& n, const ast::Expr& e);
  ExprId lower(const ast::First& n, const ast::Expr& e);
  ExprId lower(const ast::Conditional& n, const ast::Expr& e);

  // ---- lower_stmt.cpp ----
  // An instruction on its way into the code, with the span that goes into the side table.
  struct Pending : Instr {
    grammar::SourceSpan span;
  };
  static Pending make(OpCode code, const grammar::SourceSpan& span = {});
  std::int32_t emit(Pending instr);
  [[nodiscard]] std::int32_t here() const { return static_cast<std::int32_t>(ir_.code.size()); }
  void patch(std::int32_t at) { ir_.code[static_cast<std::size_t>(at)].target = here(); }
  void close_loop(std::int32_t top);
  void block(const ast::Block& b);
  void stmt(const ast::Stmt& s);
  void for_each(const ast::Ident& var, const ast::Expr& domain, const std::optional<ast::Order>& order,
                const ast::Block& body, const grammar::SourceSpan& s);
  void assignment(OpCode code, const ast::Expr& target, const ast::Expr& value, const grammar::SourceSpan& s);
  void lower_stmt(const ast::RuleStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::PhaseStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::RepeatStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::WhileStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::ForEachStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::IfStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::SimultaneousStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::ChooseStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::MixedChooseStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::LetStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::MoveStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::DealStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::ShuffleStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::FlipStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::SetStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::AddStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::SwapSeatsStmt& n, const grammar::SourceSpan& s);
  void lower_stmt(const ast::EndGameStmt& n, const grammar::SourceSpan& s);

  const grammar::Program& program_;
  Ir& ir_;
  std::unordered_map<const ast::Ident*, Slot> slots_;  // binder -> its slot
  std::unordered_map<std::string, std::int32_t> enum_ids_;  // enum type name -> its index in Ir::enums
  std::map<std::string, std::int32_t> zone_ids_, var_ids_, option_ids_, def_ids_;
  std::map<std::string, const ast::Expr*> policy_;
  const ast::CardsDecl* cards_ = nullptr;
  std::int32_t current_rule_ = -1;
  bool deferred_ = false;
};

// The grammar's operators and kinds, as the IR spells them.
BinaryOp binary_op(ast::BinaryOp op);
QuantKind quant_kind(ast::QuantKind kind);
OrderKind order_kind(ast::OrderKind kind);
Visibility visibility(ast::Visibility v);

}  // namespace rulebook::ir::detail
