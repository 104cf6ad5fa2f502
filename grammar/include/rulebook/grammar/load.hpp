// Loading a ruleset from disk: read, parse, compose a variant with its base, check.
#pragma once

#include <optional>
#include <string>

#include "rulebook/grammar/ast.hpp"
#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/program.hpp"
#include "rulebook/grammar/source.hpp"

namespace rulebook::grammar {

enum class LoadStatus {
  kOk,          // checked, no errors (there may be warnings)
  kErrors,      // the rule text has errors (exit 1)
  kUnreadable,  // a file could not be read (exit 2)
};

struct LoadResult {
  LoadStatus status = LoadStatus::kErrors;
  std::optional<Program> program;
};

// Reads and checks `path`. A variant's base is read relative to the variant's folder;
// chains of variants are allowed, cycles are errors.
LoadResult load_ruleset(const std::string& path, SourceManager& sources, Diagnostics& diagnostics);

// Applies a variant's overrides and additions to a copy of its base (both already parsed).
ast::RulesFile apply_variant(ast::RulesFile base, const ast::RulesFile& variant,
                             Diagnostics& diagnostics);

}  // namespace rulebook::grammar
