// Control flow facts of the IR: successors of each instruction and live locals.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "rulebook/ir/ir.hpp"

namespace rulebook::verifier {


// Where control may go after each instruction (both ways of every test).
std::vector<std::vector<std::int32_t>> static_successors(const ir::Ir& ir);
// Slots bound inside expressions (comprehension variables, definition parameters): they
// never carry a value from one instruction to the next.
std::set<ir::Slot> expression_slots(const ir::Ir& ir);
// Per position: the locals read before being written again.
std::vector<std::set<ir::Slot>> live_locals(const ir::Ir& ir);

}  // namespace rulebook::verifier
