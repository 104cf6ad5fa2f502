// How the search tells states apart (search.cpp; lassos.cpp through state_words()): a state
// written as words, with alike cards (same attributes) exchangeable where the goal allows.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "search.hpp"

namespace rulebook::verifier {

// Cards with the same attributes are alike: no expression can tell them apart (the IR has
// no card constants; a card's name is only for logs), so one class a set of attributes.
inline std::vector<std::uint64_t> alike_classes(const std::vector<ir::CardInfo>& cards) {
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>, std::uint64_t> class_by_attributes;
  std::vector<std::uint64_t> class_of;
  class_of.reserve(cards.size());
  for (const ir::CardInfo& card : cards) {
    const auto attributes = std::make_tuple(card.rank, card.suit, card.color, card.kind);
    class_of.push_back(class_by_attributes.try_emplace(attributes, class_by_attributes.size()).first->second);
  }
  return class_of;
}

// Writes a state as words. Every part of variable length starts with its length, so that
// two different states never give the same words.
class StateWords {
 public:
  // `generator`: whether the random generator's state is part of the state. A lasso that
  // passes through shuffles and random draws leaves it out: it fixes their outcomes itself.
  StateWords(const ri::State& state, const SearchGoal& goal, SearchSymmetry symmetry, bool generator = true)
      : labels_(goal.labels), alike_(symmetry == SearchSymmetry::kAlikeCards), generator_(generator) {
    if (alike_ && state.cards) class_of_ = alike_classes(*state.cards);
  }

  // Only the locals in `live` (those some rule reads before writing them again; nullptr:
  // all): a lasso compares states by what their futures read.
  void only_live(const std::set<ir::Slot>* live) { live_ = live; }

  void encode(const ri::State& s, std::vector<std::uint64_t>& w) {
    w.clear();
    if (alike_) locate_cards(s);
    w.push_back(word(s.pc));
    if (live_ == nullptr) {
      values(s.locals, w);
    } else {
      w.push_back(s.locals.size());
      for (std::size_t slot = 0; slot < s.locals.size(); ++slot) {
        value(live_->count(static_cast<ir::Slot>(slot)) != 0 ? s.locals[slot] : ir::Value{}, w);
      }
    }
    values(s.vars, w);
    values(s.options, w);
    w.push_back(s.zones.size());
    for (const std::vector<ri::CardId>& zone : s.zones) {
      w.push_back(zone.size());
      for (const ri::CardId c : zone) {
        const auto card = static_cast<std::size_t>(c);
        // Alike: which class lies here and its facing; exact: the card (facings follow).
        w.push_back(alike_ ? (class_of_[card] << 1 | s.card_face_up[card]) : word(c));
      }
    }
    if (!alike_) {
      w.push_back(s.card_face_up.size());
      for (const std::uint8_t up : s.card_face_up) w.push_back(up);
    }
    w.push_back(s.seat_of.size());
    for (const std::int32_t seat : s.seat_of) w.push_back(word(seat));
    for (const ri::PlayerId player : s.player_at) w.push_back(word(player));
    // The generator's next outputs stand for its hidden state: 256 bits of output from a
    // 256-bit state, equal for two different states with negligible chance.
    if (generator_) {
      ri::Rng rng = s.rng;
      for (int i = 0; i < 4; ++i) w.push_back(rng.next());
    }
    w.push_back(s.decision.has_value() ? 1 : 0);
    if (s.decision) {
      w.push_back(word(s.decision->player));
      w.push_back(word(s.decision->rule));
      w.push_back(word(s.decision->instr));
      w.push_back(s.decision->secret ? 1 : 0);
      values(s.decision->options, w);
    }
    w.push_back(s.held.size());
    for (const ri::HeldWrite& held : s.held) {
      w.push_back(word(held.slot));
      w.push_back(held.add ? 1 : 0);
      value(held.value, w);
    }
    w.push_back((s.holding ? 1U : 0U) | (s.finished ? 2U : 0U) | (s.fault ? 4U : 0U));
    w.push_back(s.winners.size());
    for (const ri::PlayerId player : s.winners) w.push_back(word(player));
    // Only "has fired" of the labels looked for: the counts grow forever and no rule reads them.
    for (const std::int32_t label : labels_) {
      const auto at = static_cast<std::size_t>(label);
      w.push_back(at < s.fired.size() && s.fired[at] > 0 ? 1 : 0);
    }
  }

 private:
  static std::uint64_t word(std::int64_t v) { return static_cast<std::uint64_t>(v); }

  // Alike cards are named by where they lie (zone instance and position), which a
  // permutation of alike cards keeps: a local holding "the chip on top of the table" means
  // the same in two states that differ only in which chip that is.
  void locate_cards(const ri::State& s) {
    position_.assign(class_of_.size(), 0);
    for (std::size_t zone = 0; zone < s.zones.size(); ++zone) {
      for (std::size_t i = 0; i < s.zones[zone].size(); ++i) {
        position_[static_cast<std::size_t>(s.zones[zone][i])] = (zone + 1) << 32 | i;
      }
    }
  }
  std::uint64_t card(std::int64_t c) const {
    if (!alike_ || c < 0 || static_cast<std::size_t>(c) >= position_.size()) return word(c);
    return position_[static_cast<std::size_t>(c)];
  }

  void value(const ir::Value& v, std::vector<std::uint64_t>& w) const {
    w.push_back(static_cast<std::uint64_t>(v.kind) | static_cast<std::uint64_t>(v.element) << 8 |
                word(v.enum_id + 1) << 16);
    w.push_back(v.kind == ir::Kind::kCard ? card(v.scalar) : word(v.scalar));
    w.push_back(v.items.size());
    if (alike_ && v.kind == ir::Kind::kSet && v.element == ir::Kind::kCard) {
      // A set of cards is a set of positions: sorted again, since ids no longer order it.
      const std::size_t first = w.size();
      for (const std::int64_t item : v.items) w.push_back(card(item));
      std::sort(w.begin() + static_cast<std::ptrdiff_t>(first), w.end());
      return;
    }
    for (const std::int64_t item : v.items) w.push_back(word(item));
  }
  void values(const std::vector<ir::Value>& vs, std::vector<std::uint64_t>& w) const {
    w.push_back(vs.size());
    for (const ir::Value& v : vs) value(v, w);
  }

  std::vector<std::int32_t> labels_;
  bool alike_;
  bool generator_;
  const std::set<ir::Slot>* live_ = nullptr;
  std::vector<std::uint64_t> class_of_;  // by card id
  std::vector<std::uint64_t> position_;  // by card id, for the state being encoded
};

}  // namespace rulebook::verifier
