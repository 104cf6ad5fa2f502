// `rulebook graph FILE`: the structure of a ruleset as Graphviz DOT, or as SVG drawn by
// Graphviz's `dot` (installed by .ci/install-deps; looked up on PATH).
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "output.hpp"
#include "rulebook/grammar/graph.hpp"
#include "rulebook/grammar/load.hpp"

extern char** environ;

namespace rulebook::cli {

namespace {

struct GraphOptions {
  std::string file;
  std::string format = "dot";
  std::string out;
};

// A temporary file removed when it goes out of scope.
struct TempFile {
  std::string path;
  TempFile() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rulebook-graph.XXXXXX").string();
    const int fd = mkstemp(pattern.data());
    if (fd >= 0) {
      ::close(fd);
      path = pattern;
    }
  }
  ~TempFile() {
    if (!path.empty()) ::unlink(path.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

// Runs `dot -Tsvg` on `dot_text`. Returns the SVG, or sets `error`.
std::string draw_svg(const std::string& dot_text, std::string& error) {
  TempFile in, out;
  if (in.path.empty() || out.path.empty()) {
    error = fmt::format("cannot create a temporary file: {}", std::strerror(errno));
    return {};
  }
  if (std::string e = write_file_atomically(in.path, dot_text); !e.empty()) {
    error = e;
    return {};
  }
  std::string program = "dot", format = "-Tsvg", flag = "-o";
  char* argv[] = {program.data(), format.data(), flag.data(), out.path.data(), in.path.data(), nullptr};
  pid_t pid = 0;
  if (const int rc = posix_spawnp(&pid, "dot", nullptr, nullptr, argv, environ); rc != 0) {
    error = rc == ENOENT ? "--format svg needs Graphviz's 'dot' on PATH (Debian: apt-get install graphviz); "
                           "--format dot prints the graph without it"
                         : fmt::format("cannot run 'dot': {}", std::strerror(rc));
    return {};
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      error = fmt::format("waiting for 'dot': {}", std::strerror(errno));
      return {};
    }
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    error = "'dot' failed to draw the graph (its message is above)";
    return {};
  }
  std::string read_error;
  const std::optional<std::string> svg = grammar::read_file(out.path, read_error);
  if (!svg) error = read_error;
  return svg.value_or("");
}

int run_graph(const GraphOptions& options) {
  grammar::SourceManager sources;
  grammar::Diagnostics diagnostics;
  const grammar::LoadResult loaded = grammar::load_ruleset(options.file, sources, diagnostics);
  if (loaded.status != grammar::LoadStatus::kOk) {
    print_diagnostics(diagnostics, sources, OutputFormat::kText);
    return loaded.status == grammar::LoadStatus::kUnreadable ? kExitBadInput : kExitFinding;
  }
  std::string text = grammar::structure_dot(*loaded.program, sources);
  if (options.format == "svg") {
    std::string error;
    text = draw_svg(text, error);
    if (!error.empty()) {
      fmt::print(stderr, "error: {}\n", error);
      return kExitBadInput;
    }
  }
  if (options.out.empty()) {
    fmt::print("{}", text);
    return kExitOk;
  }
  if (const std::string error = write_file_atomically(options.out, text); !error.empty()) {
    fmt::print(stderr, "error: {}\n", error);
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace

void add_graph_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<GraphOptions>();
  CLI::App* cmd = app.add_subcommand(
      "graph", "Draw a ruleset's structure (setup, round, loops, labelled rules with their lines) with Graphviz");
  cmd->add_option("file", options->file, "The rule file")->required();
  cmd->add_option("--format", options->format, "dot (Graphviz source) or svg (drawn by Graphviz's dot)")
      ->check(CLI::IsMember({"dot", "svg"}))
      ->default_str("dot");
  cmd->add_option("-o,--out", options->out, "Write to this file (through a temporary file) instead of stdout")->type_name("FILE");
  cmd->callback([options, &exit_code] { exit_code = run_graph(*options); });
}

}  // namespace rulebook::cli
