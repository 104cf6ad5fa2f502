// Knowable moves: the options of every choice are computed from what the chooser can see.
// A choice may look at any zone's number of cards, at public zones, and at its own owner
// zones; Z3 proves, under the inductive invariants, that an owner zone read is the
// chooser's own. Cards of hidden zones are known only when face up, which the abstraction
// does not keep: such a read leaves the property unknown. A simultaneous block holds
// variable writes back until it ends; it must not move, deal, flip or shuffle cards either.
#include <chrono>

#include <fmt/format.h>

#include "context.hpp"

namespace rulebook::verifier {

void check_knowable_moves(const Context& ctx, std::vector<Finding>& out) {
  ctx.start_clock();
  const auto started = std::chrono::steady_clock::now();
  const ri::Ir& ir = ctx.ir;
  std::vector<std::string> leaks, unclear;
  std::int64_t choices = 0;
  // Per zone instance: which zone, and the owner's player for owner zones.
  std::vector<std::int32_t> zone_of(static_cast<std::size_t>(ir.zone_instances), 0);
  for (std::size_t z = 0; z < ir.zones.size(); ++z) {
    const ri::ZoneInfo& info = ir.zones[z];
    const std::int32_t width = info.per_player ? ctx.setting.seats : 1;
    for (std::int32_t p = 0; p < width && info.first_instance + p < ir.zone_instances; ++p) {
      zone_of[static_cast<std::size_t>(info.first_instance + p)] = static_cast<std::int32_t>(z);
    }
  }
  for (std::size_t i = 0; i < ir.code.size(); ++i) {
    const auto pc = static_cast<std::int32_t>(i);
    const ri::Instr& in = ir.code[i];
    if (in.code != ri::OpCode::kChoose || !ctx.invariants.at(pc).reached()) continue;
    ++choices;
    const std::string rule = in.rule >= 0 ? fmt::format("'{}'", ir.labels[static_cast<std::size_t>(in.rule)]) : "a choice";
    Step scratch;
    const ChoiceReads reads = ctx.encoder.choice_reads(pc, ctx.invariants.state(), fmt::format("k{}", pc), scratch);
    const z3::expr inv = ctx.invariants.formula(pc, ctx.invariants.state());
    for (const ZoneRead& read : reads.zones) {
      if (read.counted) continue;
      // Which zones can this read be? Ask Z3 for each that is not visible to everyone.
      for (std::size_t z = 0; z < ir.zones.size(); ++z) {
        const ri::ZoneInfo& info = ir.zones[z];
        if (info.visibility == grammar::ast::Visibility::kPublic) continue;
        const std::int32_t width = info.per_player ? ctx.setting.seats : 1;
        z3::expr_vector bad(ctx.z3);
        for (std::int32_t p = 0; p < width; ++p) {
          const z3::expr instance = ctx.z3.int_val(info.first_instance + p);
          if (info.visibility == grammar::ast::Visibility::kOwner) {
            bad.push_back(read.instance == instance && reads.chooser != ctx.z3.int_val(p));
          } else {
            bad.push_back(read.instance == instance);
          }
        }
        std::vector<z3::expr> facts{inv, read.guard, z3::mk_or(bad)};
        facts.insert(facts.end(), scratch.assumptions.begin(), scratch.assumptions.end());
        if (ctx.check(facts) == z3::unsat) continue;
        const std::string text = fmt::format("{} at {}: its options read the cards of {} ({})", rule,
                                             ctx.where(in.span), info.name, ctx.where(read.span));
        if (info.visibility == grammar::ast::Visibility::kOwner) {
          leaks.push_back(text + ", which may belong to another player");
        } else {
          unclear.push_back(text + ", a hidden zone: known only for face-up cards, and facing is not kept");
        }
      }
    }
  }
  // Simultaneous blocks: only held-back writes between the start and the end.
  std::int32_t open = -1;
  for (std::size_t i = 0; i < ir.code.size(); ++i) {
    const ri::Instr& in = ir.code[i];
    if (in.code == ri::OpCode::kBeginSecret) open = static_cast<std::int32_t>(i);
    if (in.code == ri::OpCode::kEndSecret) open = -1;
    if (open < 0) continue;
    if (in.code == ri::OpCode::kMove || in.code == ri::OpCode::kDeal || in.code == ri::OpCode::kFlip ||
        in.code == ri::OpCode::kShuffle || in.code == ri::OpCode::kSwapSeats) {
      leaks.push_back(fmt::format("{}: a simultaneous block changes cards or seats before the choices are revealed",
                                  ctx.where(in.span)));
    }
  }
  Finding f;
  f.property = "knowable-moves";
  f.method = "the zones each choice reads, checked by Z3 under the inductive invariants";
  if (leaks.empty() && unclear.empty()) {
    f.status = Status::kProved;
    f.message = fmt::format("the options of all {} choices depend only on public zones, the chooser's own zones and "
                            "card counts; simultaneous blocks reveal nothing early", choices);
  } else {
    // A read that Z3 could not rule out is not yet a leak in a reachable state: unknown.
    f.status = Status::kUnknown;
    f.message = fmt::format("{} choice read(s) may depend on cards the chooser cannot see", leaks.size() + unclear.size());
    f.details = leaks;
    f.details.insert(f.details.end(), unclear.begin(), unclear.end());
    ctx.note_time(f, ctx.clock);
  }
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.push_back(std::move(f));
}

}  // namespace rulebook::verifier
