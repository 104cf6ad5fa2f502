// SARIF 2.1.0, the static-analysis format code hosts and editors read: diagnostics of rule
// files (`check --format sarif`), and the envelope `verify --format sarif` shares.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "rulebook/grammar/diagnostic.hpp"

namespace rulebook::cli {

// {"$schema", "version", "runs": [{"tool": {"driver": {name, rules}}, "results"}]}.
nlohmann::json sarif_log(const std::string& tool_name, nlohmann::json rules, nlohmann::json results);

// A path as SARIF's `uri`, a URI reference (RFC 3986): a path with a space, `%`, `#`, `?` or
// a byte that is not ASCII is not one, and viewers cut it there or refuse the file.
std::string uri_reference(const std::string& path);

// One result per diagnostic: ruleId is its code, the notes are related locations; the rules
// are every diagnostic code with its title and explanation.
nlohmann::json diagnostics_sarif(const grammar::Diagnostics& diagnostics, const grammar::SourceManager& sources);

}  // namespace rulebook::cli
