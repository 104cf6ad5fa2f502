// Effects on a symbolic state: card moves (and the card locals that follow the cards they
// name), writes of variables and locals, and choices (what may be chosen, whether anything
// may, and what the choice reads).
#include "symbolic_run.hpp"

#include <fmt/format.h>

namespace rulebook::verifier {

void Encoder::Run::move(const Sym& cards, const z3::expr& target, const grammar::SourceSpan& span) {
  using S = Sym::Shape;
  const std::int32_t K = classes();
  if (cards.shape == S::kCard) {
    oblige(ir::FaultKind::kNoneCard, cards.e[0] >= num(0), span, "a card to move, not none");
    require(cards.e[0] < num(layout_.instances) && cards.e[1] >= num(0) && cards.e[1] < num(K));
    const auto source = instances_named(cards.e[0]), dest = instances_named(target);
    for (std::int32_t i = 0; i < layout_.instances; ++i) {
      const bool from = i >= source.first && i <= source.second, to = i >= dest.first && i <= dest.second;
      if (!from && !to) continue;
      for (std::int32_t k = 0; k < K; ++k) {
        const std::int32_t index = layout_.count_index(i, k);
        const z3::expr is_k = cards.e[1] == num(k);
        write(index, at(index) - (from ? z3::ite(cards.e[0] == num(i) && is_k, num(1), num(0)) : num(0)) +
                         (to ? z3::ite(target == num(i) && is_k, num(1), num(0)) : num(0)));
      }
    }
    follow_locals(cards.from_local, [&](const z3::expr& zone, const z3::expr& cls, const z3::expr& moved) {
      assume(z3::implies(moved, zone == cards.e[0] && cls == cards.e[1]));
    });
    return;
  }
  Sym set = cards;
  if (cards.shape == S::kZone) {
    set.shape = S::kCards;
    set.whole = true;
    set.e = {cards.e[0]};
    for (std::int32_t k = 0; k < K; ++k) set.e.push_back(count(cards.e[0], k));
  }
  if (set.shape != S::kCards) {
    // Cards the abstraction cannot follow: any redistribution of the same cards.
    for (std::int32_t k = 0; k < K; ++k) {
      z3::expr before = num(0), after = num(0);
      for (std::int32_t i = 0; i < layout_.instances; ++i) {
        const std::int32_t index = layout_.count_index(i, k);
        const z3::expr v = fresh_int();
        assume(v >= num(0));
        before = before + at(index);
        after = after + v;
        write(index, v);
      }
      assume(z3::implies(before >= num(0), before == after));
    }
    follow_locals(-1, [&](const z3::expr&, const z3::expr&, const z3::expr&) {});
    return;
  }
  const z3::expr zone = set.e[0];
  const bool everywhere = every_zone(zone);
  const auto source = instances_named(zone), dest = instances_named(target);
  for (std::int32_t i = 0; i < layout_.instances; ++i) {
    // Instances neither zone can name keep their counts (smaller terms, and the invariant
    // search knows what a step leaves alone).
    const bool from = !everywhere && i >= source.first && i <= source.second, to = i >= dest.first && i <= dest.second;
    if (!everywhere && !from && !to) continue;
    for (std::int32_t k = 0; k < K; ++k) {
      const std::int32_t index = layout_.count_index(i, k);
      const z3::expr size = set.e[static_cast<std::size_t>(k) + 1];
      const z3::expr in = to ? z3::ite(target == num(i), size, num(0)) : num(0);
      if (everywhere) {
        write(index, in);
      } else {
        write(index, at(index) - (from ? z3::ite(zone == num(i), size, num(0)) : num(0)) + in);
      }
    }
  }
  std::vector<z3::expr> sizes(set.e.begin() + 1, set.e.end());
  follow_locals(-1, [&](const z3::expr& lzone, const z3::expr& cls, const z3::expr& moved) {
    if (everywhere) {
      assume(z3::implies(lzone >= num(0), moved));
      return;
    }
    const z3::expr taken = select(sizes, cls);
    assume(z3::implies(moved, lzone == zone && taken > num(0)));
    assume(z3::implies(lzone == zone && cls >= num(0) && taken == count_any(zone, cls) && taken > num(0), moved));
  });
}

template <typename F>
void Encoder::Run::follow_locals(ir::Slot moved_local, F constrain) {
  for (std::size_t s = 0; s < layout_.local_shape.size(); ++s) {
    if (layout_.local_shape[s] != SlotShape::kCard) continue;
    const std::int32_t index = layout_.local_index[s];
    if (static_cast<ir::Slot>(s) == moved_local) {
      write(index, move_target_);
      continue;
    }
    const z3::expr moved = fresh_bool();
    assume(z3::implies(moved, at(index) >= num(0)));
    constrain(at(index), at(index + 1), moved);
    write(index, z3::ite(moved, move_target_, at(index)));
  }
}

void Encoder::Run::set_var(const ir::Instr& in) {
  const ir::VarInfo& info = ir_.vars[static_cast<std::size_t>(in.a)];
  std::optional<z3::expr> player;
  if (info.per_player) player = as_player(eval(in.b), ir_.span_of(in));
  const Sym v = eval(in.c);
  if ((in.flags & ir::kDeferred) != 0) return;  // applied (as any value) at the end of the block
  const std::int32_t width = info.per_player ? static_cast<std::int32_t>(seats()) : 1;
  for (std::int32_t p = 0; p < width; ++p) {
    const std::int32_t index = layout_.var_index[static_cast<std::size_t>(info.first_slot + p)];
    if (index < 0) continue;
    z3::expr value = in.code == OpCode::kAdd ? at(index) + as_int(v) : as_int(v);
    if (in.code == OpCode::kAdd) {
      path_.push_back(player ? *player == num(p) : yes());
      (void)checked(make_int(value), ir_.span_of(in));
      path_.pop_back();
    }
    if (player) value = z3::ite(*player == num(p), value, at(index));
    write(index, value);
  }
}

void Encoder::Run::set_local(ir::Slot slot, const Sym& v) {
  const auto s = static_cast<std::size_t>(slot);
  const std::int32_t index = layout_.local_index[s];
  switch (layout_.local_shape[s]) {
    case SlotShape::kScalar: write(index, as_int(v)); break;
    case SlotShape::kCard:
      if (v.shape == Sym::Shape::kCard) {
        write(index, v.e[0]);
        write(index + 1, v.e[1]);
      } else {
        write(index, fresh_in(-1, layout_.instances - 1));
        write(index + 1, fresh_in(-1, classes() - 1));
      }
      break;
    default: break;
  }
}

namespace {
// A choice over subsets(...) with a filter encodes the filter on each of the 2^n subsets of
// n players up to this many; past it, whether some subset passes is left unknown.
constexpr std::size_t kFamilyFilterSeats = 6;
}  // namespace

Encoder::Sym Encoder::Run::choose_from(const Sym& domain, ir::Slot slot, ir::ExprId filter, z3::expr& nonempty,
                                       Sym* legal) {
  using S = Sym::Shape;
  if (legal != nullptr) *legal = unknown();
  if (domain.shape == S::kPlayers || domain.shape == S::kValues) {
    std::vector<z3::expr> ok;
    for (std::size_t v = 0; v < domain.e.size(); ++v) {
      z3::expr pass = domain.e[v];
      if (filter >= 0) pass = pass && as_bool(for_member(domain, v, slot, filter));
      ok.push_back(pass);
    }
    z3::expr_vector any(ctx_);
    for (const z3::expr& e : ok) any.push_back(e);
    nonempty = any.empty() ? ctx_.bool_val(false) : z3::mk_or(any);
    if (legal != nullptr) {
      *legal = domain;
      legal->e = ok;
    }
    const z3::expr chosen = fresh_in(0, static_cast<std::int64_t>(domain.e.size()) - 1);
    require(select(ok, chosen));
    Sym out = member(domain, 0);
    out.e[0] = domain.kind == Kind::kBool && domain.shape == S::kValues ? chosen != num(0) : chosen;
    return out;
  }
  if (domain.shape == S::kFamily) {
    const std::size_t n = domain.e.size() - 2;
    z3::expr base = num(0);
    for (std::size_t i = 0; i < n; ++i) base = base + z3::ite(domain.e[i], num(1), num(0));
    const z3::expr lo = domain.e[n], hi = domain.e[n + 1];
    const z3::expr low = z3::ite(lo > num(0), lo, num(0));
    nonempty = low <= hi && low <= base;
    if (filter < 0) return unknown();
    if (n > kFamilyFilterSeats) {
      // Too many subsets to encode the filter on each: whether one passes is left open.
      nonempty = nonempty && fresh_bool();
      visit_untracked(slot, {filter});
      return unknown();
    }
    // The interpreter tests the filter on every subset in the family: so does the encoding,
    // each subset of the players bound as a set of players, on the path where it belongs.
    z3::expr_vector any(ctx_);
    for (std::uint32_t mask = 0; mask < (std::uint32_t{1} << n); ++mask) {
      Sym subset;
      subset.shape = S::kPlayers;
      z3::expr in_family = yes();
      std::int64_t size = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const bool member = ((mask >> i) & 1U) != 0;
        subset.e.push_back(ctx_.bool_val(member));
        if (member) in_family = in_family && domain.e[i];
        size += member ? 1 : 0;
      }
      in_family = in_family && lo <= num(size) && num(size) <= hi;
      path_.push_back(in_family);
      const auto old = bind(slot, subset);
      const z3::expr pass = in_family && as_bool(eval(filter));
      unbind(slot, old);
      path_.pop_back();
      any.push_back(pass);
    }
    nonempty = z3::mk_or(any);
    return unknown();
  }
  z3::expr zone = num(-1);
  std::vector<z3::expr> counts;
  if (!card_domain(domain, zone, counts)) {
    nonempty = fresh_bool();
    visit_untracked(slot, {filter});
    return unknown();
  }
  std::vector<z3::expr> passing;
  z3::expr any = ctx_.bool_val(false);
  bool exact = true;
  for (std::int32_t k = 0; k < classes(); ++k) {
    z3::expr c = counts[static_cast<std::size_t>(k)];
    if (filter >= 0) {
      const Filtered f = filtered_count(slot, filter, zone, k, c);
      c = f.count;
      exact = exact && f.exact;
    }
    passing.push_back(c);
    any = any || c > num(0);
  }
  nonempty = any;
  if (legal != nullptr) {
    legal->shape = S::kCards;
    legal->e = {zone};
    legal->e.insert(legal->e.end(), passing.begin(), passing.end());
    // Whether a card of a class with passing cards is itself legal is known only when the
    // filter takes all or none of each class.
    legal->varies = filter >= 0 && !exact;
  }
  Sym card;
  card.shape = S::kCard;
  const z3::expr cls = fresh_in(0, classes() - 1);
  require(select(passing, cls) > num(0));
  card.e = {zone, cls};
  (void)place_anywhere(card);  // a choice from all_cards
  return card;
}

