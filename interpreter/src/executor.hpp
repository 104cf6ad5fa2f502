// The executor: one game's rules run over a State (expression evaluation in evaluate.cpp,
// instructions in execute.cpp). Short-lived: one per run or evaluation. Private to the
// interpreter library.
//
// Iteration orders (they decide ties and `first`): a set of players in seat order from
// seat 0; a pile bottom to top; any other set (set zones included) in ascending order
// (cards by identity).
#pragma once

#include <algorithm>
#include <array>
#include <functional>
#include <span>
#include <cstdint>
#include <string>
#include <vector>

#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter::detail {


// Thrown inside the machine for a rule fault; caught at the top of Executor::run().
struct FaultSignal {
  FaultKind kind;
  std::string message;
  grammar::SourceSpan span;
};

[[noreturn]] inline void fault(FaultKind kind, const grammar::SourceSpan& span, std::string message) {
  throw FaultSignal{kind, std::move(message), span};
}

// Integer arithmetic of the rules: an overflow is a rule fault, never wrapped.
inline std::int64_t checked_add(std::int64_t x, std::int64_t y, const grammar::SourceSpan& span) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(x, y, &r)) fault(FaultKind::kIntegerOverflow, span, "integer overflow");
  return r;
}
inline std::int64_t checked_sub(std::int64_t x, std::int64_t y, const grammar::SourceSpan& span) {
  std::int64_t r = 0;
  if (__builtin_sub_overflow(x, y, &r)) fault(FaultKind::kIntegerOverflow, span, "integer overflow");
  return r;
}
inline std::int64_t checked_mul(std::int64_t x, std::int64_t y, const grammar::SourceSpan& span) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(x, y, &r)) fault(FaultKind::kIntegerOverflow, span, "integer overflow");
  return r;
}

// Ordinals of the builtin enums.
constexpr std::int64_t kSuitClubs = 0, kSuitDiamonds = 1, kSuitHearts = 2, kSuitSpades = 3;
constexpr std::int64_t kColorRed = 0, kColorBlack = 1;
constexpr std::int32_t kEnumSuit = 0, kEnumColor = 1, kEnumKind = 2;

// The set of players whose bits are set in `mask` (sets of sets hold masks).
Value players_of_mask(std::int64_t mask);

std::vector<std::int64_t> sorted_unique(std::vector<std::int64_t> items);

class Executor {
 public:
  Executor(const Ir& ir, State& state, EventSink* sink) : ir_(ir), s_(state), sink_(sink) {}

  // ---- values ----
  Value element(Kind kind, std::int32_t enum_id, std::int64_t v) const;
  std::int64_t seats() const { return s_.num_seats; }
  // The elements of a collection in iteration order, or by identity (each_of's orders).
  std::vector<std::int64_t> collect(const Value& v, bool by_identity, const grammar::SourceSpan& span) const;
  std::vector<std::int64_t> elements(const Value& v, const grammar::SourceSpan& span) const {
    return collect(v, false, span);
  }
  std::vector<std::int64_t> as_sorted(const Value& v, const grammar::SourceSpan& span) const {
    return collect(v, true, span);
  }
  Kind element_kind(const Value& v) const { return v.kind == Kind::kZone ? Kind::kCard : v.element; }
  PlayerId player_arg(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind != Kind::kPlayer || v.scalar < 0 || v.scalar >= seats()) fault(FaultKind::kNonePlayer, span, "no player here (none)");
    return static_cast<PlayerId>(v.scalar);
  }
  CardId card_arg(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind != Kind::kCard || v.scalar < 0) fault(FaultKind::kNoneCard, span, "no card here (none)");
    return static_cast<CardId>(v.scalar);
  }
  std::int64_t int_arg(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind != Kind::kInt) fault(FaultKind::kTypeMismatch, span, "expected an int");
    return v.scalar;
  }
  const CardInfo& card(CardId c) const { return (*s_.cards)[static_cast<std::size_t>(c)]; }
  std::int32_t zone_instance(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind != Kind::kZone) fault(FaultKind::kTypeMismatch, span, "expected a zone");
    return static_cast<std::int32_t>(v.scalar);
  }
  std::int32_t var_slot(std::int32_t var, ExprId player_expr, const grammar::SourceSpan& span);
  PlayerId at_offset(PlayerId p, std::int64_t offset) const;
  // Elements ordered for a walk: seat orders start at a player; pile orders need a zone.
  std::vector<std::int64_t> ordered(const Value& domain, int order, ExprId from, const grammar::SourceSpan& span);
  // Calls `visit(x)` for the elements of the collection `v` in iteration order (zones bottom
  // to top, set zones and sets by identity, sets of players by seat), or by identity when
  // `by_identity`, until `visit` returns false; returns false if it stopped early. Nothing
  // is copied where the order is already there; a small collection that must be reordered
  // is sorted on the stack. collect() gathers what it visits.
  template <typename Visit>
  bool each_of(const Value& v, bool by_identity, const grammar::SourceSpan& span, Visit&& visit) const;
  // The same for the collection the expression `domain` evaluates to, setting its element
  // kind and enum; `players` builds no set. Quantifiers over the players run in every move:
  // copying their domains was a fifth of a game's time.
  template <typename Visit>
  bool each_element(ExprId domain, bool by_identity, const grammar::SourceSpan& span, Kind& kind, std::int32_t& enum_id,
                    Visit&& visit);

  // ---- expressions ----
  Value eval(ExprId id);
  Value binary(const ExprNode& n);
  std::int64_t mask_of(const Value& set, const grammar::SourceSpan& span) const;
  Value builtin(const ExprNode& n);
  std::size_t count_of(const Value& v, const grammar::SourceSpan& span) const;
  const std::string& zone_label(std::int32_t instance) const {
    return ir_.instance_names[static_cast<std::size_t>(instance)];
  }

  // ---- cards ----
  void take_out(CardId c) {
    auto& from = s_.zones[static_cast<std::size_t>(s_.card_zone[static_cast<std::size_t>(c)])];
    from.erase(std::find(from.begin(), from.end(), c));
  }
  void put(CardId c, std::int32_t zone, bool at_bottom, std::size_t bottom_position, std::uint8_t flags);
  // Moves several cards to `target` in one pass over their zones (execute.cpp); returns true
  // if the sink halted the game part way.
  bool move_cards(const std::vector<CardId>& cards, std::int32_t target, std::uint8_t flags);
  // The cards an effect acts on, in order: a zone's cards bottom to top, a set's by identity.
  std::vector<CardId> card_list(const Value& v, const grammar::SourceSpan& span) const;

  // ---- statements ----
  void write(const Instr& in, bool add, std::int32_t slot, Value value);
  void apply_write(std::int32_t slot, bool add, Value value, const grammar::SourceSpan& span);
  void init_vars(bool per_round_only);
  // Runs until a decision, the end, a fault, or a sink's verdict that stops the game.
  void run();
  void step();
  void note_effect(std::int32_t label);
  // Returns true when the game now waits for a move.
  bool choose(const Instr& in);
  bool choose_mixed(const Instr& in);
  std::vector<Value> options_of(const Instr& in, const Value& domain);  // a choose's legal options
  bool draw(const Instr& in, std::vector<Value> options);  // a random choice: returns true if halted

 private:
  // After an event: whether the sink stops the game (EventSink::verdict). Once it has, the
  // executor unwinds to run() and runs nothing more.
  bool halted() {
    if (!halted_ && sink_ != nullptr && sink_->verdict() != SinkVerdict::kContinue) halted_ = true;
    return halted_;
  }
  // A jump back from `end` to `top` goes round a loop (the round's last jump goes round the
  // round). Keeps the loop that encloses every loop gone round since the run began, or the
  // latest one outside it, so that when the rules loop with no decision, the loop kept is
  // the one that runs on, not one that ran and ended inside it or before it.
  void went_round(std::int32_t top, std::int32_t end) {
    if (loop_top_ < 0 || top < loop_top_ || end > loop_end_) {
      loop_top_ = top;
      loop_end_ = end;
    }
  }
  // The rule fault of rules that loop with no decision, naming the loop.
  [[noreturn]] void endless_loop(std::int64_t steps) const;
  // payoffs.cpp: every payoff for every player, exactly; a zero denominator or a value
  // that does not fit faults where it is written.
  std::vector<std::vector<Rational>> eval_payoffs();
  Rational eval_payoff(const ir::PayoffInfo& payoff, std::int32_t node, std::int64_t player);

  const Ir& ir_;
  State& s_;
  EventSink* sink_;
  std::int32_t loop_top_ = -1, loop_end_ = -1;
  bool halted_ = false;
  // The labels the current instruction made fire, from `fired_from_` up to (not including)
  // `fired_upto_`: a fault in that instruction takes the firing back.
  std::int32_t fired_from_ = -1, fired_upto_ = -1;
};

