#include "support.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "rulebook/grammar/check.hpp"
#include "rulebook/grammar/dump.hpp"
#include "rulebook/grammar/parse.hpp"

namespace rulebook::test {

namespace fs = std::filesystem;

std::string source_path(const std::string& relative) {
  return (fs::path(RULEBOOK_SOURCE_DIR) / relative).string();
}

std::string quoted_path(const std::string& path) { return "'" + path + "'"; }

std::vector<std::string> rule_files(const std::string& folder) {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().extension() == ".rules") out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Parsed parse_text(const std::string& text, const std::string& name) {
  Parsed p;
  const grammar::FileId id = p.sources.add(name, text);
  p.file = grammar::parse_rules(p.sources, id, p.diagnostics);
  return p;
}

namespace {

std::string render_all(const Parsed& p) {
  std::string out;
  for (const grammar::Diagnostic& d : p.diagnostics.items()) out += grammar::render_text(d, p.sources, false);
  return out;
}

const char* const kPrelude =
    "game \"probe\"\n"
    "players 2\n"
    "cards { standard52 }\n"
    "zone deck: pile hidden\n"
    "zone hand(p): set owner\n"
    "var x: int = 0\n";

}  // namespace

std::string stmts(const std::string& body) {
  const Parsed p = parse_text(std::string(kPrelude) + "round {\n" + body + "\n}\n");
  INFO(render_all(p));
  REQUIRE_FALSE(p.diagnostics.has_errors());
  const auto& round = std::get<grammar::ast::RoundDecl>(p.file.decls.back().node);
  std::string out;
  for (const grammar::ast::Stmt& s : round.body.stmts) {
    if (!out.empty()) out += "\n";
    out += grammar::dump_stmt(s);
  }
  return out;
}

std::string expr(const std::string& expression) {
  const Parsed p = parse_text(std::string(kPrelude) + "def probe = " + expression + "\nround { end game }\n");
  INFO(render_all(p));
  REQUIRE_FALSE(p.diagnostics.has_errors());
  const auto& def = std::get<grammar::ast::DefDecl>(p.file.decls.at(p.file.decls.size() - 2).node);
  return grammar::dump_expr(def.body);
}

std::string check_text(const std::string& text) {
  Parsed p = parse_text(text);
  if (!p.diagnostics.has_errors()) grammar::check_program(p.file, p.diagnostics);
  return render_all(p);
}

std::string temp_folder() {
  static std::atomic<int> counter{0};
  const fs::path base = fs::temp_directory_path() /
                        fmt::format("rulebook-test-{}-{}", static_cast<long>(::getpid()), counter++);
  fs::remove_all(base);
  fs::create_directories(base);
  return base.string();
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

namespace {

// RULEBOOK_TEST_DIVISOR, or 1 when it is unset or not above 1.
std::int64_t test_divisor() {
  const char* divisor = std::getenv("RULEBOOK_TEST_DIVISOR");
  if (divisor == nullptr) return 1;
  const long d = std::strtol(divisor, nullptr, 10);
  return d > 1 ? d : 1;
}

}  // namespace

std::int64_t games(std::int64_t n) { return games(n, 1); }

std::int64_t games(std::int64_t n, std::int64_t heavier) {
  const std::int64_t d = test_divisor();
  return d > 1 ? std::max<std::int64_t>(1, n / (d * std::max<std::int64_t>(1, heavier))) : n;
}

bool sampled(std::size_t index) { return index % static_cast<std::size_t>(test_divisor()) == 0; }

RunResult run_rulebook(const std::string& args, const std::string& stdin_text, const std::string& env) {
  const std::string dir = temp_folder();
  const std::string in = dir + "/stdin", out = dir + "/stdout", err = dir + "/stderr";
  write_text(in, stdin_text);
  const std::string command = fmt::format("NO_COLOR=1 {} '{}' {} <'{}' >'{}' 2>'{}'", env, RULEBOOK_EXECUTABLE,
                                          args, in, out, err);
  const int status = std::system(command.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  fs::remove_all(dir);
  return r;
}

}  // namespace rulebook::test
