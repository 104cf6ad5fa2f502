// Helpers shared by the tests: parse snippets, load files, run the executable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rulebook/grammar/ast.hpp"
#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/source.hpp"

namespace rulebook::test {

// The project's source folder, for rulesets/ and tests/golden/.
std::string source_path(const std::string& relative);

// `path` in single quotes, for a command line run_rulebook passes to the shell.
std::string quoted_path(const std::string& path);

// Every *.rules file under `folder` (recursively), sorted.
std::vector<std::string> rule_files(const std::string& folder);

struct Parsed {
  grammar::SourceManager sources;
  grammar::Diagnostics diagnostics;
  grammar::ast::RulesFile file;
};

// Parses `text` as a file named `name`.
Parsed parse_text(const std::string& text, const std::string& name = "test.rules");

// The S-expression of the statements of `round { <body> }` (one per line), after a header
// that declares `players 2`, a deck, zones `deck` (pile) and `hand(p)` (set), and `x: int`.
// Fails the test on a syntax error.
std::string stmts(const std::string& body);

// The S-expression of `def probe = <expression>`. Fails the test on a syntax error.
std::string expr(const std::string& expression);

// The diagnostics of checking `text` (a whole file), rendered without colour.
std::string check_text(const std::string& text);

// Runs the built `rulebook` with `args` (shell words), capturing output.
struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// `env` (as `PATH=/nowhere`) goes before the command, for the command only.
RunResult run_rulebook(const std::string& args, const std::string& stdin_text = "", const std::string& env = "");

// `n` games for a test that plays many, divided by RULEBOOK_TEST_DIVISOR when it is set (the
// sanitizer build in CI sets 10: every test runs, the long ones on a tenth of their games).
std::int64_t games(std::int64_t n);
// The same for a test whose games cost many times the usual (Clusterf**k! at 7 and 8 players):
// under the divisor d, n / (d * heavier), at least one; `n` whole without it.
std::int64_t games(std::int64_t n, std::int64_t heavier);

// Whether the `index`-th item of a long test's list runs: every item normally; under
// RULEBOOK_TEST_DIVISOR=d (the sanitizer build) every d-th one, from the first, so that a test
// that counts its items per group (the corpus per class) still runs each group at least once.
bool sampled(std::size_t index);

// A fresh empty folder under the system temporary folder.
std::string temp_folder();

std::string read_text(const std::string& path);
void write_text(const std::string& path, const std::string& text);

}  // namespace rulebook::test
