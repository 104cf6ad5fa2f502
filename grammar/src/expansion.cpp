// The expansion limits (expansion.hpp). Each definition's expanded size and depth is computed
// once, callees first, so the pass is linear in the text however large the expansion is.
// Sizes saturate instead of overflowing: forty layers of doubling are still only counted.
#include "expansion.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace rulebook::grammar {

namespace {

constexpr std::uint64_t kSaturated = std::uint64_t{1} << 62;

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) { return std::min(a + b, kSaturated); }

// An expression as if every definition in it were expanded.
struct Cost {
  std::uint64_t nodes = 0;
  std::uint64_t depth = 0;
  bool over = false;          // a limit is passed at or under this node (already reported)
  std::int32_t biggest = -1;  // the definition with the most nodes called under this node
  std::int32_t deepest = -1;  // the definition with the most levels called under this node
};

struct Definition {
  std::string name;
  SourceSpan span;
  std::vector<std::string> params;
  const ast::Expr* body = nullptr;
  enum class State { kNew, kWaiting, kDone } state = State::kNew;
  Cost cost;
};

// The local names in scope, innermost last, with a count of each: whether a name is bound is
// asked at every name of every expression, and a scan made a block of 40,000 `choose`
// statements quadratic.
class BoundNames {
 public:
  void push_back(const std::string& name) {
    names_.push_back(name);
    ++counts_[name];
  }
  void pop_back() {
    const auto count = counts_.find(names_.back());
    if (--count->second == 0) counts_.erase(count);
    names_.pop_back();
  }
  std::size_t size() const { return names_.size(); }
  // Drops the names bound after `mark` (a size() taken earlier).
  void resize(std::size_t mark) {
    while (names_.size() > mark) pop_back();
  }
  void clear() { resize(0); }
  void assign(const std::vector<std::string>& names) {
    clear();
    for (const std::string& name : names) push_back(name);
  }
  bool contains(const std::string& name) const { return counts_.count(name) != 0; }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::uint32_t> counts_;
};

class ExpansionCheck {
 public:
  ExpansionCheck(const Program& program, Diagnostics& diagnostics) : program_(program), diagnostics_(diagnostics) {}

  void run() {
    for (const ast::Decl& decl : program_.file.decls) {
      if (const auto* d = std::get_if<ast::DefDecl>(&decl.node)) {
        std::vector<std::string> params;
        for (const ast::Param& p : d->params) params.push_back(p.name.text);
        add_definition(d->name, std::move(params), d->body);
      } else if (const auto* s = std::get_if<ast::ScoreDecl>(&decl.node)) {
        add_definition(s->name, {s->param.text}, s->value);
      }
    }
    for (std::size_t i = 0; i < defs_.size(); ++i) settle(static_cast<std::int32_t>(i));
    for (const ast::Decl& decl : program_.file.decls) declaration(decl);
  }

 private:
  void add_definition(const ast::Ident& name, std::vector<std::string> params, const ast::Expr& body) {
    // After composition a name has one definition; the first one wins, like the lowering's.
    if (!def_ids_.try_emplace(name.text, static_cast<std::int32_t>(defs_.size())).second) return;
    defs_.push_back(Definition{name.text, name.span, std::move(params), &body, Definition::State::kNew, {}});
  }

  // Computes definitions callees first, with an explicit stack: a chain of thousands of
  // definitions must not recurse thousands of times here either.
  void settle(std::int32_t first) {
    std::vector<std::int32_t> stack{first};
    while (!stack.empty()) {
      Definition& def = defs_[static_cast<std::size_t>(stack.back())];
      if (def.state == Definition::State::kDone) {
        stack.pop_back();
        continue;
      }
      missing_.clear();
      reporting_ = false;
      bound_.assign(def.params);
      (void)expr(*def.body);
      if (missing_.empty() || def.state == Definition::State::kWaiting) {
        // Every callee is known (a callee still waiting is a cycle, which the checker has
        // already refused; it counts as one node).
        reporting_ = true;
        bound_.assign(def.params);
        def.cost = expr(*def.body);
        def.state = Definition::State::kDone;
        stack.pop_back();
        continue;
      }
      def.state = Definition::State::kWaiting;
      for (const std::int32_t callee : missing_) stack.push_back(callee);
    }
    reporting_ = true;
  }

