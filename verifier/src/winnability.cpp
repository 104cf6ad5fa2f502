// Winnability: every player wins some game. Players are numbered by the seat they start in
// (`swap seats` moves a player, not its number), as logs and `end game winners` count them. A
// witness game (sampled or found by the exhaustive search) shows that a player can win; no end
// of the game naming the player among the winners in any reachable state shows that it cannot.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "context.hpp"

namespace rulebook::verifier {

void check_winnability(Context& ctx, std::vector<Finding>& out) {
  const auto started = std::chrono::steady_clock::now();
  ctx.start_clock();
  const std::int32_t seats = ctx.setting.seats;
  std::vector<const ri::GameResult*> witness(static_cast<std::size_t>(seats), nullptr);
  for (const ri::GameResult& g : ctx.sampling.games) {
    for (const ri::PlayerId p : g.winners) {
      if (p >= 0 && p < seats && witness[static_cast<std::size_t>(p)] == nullptr) witness[static_cast<std::size_t>(p)] = &g;
    }
  }
  std::vector<std::string> never, open, shown;
  for (std::int32_t p = 0; p < seats; ++p) {
    if (witness[static_cast<std::size_t>(p)] == nullptr) {
      const auto hit = std::find_if(ctx.search.hits.begin(), ctx.search.hits.end(), [&](const SearchHit& h) {
        return h.what == SearchHit::What::kWon && h.index == p;
      });
      if (hit != ctx.search.hits.end()) {
        shown.push_back(fmt::format("player {}: wins after {} moves found by the exhaustive search (seed {})", p, hit->moves.size(),
                                    ctx.config.seed));
        continue;
      }
    }
    if (witness[static_cast<std::size_t>(p)] != nullptr) {
      shown.push_back(fmt::format("player {}: wins the simulated game with seed {}", p, witness[static_cast<std::size_t>(p)]->seed));
      continue;
    }
    const auto long_win = std::find_if(ctx.sampling.witnesses.begin(), ctx.sampling.witnesses.end(), [&](const auto& w) {
      return std::find(w.second.winners.begin(), w.second.winners.end(), p) != w.second.winners.end();
    });
    if (long_win != ctx.sampling.witnesses.end()) {
      shown.push_back(fmt::format("player {}: wins a long simulated game, {}", p, long_game(ctx, long_win->first, long_win->second)));
      continue;
    }
    bool possible = false;
    for (std::size_t pc = 0; pc < ctx.ir.code.size() && !possible; ++pc) {
      const ir::Instr& in = ctx.ir.code[pc];
      if (in.code != ir::OpCode::kEndGame || in.a < 0) continue;
      std::size_t way = 0;
      for (Invariants::Reach& r : ctx.invariants.reach(static_cast<std::int32_t>(pc))) {
        Step scratch;
        const auto bits = ctx.encoder.players(in.a, r.state, fmt::format("win{}_{}_{}", p, pc, way++), scratch);
        if (!bits) {
          possible = true;
          break;
        }
        r.facts.push_back((*bits)[static_cast<std::size_t>(p)]);
        r.facts.insert(r.facts.end(), scratch.assumptions.begin(), scratch.assumptions.end());
        if (ctx.check(r.facts) != z3::unsat) {
          possible = true;
          break;
        }
      }
    }
    (possible ? open : never).push_back(fmt::format("player {}", p));
  }
  Finding f;
  f.property = "winnability";
  f.details = shown;
  if (!never.empty()) {
    f.status = Status::kRefuted;
    f.method = "Z3: no end of the game names the player among the winners in any reachable state";
    f.message = fmt::format("{} can never win", fmt::join(never, ", "));
  } else if (open.empty()) {
    f.status = Status::kProved;
    f.method = "witness games (replayable with their seeds)";
    f.message = fmt::format("every one of the {} players (seats at the start) wins some game", seats);
  } else {
    f.status = Status::kUnknown;
    f.method = "witness games and Z3";
    f.message = fmt::format("{} never won {} and are not proved unable to win", fmt::join(open, ", "), games_played(ctx));
    ctx.note_time(f, ctx.clock);
  }
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.push_back(std::move(f));
}

}  // namespace rulebook::verifier