template <typename Visit>
bool Executor::each_of(const Value& v, bool by_identity, const grammar::SourceSpan& span, Visit&& visit) const {
  auto visit_all = [&](const auto& items) {
    for (const auto x : items) {
      if (!visit(static_cast<std::int64_t>(x))) return false;
    }
    return true;
  };
  auto visit_sorted = [&](const auto& items, auto less) {
    std::vector<std::int64_t> large;
    std::array<std::int64_t, 64> small;  // not initialised: filled before it is read
    std::int64_t* first = small.data();
    if (items.size() > small.size()) {
      large.resize(items.size());
      first = large.data();
    }
    std::int64_t* const end = std::copy(items.begin(), items.end(), first);
    std::sort(first, end, less);
    return visit_all(std::span<const std::int64_t>(first, std::unique(first, end)));
  };
  if (v.kind == Kind::kZone) {
    const auto& cards = s_.zones[static_cast<std::size_t>(v.scalar)];
    const bool pile = ir_.instance_is_pile[static_cast<std::size_t>(v.scalar)] != 0;
    if ((pile && !by_identity) || std::is_sorted(cards.begin(), cards.end())) return visit_all(cards);
    return visit_sorted(cards, std::less<std::int64_t>());
  }
  if (v.kind != Kind::kSet) fault(FaultKind::kTypeMismatch, span, "expected a set or a zone");
  if (v.element == Kind::kPlayer && !by_identity) {
    const auto by_seat = [&](std::int64_t a, std::int64_t b) {
      return s_.seat_of[static_cast<std::size_t>(a)] < s_.seat_of[static_cast<std::size_t>(b)];
    };
    if (!std::is_sorted(v.items.begin(), v.items.end(), by_seat)) return visit_sorted(v.items, by_seat);
  }
  return visit_all(v.items);
}

template <typename Visit>
bool Executor::each_element(ExprId domain, bool by_identity, const grammar::SourceSpan& span, Kind& kind,
                            std::int32_t& enum_id, Visit&& visit) {
  if (ir_.exprs[static_cast<std::size_t>(domain)].op == ExprOp::kPlayers) {
    kind = Kind::kPlayer;
    enum_id = -1;
    for (std::int64_t i = 0; i < seats(); ++i) {
      if (!visit(by_identity ? i : static_cast<std::int64_t>(s_.player_at[static_cast<std::size_t>(i)]))) return false;
    }
    return true;
  }
  const Value v = eval(domain);
  kind = element_kind(v);
  enum_id = v.enum_id;
  return each_of(v, by_identity, span, visit);
}

}  // namespace rulebook::interpreter::detail
