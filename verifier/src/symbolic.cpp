// The encoder's entry points: the classes' shared attributes and the writes held back in
// simultaneous blocks (at construction), state variables, and one step or one value on a
// symbolic state (the instructions are in symbolic_instr.cpp, the effects in
// symbolic_effects.cpp, the expressions in symbolic_expr.cpp).
#include "symbolic_run.hpp"

#include <array>

#include <fmt/format.h>

namespace rulebook::verifier {

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
  attribute_range_.resize(static_cast<std::size_t>(classes.count()) + 1);
  for (std::size_t c = 0; c < setting.cards.size(); ++c) {
    const ir::CardInfo& info = setting.cards[c];
    const std::array<std::int64_t, 4> values{info.rank, info.suit, info.color, info.kind};
    for (const std::size_t k : {static_cast<std::size_t>(classes.class_of[c]), attribute_range_.size() - 1}) {
      for (std::size_t a = 0; a < 4; ++a) {
        auto& range = attribute_range_[k][a];
        range = range ? std::pair{std::min(range->first, values[a]), std::max(range->second, values[a])}
                      : std::pair{values[a], values[a]};
      }
    }
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
  // The cards of one zone instance over all classes; `changed` is set when a count is written.
  auto instance_total = [&](std::int32_t instance, bool& changed) {
    z3::expr total = ctx_.int_val(0);
    for (std::int32_t k = 0; k < layout_.classes; ++k) {
      const auto index = static_cast<std::size_t>(layout_.count_index(instance, k));
      total = k == 0 ? state[index] : total + state[index];
      if (written != nullptr) changed = changed || (*written)[index];
    }
    return total;
  };
  for (std::size_t i = 0; i < layout_.derived.size(); ++i) {
    const Derived& d = layout_.derived[i];
    const auto at = static_cast<std::size_t>(layout_.base_size) + i;
    if (d.instance >= 0) {
      bool changed = false;
      state[at] = instance_total(d.instance, changed);
      if (written != nullptr) (*written)[at] = changed;
      continue;
    }
    if (d.same_as_dim >= 0) {
      const auto a = static_cast<std::size_t>(d.player_dim), b = static_cast<std::size_t>(d.same_as_dim);
      state[at] = z3::ite(state[a] == state[b], ctx_.int_val(1), ctx_.int_val(0));
      if (written != nullptr) (*written)[at] = (*written)[a] || (*written)[b];
      continue;
    }
    const z3::expr& player = state[static_cast<std::size_t>(d.player_dim)];
    bool changed = written != nullptr && (*written)[static_cast<std::size_t>(d.player_dim)];
    z3::expr value = ctx_.int_val(0);
    for (std::int32_t p = layout_.seats; p-- > 0;) {
      z3::expr v = ctx_.int_val(0);
      if (d.zone >= 0) {
        v = instance_total(ir_.zones[static_cast<std::size_t>(d.zone)].first_instance + p, changed);
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