  void declaration(const ast::Decl& decl) {
    bound_.clear();
    if (const auto* v = std::get_if<ast::VarDecl>(&decl.node)) {
      if (v->param) bound_.push_back(v->param->text);
      root(v->init);
    } else if (const auto* c = std::get_if<ast::CardsDecl>(&decl.node)) {
      for (const ast::CardKindItem& k : c->kinds) root(k.count);
    } else if (const auto* s = std::get_if<ast::SetupDecl>(&decl.node)) {
      block(s->body);
    } else if (const auto* r = std::get_if<ast::RoundDecl>(&decl.node)) {
      block(r->body);
    } else if (const auto* p = std::get_if<ast::PolicyDecl>(&decl.node)) {
      for (const ast::PolicyEntry& e : p->entries) {
        bound_.assign({"chooser", "legal"});
        root(e.choice);
      }
    } else if (const auto* pay = std::get_if<ast::PayoffDecl>(&decl.node)) {
      bound_.push_back(pay->param.text);
      ast::for_each_payoff_expr(pay->value, [&](const ast::Expr& e) { root(e); });
    } else if (const auto* i = std::get_if<ast::InvariantDecl>(&decl.node)) {
      root(i->condition);
    } else if (const auto* t = std::get_if<ast::TerminatesDecl>(&decl.node)) {
      if (t->measure) root(*t->measure);
    }
  }

  void root(const ast::Expr& e) { (void)expr(e); }

  // ---- statements: each expression is a root; locals are bound as the lowering binds them ----

  void block(const ast::Block& b) {
    const std::size_t mark = bound_.size();
    for (const ast::Stmt& s : b.stmts) stmt(s);
    bound_.resize(mark);
  }

  void bound_block(const std::string& name, const ast::Block& b) {
    const std::size_t mark = bound_.size();
    bound_.push_back(name);
    block(b);
    bound_.resize(mark);
  }

  void stmt(const ast::Stmt& s) {
    std::visit([&](const auto& n) { lower_stmt(n); }, s.node);
  }

  void lower_stmt(const ast::RuleStmt& n) { stmt(*n.body); }
  void lower_stmt(const ast::PhaseStmt& n) { block(n.body); }
  void lower_stmt(const ast::RepeatStmt& n) {
    root(n.count);
    block(n.body);
  }
  void lower_stmt(const ast::WhileStmt& n) {
    root(n.condition);
    block(n.body);
  }
  void lower_stmt(const ast::ForEachStmt& n) {
    root(n.domain);
    if (n.order) {
      for (const ast::Expr& e : n.order->from) root(e);
    }
    bound_block(n.var.text, n.body);
  }
  void lower_stmt(const ast::IfStmt& n) {
    for (const ast::IfBranch& b : n.branches) {
      root(b.condition);
      block(b.body);
    }
    if (n.else_body) block(*n.else_body);
  }
  void lower_stmt(const ast::SimultaneousStmt& n) {
    root(n.domain);
    bound_block(n.var.text, n.body);
  }
  void lower_stmt(const ast::ChooseStmt& n) {
    root(n.domain);
    if (!n.at_random) root(n.chooser);
    bound_.push_back(n.var.text);
    if (n.filter) root(*n.filter);
  }
  void lower_stmt(const ast::MixedChooseStmt& n) {
    root(n.chooser);
    for (const ast::Alternative& a : n.alternatives) {
      const std::size_t mark = bound_.size();
      if (a.domain) root(*a.domain);
      if (a.var) bound_.push_back(a.var->text);
      if (a.guard) root(*a.guard);
      if (a.body) block(*a.body);
      bound_.resize(mark);
    }
  }
  void lower_stmt(const ast::LetStmt& n) {
    root(n.value);
    bound_.push_back(n.name.text);
  }
  void lower_stmt(const ast::MoveStmt& n) {
    root(n.cards);
    root(n.target);
  }
  void lower_stmt(const ast::DealStmt& n) {
    root(n.count);
    root(n.source);
    root(n.target);
  }
  void lower_stmt(const ast::ShuffleStmt& n) { root(n.zone); }
  void lower_stmt(const ast::FlipStmt& n) { root(n.cards); }
  void lower_stmt(const ast::SetStmt& n) {
    root(n.target);
    root(n.value);
  }
  void lower_stmt(const ast::AddStmt& n) {
    root(n.amount);
    root(n.target);
  }
  void lower_stmt(const ast::SwapSeatsStmt& n) {
    root(n.first);
    root(n.second);
  }
  void lower_stmt(const ast::EndGameStmt& n) {
    if (n.winners) root(*n.winners);
  }

  // ---- expressions ----

