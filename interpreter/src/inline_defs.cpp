#include "inline_defs.hpp"

#include <algorithm>

namespace rulebook::interpreter {

namespace {

class Inliner {
 public:
  explicit Inliner(Ir& ir) : ir_(ir) {}

  void run() {
    // Calls inside bodies are inlined too (nodes appended by one inlining are visited
    // later in the loop); defs cannot recurse, and the cap keeps a pathological nesting of
    // calls from growing the tree without bound. The checker has already bounded what full
    // expansion would build (grammar/src/expansion.hpp: 100,000 nodes and 1,000 levels an
    // expression), which bounds the recursion below and the walks over shared subtrees.
    const std::size_t cap = ir_.exprs.size() * 4 + 4096;
    for (std::size_t id = 0; id < ir_.exprs.size() && ir_.exprs.size() < cap; ++id) {
      if (ir_.exprs[id].op == ExprOp::kDef) inline_call(static_cast<ExprId>(id));
    }
  }

 private:
  void inline_call(ExprId call) {
    const ExprNode node = ir_.exprs[static_cast<std::size_t>(call)];
    const DefInfo& def = ir_.defs[static_cast<std::size_t>(node.index)];
    if (def.body < 0 || node.kids.size() != def.params.size() || mentions_def(def.body, node.index)) return;
    for (std::size_t i = 0; i < node.kids.size(); ++i) {
      const ExprOp op = ir_.exprs[static_cast<std::size_t>(node.kids[i])].op;
      if (op == ExprOp::kLocal || op == ExprOp::kConst) continue;
      // Any other argument is evaluated where the body reads the parameter: once, and on
      // every evaluation of the body, so that it is evaluated (and faults) as before.
      std::int32_t uses = 0;
      bool strict = true;
      count_uses(def.body, def.params[i], true, uses, strict);
      if (def.params.size() != 1 || uses != 1 || !strict) return;
    }
    const ExprId root = substitute(def.body, def.params, node.kids);
    ExprNode replacement = ir_.exprs[static_cast<std::size_t>(root)];
    ir_.exprs[static_cast<std::size_t>(call)] = std::move(replacement);
    // A fault in the inlined body names the body, as it does when the call is evaluated.
    ir_.expr_spans[static_cast<std::size_t>(call)] = ir_.span_of(root);
  }

  bool mentions_def(ExprId id, std::int32_t def) const {
    const ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
    if (n.op == ExprOp::kDef && n.index == def) return true;
    return std::any_of(n.kids.begin(), n.kids.end(), [&](ExprId k) { return k >= 0 && mentions_def(k, def); });
  }

  // How often `slot` is read under `id`, and whether every read happens exactly when `id`
  // is evaluated (not in a branch, a short-circuited operand, or a loop body).
  void count_uses(ExprId id, Slot slot, bool strict_here, std::int32_t& uses, bool& strict) const {
    const ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
    if (n.op == ExprOp::kLocal && n.index == slot) {
      ++uses;
      strict = strict && strict_here;
      return;
    }
    const bool short_circuit = n.op == ExprOp::kBinary && (static_cast<ir::BinaryOp>(n.sub) == ir::BinaryOp::kAnd ||
                                                           static_cast<ir::BinaryOp>(n.sub) == ir::BinaryOp::kOr);
    const bool only_first = short_circuit || n.op == ExprOp::kCond || n.op == ExprOp::kComprehension ||
                            n.op == ExprOp::kQuant || n.op == ExprOp::kExtremum || n.op == ExprOp::kFirst;
    for (std::size_t k = 0; k < n.kids.size(); ++k) {
      if (n.kids[k] < 0) continue;
      count_uses(n.kids[k], slot, strict_here && (!only_first || k == 0), uses, strict);
    }
  }

  bool reads_any(ExprId id, const std::vector<Slot>& slots) const {
    const ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
    if (n.op == ExprOp::kLocal && std::find(slots.begin(), slots.end(), n.index) != slots.end()) return true;
    return std::any_of(n.kids.begin(), n.kids.end(), [&](ExprId k) { return k >= 0 && reads_any(k, slots); });
  }

  // The body with every read of a parameter replaced by its argument; subtrees that read no
  // parameter are shared, not copied.
  ExprId substitute(ExprId id, const std::vector<Slot>& params, const std::vector<ExprId>& args) {
    const ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
    if (n.op == ExprOp::kLocal) {
      const auto at = std::find(params.begin(), params.end(), n.index);
      if (at != params.end()) return args[static_cast<std::size_t>(at - params.begin())];
    }
    if (!reads_any(id, params)) return id;
    ExprNode copy = n;
    for (ExprId& k : copy.kids) {
      if (k >= 0) k = substitute(k, params, args);
    }
    return ir_.add_expr(std::move(copy), ir_.span_of(id));
  }

  Ir& ir_;
};

}  // namespace

Ir inline_defs(const Ir& ir) {
  Ir out = ir;
  Inliner(out).run();
  return out;
}

}  // namespace rulebook::interpreter