z3::expr Encoder::Run::size_of(const Sym& v) {
  using S = Sym::Shape;
  if (v.shape == S::kZone) return total(v.e[0]);
  if (v.shape == S::kCards) {
    z3::expr t = num(0);
    for (std::size_t i = 1; i < v.e.size(); ++i) t = t + v.e[i];
    return t;
  }
  if (v.shape == S::kPlayers || v.shape == S::kValues) {
    z3::expr t = num(0);
    for (const z3::expr& bit : v.e) t = t + z3::ite(bit, num(1), num(0));
    return t;
  }
  const z3::expr t = fresh_int();
  assume(t >= num(0));
  return t;
}

ChoiceReads Encoder::Run::choice_reads(std::int32_t pc) {
  const ir::Instr& in = ir_.code[static_cast<std::size_t>(pc)];
  ChoiceReads out{in.c >= 0 ? as_int(eval(in.c)) : num(-1), {}};
  reads_ = &out.zones;
  if (in.code == ir::OpCode::kChooseMixed) {
    // Every alternative's domain, and its guard for any element (or none): the moves listed.
    for (const ir::AlternativeInfo& a : ir_.mixed_choices[static_cast<std::size_t>(in.b)].alternatives) {
      if (a.domain >= 0) (void)eval(a.domain);
      if (a.guard < 0) continue;
      const auto old = a.slot >= 0 ? bind(a.slot, unknown()) : std::nullopt;
      (void)eval(a.guard);
      if (a.slot >= 0) unbind(a.slot, old);
    }
    reads_ = nullptr;
    return out;
  }
  (void)eval(in.b);
  if (in.d >= 0) {
    const auto old = bind(in.a, unknown());
    (void)eval(in.d);
    unbind(in.a, old);
  }
  reads_ = nullptr;
  return out;
}

}  // namespace rulebook::verifier
