// Instruction execution: effects on cards and variables, control flow, decisions, faults.
#include <algorithm>

#include <fmt/format.h>

#include "executor.hpp"

namespace rulebook::interpreter::detail {

void Executor::put(CardId c, std::int32_t zone, bool at_bottom, std::size_t bottom_position, std::uint8_t flags) {
  auto& to = s_.zones[static_cast<std::size_t>(zone)];
  if (at_bottom) {
    to.insert(to.begin() + static_cast<std::ptrdiff_t>(std::min(bottom_position, to.size())), c);
  } else {
    to.push_back(c);
  }
  s_.card_zone[static_cast<std::size_t>(c)] = zone;
  if ((flags & kFaceUp) != 0) s_.card_face_up[static_cast<std::size_t>(c)] = 1;
  if ((flags & kFaceDown) != 0) s_.card_face_up[static_cast<std::size_t>(c)] = 0;
}

// Taking the cards out one by one erased each from the front of its zone: `move box to deck`
// was quadratic in the cards (400,000 took 6 s). The cards now leave their zones in one pass
// and arrive at the bottom in one insert. Sinks are told card by card as before, and read in
// `moved` only the moved card's own zone and face, which are set card by card; if one halts the
// game part way, the cards not yet moved are put back where they were, in their order, so the
// state is the one the card-by-card move left. A move within one zone (`move deck to deck`)
// reorders that zone card by card, and a few cards cost nothing: both keep the plain path.
bool Executor::move_cards(const std::vector<CardId>& cards, std::int32_t target, std::uint8_t flags) {
  const bool at_bottom = (flags & kAtBottom) != 0;
  auto zone_of = [&](CardId c) { return s_.card_zone[static_cast<std::size_t>(c)]; };
  const bool batch = cards.size() > 8 &&
                     std::none_of(cards.begin(), cards.end(), [&](CardId c) { return zone_of(c) == target; });
  if (!batch) {
    std::size_t position = 0;
    for (const CardId c : cards) {
      const std::int32_t from = zone_of(c);
      const bool was_up = s_.card_face_up[static_cast<std::size_t>(c)] != 0;
      take_out(c);
      put(c, target, at_bottom, position++, flags);
      if (sink_ != nullptr) sink_->moved(s_, c, from, was_up);
      if (halted()) return true;
    }
    return false;
  }
  std::vector<std::int32_t> from(cards.size());
  std::vector<std::int32_t> sources;
  for (std::size_t i = 0; i < cards.size(); ++i) {
    from[i] = zone_of(cards[i]);
    sources.push_back(from[i]);
  }
  std::sort(sources.begin(), sources.end());
  sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
  // Each source zone without the moved cards, in one pass; its old order is kept for a halt.
  std::vector<char> moving(s_.card_zone.size(), 0);
  for (const CardId c : cards) moving[static_cast<std::size_t>(c)] = 1;
  std::vector<std::vector<CardId>> before;
  before.reserve(sources.size());
  for (const std::int32_t z : sources) {
    auto& zone = s_.zones[static_cast<std::size_t>(z)];
    before.push_back(zone);
    zone.erase(std::remove_if(zone.begin(), zone.end(), [&](CardId c) { return moving[static_cast<std::size_t>(c)] != 0; }),
               zone.end());
  }
  auto& to = s_.zones[static_cast<std::size_t>(target)];
  std::size_t done = 0;
  bool stopped = false;
  for (std::size_t i = 0; i < cards.size() && !stopped; ++i) {
    const CardId c = cards[i];
    const bool was_up = s_.card_face_up[static_cast<std::size_t>(c)] != 0;
    if (!at_bottom) to.push_back(c);
    s_.card_zone[static_cast<std::size_t>(c)] = target;
    if ((flags & kFaceUp) != 0) s_.card_face_up[static_cast<std::size_t>(c)] = 1;
    if ((flags & kFaceDown) != 0) s_.card_face_up[static_cast<std::size_t>(c)] = 0;
    ++done;
    if (sink_ != nullptr) sink_->moved(s_, c, from[i], was_up);
    stopped = halted();
  }
  if (at_bottom) to.insert(to.begin(), cards.begin(), cards.begin() + static_cast<std::ptrdiff_t>(done));
  if (done < cards.size()) {
    // Halted: the cards not moved go back to their zones, at their old places.
    for (std::size_t k = 0; k < sources.size(); ++k) {
      auto& zone = s_.zones[static_cast<std::size_t>(sources[k])];
      zone.clear();
      for (const CardId c : before[k]) {
        if (s_.card_zone[static_cast<std::size_t>(c)] == sources[k]) zone.push_back(c);
      }
    }
  }
  return stopped;
}

std::vector<CardId> Executor::card_list(const Value& v, const grammar::SourceSpan& span) const {
  // A card variable that holds none has the none value, not a card: the same fault as a card.
  if (v.kind == Kind::kCard || v.kind == Kind::kNone) return {card_arg(v, span)};
  if (v.kind == Kind::kZone) return s_.zones[static_cast<std::size_t>(v.scalar)];
  if (v.kind == Kind::kSet && (v.element == Kind::kCard || v.items.empty())) {
    return {v.items.begin(), v.items.end()};
  }
  fault(FaultKind::kTypeMismatch, span, "expected cards");
}

void Executor::write(const Instr& in, bool add, std::int32_t slot, Value value) {
  if (s_.holding && (in.flags & kDeferred) != 0) {
    s_.held.push_back(HeldWrite{slot, add, std::move(value)});
    return;
  }
  apply_write(slot, add, std::move(value), ir_.span_of(in));
}

void Executor::apply_write(std::int32_t slot, bool add, Value value, const grammar::SourceSpan& span) {
  Value& target = s_.vars[static_cast<std::size_t>(slot)];
  if (add) {
    target.scalar = checked_add(target.scalar, int_arg(value, span), span);
  } else {
    target = std::move(value);
  }
}

void Executor::init_vars(bool per_round_only) {
  for (const VarInfo& v : ir_.vars) {
    if (v.init < 0 || (per_round_only && !v.per_round)) continue;
    if (v.per_player) {
      for (std::int64_t p = 0; p < seats(); ++p) {
        s_.locals[static_cast<std::size_t>(v.param)] = Value::player(p);
        s_.vars[static_cast<std::size_t>(v.first_slot + p)] = eval(v.init);
      }
    } else {
      s_.vars[static_cast<std::size_t>(v.first_slot)] = eval(v.init);
    }
  }
}

void Executor::endless_loop(std::int64_t steps) const {
  const grammar::SourceSpan& here = ir_.instr_spans[static_cast<std::size_t>(s_.pc)];
  if (loop_top_ < 0) fault(FaultKind::kEndlessLoop, here, fmt::format("no decision and no end after {} steps: the rules loop", steps));
  const bool round = loop_top_ == ir_.round_start;
  const grammar::SourceSpan& loop = round ? ir_.round_span : ir_.instr_spans[static_cast<std::size_t>(loop_top_)];
  fault(FaultKind::kEndlessLoop, loop,
        fmt::format("no decision and no end after {} steps: the rules loop; {} at line {}, column {} goes round with no decision",
                    steps, round ? "the round" : "the loop", loop.line, loop.column));
}

void Executor::run() {
  std::int64_t steps = 0;
  const bool observe = sink_ != nullptr && sink_->observes_steps();
  loop_top_ = loop_end_ = -1;
  try {
    while (!s_.finished && !s_.decision && !halted_) {
      if (++steps > Machine::kMaxStepsBetweenDecisions) endless_loop(steps - 1);
      if (observe) {
        sink_->stepping(s_);
        if (halted()) break;  // before the instruction: it has not run
      }
      step();
      fired_from_ = -1;  // it did not fault
    }
  } catch (const FaultSignal& f) {
    const Instr& in = ir_.code[static_cast<std::size_t>(s_.pc)];
    // An effect that faults has not acted: its rule started (reached) but did not fire.
    for (std::int32_t l = fired_from_; l >= 0 && l != fired_upto_; l = ir_.label_parents[static_cast<std::size_t>(l)]) {
      s_.acting[static_cast<std::size_t>(l)] = 0;
      --s_.fired[static_cast<std::size_t>(l)];
    }
    fired_from_ = -1;
    // The loop's rule, not that of the instruction the count ran out at.
    const std::int32_t rule = f.kind == FaultKind::kEndlessLoop && loop_top_ >= 0 ? ir_.code[static_cast<std::size_t>(loop_top_)].rule : in.rule;
    s_.fault = Fault{f.message, f.kind, rule, f.span.valid() ? f.span : ir_.span_of(in)};
    s_.finished = true;
    s_.winners.clear();  // a faulted game has no winners (a payoff can fault after `end game` named them)
    s_.decision.reset();
  }
  s_.steps += steps;
  if (halted_) return;  // stopped by the sink: no end to report
  if (s_.finished && sink_ != nullptr) sink_->ended(s_);
}

// The rule `label` and the rules around it act: each counts as fired once per start.
void Executor::note_effect(std::int32_t label) {
  fired_from_ = label;
  while (label >= 0 && s_.acting[static_cast<std::size_t>(label)] == 0) {
    s_.acting[static_cast<std::size_t>(label)] = 1;
    ++s_.fired[static_cast<std::size_t>(label)];
    label = ir_.label_parents[static_cast<std::size_t>(label)];
  }
  fired_upto_ = label;
}

void Executor::step() {
  const Instr& in = ir_.code[static_cast<std::size_t>(s_.pc)];
  std::int32_t next = s_.pc + 1;
  fired_from_ = -1;
  if (in.rule >= 0 && is_effect(in.code)) note_effect(in.rule);
  switch (in.code) {
    case OpCode::kLet: s_.locals[static_cast<std::size_t>(in.a)] = eval(in.b); break;
    case OpCode::kChoose:
      if (choose(in)) return;  // waits for a move
      break;
    case OpCode::kChooseMixed:
      if (choose_mixed(in)) return;  // waits for a move
      break;
    case OpCode::kMove: {
      const Value moved = eval(in.a);
      if (moved.kind == Kind::kCard) {  // most moves are of one card: no list
        const CardId c = card_arg(moved, ir_.span_of(in));
        const std::int32_t target = zone_instance(eval(in.b), ir_.span_of(in));
        const std::int32_t from = s_.card_zone[static_cast<std::size_t>(c)];
        const bool was_up = s_.card_face_up[static_cast<std::size_t>(c)] != 0;
        take_out(c);
        put(c, target, (in.flags & kAtBottom) != 0, 0, in.flags);
        if (sink_ != nullptr) sink_->moved(s_, c, from, was_up);
        if (halted()) return;
        break;
      }
      const std::vector<CardId> cards = card_list(moved, ir_.span_of(in));
      const std::int32_t target = zone_instance(eval(in.b), ir_.span_of(in));
      if (move_cards(cards, target, in.flags)) return;
      break;
    }
    case OpCode::kDeal: {
      const std::int64_t count = int_arg(eval(in.a), ir_.span_of(in));
      const std::int32_t from = zone_instance(eval(in.b), ir_.span_of(in));
      const std::int32_t to = zone_instance(eval(in.c), ir_.span_of(in));
      auto& source = s_.zones[static_cast<std::size_t>(from)];
      if (count < 0 || static_cast<std::size_t>(count) > source.size()) {
        fault(FaultKind::kTakeFromEmpty, ir_.span_of(in), fmt::format("deal {} from {}, which holds {} card{}", count, zone_label(from),
                                   source.size(), source.size() == 1 ? "" : "s"));
      }
      std::vector<CardId> dealt;
      for (std::int64_t i = 0; i < count; ++i) {
        const CardId c = source.back();
        source.pop_back();
        put(c, to, false, 0, in.flags);
        dealt.push_back(c);
      }
      if (sink_ != nullptr) sink_->dealt(s_, from, to, dealt);
      if (halted()) return;
      break;
    }
    case OpCode::kShuffle: {
      const std::int32_t zone = zone_instance(eval(in.a), ir_.span_of(in));
      auto& cards = s_.zones[static_cast<std::size_t>(zone)];
      // A result from outside (a replayed log, a scenario's deal) instead of the RNG.
      std::vector<CardId> order;
      bool given = false;
      if (sink_ != nullptr) {
        order = cards;
        given = sink_->shuffle_result(s_, zone, order);
        if (halted()) return;  // no result: the zone keeps its order
      }
      if (given) {
        std::vector<CardId> a = order, b = cards;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a != b) {
          fault(FaultKind::kShuffleOrder, ir_.span_of(in), fmt::format("shuffle {}: the given order ({} cards) is not an order of the {} cards in the zone",
                                     zone_label(zone), order.size(), cards.size()));
        }
        cards = std::move(order);
      } else {
        s_.rng.shuffle(cards);
      }
      if (sink_ != nullptr) sink_->shuffled(s_, zone);
      if (halted()) return;
      break;
    }
    case OpCode::kFlip:
      for (const CardId c : card_list(eval(in.a), ir_.span_of(in))) {
        const bool was_up = s_.card_face_up[static_cast<std::size_t>(c)] != 0;
        s_.card_face_up[static_cast<std::size_t>(c)] = (in.flags & kFaceUp) != 0 ? 1 : 0;
        if (sink_ != nullptr) sink_->flipped(s_, c, was_up);
        if (halted()) return;
      }
      break;
    case OpCode::kSet:
    case OpCode::kAdd: {
      const std::int32_t slot = var_slot(in.a, in.b, ir_.span_of(in));
      write(in, in.code == OpCode::kAdd, slot, eval(in.c));
      break;
    }
    case OpCode::kSwapSeats: {
      const PlayerId a = player_arg(eval(in.a), ir_.span_of(in)), b = player_arg(eval(in.b), ir_.span_of(in));
      std::swap(s_.seat_of[static_cast<std::size_t>(a)], s_.seat_of[static_cast<std::size_t>(b)]);
      s_.player_at[static_cast<std::size_t>(s_.seat_of[static_cast<std::size_t>(a)])] = a;
      s_.player_at[static_cast<std::size_t>(s_.seat_of[static_cast<std::size_t>(b)])] = b;
      break;
    }
    case OpCode::kEndGame:
      s_.winners.clear();
      if (in.a >= 0) {
        const Value w = eval(in.a);
        for (const std::int64_t p : w.items) s_.winners.push_back(static_cast<PlayerId>(p));
      }
      // A payoff that faults stops the game with that fault (never a payoff of 0).
      if (!ir_.payoffs.empty()) s_.payoffs = eval_payoffs();
      s_.finished = true;
      return;
    case OpCode::kJump:
      next = in.target;
      if (next <= s_.pc) went_round(next, s_.pc);
      break;
    case OpCode::kJumpIfFalse:
      if (!eval(in.a).truthy()) next = in.target;
      break;
    case OpCode::kRepeatInit: {
      const std::int64_t count = int_arg(eval(in.b), ir_.span_of(in));
      if (count < 0) fault(FaultKind::kNegativeRepeat, ir_.span_of(in), fmt::format("repeat {} times", count));
      s_.locals[static_cast<std::size_t>(in.a)] = Value::integer(count);
      break;
    }
    case OpCode::kRepeatNext: {
      Value& counter = s_.locals[static_cast<std::size_t>(in.a)];
      if (counter.scalar <= 0) {
        next = in.target;
      } else {
        --counter.scalar;
      }
      break;
    }
    case OpCode::kForInit: {
      const Value domain = eval(in.b);
      Value list = Value::set(element_kind(domain), ordered(domain, in.c, in.d, ir_.span_of(in)), domain.enum_id);
      s_.locals[static_cast<std::size_t>(in.a)] = std::move(list);  // items in walk order
      s_.locals[static_cast<std::size_t>(in.e)] = Value::integer(0);
      break;
    }
    case OpCode::kForNext: {
      const Value& list = s_.locals[static_cast<std::size_t>(in.a)];
      Value& position = s_.locals[static_cast<std::size_t>(in.e)];
      if (static_cast<std::size_t>(position.scalar) >= list.items.size()) {
        next = in.target;
      } else {
        s_.locals[static_cast<std::size_t>(in.b)] =
            element(list.element, list.enum_id, list.items[static_cast<std::size_t>(position.scalar)]);
        ++position.scalar;
      }
      break;
    }
    case OpCode::kBeginSecret:
      s_.holding = true;
      s_.held.clear();
      break;
    case OpCode::kEndSecret:
      s_.holding = false;
      for (HeldWrite& w : s_.held) apply_write(w.slot, w.add, std::move(w.value), ir_.span_of(in));
      s_.held.clear();
      break;
    case OpCode::kFire:
      ++s_.reached[static_cast<std::size_t>(in.a)];
      s_.acting[static_cast<std::size_t>(in.a)] = 0;
      break;
    case OpCode::kRoundStart:
      if (sink_ != nullptr && s_.rounds > 0) sink_->round_ended(s_);
      if (halted()) return;
      ++s_.rounds;
      init_vars(true);
      if (sink_ != nullptr) sink_->round_started(s_);
      if (halted()) return;
      break;
  }
  s_.pc = next;
}

