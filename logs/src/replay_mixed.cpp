// A logged move of a decision with alternatives (`choose by p { ... }`): the line names the
// alternative and, when it has an element, the element as `choice`. An illegal one is
// explained: no such alternative, its guard false, or its element not among the legal ones.
#include <algorithm>

#include <fmt/format.h>

#include "replayer.hpp"
#include "why_illegal.hpp"

namespace rulebook::interpreter::detail {

namespace {

// A value of the slot's type, for reading the logged element (choice_of reads by shape).
Value shape_of(const Ir& ir, TypeId type) {
  const ir::TypeInfo& info = ir.types[type];
  switch (info.kind) {
    case ir::TypeKind::kBool: return Value::boolean(false);
    case ir::TypeKind::kPlayer: return Value::player(0);
    case ir::TypeKind::kCard: return Value::card(0);
    case ir::TypeKind::kEnum: return Value::enumeration(info.enum_id, 0);
    case ir::TypeKind::kSet: {
      const ir::TypeInfo& element = ir.types[info.element];
      const Kind kind = element.kind == ir::TypeKind::kPlayer ? Kind::kPlayer
                        : element.kind == ir::TypeKind::kCard ? Kind::kCard
                        : element.kind == ir::TypeKind::kEnum ? Kind::kEnum
                        : element.kind == ir::TypeKind::kBool ? Kind::kBool
                                                              : Kind::kInt;
      return Value::set(kind, {}, element.enum_id);
    }
    default: return Value::integer(0);
  }
}

}  // namespace

std::string Replayer::move_notation(const State& state, std::int32_t alternative, const Value& choice) const {
  const ir::AlternativeInfo& alt =
      ir_.mixed_choices[static_cast<std::size_t>(state.decision->mixed)].alternatives[static_cast<std::size_t>(alternative)];
  return alt.slot < 0 ? alt.name : alt.name + " " + names_.notation(state, choice);
}

void Replayer::check_mixed_move(State& state, const LogEvent& event, LogValue body, std::int64_t step, PlayerId player) {
  const Decision& decision = *state.decision;
  const ir::MixedChoice& table = ir_.mixed_choices[static_cast<std::size_t>(decision.mixed)];
  const LogValue named = field(event, body, "alternative", "which alternative of the decision is taken");
  if (!named.is_string()) bad_log(event.line, "alternative", fmt::format("an alternative is a name, not {}", named.shown()));
  std::vector<std::string> names;
  for (const ir::AlternativeInfo& a : table.alternatives) names.push_back(a.name);
  const auto found = std::find(names.begin(), names.end(), named.string());
  if (found == names.end()) {
    stop(ReplayOutcome::kIllegal, grammar::Code::kIllegalChoice, event.line, "alternative",
         fmt::format("step {}: {} has no alternative '{}'; its alternatives are {}", step, rule_text(decision.rule),
                     named.string(), fmt::join(names, ", ")),
         {rule_note(decision.instr, "the decision is here"), legal_note(state)});
  }
  const auto alt = static_cast<std::int32_t>(found - names.begin());
  const ir::AlternativeInfo& info = table.alternatives[static_cast<std::size_t>(alt)];
  Value choice = Value::none();
  if (info.slot >= 0) {
    choice = choice_of(state, event.line, field(event, body, "choice", "the element chosen"),
                       shape_of(ir_, ir_.local_types[static_cast<std::size_t>(info.slot)]));
  } else if (const std::optional<LogValue> given = body.find("choice"); given && !given->is_null()) {
    bad_log(event.line, "choice", fmt::format("alternative '{}' takes no element, but the line gives {}", info.name, given->shown()));
  }
  std::size_t index = decision.options.size();
  for (std::size_t i = 0; i < decision.options.size(); ++i) {
    if (decision.alternatives[i] == alt && equal(decision.options[i], choice)) index = i;
  }
  if (index == decision.options.size()) {
    std::vector<grammar::DiagnosticNote> notes{
        rule_note(decision.instr, fmt::format("{} allows only these moves", rule_text(decision.rule)))};
    for (grammar::DiagnosticNote& n : why_illegal_alternative(machine_, sources_, names_, state, alt, choice)) notes.push_back(std::move(n));
    notes.push_back(legal_note(state));
    stop(ReplayOutcome::kIllegal, grammar::Code::kIllegalChoice, event.line, info.slot >= 0 ? "choice" : "alternative",
         fmt::format("step {}: {} may not {} in {}", step, names_.who(player), move_notation(state, alt, choice),
                     rule_text(decision.rule)),
         std::move(notes));
  }
  traced_alternative_ = alt;
  record_step(event.line.number, player, choice, decision.instr, false, state);
  traced_alternative_ = -1;
  reader_.advance();
  if (machine_.apply(state, index, this) != SinkVerdict::kContinue) raise_pending();
  snapshot_step(state);
}

}  // namespace rulebook::interpreter::detail