  // The definition a name or a call denotes here, or -1: a local hides a definition of the
  // same name, as in the lowering.
  std::int32_t definition(const std::string& name, bool called) const {
    if (!called && bound_.contains(name)) return -1;
    const auto it = def_ids_.find(name);
    return it == def_ids_.end() ? -1 : it->second;
  }

  Cost expr(const ast::Expr& e) {
    here_ = e.span;  // read by a name's node, which has no expression under it
    Cost cost = std::visit([&](const auto& n) { return node(n); }, e.node);
    limit(cost, e.span);
    return cost;
  }

  // A node with `kids` below it.
  Cost join(std::initializer_list<const ast::Expr*> kids) {
    Cost out;
    for (const ast::Expr* k : kids) {
      if (k != nullptr) add_kid(out, expr(*k));
    }
    out.nodes = saturating_add(out.nodes, 1);
    out.depth = saturating_add(out.depth, 1);
    return out;
  }
  Cost join(const std::vector<ast::Expr>& kids) {
    Cost out;
    for (const ast::Expr& k : kids) add_kid(out, expr(k));
    out.nodes = saturating_add(out.nodes, 1);
    out.depth = saturating_add(out.depth, 1);
    return out;
  }
  void add_kid(Cost& out, const Cost& kid) {
    out.nodes = saturating_add(out.nodes, kid.nodes);
    out.depth = std::max(out.depth, kid.depth);
    out.over = out.over || kid.over;
    out.biggest = bigger(out.biggest, kid.biggest);
    out.deepest = deeper(out.deepest, kid.deepest);
  }
  std::int32_t bigger(std::int32_t a, std::int32_t b) const {
    if (a < 0) return b;
    if (b < 0) return a;
    return defs_[static_cast<std::size_t>(b)].cost.nodes > defs_[static_cast<std::size_t>(a)].cost.nodes ? b : a;
  }
  std::int32_t deeper(std::int32_t a, std::int32_t b) const {
    if (a < 0) return b;
    if (b < 0) return a;
    return defs_[static_cast<std::size_t>(b)].cost.depth > defs_[static_cast<std::size_t>(a)].cost.depth ? b : a;
  }

  // A binder's name hides globals in the parts of the expression it ranges over.
  Cost binding(const std::string& name, const ast::Expr& domain, std::initializer_list<const ast::Expr*> scoped) {
    Cost out;
    add_kid(out, expr(domain));
    bound_.push_back(name);
    for (const ast::Expr* k : scoped) {
      if (k != nullptr) add_kid(out, expr(*k));
    }
    bound_.pop_back();
    out.nodes = saturating_add(out.nodes, 1);
    out.depth = saturating_add(out.depth, 1);
    return out;
  }

  // A call of definition `id`: the body takes the call's place, and each argument takes the
  // place of a parameter, possibly deep inside the body; the depth counted is the body's
  // plus the deepest argument's, which bounds the inlined tree however the body reads them.
  Cost call(std::int32_t id, const std::vector<ast::Expr>& args, const SourceSpan& span) {
    Cost out;
    for (const ast::Expr& a : args) add_kid(out, expr(a));
    Definition& def = defs_[static_cast<std::size_t>(id)];
    if (def.state != Definition::State::kDone) {
      if (def.state == Definition::State::kNew) missing_.push_back(id);
      out.nodes = saturating_add(out.nodes, 1);
      out.depth = saturating_add(out.depth, 1);
      return out;
    }
    out.nodes = saturating_add(saturating_add(out.nodes, def.cost.nodes), 1);
    out.depth = saturating_add(saturating_add(out.depth, def.cost.depth), 1);
    out.over = out.over || def.cost.over;
    out.biggest = bigger(out.biggest, id);
    out.deepest = deeper(out.deepest, id);
    if (reporting_ && !out.over) total(def, span);
    return out;
  }

