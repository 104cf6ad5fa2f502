// Effects and instructions on a symbolic state, and the encoder's entry points.
#include "symbolic_run.hpp"

#include <array>

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
  const bool everywhere = zone.simplify().is_numeral() && zone.simplify().get_numeral_int64() == -2;
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
  if (info.per_player) player = as_player(eval(in.b), in.span);
  const Sym v = eval(in.c);
  if ((in.flags & ir::kDeferred) != 0) return;  // applied (as any value) at the end of the block
  const std::int32_t width = info.per_player ? static_cast<std::int32_t>(seats()) : 1;
  for (std::int32_t p = 0; p < width; ++p) {
    const std::int32_t index = layout_.var_index[static_cast<std::size_t>(info.first_slot + p)];
    if (index < 0) continue;
    z3::expr value = in.code == OpCode::kAdd ? at(index) + as_int(v) : as_int(v);
    if (in.code == OpCode::kAdd) {
      path_.push_back(player ? *player == num(p) : yes());
      (void)checked(make_int(value), in.span);
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
    return unknown();
  }
  z3::expr zone = num(-1);
  std::vector<z3::expr> counts;
  if (!card_domain(domain, zone, counts)) {
    nonempty = fresh_bool();
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
  return card;
}

void Encoder::Run::run(std::int32_t pc) {
  const ir::Instr& in = ir_.code[static_cast<std::size_t>(pc)];
  auto to = [&](const z3::expr& g, std::int32_t target) { step_.successors.push_back(Successor{g, target}); };
  switch (in.code) {
    case OpCode::kLet: set_local(in.a, eval(in.b)); to(yes(), pc + 1); break;
    case OpCode::kChoose: {
      const Sym domain = eval(in.b);
      const z3::expr chooser = as_player(eval(in.c), in.span);
      z3::expr nonempty = yes();
      Sym legal;
      const Sym chosen = choose_from(domain, in.a, in.d, nonempty, &legal);
      oblige(ir::FaultKind::kNoLegalChoice, nonempty, in.span, "a legal choice");
      require(nonempty);
      // The chosen value stays any legal option: the policy's pick is one when it is legal.
      if (in.e >= 0) check_policy(in, chooser, legal);
      set_local(in.a, chosen);
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kMove: {
      const Sym cards = eval(in.a);
      if (cards.shape != Sym::Shape::kCard && cards.shape != Sym::Shape::kCards && cards.shape != Sym::Shape::kZone) {
        oblige_card(cards, in.a, in.span);
      }
      const Sym target = eval(in.b);
      move_target_ = target.shape == Sym::Shape::kZone ? target.e[0] : fresh_in(0, layout_.instances - 1);
      move(cards, move_target_, in.span);
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kDeal: {
      const z3::expr n = as_int(eval(in.a));
      const Sym from = eval(in.b);
      const Sym target = eval(in.c);
      const z3::expr src = from.shape == Sym::Shape::kZone ? from.e[0] : fresh_in(0, layout_.instances - 1);
      move_target_ = target.shape == Sym::Shape::kZone ? target.e[0] : fresh_in(0, layout_.instances - 1);
      oblige(ir::FaultKind::kTakeFromEmpty, n >= num(0) && n <= total(src), in.span, "a deal from a zone that holds the cards");
      require(n >= num(0) && n <= total(src));
      Sym dealt;
      dealt.shape = Sym::Shape::kCards;
      dealt.e.push_back(src);
      z3::expr sum = num(0);
      for (std::int32_t k = 0; k < classes(); ++k) {
        const z3::expr part = part_of(count(src, k));
        sum = sum + part;
        dealt.e.push_back(part);
      }
      require(sum == n);
      move(dealt, move_target_, in.span);
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kShuffle: (void)eval(in.a); to(yes(), pc + 1); break;
    case OpCode::kFlip: {
      const Sym cards = eval(in.a);
      if (cards.shape != Sym::Shape::kCards && cards.shape != Sym::Shape::kZone) oblige_card(cards, in.a, in.span);
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kSet:
    case OpCode::kAdd: set_var(in); to(yes(), pc + 1); break;
    case OpCode::kSwapSeats: {
      const z3::expr a = as_player(eval(in.a), in.span);
      const z3::expr b = as_player(eval(in.b), in.span);
      if (layout_.seats_move) {
        const z3::expr sa = seat_of(a), sb = seat_of(b);
        for (std::int64_t p = 0; p < seats(); ++p) {
          const std::int32_t index = layout_.seat_index[static_cast<std::size_t>(p)];
          write(index, z3::ite(a == num(p), sb, z3::ite(b == num(p), sa, at(index))));
        }
      }
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kEndGame:
      if (in.a >= 0) (void)eval(in.a);
      break;
    case OpCode::kJump: to(yes(), in.target); break;
    case OpCode::kJumpIfFalse: {
      const z3::expr c = as_bool(eval(in.a));
      to(c, pc + 1);
      to(!c, in.target);
      break;
    }
    case OpCode::kRepeatInit: {
      const z3::expr n = as_int(eval(in.b));
      oblige(ir::FaultKind::kNegativeRepeat, n >= num(0), in.span, "a repeat count of at least 0");
      const std::int32_t index = layout_.local_index[static_cast<std::size_t>(in.a)];
      if (index >= 0) write(index, n);
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kRepeatNext: {
      const std::int32_t index = layout_.local_index[static_cast<std::size_t>(in.a)];
      const z3::expr counter = index >= 0 ? at(index) : fresh_int();
      if (index >= 0) write(index, z3::ite(counter > num(0), counter - num(1), counter));
      to(counter > num(0), pc + 1);
      to(counter <= num(0), in.target);
      break;
    }
    case OpCode::kForInit: {
      const Sym domain = eval(in.b);
      if (in.d >= 0) (void)as_player(eval(in.d), in.span);
      const auto s = static_cast<std::size_t>(in.a);
      const std::int32_t index = layout_.local_index[s];
      if (layout_.local_shape[s] == SlotShape::kPlayerList) {
        std::vector<z3::expr> members;
        for (std::int64_t p = 0; p < seats(); ++p) {
          const z3::expr member = domain.shape == Sym::Shape::kPlayers ? domain.e[static_cast<std::size_t>(p)] : fresh_bool();
          members.push_back(member);
          write(index + static_cast<std::int32_t>(p), z3::ite(member, num(1), num(0)));
        }
        // The walk starts at the first member round the table from the start seat (seat 0
        // without an order).
        const std::int32_t direction = layout_.list_direction[s];
        z3::expr from = num(0);
        if (in.d >= 0) from = seat_of(as_player(eval(in.d), in.span));
        z3::expr first = from;
        for (std::int64_t i = seats() - 1; i >= 0; --i) {
          const z3::expr seat = modulo(from + num(direction * i));
          first = z3::ite(select(members, player_at(seat)), seat, first);
        }
        write(index + static_cast<std::int32_t>(seats()), direction == 0 ? fresh_in(0, seats() - 1) : first);
      } else if (layout_.local_shape[s] == SlotShape::kCountList) {
        write(index, size_of(domain));
      }
      const std::int32_t position = layout_.local_index[static_cast<std::size_t>(in.e)];
      if (position >= 0) write(position, num(0));
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kForNext: {
      const auto s = static_cast<std::size_t>(in.a);
      const std::int32_t index = layout_.local_index[s];
      const std::int32_t position = layout_.local_index[static_cast<std::size_t>(in.e)];
      z3::expr more = fresh_bool();
      if (layout_.local_shape[s] == SlotShape::kPlayerList) {
        z3::expr left = num(0);
        std::vector<z3::expr> bits;
        for (std::int64_t p = 0; p < seats(); ++p) {
          bits.push_back(at(index + static_cast<std::int32_t>(p)) != num(0));
          left = left + at(index + static_cast<std::int32_t>(p));
        }
        more = left > num(0);
        // In every game a walk's marks are 0 or 1 and it started at a seat; the invariant
        // at the loop head may have lost the ranges that say so.
        for (std::int64_t p = 0; p < seats(); ++p) {
          const z3::expr mark = at(index + static_cast<std::int32_t>(p));
          assume(mark == num(0) || mark == num(1));
        }
        const std::int32_t direction = layout_.list_direction[s];
        z3::expr chosen = fresh_in(0, seats() - 1);
        if (direction == 0) {
          // Seats move inside the loop: the next player is any one still to visit.
          assume(z3::implies(more, select(bits, chosen)));
        } else {
          // The first player still to visit round the table from the start seat.
          const z3::expr start = at(index + static_cast<std::int32_t>(seats()));
          assume(start >= num(0) && start < num(seats()));
          z3::expr next = num(0);
          for (std::int64_t i = seats() - 1; i >= 0; --i) {
            const z3::expr q = player_at(modulo(start + num(direction * i)));
            next = z3::ite(select(bits, q), q, next);
          }
          chosen = next;
        }
        for (std::int64_t p = 0; p < seats(); ++p) {
          const std::int32_t bit = index + static_cast<std::int32_t>(p);
          write(bit, z3::ite(more && chosen == num(p), num(0), at(bit)));
        }
        set_local(in.b, make_int(chosen, Kind::kPlayer));
      } else if (layout_.local_shape[s] == SlotShape::kCountList) {
        more = at(index) > num(0);
        write(index, z3::ite(more, at(index) - num(1), at(index)));
        set_local(in.b, unknown());
      } else {
        set_local(in.b, unknown());
      }
      if (position >= 0) write(position, z3::ite(more, at(position) + num(1), at(position)));
      to(more, pc + 1);
      to(!more, in.target);
      break;
    }
    case OpCode::kBeginSecret: to(yes(), pc + 1); break;
    case OpCode::kEndSecret: {
      const auto it = enc_.deferred_vars_.find(pc);
      if (enc_.deferred_adds_.count(pc) != 0) {
        // A held-back add is applied here; its amount is not kept, nor whether the sum fits.
        oblige(ir::FaultKind::kIntegerOverflow, fresh_bool(), in.span, "a held-back add within 64 bits");
      }
      if (it != enc_.deferred_vars_.end()) {
        for (const std::int32_t v : it->second) {
          const ir::VarInfo& info = ir_.vars[static_cast<std::size_t>(v)];
          const std::int32_t width = info.per_player ? static_cast<std::int32_t>(seats()) : 1;
          for (std::int32_t p = 0; p < width; ++p) {
            const std::int32_t index = layout_.var_index[static_cast<std::size_t>(info.first_slot + p)];
            if (index >= 0) write(index, fresh_int());
          }
        }
      }
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kFire: to(yes(), pc + 1); break;
    case OpCode::kRoundStart: {
      // The interpreter resets the per-round variables one at a time in declaration order
      // (and a per-player one player by player): each initializer reads the values already
      // reset, so each is evaluated on the state as it is by then.
      std::int32_t reset = 0;
      for (const ir::VarInfo& v : ir_.vars) {
        if (v.init < 0 || !v.per_round) continue;
        const std::int32_t width = v.per_player ? static_cast<std::int32_t>(seats()) : 1;
        for (std::int32_t p = 0; p < width; ++p) {
          std::vector<z3::expr> now = step_.next;
          enc_.complete(now);
          Run inner(enc_, now, fmt::format("{}r{}_", prefix_, reset++), step_);
          inner.path_ = path_;
          if (v.per_player) inner.bind(v.param, make_int(num(p), Kind::kPlayer));
          const Sym value = inner.eval(v.init);
          const std::int32_t index = layout_.var_index[static_cast<std::size_t>(v.first_slot + p)];
          if (index >= 0) write(index, inner.as_int(value));
        }
      }
      to(yes(), pc + 1);
      break;
    }
  }
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
  ChoiceReads out{as_int(eval(in.c)), {}};
  reads_ = &out.zones;
  (void)eval(in.b);
  if (in.d >= 0) {
    const auto old = bind(in.a, unknown());
    (void)eval(in.d);
    unbind(in.a, old);
  }
  reads_ = nullptr;
  return out;
}

Encoder::Encoder(z3::context& ctx, const ir::Ir& ir, const Setting& setting, const CardClasses& classes,
                 const Layout& layout, const SlotKinds& kinds)
    : ctx_(ctx), ir_(ir), setting_(setting), classes_(classes), layout_(layout), kinds_(kinds) {
  for (std::int32_t k = 0; k < classes.count(); ++k) {
    std::array<std::optional<std::int64_t>, 4> shared;
    bool first = true;
    for (std::size_t c = 0; c < setting.cards.size(); ++c) {
      if (classes.class_of[c] != k) continue;
      const ir::CardInfo& info = setting.cards[c];
      const std::array<std::int64_t, 4> values{info.rank, info.suit, info.color, info.kind};
      for (std::size_t a = 0; a < 4; ++a) {
        if (first) {
          shared[a] = values[a];
        } else if (shared[a] && *shared[a] != values[a]) {
          shared[a].reset();
        }
      }
      first = false;
    }
    class_attribute_.push_back(shared);
  }
  // Writes held back in a simultaneous block are applied at its end.
  std::vector<std::int32_t> open;
  std::vector<std::int32_t> written;
  bool adds = false;
  for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
    const ir::Instr& in = ir.code[pc];
    if (in.code == OpCode::kBeginSecret) {
      written.clear();
      adds = false;
    }
    adds = adds || (in.code == OpCode::kAdd && (in.flags & ir::kDeferred) != 0);
    if ((in.code == OpCode::kSet || in.code == OpCode::kAdd) && (in.flags & ir::kDeferred) != 0) written.push_back(in.a);
    if (in.code == OpCode::kEndSecret) {
      deferred_vars_[static_cast<std::int32_t>(pc)] = written;
      if (adds) deferred_adds_.insert(static_cast<std::int32_t>(pc));
    }
  }
}


std::vector<z3::expr> Encoder::state_vars(const std::string& prefix) const {
  std::vector<z3::expr> out;
  for (std::int32_t i = 0; i < layout_.size(); ++i) out.push_back(ctx_.int_const(fmt::format("{}{}", prefix, i).c_str()));
  complete(out);
  return out;
}

void Encoder::complete(std::vector<z3::expr>& state, std::vector<bool>* written) const {
  for (std::size_t i = 0; i < layout_.derived.size(); ++i) {
    const Derived& d = layout_.derived[i];
    const auto at = static_cast<std::size_t>(layout_.base_size) + i;
    const z3::expr& player = state[static_cast<std::size_t>(d.player_dim)];
    bool changed = written != nullptr && (*written)[static_cast<std::size_t>(d.player_dim)];
    z3::expr value = ctx_.int_val(0);
    for (std::int32_t p = layout_.seats; p-- > 0;) {
      z3::expr v = ctx_.int_val(0);
      if (d.zone >= 0) {
        const std::int32_t instance = ir_.zones[static_cast<std::size_t>(d.zone)].first_instance + p;
        for (std::int32_t k = 0; k < layout_.classes; ++k) {
          const auto index = static_cast<std::size_t>(layout_.count_index(instance, k));
          v = k == 0 ? state[index] : v + state[index];
          if (written != nullptr) changed = changed || (*written)[index];
        }
      } else {
        const ir::VarInfo& info = ir_.vars[static_cast<std::size_t>(d.var)];
        const auto index = static_cast<std::size_t>(layout_.var_index[static_cast<std::size_t>(info.first_slot + p)]);
        v = state[index];
        if (written != nullptr) changed = changed || (*written)[index];
      }
      value = z3::ite(player == ctx_.int_val(p), v, value);
    }
    state[at] = value;
    if (written != nullptr) (*written)[at] = changed;
  }
}

std::vector<z3::expr> Encoder::constants(const std::vector<std::int64_t>& values) const {
  std::vector<z3::expr> out;
  for (const std::int64_t v : values) out.push_back(ctx_.int_val(static_cast<int64_t>(v)));
  return out;
}

Step Encoder::step(std::int32_t pc, const std::vector<z3::expr>& state, const std::string& prefix) {
  Step out;
  Run run(*this, state, prefix, out);
  run.run(pc);
  // The seats are a permutation of the players in every state of a game (`swap seats`
  // exchanges two); the invariants cannot say so, and walks round the table need it.
  if (layout_.seats_move && layout_.seat_index.size() > 1) {
    z3::expr_vector seats(ctx_);
    for (const std::int32_t i : layout_.seat_index) {
      const z3::expr& seat = state[static_cast<std::size_t>(i)];
      seats.push_back(seat);
      out.assumptions.push_back(seat >= 0 && seat < ctx_.int_val(static_cast<int64_t>(layout_.seats)));
    }
    out.assumptions.push_back(z3::distinct(seats));
  }
  // No zone ever holds fewer than no cards: an abstract step that would leave a negative
  // count matches no step of a game (counts are exact), so it does not continue.
  const std::int32_t counts = layout_.instances * layout_.classes;
  for (std::int32_t i = 0; i < counts; ++i) {
    if (out.written[static_cast<std::size_t>(i)]) out.continues.push_back(out.next[static_cast<std::size_t>(i)] >= 0);
  }
  complete(out.next, &out.written);
  return out;
}

z3::expr Encoder::value(ir::ExprId id, const std::vector<z3::expr>& state, const std::string& prefix, Step& step) {
  Run run(*this, state, prefix, step);
  return run.value(id);
}

ChoiceReads Encoder::choice_reads(std::int32_t pc, const std::vector<z3::expr>& state, const std::string& prefix,
                                  Step& step) {
  Run run(*this, state, prefix, step);
  return run.choice_reads(pc);
}

std::optional<std::vector<z3::expr>> Encoder::players(ir::ExprId id, const std::vector<z3::expr>& state,
                                                      const std::string& prefix, Step& step) {
  Run run(*this, state, prefix, step);
  return run.players(id);
}

}  // namespace rulebook::verifier
