// Large blocks: the instructions between two cut points fused into one transition. Cut points
// are where invariants are kept: the start, every decision, every loop head, and where the
// paths through a stretch of branches would grow too many. A block follows every path from
// its cut point to the next cut points (or the end of the game) symbolically, so facts that
// hold across instructions inside it ("a pass was chosen, so the hand is not empty") need no
// invariant, and the invariant search works on a few positions instead of every instruction.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <z3++.h>

#include "symbolic.hpp"

namespace rulebook::verifier {

// One instruction run inside a block, on one path.
struct BlockNode {
  std::int32_t pc = 0;
  z3::expr reached;                // when the path gets here (over the block's start state and fresh values)
  std::vector<z3::expr> state;     // the state before the instruction
};

// A path out of the block.
struct BlockExit {
  z3::expr guard;                  // when it is taken (every test and fault-free condition on the way)
  std::int32_t pc = -1;            // the cut point reached; -1: the game ends
  std::vector<z3::expr> next;      // the state there
  std::vector<std::int32_t> path;  // the instructions run, the cut point first
  std::vector<bool> kept;          // by layout index: next is the same term as at the start
};

struct Block {
  std::vector<z3::expr> assumptions;    // about fresh values (always satisfiable)
  std::vector<BlockNode> nodes;
  std::vector<BlockExit> exits;
  std::vector<Obligation> obligations;  // each conditioned on reaching its instruction
  std::vector<bool> written;            // by layout index: may differ at some exit
};

// The cut points of a program: the start, decisions, loop heads, and join points added
// until no block has more than `max_paths` paths.
std::vector<bool> cut_points(const ir::Ir& ir, std::int64_t max_paths = 48);

// The block that starts at cut point `cut` in `state`; fresh names start with `prefix`.
Block fuse_block(Encoder& encoder, std::int32_t cut, const std::vector<bool>& cuts, const std::vector<z3::expr>& state,
                 const std::string& prefix);

}  // namespace rulebook::verifier
