// Why a choice is not legal (why_illegal.hpp). The decision's domain and filter are walked
// again for the one choice, on a copy of the state, with the IR as lowered (definitions are
// calls there, not inlined, so each step can be quoted from the source): a conjunction is
// explained by its first false conjunct, a call by its definition's body with the arguments
// bound, an if-then-else by the branch taken. What is left, a comparison or a membership, is
// quoted with the value of every name and call in it.
#include "why_illegal.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "rulebook/interpreter/evaluator.hpp"

namespace rulebook::interpreter::detail {

namespace {

// A quoted expression or value longer than this is cut: a note stays one line.
constexpr std::size_t kMaxQuoted = 72;
// Definitions followed at most this deep (the checker bounds their nesting; a note per level
// past a few says nothing more).
constexpr int kMaxDepth = 8;

std::string clipped(std::string text) {
  if (text.size() <= kMaxQuoted) return text;
  std::size_t cut = kMaxQuoted - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) --cut;  // not inside a UTF-8 character
  return text.substr(0, cut) + "...";
}

class Explainer {
 public:
  Explainer(const Machine& machine, const grammar::SourceManager& sources, const LogNames& names, const State& state)
      : ir_(machine.ir()), sources_(sources), names_(names), scratch_(state), eval_(ir_, scratch_) {}

  std::vector<grammar::DiagnosticNote> run(const Value& choice) {
    const Decision& decision = *scratch_.decision;
    const Instr& choose = ir_.code[static_cast<std::size_t>(decision.instr)];
    if (choose.code != OpCode::kChoose) return {};
    const std::optional<Value> domain = eval(choose.b);
    if (!domain) return {};
    const std::optional<bool> in = contains(*domain, choice);
    if (!in) return {};
    if (!*in) {
      not_in(choose.b, choice, 0);
    } else if (choose.d >= 0) {
      scratch_.locals[static_cast<std::size_t>(choose.a)] = choice;
      is_false(choose.d, 0);
    }
    return std::move(notes_);
  }

  // The same for a move of alternative `alt` of a decision with alternatives: its element not
  // in its domain, or its guard false (with the element bound).
  std::vector<grammar::DiagnosticNote> run_alternative(std::int32_t alt, const Value& choice) {
    const Decision& decision = *scratch_.decision;
    if (decision.mixed < 0) return {};
    const AlternativeInfo& info =
        ir_.mixed_choices[static_cast<std::size_t>(decision.mixed)].alternatives[static_cast<std::size_t>(alt)];
    if (info.domain >= 0) {
      const std::optional<Value> domain = eval(info.domain);
      if (!domain) return {};
      const std::optional<bool> in = contains(*domain, choice);
      if (!in) return {};
      if (!*in) {
        not_in(info.domain, choice, 0);
        return std::move(notes_);
      }
      scratch_.locals[static_cast<std::size_t>(info.slot)] = choice;
    }
    if (info.guard >= 0) is_false(info.guard, 0);
    return std::move(notes_);
  }

 private:
  // ---- evaluation ----

  std::optional<Value> eval(ExprId id) { return eval_.eval(id); }

  // Whether `x` is an element of `collection`, as `in` decides it; nothing if it faults.
  std::optional<bool> contains(const Value& collection, const Value& x) {
    if (collection.kind == Kind::kZone) {
      return x.kind == Kind::kCard && x.scalar >= 0 &&
             scratch_.card_zone[static_cast<std::size_t>(x.scalar)] == collection.scalar;
    }
    if (collection.kind != Kind::kSet) return std::nullopt;
    const std::optional<std::int64_t> key = x.kind == Kind::kSet ? eval_.mask_of(x) : std::optional<std::int64_t>(x.scalar);
    if (!key) return std::nullopt;
    return std::binary_search(collection.items.begin(), collection.items.end(), *key);
  }

  // Binds the parameters of the call `id` (a kDef node) to its arguments, as a call does.
  bool bind_call(const ExprNode& call) {
    const DefInfo& def = ir_.defs[static_cast<std::size_t>(call.index)];
    std::vector<Value> args;
    for (const ExprId kid : call.kids) {
      std::optional<Value> v = eval(kid);
      if (!v) return false;
      args.push_back(std::move(*v));
    }
    for (std::size_t i = 0; i < args.size() && i < def.params.size(); ++i) {
      scratch_.locals[static_cast<std::size_t>(def.params[i])] = std::move(args[i]);
    }
    return true;
  }