// The legal options of a `choose` (a player's or a random one): the domain's elements that
// pass the filter, in the domain's order.
std::vector<Value> Executor::options_of(const Instr& in, const Value& domain) {
  const Kind kind = element_kind(domain);
  std::vector<Value> options;
  options.reserve(count_of(domain, ir_.span_of(in)));
  each_of(domain, false, ir_.span_of(in), [&](std::int64_t x) {
    Value v = element(kind, domain.enum_id, x);
    if (in.d >= 0) {
      s_.locals[static_cast<std::size_t>(in.a)] = v;
      if (!eval(in.d).truthy()) return true;
    }
    options.push_back(std::move(v));
    return true;
  });
  return options;
}

bool Executor::choose(const Instr& in) {
  const Value domain = eval(in.b);
  if (in.c < 0) return draw(in, options_of(in, domain));
  const PlayerId chooser = player_arg(eval(in.c), ir_.span_of(in));
  const Kind kind = element_kind(domain);
  std::vector<Value> options = options_of(in, domain);
  if (options.empty()) {
    fault(FaultKind::kNoLegalChoice, ir_.span_of(in), fmt::format("seat {} has no legal choice{}", s_.seat_of[static_cast<std::size_t>(chooser)],
                               in.rule >= 0 ? fmt::format(" in rule '{}'", ir_.labels[static_cast<std::size_t>(in.rule)]) : ""));
  }
  const bool automated = s_.vars[static_cast<std::size_t>(ir_.vars[0].first_slot + chooser)].truthy();
  if (automated && in.e >= 0) {
    s_.locals[Ir::kChooserSlot] = Value::player(chooser);
    std::vector<std::int64_t> legal;
    for (const Value& o : options) legal.push_back(o.kind == Kind::kPlayerSet ? mask_of(o, ir_.span_of(in)) : o.scalar);
    s_.locals[Ir::kLegalSlot] = Value::set(kind, sorted_unique(std::move(legal)), domain.enum_id);
    const Value picked = eval(in.e);
    const auto it = std::find_if(options.begin(), options.end(), [&](const Value& o) { return equal(o, picked); });
    if (it == options.end()) fault(FaultKind::kIllegalPolicyChoice, ir_.span_of(in), "the policy's choice is not a legal choice");
    s_.locals[static_cast<std::size_t>(in.a)] = *it;
    ++s_.moves;
    if (sink_ != nullptr) sink_->chose(s_, chooser, in.rule, *it, true);
    return halted();  // stopped: step() returns as if the game waited
  }
  s_.decision = Decision{chooser, in.rule, s_.pc, std::move(options), s_.holding, -1, {}};
  return true;
}

