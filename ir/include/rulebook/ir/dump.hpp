// The IR as stable text, for `rulebook check --dump-ir`, golden tests and reviews of the
// lowering: every table of the Ir in order, each row with its type, every expression with its
// operator, operands and type, every instruction with its fields, and source places as
// `file:line:column` with the bare file name (so a dump does not depend on where it was made).
#pragma once

#include <string>

#include "rulebook/ir/ir.hpp"

namespace rulebook::ir {

std::string dump(const Ir& ir);

}  // namespace rulebook::ir
