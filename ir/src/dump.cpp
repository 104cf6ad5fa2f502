#include "rulebook/ir/dump.hpp"

#include <filesystem>

#include <fmt/format.h>

namespace rulebook::ir {

namespace {

const char* binary_name(BinaryOp op) {
  switch (op) {
    case BinaryOp::kOr: return "or";
    case BinaryOp::kAnd: return "and";
    case BinaryOp::kEq: return "==";
    case BinaryOp::kNe: return "!=";
    case BinaryOp::kLt: return "<";
    case BinaryOp::kLe: return "<=";
    case BinaryOp::kGt: return ">";
    case BinaryOp::kGe: return ">=";
    case BinaryOp::kIn: return "in";
    case BinaryOp::kNotIn: return "not in";
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSub: return "-";
    case BinaryOp::kMul: return "*";
    case BinaryOp::kDiv: return "/";
    case BinaryOp::kMod: return "%";
  }
  return "?";
}

const char* quant_name(QuantKind q) {
  switch (q) {
    case QuantKind::kExists: return "exists";
    case QuantKind::kAll: return "all";
    case QuantKind::kCount: return "count";
    case QuantKind::kSum: return "sum";
  }
  return "?";
}

const char* order_name(std::int64_t order_plus_one) {
  switch (order_plus_one) {
    case 0: return "-";
    case 1: return "clockwise";
    case 2: return "counterclockwise";
    case 3: return "bottom_to_top";
    case 4: return "top_to_bottom";
    default: return "?";
  }
}

const char* visibility_name(Visibility v) {
  switch (v) {
    case Visibility::kPublic: return "public";
    case Visibility::kHidden: return "hidden";
    case Visibility::kOwner: return "owner";
  }
  return "?";
}

class Dumper {
 public:
  explicit Dumper(const Ir& ir) : ir_(ir) {
    for (const EnumInfo& e : ir.enums) enum_names_.push_back(e.name);
  }