// A decision with alternatives: the moves are, alternative by alternative in the order written,
// every element of its domain that passes its guard, or the alternative itself when it has no
// element and its guard holds. No move at all is a fault, as for `choose`.
bool Executor::choose_mixed(const Instr& in) {
  const PlayerId chooser = player_arg(eval(in.c), ir_.span_of(in));
  const MixedChoice& table = ir_.mixed_choices[static_cast<std::size_t>(in.b)];
  std::vector<Value> options;
  std::vector<std::int32_t> alternatives;
  for (std::size_t i = 0; i < table.alternatives.size(); ++i) {
    const AlternativeInfo& alt = table.alternatives[i];
    if (alt.domain < 0) {
      if (alt.guard < 0 || eval(alt.guard).truthy()) {
        options.push_back(Value::none());
        alternatives.push_back(static_cast<std::int32_t>(i));
      }
      continue;
    }
    const Value domain = eval(alt.domain);
    const Kind kind = element_kind(domain);
    each_of(domain, false, alt.span, [&](std::int64_t x) {
      Value v = element(kind, domain.enum_id, x);
      if (alt.guard >= 0) {
        s_.locals[static_cast<std::size_t>(alt.slot)] = v;
        if (!eval(alt.guard).truthy()) return true;
      }
      options.push_back(std::move(v));
      alternatives.push_back(static_cast<std::int32_t>(i));
      return true;
    });
  }
  if (options.empty()) {
    fault(FaultKind::kNoLegalChoice, ir_.span_of(in),
          fmt::format("seat {} has no legal move{}", s_.seat_of[static_cast<std::size_t>(chooser)],
                      in.rule >= 0 ? fmt::format(" in rule '{}'", ir_.labels[static_cast<std::size_t>(in.rule)]) : ""));
  }
  s_.decision = Decision{chooser, in.rule, s_.pc, std::move(options), s_.holding, in.b, std::move(alternatives)};
  return true;
}

