// The interpreter runs the IR: the IR's names (Ir, Value, FaultKind, ...) are spoken
// unqualified inside rulebook::interpreter, and `interpreter::Ir` still names the same type
// for code written before the IR had a library of its own.
#pragma once

#include "rulebook/ir/fault_kinds.hpp"
#include "rulebook/ir/ir.hpp"
#include "rulebook/ir/value.hpp"

namespace rulebook::interpreter {
using namespace ::rulebook::ir;  // NOLINT(google-build-using-namespace)
}  // namespace rulebook::interpreter
