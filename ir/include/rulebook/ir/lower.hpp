// Lowering a checked program to the interpreter's IR, once per ruleset.
#pragma once

#include <memory>

#include "rulebook/grammar/program.hpp"
#include "rulebook/grammar/source.hpp"
#include "rulebook/ir/ir.hpp"

namespace rulebook::ir {

// `sources` gives the file paths for messages and the hash that logs record.
std::shared_ptr<const Ir> lower(const grammar::Program& program, const grammar::SourceManager& sources);

}  // namespace rulebook::ir