// `choose ... at random`: no decision. The options are listed as for a player's choice; the
// generator draws one (a replayed log gives it instead), and the game goes on. The generator is
// drawn from only here and at shuffles, so rules without random choices draw exactly as before.
bool Executor::draw(const Instr& in, std::vector<Value> options) {
  if (options.empty()) {
    fault(FaultKind::kNoLegalChoice, ir_.span_of(in),
          fmt::format("the random choice has no legal option{}",
                      in.rule >= 0 ? fmt::format(" in rule '{}'", ir_.labels[static_cast<std::size_t>(in.rule)]) : ""));
  }
  std::size_t index = 0;
  bool given = false;
  if (sink_ != nullptr) {
    given = sink_->draw_result(s_, in.rule, options, index);
    if (halted()) return true;  // the log disagrees: stop here, as at an illegal move
  }
  if (!given) index = static_cast<std::size_t>(s_.rng.below(options.size()));
  if (index >= options.size()) fault(FaultKind::kNoLegalChoice, ir_.span_of(in), "the drawn option is not a legal one");
  s_.locals[static_cast<std::size_t>(in.a)] = options[index];
  if (sink_ != nullptr) sink_->drew(s_, in.rule, options, index);
  return halted();
}
}  // namespace rulebook::interpreter::detail