  // ", with m = Ann, v = Bob": the parameters of the bound call `call`, as its body sees them.
  std::string bindings(const ExprNode& call) const {
    std::vector<std::string> parts;
    for (const Slot slot : ir_.defs[static_cast<std::size_t>(call.index)].params) {
      const auto at = static_cast<std::size_t>(slot);
      if (at < ir_.local_names.size() && !ir_.local_names[at].empty()) {
        parts.push_back(fmt::format("{} = {}", ir_.local_names[at], shown(scratch_.locals[at])));
      }
    }
    return parts.empty() ? std::string() : fmt::format(", with {}", fmt::join(parts, ", "));
  }

  // ---- notation ----

  const ExprNode& node(ExprId id) const { return ir_.exprs[static_cast<std::size_t>(id)]; }

  // The expression as written, on one line.
  std::string source(ExprId id) const {
    const grammar::SourceSpan& span = ir_.span_of(id);
    if (!span.valid() || span.file >= sources_.size()) return "?";
    const std::string& text = sources_.file(span.file).text;
    if (span.begin >= span.end || span.end > text.size()) return "?";
    std::string out;
    bool space = false;
    for (std::size_t i = span.begin; i < span.end; ++i) {
      const char c = text[i];
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
        space = !out.empty();
        continue;
      }
      if (space) out += ' ';
      space = false;
      out += c;
    }
    return clipped(out);
  }

  std::string shown(const Value& v) const {
    if (v.kind == Kind::kZone) return names_.zone_text(static_cast<std::int32_t>(v.scalar));
    return clipped(names_.notation(scratch_, v));
  }

  // "c = QS, suit(c) = spades, nominated = hearts": the locals anywhere in `id`, then its
  // outermost names and calls (a constant, an operator and a literal are shown as written).
  std::string values_in(ExprId id) {
    std::vector<ExprId> locals, terms;
    collect(id, locals, terms, false);
    std::vector<std::string> parts, seen;
    for (const std::vector<ExprId>* group : {&locals, &terms}) {
      for (const ExprId e : *group) {
        if (e == id) continue;  // its value is what the note says
        std::string text = source(e);
        if (std::find(seen.begin(), seen.end(), text) != seen.end()) continue;
        const std::optional<Value> v = eval(e);
        if (!v) continue;
        seen.push_back(text);
        parts.push_back(fmt::format("{} = {}", text, shown(*v)));
      }
    }
    return fmt::format("{}", fmt::join(parts, ", "));
  }

  void collect(ExprId id, std::vector<ExprId>& locals, std::vector<ExprId>& terms, bool inside_term) const {
    const ExprNode& n = node(id);
    switch (n.op) {
      case ExprOp::kConst: return;
      case ExprOp::kLocal:
        locals.push_back(id);
        return;
      case ExprOp::kNot:
      case ExprOp::kNeg:
      case ExprOp::kBinary:
      case ExprOp::kSetLit:
      case ExprOp::kCond:
        for (const ExprId kid : n.kids) collect(kid, locals, terms, inside_term);
        return;
      case ExprOp::kComprehension:
      case ExprOp::kQuant:
      case ExprOp::kExtremum:
      case ExprOp::kFirst:
        // Their bound variable has no value outside them: only the domain is shown.
        if (!inside_term) terms.push_back(id);
        if (!n.kids.empty() && n.kids[0] >= 0) collect(n.kids[0], locals, terms, true);
        return;
      default:
        if (!inside_term) terms.push_back(id);
        for (const ExprId kid : n.kids) {
          if (kid >= 0) collect(kid, locals, terms, true);
        }
    }
  }

  void note(ExprId id, std::string message) { notes_.push_back(grammar::DiagnosticNote{ir_.span_of(id), std::move(message)}); }

  // ---- the walk ----

