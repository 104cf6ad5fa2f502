// The checker's shared state: the symbol table being built and the scopes of local names.
// resolve.cpp fills the global table from declarations; typecheck.cpp types expressions
// and typecheck_stmt.cpp statements against it.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "rulebook/grammar/builtins.def.hpp"
#include "rulebook/grammar/check.hpp"
#include "rulebook/grammar/suggest.hpp"
#include "local_scopes.hpp"

namespace rulebook::grammar {

// What statements may do where they stand.
struct StmtContext {
  bool in_simultaneous = false;   // only choices and records of them
  bool in_round = false;
};

// What a kind of global name is called in messages ("variable", "zone", ...).
const char* kind_name(Symbol::Kind kind);
// The declaration of a zone when `e` names one directly (`deck`, `hand(p)`).
const ast::ZoneDecl* zone_decl_of(const Program& program, const ast::Expr& e);

class Checker {
 public:
  explicit Checker(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

  std::optional<Program> run(ast::RulesFile file);

  // ---- resolve.cpp ----
  void declare_builtins();
  void declare_globals();
  void check_declarations();
  [[nodiscard]] bool is_literal_default(const ast::Expr& e) const;
  std::int64_t check_card_count(const ast::CardKindItem& item);
  void check_card_total(const ast::CardsDecl& cards, const SourceSpan& at);
  void check_card_names(const ast::CardsDecl& cards);
  void check_policies();
  void warn_unused_definitions();
  bool define(Symbol symbol);

  // ---- typecheck.cpp ----
  Type expr(const ast::Expr& e);  // types `e` and records its facts in program_
  Type expr_type(const ast::Expr& e);
  Type expect(const ast::Expr& e, const Type& expected, const char* what);
  void payoff_value(const ast::PayoffValue& v);
  Type expect_collection(const ast::Expr& e, const char* what);
  void block(const ast::Block& b, StmtContext context);
  void stmt(const ast::Stmt& s, StmtContext context);
  void mixed_choose(const ast::MixedChooseStmt& node, SourceSpan span, const std::string& label, StmtContext context);
  Type def_type(const std::string& name);
  Type call(const ast::Call& node, SourceSpan span);
  // False (and the arguments checked for their own errors) when the count is outside lo..hi.
  bool arity(const ast::Call& node, SourceSpan span, std::size_t lo, std::size_t hi);
  Type builtin_call(const BuiltinSignature& sig, const ast::Call& node, SourceSpan span);
  Type binary(const ast::Binary& node, SourceSpan span);
  void order(const ast::Order& o, const Type& domain, const ast::Expr& domain_expr);
  void assignable_target(const ast::Expr& target, const Type& value_type, bool must_be_int,
                         const char* verb);
  void zone_target(const ast::Expr& target, bool placed);
  Type resolve_type(const ast::TypeExpr& t);
  // The global variables an expression reads, directly or through definitions, by name, with
  // where; `bound`: local names that hide globals.
  void variables_read(const ast::Expr& e, std::vector<std::string>& bound, std::set<std::string>& defs_seen,
                      std::vector<std::pair<std::string, SourceSpan>>& out) const;

  // ---- scopes ----
  void push_scope() { scopes_.push(); }
  // The names of a scope that ends are remembered, so that a use after it can say so.
  void pop_scope() {
    scopes_.pop([this](const Local& local) { ended_locals_[local.name] = local.span; });
  }
  void bind(const ast::Ident& name, Type type);
  const Local* find_local(const std::string& name) const;
  const Symbol* find_global(const std::string& name) const;
  // The enum named `name` (a builtin one too), or null: by an index, since every named type
  // and every unknown name asks (64,000 enums took 9 s to check with a scan).
  const EnumInfo* find_enum(const std::string& name) const {
    const auto it = enum_index_.find(name);
    return it == enum_index_.end() ? nullptr : &program_.enums[it->second];
  }
  void add_enum(EnumInfo info) {
    enum_index_.try_emplace(info.name, program_.enums.size());
    program_.enums.push_back(std::move(info));
  }
  void unknown_name(const std::string& name, SourceSpan span);

  Diagnostics& diagnostics_;
  Program program_;
  LocalScopes scopes_;
  std::unordered_map<std::string, std::size_t> enum_index_;  // name -> index in program_.enums (the first)
  std::set<std::string> used_defs_;
  std::vector<std::string> def_stack_;                 // for recursion detection
  std::map<std::string, Type> def_types_;              // inferred result types
  // label -> the entries of policies that choose for it (the first of each policy), typed where
  // the choice stands: copying the locals visible at every labelled choice for later was
  // quadratic (4,000 choices in a 163 KB file took 1.2 GB).
  std::map<std::string, std::vector<const ast::PolicyEntry*>> policy_entries_;
  void check_policy_entries(const std::string& label, const Type& element);
  std::map<std::string, Type> choose_types_;           // label -> chosen element type
  std::map<std::string, SourceSpan> mixed_labels_;     // labels of decisions with alternatives
  std::map<std::string, SourceSpan> random_choices_;   // label -> a `choose ... at random`
  std::map<std::string, SourceSpan> loop_labels_;      // labels of loop statements
  std::string pending_label_;                          // label of the statement being checked
  std::map<std::string, SourceSpan> ended_locals_;     // local names whose scope has ended
  std::size_t suggestions_ = 0;                // "did you mean" searches so far (kMaxSuggestions)
  std::size_t suggestion_work_ = kSuggestionWork;  // what they may still do (ClosestName)
};

}  // namespace rulebook::grammar