  std::string run() {
    out_ += fmt::format("ir \"{}\"\nplayers {}..{}, seats {}{}\nsource hash {}\n", ir_.title, ir_.players_min,
                        ir_.players_max, ir_.seats, ir_.fixed_seats ? " (fixed)" : "", ir_.source_hash);
    section("enums", ir_.enums.size());
    for (std::size_t i = 0; i < ir_.enums.size(); ++i) {
      const EnumInfo& e = ir_.enums[i];
      out_ += fmt::format("  e{} {}{}: {}\n", i, e.name, e.builtin ? " (builtin)" : "", fmt::join(e.values, " "));
    }
    section("cards", ir_.card_kinds.size());
    out_ += fmt::format("  standard52 {}, jokers {}\n", ir_.standard52 ? "yes" : "no", ir_.jokers);
    for (const auto& [name, count] : ir_.card_kinds) out_ += fmt::format("  kind {}: count x{}\n", name, count);
    section("zones", ir_.zones.size());
    for (std::size_t i = 0; i < ir_.zones.size(); ++i) {
      const ZoneInfo& z = ir_.zones[i];
      out_ += fmt::format("  z{} {}{}: {} {}, instances from {}\n", i, z.name, z.per_player ? "(player)" : "",
                          z.pile ? "pile" : "set", visibility_name(z.visibility), z.first_instance);
    }
    section("variables", ir_.vars.size());
    for (std::size_t i = 0; i < ir_.vars.size(); ++i) {
      const VarInfo& v = ir_.vars[i];
      out_ += fmt::format("  v{} {}{}: {}{}, slots from {}, init {}{}\n", i, v.name, v.per_player ? "(player)" : "",
                          type(v.type), v.per_round ? " per round" : "", v.first_slot, expr_ref(v.init),
                          v.param >= 0 ? fmt::format(", player in l{}", v.param) : "");
    }
    section("options", ir_.options.size());
    for (std::size_t i = 0; i < ir_.options.size(); ++i) {
      const OptionInfo& o = ir_.options[i];
      out_ += fmt::format("  o{} {}: {} = {}{}\n", i, o.name, type(o.type), value(o.default_value),
                          o.has_range ? fmt::format(", range {}..{}", o.min, o.max) : "");
    }
    section("definitions", ir_.defs.size());
    for (std::size_t i = 0; i < ir_.defs.size(); ++i) {
      const DefInfo& d = ir_.defs[i];
      std::vector<std::string> params;
      for (const Slot p : d.params) params.push_back(fmt::format("l{}", p));
      out_ += fmt::format("  d{} {}({}) = {}\n", i, d.name, fmt::join(params, ", "), expr_ref(d.body));
    }
    section("scores", ir_.scores.size());
    for (const ScoreInfo& s : ir_.scores) out_ += fmt::format("  {}(l{}) = d{}\n", s.name, s.param, s.value);
    if (!ir_.payoffs.empty()) {  // only then: the dumps of rules without payoffs stay as they were
      section("payoffs", ir_.payoffs.size());
      for (const PayoffInfo& p : ir_.payoffs) {
        out_ += fmt::format("  {}(l{}):", p.name, p.param);
        for (const PayoffNode& n : p.nodes) {
          out_ += n.condition >= 0 ? fmt::format(" [if {} then #{} else #{}]", expr_ref(n.condition), n.then_node, n.else_node)
                                   : fmt::format(" [{} over {}]", expr_ref(n.numerator), n.denominator >= 0 ? expr_ref(n.denominator) : "1");
        }
        out_ += "\n";
      }
    }
    section("invariants", ir_.invariants.size());
    for (const InvariantInfo& inv : ir_.invariants) out_ += fmt::format("  {}: {} @{}\n", inv.name, expr_ref(inv.condition), place(inv.span));
    section("termination claims", ir_.terminations.size());
    for (const TerminationClaim& t : ir_.terminations) {
      out_ += fmt::format("  {} (label {}) by {} @{}\n", t.name, t.label, expr_ref(t.measure), place(t.span));
    }
    // Only when there are some, so that the dumps of rules without them stay as they were.
    if (!ir_.mixed_choices.empty()) section("decisions with alternatives", ir_.mixed_choices.size());
    for (std::size_t i = 0; i < ir_.mixed_choices.size(); ++i) {
      for (const AlternativeInfo& a : ir_.mixed_choices[i].alternatives) {
        out_ += fmt::format("  m{} {}: element {} in {}, guard {} @{}\n", i, a.name,
                            a.slot >= 0 ? fmt::format("l{}", a.slot) : "-", expr_ref(a.domain), expr_ref(a.guard), place(a.span));
      }
    }
    section("labels", ir_.labels.size());
    for (std::size_t i = 0; i < ir_.labels.size(); ++i) {
      out_ += fmt::format("  r{} {}, inside {} @{}\n", i, ir_.labels[i],
                          ir_.label_parents[i] >= 0 ? fmt::format("r{}", ir_.label_parents[i]) : "-", place(ir_.label_spans[i]));
    }
    section("locals", ir_.local_types.size());
    for (std::size_t i = 0; i < ir_.local_types.size(); ++i) {
      const std::string& name = i < ir_.local_names.size() ? ir_.local_names[i] : std::string();
      out_ += fmt::format("  l{} {}: {}\n", i, name.empty() ? "-" : name, type(ir_.local_types[i]));
    }
    section("expressions", ir_.exprs.size());
    for (std::size_t i = 0; i < ir_.exprs.size(); ++i) out_ += fmt::format("  x{} {}\n", i, expression(ir_.exprs[i], ir_.span_of(static_cast<ExprId>(i))));
    section("code", ir_.code.size());
    for (std::size_t pc = 0; pc < ir_.code.size(); ++pc) {
      out_ += fmt::format("  {}{} {}\n", static_cast<std::int32_t>(pc) == ir_.round_start ? "round: " : "", pc,
                          instruction(ir_.code[pc], ir_.instr_span(static_cast<std::int32_t>(pc))));
    }
    return out_;
  }

 private:
  void section(const char* name, std::size_t count) { out_ += fmt::format("{} ({}):\n", name, count); }
  std::string type(TypeId id) const { return type_name(ir_.types, id, enum_names_); }
  static std::string expr_ref(ExprId id) { return id < 0 ? "-" : fmt::format("x{}", id); }

  std::string place(const grammar::SourceSpan& span) const {
    if (!span.valid()) return "-";
    const std::string file = span.file < ir_.file_paths.size()
                                 ? std::filesystem::path(ir_.file_paths[span.file]).filename().string()
                                 : "?";
    return fmt::format("{}:{}:{}", file, span.line, span.column);
  }