  // `x` is not in the collection `id` evaluates to: say which part leaves it out.
  void not_in(ExprId id, const Value& x, int depth) {
    const ExprNode& n = node(id);
    const std::string item = shown(x);
    if (depth < kMaxDepth) {
      switch (n.op) {
        case ExprOp::kDef: {
          const std::optional<Value> v = eval(id);
          if (!v || !bind_call(n)) break;
          note(id, fmt::format("{} is not in `{}` = {}{}", item, source(id), shown(*v), bindings(n)));
          not_in(ir_.defs[static_cast<std::size_t>(n.index)].body, x, depth + 1);
          return;
        }
        case ExprOp::kComprehension: {
          if (n.kids.size() < 2 || n.kids[1] < 0) break;
          const std::optional<Value> domain = eval(n.kids[0]);
          if (!domain) break;
          const std::optional<bool> in = contains(*domain, x);
          if (!in) break;
          if (!*in) {
            not_in(n.kids[0], x, depth + 1);
            return;
          }
          scratch_.locals[static_cast<std::size_t>(n.index)] = x;
          is_false(n.kids[1], depth + 1);
          return;
        }
        case ExprOp::kCond: {
          const std::optional<Value> test = eval(n.kids[0]);
          if (!test) break;
          branch(n, test->truthy());
          not_in(n.kids[test->truthy() ? 1 : 2], x, depth + 1);
          return;
        }
        case ExprOp::kBinary: {
          const auto op = static_cast<ir::BinaryOp>(n.sub);
          if (op != ir::BinaryOp::kSub) break;
          const std::optional<Value> kept = eval(n.kids[0]);
          if (!kept) break;
          const std::optional<bool> in = contains(*kept, x);
          if (!in) break;
          if (!*in) {
            not_in(n.kids[0], x, depth + 1);
            return;
          }
          const std::string values = values_in(n.kids[1]);
          note(id, fmt::format("`{}` leaves out {}: it is in `{}`{}", source(id), item, source(n.kids[1]),
                               values.empty() ? "" : fmt::format(" ({})", values)));
          return;
        }
        default: break;
      }
    }
    const std::optional<Value> v = eval(id);
    if (!v) return;
    if (v->kind == Kind::kZone && x.kind == Kind::kCard && x.scalar >= 0) {
      note(id, fmt::format("{} is in {}, not in `{}`, which is {}", item,
                           names_.zone_text(scratch_.card_zone[static_cast<std::size_t>(x.scalar)]), source(id), shown(*v)));
      return;
    }
    std::string values = values_in(id);
    if (n.op == ExprOp::kBuiltin) {
      // `subsets(players - {p}, 1, target_sizes(g))`: what the builtin was given.
      for (const ExprId kid : n.kids) {
        if (kid < 0 || node(kid).op == ExprOp::kConst || node(kid).op == ExprOp::kLocal) continue;
        const std::optional<Value> arg = eval(kid);
        if (arg) values += fmt::format("{}{} = {}", values.empty() ? "" : ", ", source(kid), shown(*arg));
      }
    }
    note(id, fmt::format("{} is not in `{}`{}", item, source(id),
                         n.op == ExprOp::kSetLit || values.empty() ? "" : fmt::format(" ({})", values)));
  }

  // `id` is false: say which part of it.
  void is_false(ExprId id, int depth) {
    const ExprNode& n = node(id);
    if (depth < kMaxDepth) {
      switch (n.op) {
        case ExprOp::kBinary: {
          if (static_cast<ir::BinaryOp>(n.sub) != ir::BinaryOp::kAnd) break;
          const std::optional<Value> left = eval(n.kids[0]);
          if (!left) break;
          is_false(n.kids[left->truthy() ? 1 : 0], depth);  // a chain of conjuncts is one level
          return;
        }
        case ExprOp::kDef: {
          if (!bind_call(n)) break;
          note(id, fmt::format("`{}` is false{}", source(id), bindings(n)));
          is_false(ir_.defs[static_cast<std::size_t>(n.index)].body, depth + 1);
          return;
        }
        case ExprOp::kCond: {
          const std::optional<Value> test = eval(n.kids[0]);
          if (!test) break;
          branch(n, test->truthy());
          is_false(n.kids[test->truthy() ? 1 : 2], depth + 1);
          return;
        }
        default: break;
      }
    }
    const std::string values = values_in(id);
    note(id, fmt::format("`{}` is false{}", source(id), values.empty() ? "" : fmt::format(": {}", values)));
  }

  // The test of an if-then-else, and so the branch that applies.
  void branch(const ExprNode& n, bool test) {
    const std::string values = values_in(n.kids[0]);
    note(n.kids[0], fmt::format("`{}` is {}{}", source(n.kids[0]), test ? "true" : "false",
                                values.empty() ? "" : fmt::format(" ({})", values)));
  }

  const Ir& ir_;
  const grammar::SourceManager& sources_;
  const LogNames& names_;
  State scratch_;  // evaluation writes local slots
  Evaluator eval_;
  std::vector<grammar::DiagnosticNote> notes_;
};

}  // namespace

std::vector<grammar::DiagnosticNote> why_illegal(const Machine& machine, const grammar::SourceManager& sources,
                                                 const LogNames& names, const State& state, const Value& choice) {
  if (!state.decision) return {};
  return Explainer(machine, sources, names, state).run(choice);
}

std::vector<grammar::DiagnosticNote> why_illegal_alternative(const Machine& machine, const grammar::SourceManager& sources,
                                                             const LogNames& names, const State& state, std::int32_t alternative,
                                                             const Value& choice) {
  if (!state.decision) return {};
  return Explainer(machine, sources, names, state).run_alternative(alternative, choice);
}

}  // namespace rulebook::interpreter::detail
