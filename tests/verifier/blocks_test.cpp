// Large blocks: where the verifier keeps invariants (cut points) and how many paths a fused
// block may have.
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "blocks.hpp"
#include "interpreter/game_fixture.hpp"
#include "liveness.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;

namespace verifier_blocks_test {  // this file's own names (unity builds put several files in one)
namespace {

// Paths of the block from each cut point, counted on the control-flow graph.
std::int64_t paths_from(const std::vector<std::vector<std::int32_t>>& succ, const std::vector<bool>& cuts,
                        std::int32_t pc, bool start) {
  if (!start && cuts[static_cast<std::size_t>(pc)]) return 1;
  const auto& next = succ[static_cast<std::size_t>(pc)];
  if (next.empty()) return 1;
  std::int64_t total = 0;
  for (const std::int32_t s : next) total += paths_from(succ, cuts, s, false);
  return total;
}

}  // namespace

TEST_CASE("blocks: invariants are kept at the start, at every decision and at every loop head") {
  const auto machine = rulebook::test::machine_for(R"(game "Cuts"
players 2
cards { chip: 4 }
zone deck: pile hidden
zone hand(p): set owner
var turns: int = 0
setup {
  move box to deck
  rule hands: for each p in players { deal 1 from deck to hand(p) }
}
round {
  add 1 to turns
  rule pick: choose c in hand(seat 0) by seat 0
  move c to deck
  rule stop: if turns >= 2 { end game winners players }
}
)");
  const ri::Ir& ir = machine->ir();
  const std::vector<bool> cuts = rv::cut_points(ir);
  REQUIRE(cuts.size() == ir.code.size());
  CHECK(cuts[0]);
  std::int32_t decisions = 0, heads = 0, kept = 0;
  for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
    const ri::Instr& in = ir.code[pc];
    if (in.code == ri::OpCode::kChoose) {
      ++decisions;
      CHECK(cuts[pc]);
    }
    if (in.code == ri::OpCode::kJump && in.target <= static_cast<std::int32_t>(pc)) {
      ++heads;
      CHECK(cuts[static_cast<std::size_t>(in.target)]);
    }
    if (cuts[pc]) ++kept;
  }
  CHECK(decisions == 1);
  CHECK(heads >= 2);  // the deal walk and the round loop
  // Straight-line code is fused: far fewer positions than instructions.
  CHECK(kept < static_cast<std::int32_t>(ir.code.size()) / 2);
}

TEST_CASE("blocks: a stretch of independent tests is cut so that no block has more paths than the limit") {
  // Ten tests in a row: 1024 paths through one block without extra cut points.
  std::string round;
  for (int i = 0; i < 10; ++i) round += fmt::format("  rule t{0}: if turns >= {0} {{ add 1 to tally }}\n", i);
  const auto machine = rulebook::test::machine_for(R"(game "Branches"
players 2
cards { chip: 2 }
zone deck: pile hidden
var turns: int = 0
var tally: int = 0
setup { move box to deck }
round {
  add 1 to turns
)" + round + R"(  rule stop: if turns >= 3 { end game winners players }
}
)");
  const ri::Ir& ir = machine->ir();
  const auto succ = rv::static_successors(ir);
  const std::vector<bool> unlimited = rv::cut_points(ir, std::int64_t{1} << 40);
  const std::vector<bool> limited = rv::cut_points(ir, 16);
  std::int64_t widest_unlimited = 0, widest_limited = 0;
  for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
    const auto p = static_cast<std::int32_t>(pc);
    if (unlimited[pc]) widest_unlimited = std::max(widest_unlimited, paths_from(succ, unlimited, p, true));
    if (limited[pc]) widest_limited = std::max(widest_limited, paths_from(succ, limited, p, true));
  }
  CHECK(widest_unlimited >= 1024);
  CHECK(widest_limited <= 16);
  // Every cut point of the unlimited split stays one.
  for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
    if (unlimited[pc]) CHECK(limited[pc]);
  }
}

// Issue 21: the path count of a block recursed once per instruction, and a stretch of
// 120,000 instructions without a cut point overflowed the stack.
TEST_CASE("blocks: 60,000 labelled rules in a row are one block, counted without recursion", "[verifier][hostile]") {
  std::string rules;
  for (int i = 0; i < 60000; ++i) rules += fmt::format("  rule r{}: add 1 to turns\n", i);
  const auto machine = rulebook::test::machine_for(R"(game "Long"
players 2
cards { chip: 4 }
zone deck: pile hidden
zone hand(p): set owner
var turns: int = 0
setup {
  move box to deck
}
round {
  rule pick: choose c in deck by seat 0
  move c to hand(seat 0)
)" + rules + R"(  end game winners players
}
)");
  const ri::Ir& ir = machine->ir();
  REQUIRE(ir.code.size() > 120000);
  const std::vector<bool> cuts = rv::cut_points(ir);
  REQUIRE(cuts.size() == ir.code.size());
  // One path through the rules: no join point, so no cut point among them.
  CHECK(std::count(cuts.begin(), cuts.end(), true) < 10);
}

}  // namespace verifier_blocks_test
