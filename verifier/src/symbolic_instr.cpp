// One instruction on a symbolic state: its effects, its obligations and its successors
// with their guards (the abstract counterpart of the interpreter's step).
#include "symbolic_run.hpp"

#include <fmt/format.h>

namespace rulebook::verifier {

void Encoder::Run::run(std::int32_t pc) {
  const ir::Instr& in = ir_.code[static_cast<std::size_t>(pc)];
  auto to = [&](const z3::expr& g, std::int32_t target) { step_.successors.push_back(Successor{g, target}); };
  switch (in.code) {
    case OpCode::kLet: set_local(in.a, eval(in.b)); to(yes(), pc + 1); break;
    case OpCode::kChoose: {
      const Sym domain = eval(in.b);
      // A random choice (no chooser) is the same nondeterminism: any legal option may be drawn.
      const z3::expr chooser = in.c >= 0 ? as_player(eval(in.c), ir_.span_of(in)) : num(-1);
      z3::expr nonempty = yes();
      Sym legal;
      const Sym chosen = choose_from(domain, in.a, in.d, nonempty, &legal);
      oblige(ir::FaultKind::kNoLegalChoice, nonempty, ir_.span_of(in), "a legal choice");
      require(nonempty);
      // The chosen value stays any legal option: the policy's pick is one when it is legal.
      if (in.e >= 0) check_policy(in, chooser, legal);
      set_local(in.a, chosen);
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kChooseMixed: {
      // Any legal move: a fresh alternative, and for it one of its legal elements (choose_from
      // under only_if_, so that its selection binds only where that alternative is taken).
      // Every domain and guard is evaluated, as the interpreter lists every move; no move at
      // all is the NoLegalChoice obligation.
      (void)as_player(eval(in.c), ir_.span_of(in));
      const ir::MixedChoice& table = ir_.mixed_choices[static_cast<std::size_t>(in.b)];
      const z3::expr alt = fresh_in(0, static_cast<std::int64_t>(table.alternatives.size()) - 1);
      z3::expr_vector any(ctx_);
      std::vector<std::pair<ir::Slot, Sym>> elements;
      for (std::size_t i = 0; i < table.alternatives.size(); ++i) {
        const ir::AlternativeInfo& a = table.alternatives[i];
        const z3::expr taken = alt == num(static_cast<std::int64_t>(i));
        z3::expr legal = yes();
        if (a.domain < 0) {
          if (a.guard >= 0) legal = as_bool(eval(a.guard));
        } else {
          const Sym domain = eval(a.domain);
          only_if_ = taken;
          Sym chosen = choose_from(domain, a.slot, a.guard, legal, nullptr);
          only_if_.reset();
          elements.emplace_back(a.slot, std::move(chosen));
        }
        any.push_back(legal);
        require(z3::implies(taken, legal));
      }
      const z3::expr some = z3::mk_or(any);
      oblige(ir::FaultKind::kNoLegalChoice, some, ir_.span_of(in), "a legal move");
      require(some);
      set_local(in.a, make_int(alt));
      // Each element slot is read only in its alternative's block, which runs only when it is taken.
      for (auto& [slot, chosen] : elements) set_local(slot, chosen);
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kMove: {
      const Sym cards = eval(in.a);
      if (cards.shape != Sym::Shape::kCard && cards.shape != Sym::Shape::kCards && cards.shape != Sym::Shape::kZone) {
        oblige_card(cards, in.a, ir_.span_of(in));
      }
      const Sym target = eval(in.b);
      move_target_ = target.shape == Sym::Shape::kZone ? target.e[0] : fresh_in(0, layout_.instances - 1);
      move(cards, move_target_, ir_.span_of(in));
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kDeal: {
      const z3::expr n = as_int(eval(in.a));
      const Sym from = eval(in.b);
      const Sym target = eval(in.c);
      const z3::expr src = from.shape == Sym::Shape::kZone ? from.e[0] : fresh_in(0, layout_.instances - 1);
      move_target_ = target.shape == Sym::Shape::kZone ? target.e[0] : fresh_in(0, layout_.instances - 1);
      oblige(ir::FaultKind::kTakeFromEmpty, n >= num(0) && n <= total(src), ir_.span_of(in), "a deal from a zone that holds the cards");
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
      move(dealt, move_target_, ir_.span_of(in));
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kShuffle: (void)eval(in.a); to(yes(), pc + 1); break;
    case OpCode::kFlip: {
      const Sym cards = eval(in.a);
      if (cards.shape != Sym::Shape::kCards && cards.shape != Sym::Shape::kZone) oblige_card(cards, in.a, ir_.span_of(in));
      to(yes(), pc + 1);
      break;
    }
    case OpCode::kSet:
    case OpCode::kAdd: set_var(in); to(yes(), pc + 1); break;
    case OpCode::kSwapSeats: {
      const z3::expr a = as_player(eval(in.a), ir_.span_of(in));
      const z3::expr b = as_player(eval(in.b), ir_.span_of(in));
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
      payoffs();  // after the winners, as the interpreter does; a fault there ends no game
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
      oblige(ir::FaultKind::kNegativeRepeat, n >= num(0), ir_.span_of(in), "a repeat count of at least 0");
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
      if (in.d >= 0) (void)as_player(eval(in.d), ir_.span_of(in));
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
        if (in.d >= 0) from = seat_of(as_player(eval(in.d), ir_.span_of(in)));
        z3::expr first = from;
        for (std::int64_t i = seats() - 1; i >= 0; --i) {
          const z3::expr seat = modulo(from + num(direction * i));
          first = z3::ite(select(members, player_at(seat)), seat, first);
        }
        // Where seats move inside the walk no order is followed and no start kept (layout.cpp's
        // projection keeps 0 there: a swap moves the first player's seat).
        write(index + static_cast<std::int32_t>(seats()), direction == 0 ? num(0) : first);
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
        oblige(ir::FaultKind::kIntegerOverflow, fresh_bool(), ir_.span_of(in), "a held-back add within 64 bits");
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

}  // namespace rulebook::verifier