  std::string value(const Value& v) const {
    switch (v.kind) {
      case Kind::kNone: return "none";
      case Kind::kInt: return fmt::format("{}", v.scalar);
      case Kind::kBool: return v.scalar != 0 ? "true" : "false";
      case Kind::kPlayer: return fmt::format("player {}", v.scalar);
      case Kind::kCard: return fmt::format("card {}", v.scalar);
      case Kind::kZone: return fmt::format("zone instance {}", v.scalar);
      case Kind::kEnum: {
        const auto e = static_cast<std::size_t>(v.enum_id);
        if (e < ir_.enums.size() && v.scalar >= 0 && static_cast<std::size_t>(v.scalar) < ir_.enums[e].values.size()) {
          return ir_.enums[e].values[static_cast<std::size_t>(v.scalar)];
        }
        return v.scalar < 0 ? "none" : fmt::format("enum {} #{}", v.enum_id, v.scalar);
      }
      case Kind::kSet:
      case Kind::kPlayerSet: return fmt::format("{{{}}}", fmt::join(v.items, ", "));
    }
    return "?";
  }

  std::string expression(const ExprNode& n, const grammar::SourceSpan& span) const {
    std::string head(op_info(n.op).name);
    std::string detail;
    switch (n.op) {
      case ExprOp::kConst: detail = value(n.constant); break;
      case ExprOp::kLocal: detail = fmt::format("l{}", n.index); break;
      case ExprOp::kVar: detail = ir_.vars[static_cast<std::size_t>(n.index)].name; break;
      case ExprOp::kOption: detail = ir_.options[static_cast<std::size_t>(n.index)].name; break;
      case ExprOp::kZone: detail = ir_.zones[static_cast<std::size_t>(n.index)].name; break;
      case ExprOp::kDef: detail = ir_.defs[static_cast<std::size_t>(n.index)].name; break;
      case ExprOp::kBuiltin: detail = std::string(builtin_name(static_cast<Builtin>(n.sub))); break;
      case ExprOp::kBinary: detail = binary_name(n.binary_op()); break;
      case ExprOp::kQuant: detail = fmt::format("{} l{}", quant_name(n.quant_kind()), n.index); break;
      case ExprOp::kExtremum:
        detail = fmt::format("{}{} l{}", (n.sub & kExtremumMax) != 0 ? "max" : "min", (n.sub & kExtremumValue) != 0 ? " value" : "",
                             n.index);
        break;
      case ExprOp::kFirst: detail = fmt::format("{} l{}", order_name(n.sub), n.index); break;
      case ExprOp::kComprehension: detail = fmt::format("l{}", n.index); break;
      default: break;
    }
    std::vector<std::string> kids;
    for (const ExprId k : n.kids) kids.push_back(expr_ref(k));
    return fmt::format("{}{}{}{}: {} @{}", head, detail.empty() ? "" : " ", detail,
                       kids.empty() ? "" : fmt::format(" ({})", fmt::join(kids, ", ")), type(n.type), place(span));
  }

  std::string instruction(const Instr& in, const grammar::SourceSpan& span) const {
    std::vector<std::string> fields;
    const char* names[] = {"a", "b", "c", "d", "e"};
    const std::int32_t values[] = {in.a, in.b, in.c, in.d, in.e};
    for (std::size_t i = 0; i < 5; ++i) {
      if (values[i] >= 0) fields.push_back(fmt::format("{}={}", names[i], values[i]));
    }
    if (in.code == OpCode::kChoose && in.c < 0) fields.push_back("at random");  // no chooser: drawn
    if (in.target >= 0) fields.push_back(fmt::format("-> {}", in.target));
    if (in.flags != 0) fields.push_back(fmt::format("flags={}", in.flags));
    return fmt::format("{}{}{}, rule {} @{}", op_info(in.code).name, fields.empty() ? "" : " ", fmt::join(fields, " "),
                       in.rule >= 0 ? fmt::format("r{}", in.rule) : "-", place(span));
  }

  const Ir& ir_;
  std::vector<std::string> enum_names_;
  std::string out_;
};

}  // namespace

std::string dump(const Ir& ir) { return Dumper(ir).run(); }

}  // namespace rulebook::ir
