// Expressions over sets on a symbolic state: comprehensions, quantifiers and picks
// (first, max, min) over the cards of a zone, the players or a set of values.
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "symbolic_run.hpp"

namespace rulebook::verifier {

std::optional<bool> Encoder::Run::class_predicate(ir::ExprId id) const {
  const CardClasses& cc = enc_.classes_;
  if (static_cast<std::size_t>(id) >= cc.predicate_at.size() || cc.predicate_at[static_cast<std::size_t>(id)] < 0) {
    return std::nullopt;
  }
  const auto p = static_cast<std::size_t>(cc.predicate_at[static_cast<std::size_t>(id)]);
  const auto bound = env_.find(cc.predicate_exprs[p].second);
  if (bound == env_.end() || bound->second.shape != Sym::Shape::kCard) return std::nullopt;
  const z3::expr cls = bound->second.e[1].simplify();
  if (!cls.is_numeral()) return std::nullopt;
  const std::int64_t k = cls.get_numeral_int64();
  if (k < 0 || k >= classes()) return std::nullopt;
  return cc.signature[static_cast<std::size_t>(k)][p];
}

bool Encoder::Run::card_domain(const Sym& domain, z3::expr& zone, std::vector<z3::expr>& counts) const {
  if (domain.shape == Sym::Shape::kZone) {
    zone = domain.e[0];
    for (std::int32_t k = 0; k < classes(); ++k) counts.push_back(count(domain.e[0], k));
    return true;
  }
  if (domain.shape == Sym::Shape::kCards) {
    zone = domain.e[0];
    counts.assign(domain.e.begin() + 1, domain.e.end());
    return true;
  }
  return false;
}

Encoder::Sym Encoder::Run::comprehension(const ir::ExprNode& n) {
  const Sym domain = eval(n.kids[0]);
  if (domain.shape == Sym::Shape::kPlayers || domain.shape == Sym::Shape::kValues) {
    Sym out = domain;
    for (std::size_t v = 0; v < domain.e.size(); ++v) {
      out.e[v] = domain.e[v] && as_bool(for_member(domain, v, n.index, n.kids[1]));
    }
    return out;
  }
  z3::expr zone = num(-1);
  std::vector<z3::expr> counts;
  if (!card_domain(domain, zone, counts)) {
    visit_untracked(n.index, {n.kids[1]});
    return unknown();
  }
  Sym out;
  out.shape = Sym::Shape::kCards;
  out.e.push_back(zone);
  bool whole = true;
  for (std::int32_t k = 0; k < classes(); ++k) {
    const Filtered size = filtered_count(n.index, n.kids[1], zone, k, counts[static_cast<std::size_t>(k)]);
    whole = whole && size.whole;
    out.e.push_back(size.count);
  }
  // A filtered set of every card: its cards come from any zone; not kept.
  if (every_zone(zone) && !whole) return unknown();
  out.whole = whole && domain.whole;
  return out;
}

Encoder::Run::Filtered Encoder::Run::filtered_count(ir::Slot slot, ir::ExprId filter, const z3::expr& zone, std::int32_t k,
                                                   const z3::expr& available) {
  const auto old = bind(slot, class_card(zone, k));
  path_.push_back(available > num(0));
  const int fresh_before = fresh_;
  const Sym f = eval(filter);
  const z3::expr r = as_bool(f).simplify();
  path_.pop_back();
  unbind(slot, old);
  if (r.is_false()) return {num(0), false, true};
  // The filter is the same for every card of the class only when it reads nothing that the
  // class does not fix: a fresh value (an attribute the class does not share, a card
  // compared with another, a set the abstraction does not keep) may differ card by card.
  if (!f.varies && fresh_ == fresh_before) {
    if (r.is_true()) return {available, true, true};
    return {z3::ite(r, available, num(0)), false, true};
  }
  return {part_of(available), false, false};
}

Encoder::Sym Encoder::Run::quantifier(const ir::ExprNode& n) {
  const auto q = static_cast<ir::QuantKind>(n.sub);
  const Sym domain = eval(n.kids[0]);
  if (domain.shape == Sym::Shape::kPlayers || domain.shape == Sym::Shape::kValues) {
    z3::expr_vector parts(ctx_);
    z3::expr total = num(0);
    // The interpreter adds the terms in seat order, which swaps make differ from player
    // order; every partial sum in any order lies between the sum of the negative terms and
    // the sum of the positive ones, so bounding those two proves that no order overflows.
    z3::expr positive = num(0), negative = num(0);
    bool varies = false;
    for (std::size_t v = 0; v < domain.e.size(); ++v) {
      const bool stops = q == ir::QuantKind::kExists || q == ir::QuantKind::kAll;
      const Sym body = stops ? for_member_if_reached(domain, v, n.index, n.kids[1]) : for_member(domain, v, n.index, n.kids[1]);
      varies = varies || body.varies;
      switch (q) {
        case ir::QuantKind::kExists: parts.push_back(domain.e[v] && as_bool(body)); break;
        case ir::QuantKind::kAll: parts.push_back(z3::implies(domain.e[v], as_bool(body))); break;
        case ir::QuantKind::kCount: total = total + z3::ite(domain.e[v] && as_bool(body), num(1), num(0)); break;
        case ir::QuantKind::kSum: {
          const z3::expr term = z3::ite(domain.e[v], as_int(body), num(0));
          total = total + term;
          positive = positive + z3::ite(term > num(0), term, num(0));
          negative = negative + z3::ite(term < num(0), term, num(0));
          break;
        }
      }
    }
    if (q == ir::QuantKind::kSum && !domain.e.empty()) {
      const z3::expr lowest = ctx_.int_val(std::numeric_limits<std::int64_t>::min());
      const z3::expr highest = ctx_.int_val(std::numeric_limits<std::int64_t>::max());
      // Without a fault the whole sum fits (it is the last partial sum in any order).
      oblige_stronger(ir::FaultKind::kIntegerOverflow, positive <= highest && negative >= lowest, total >= lowest && total <= highest,
                      ir_.span_of(n), "a sum within 64 bits (every partial sum, in any order of its terms)");
    }
    if (q == ir::QuantKind::kExists) return make_bool(parts.empty() ? ctx_.bool_val(false) : z3::mk_or(parts), varies);
    if (q == ir::QuantKind::kAll) return make_bool(parts.empty() ? yes() : z3::mk_and(parts), varies);
    Sym out = make_int(total);
    out.varies = varies;
    return out;
  }
  z3::expr zone = num(-1);
  std::vector<z3::expr> counts;
  if (!card_domain(domain, zone, counts)) {
    visit_untracked(n.index, {n.kids[1]});
    if (q == ir::QuantKind::kSum) oblige(ir::FaultKind::kIntegerOverflow, fresh_bool(), ir_.span_of(n), "a sum within 64 bits (the set is not kept)");
    return q == ir::QuantKind::kExists || q == ir::QuantKind::kAll ? make_bool(fresh_bool()) : make_int(fresh_int());
  }
  if (q == ir::QuantKind::kSum) {
    // A sum over cards is not kept, nor whether it fits in 64 bits.
    oblige(ir::FaultKind::kIntegerOverflow, fresh_bool(), ir_.span_of(n), "a sum within 64 bits");
    return make_int(fresh_int());
  }
  z3::expr any = ctx_.bool_val(false);
  z3::expr size = num(0);
  for (std::int32_t k = 0; k < classes(); ++k) {
    // `exists` and `all` stop at the card that decides, in pile order: see for_member_if_reached.
    const std::size_t before = step_.continues.size();
    const Filtered passing = filtered_count(n.index, n.kids[1], zone, k, counts[static_cast<std::size_t>(k)]);
    if (q != ir::QuantKind::kCount) if_reached(before);
    any = any || passing.count > num(0);
    size = size + passing.count;
  }
  z3::expr all_cards = num(0);
  for (const z3::expr& c : counts) all_cards = all_cards + c;
  switch (q) {
    case ir::QuantKind::kExists: return make_bool(any);
    case ir::QuantKind::kAll: return make_bool(size == all_cards);
    default: return make_int(size);
  }
}

Encoder::Sym Encoder::Run::pick(const ir::ExprNode& n, ir::ExprId domain_id, ir::ExprId filter, bool extremum) {
  const Sym domain = eval(domain_id);
  if (domain.shape == Sym::Shape::kPlayers || domain.shape == Sym::Shape::kValues) {
    std::vector<z3::expr> ok;
    for (std::size_t v = 0; v < domain.e.size(); ++v) {
      z3::expr pass = domain.e[v];
      // `first` stops at its first match in seat order: see for_member_if_reached.
      if (filter >= 0) pass = pass && as_bool(for_member_if_reached(domain, v, n.index, filter));
      if (extremum) {
        for (std::size_t k = 1; k < n.kids.size(); ++k) (void)for_member(domain, v, n.index, n.kids[k]);
      }
      ok.push_back(pass);
    }
    z3::expr_vector any(ctx_);
    for (const z3::expr& e : ok) any.push_back(e);
    oblige(extremum ? ir::FaultKind::kEmptyExtremum : ir::FaultKind::kFirstNotFound, any.empty() ? ctx_.bool_val(false) : z3::mk_or(any), ir_.span_of(n),
           extremum ? "max/min over a non-empty set" : "'first' finds an element");
    const z3::expr chosen = fresh_in(0, static_cast<std::int64_t>(domain.e.size()) - 1);
    require(select(ok, chosen));
    Sym out = member(domain, 0);
    out.e[0] = domain.kind == Kind::kBool && domain.shape == Sym::Shape::kValues ? chosen != num(0) : chosen;
    return out;
  }
  z3::expr zone = num(-1);
  std::vector<z3::expr> counts;
  if (!card_domain(domain, zone, counts)) {
    std::vector<ir::ExprId> parts{filter};
    if (extremum) parts.insert(parts.end(), n.kids.begin() + 1, n.kids.end());
    visit_untracked(n.index, parts);
    oblige(extremum ? ir::FaultKind::kEmptyExtremum : ir::FaultKind::kFirstNotFound, fresh_bool(), ir_.span_of(n),
           extremum ? "max/min over a non-empty set (the set is not kept)" : "'first' finds an element (the set is not kept)");
    return unknown();
  }
  std::vector<z3::expr> passing;
  z3::expr any = ctx_.bool_val(false);
  for (std::int32_t k = 0; k < classes(); ++k) {
    z3::expr c = counts[static_cast<std::size_t>(k)];
    if (filter >= 0) {
      const std::size_t before = step_.continues.size();
      c = filtered_count(n.index, filter, zone, k, c).count;
      if_reached(before);  // `first` stops at its first match
    }
    passing.push_back(c);
    any = any || c > num(0);
  }
  if (extremum) {
    // The interpreter computes the keys of every card: their faults are obligations for a
    // card of each class there.
    for (std::int32_t k = 0; k < classes(); ++k) {
      const auto old = bind(n.index, class_card(zone, k));
      path_.push_back(counts[static_cast<std::size_t>(k)] > num(0));
      for (std::size_t key = 1; key < n.kids.size(); ++key) (void)eval(n.kids[key]);
      path_.pop_back();
      unbind(n.index, old);
    }
  }
  oblige(extremum ? ir::FaultKind::kEmptyExtremum : ir::FaultKind::kFirstNotFound, any, ir_.span_of(n), extremum ? "max/min over a non-empty set" : "'first' finds a card");
  Sym card = some_card(zone, passing);
  (void)place_anywhere(card);  // `first` over all_cards
  return card;
}

Encoder::Sym Encoder::Run::extremum_value(const ir::ExprNode& n) {
  const bool is_max = (n.sub & ir::kExtremumMax) != 0;
  const grammar::SourceSpan& span = ir_.span_of(n);
  const Sym domain = eval(n.kids[0]);
  // The members present, and the value of E at each, where every one is kept exactly.
  std::vector<z3::expr> present, values;
  bool exact = true, varies = false;
  if (domain.shape == Sym::Shape::kPlayers || domain.shape == Sym::Shape::kValues) {
    for (std::size_t v = 0; v < domain.e.size(); ++v) {
      const Sym body = for_member(domain, v, n.index, n.kids[1]);
      exact = exact && body.shape == Sym::Shape::kInt;
      varies = varies || body.varies;
      present.push_back(domain.e[v]);
      values.push_back(as_int(body));
    }
  } else {
    z3::expr zone = num(-1);
    std::vector<z3::expr> counts;
    if (!card_domain(domain, zone, counts)) {
      visit_untracked(n.index, {n.kids[1]});
      oblige(ir::FaultKind::kEmptyExtremum, fresh_bool(), span, "max/min over a non-empty set (the set is not kept)");
      return make_int(fresh_int());
    }
    // The interpreter computes E for every card: its faults are obligations for a card of
    // each class there. E is one value per class only when it reads nothing the class does
    // not fix (as for filters: see filtered_count).
    for (std::int32_t k = 0; k < classes(); ++k) {
      const z3::expr available = counts[static_cast<std::size_t>(k)];
      const auto old = bind(n.index, class_card(zone, k));
      path_.push_back(available > num(0));
      const int fresh_before = fresh_;
      const Sym body = eval(n.kids[1]);
      exact = exact && body.shape == Sym::Shape::kInt && !body.varies && fresh_ == fresh_before;
      path_.pop_back();
      unbind(n.index, old);
      present.push_back(available > num(0));
      values.push_back(as_int(body));
    }
  }
  z3::expr_vector any(ctx_);
  for (const z3::expr& p : present) any.push_back(p);
  const z3::expr nonempty = any.empty() ? ctx_.bool_val(false) : z3::mk_or(any);
  oblige(ir::FaultKind::kEmptyExtremum, nonempty, span, "max/min over a non-empty set");
  const z3::expr result = fresh_int();
  if (exact) {
    // At least (most) every member's value and equal to one of them. The fact is guarded by
    // `nonempty` so that it holds in every state that gets here; over an empty set the
    // interpreter faults and the step does not go on (the obligation above).
    z3::expr_vector bounds(ctx_), attained(ctx_);
    for (std::size_t v = 0; v < present.size(); ++v) {
      bounds.push_back(z3::implies(present[v], is_max ? result >= values[v] : result <= values[v]));
      attained.push_back(present[v] && result == values[v]);
    }
    if (!present.empty()) assume(z3::implies(nonempty, z3::mk_and(bounds) && z3::mk_or(attained)));
  }
  Sym out = make_int(result);
  out.varies = varies || !exact;
  return out;
}

}  // namespace rulebook::verifier