  Cost node(const ast::IntLit&) { return leaf(); }
  Cost node(const ast::BoolLit&) { return leaf(); }
  Cost node(const ast::NoneLit&) { return leaf(); }
  Cost node(const ast::PlayersLit&) { return leaf(); }
  Cost node(const ast::NameRef& n) {
    const std::int32_t id = definition(n.name, false);
    if (id < 0) return leaf();
    return call(id, {}, here_);
  }
  Cost node(const ast::SeatLit& n) { return join({&*n.index}); }
  Cost node(const ast::Call& n) {
    const std::int32_t id = definition(n.callee.text, true);
    if (id < 0) return join(n.args);
    return call(id, n.args, n.callee.span);
  }
  Cost node(const ast::Unary& n) { return join({&*n.operand}); }
  Cost node(const ast::Binary& n) { return join({&*n.lhs, &*n.rhs}); }
  Cost node(const ast::SetLit& n) { return join(n.elements); }
  Cost node(const ast::Comprehension& n) { return binding(n.var.text, *n.domain, {&*n.filter}); }
  Cost node(const ast::Quantifier& n) { return binding(n.var.text, *n.domain, {&*n.body}); }
  Cost node(const ast::Extremum& n) {
    Cost out;
    add_kid(out, expr(*n.domain));
    bound_.push_back(n.var.text);
    for (const ast::Expr& k : n.keys) add_kid(out, expr(k));
    bound_.pop_back();
    out.nodes = saturating_add(out.nodes, 1);
    out.depth = saturating_add(out.depth, 1);
    return out;
  }
  Cost node(const ast::First& n) {
    Cost out;
    add_kid(out, expr(*n.domain));
    if (n.order) {
      for (const ast::Expr& e : n.order->from) add_kid(out, expr(e));
    }
    bound_.push_back(n.var.text);
    if (n.filter) add_kid(out, expr(**n.filter));
    bound_.pop_back();
    out.nodes = saturating_add(out.nodes, 1);
    out.depth = saturating_add(out.depth, 1);
    return out;
  }
  Cost node(const ast::Conditional& n) { return join({&*n.condition, &*n.then_value, &*n.else_value}); }

  static Cost leaf() { return Cost{1, 1, false, -1, -1}; }

  // ---- the limits ----

  // Reports the node where an expansion first passes a limit; the nodes above it, and the
  // callers of a definition that passes one, are not reported again.
  void limit(Cost& cost, const SourceSpan& span) {
    if (cost.over) return;
    // Without a definition under it, an expression is as large as its text, which the
    // parser and the file size limit already bound.
    if (cost.biggest < 0) return;
    if (cost.nodes > kMaxExpandedNodes) {
      cost.over = true;
      if (!reporting_) return;
      const Definition& big = defs_[static_cast<std::size_t>(cost.biggest)];
      Diagnostic& d = diagnostics_.error(
          Code::kExpansionTooLarge, span,
          fmt::format("expanding the definitions used here gives an expression of {} nodes, more than the limit of {}",
                      count(cost.nodes), count(kMaxExpandedNodes)));
      d.notes.push_back({big.span, fmt::format("'{}' alone expands to {} nodes", big.name, count(big.cost.nodes))});
    } else if (cost.depth > kMaxExpandedDepth) {
      cost.over = true;
      if (!reporting_) return;
      const Definition& deep = defs_[static_cast<std::size_t>(cost.deepest)];
      Diagnostic& d = diagnostics_.error(
          Code::kExpansionTooLarge, span,
          fmt::format("expanding the definitions used here nests the expression {} levels deep, more than the limit of {}",
                      count(cost.depth), count(kMaxExpandedDepth)));
      d.notes.push_back({deep.span, fmt::format("'{}' alone expands to {} levels", deep.name, count(deep.cost.depth))});
    }
  }

  // Counts what expanding a call adds to the whole ruleset; reported once, at the call that
  // passes the limit.
  void total(const Definition& def, const SourceSpan& span) {
    const bool was_under = total_ <= kMaxExpandedTotal;
    total_ = saturating_add(total_, def.cost.nodes);
    if (was_under && total_ > kMaxExpandedTotal) {
      diagnostics_.error(Code::kExpansionTooLarge, span,
                         fmt::format("expanding every call of a definition in this ruleset gives more than {} nodes; "
                                     "this call of '{}' passes the limit",
                                     count(kMaxExpandedTotal), def.name));
    }
  }

  static std::string count(std::uint64_t n) {
    if (n >= kSaturated) return "at least " + count(kSaturated - 1);
    std::string digits = std::to_string(n);
    for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
  }

  const Program& program_;
  Diagnostics& diagnostics_;
  std::vector<Definition> defs_;
  std::map<std::string, std::int32_t> def_ids_;
  BoundNames bound_;                    // local names in scope
  std::vector<std::int32_t> missing_;   // callees not yet settled, met while settling one
  bool reporting_ = true;               // false on a trial walk that may meet unsettled callees
  std::uint64_t total_ = 0;
  SourceSpan here_;                     // the span of the expression being visited
};

}  // namespace

void check_expansion(const Program& program, Diagnostics& diagnostics) { ExpansionCheck(program, diagnostics).run(); }

}  // namespace rulebook::grammar
