// The structure of a ruleset as a Graphviz graph (`rulebook graph`): setup, the round and
// every loop and phase as nested clusters, the labelled rules in order inside them, each with
// its source line, the loops' back edges, and the rules that can end the game.
#pragma once

#include <string>

#include "rulebook/grammar/program.hpp"
#include "rulebook/grammar/source.hpp"

namespace rulebook::authoring {

// A DOT document. Deterministic: the same program gives the same bytes.
std::string structure_dot(const grammar::Program& program, const grammar::SourceManager& sources);

}  // namespace rulebook::authoring
