// Output helpers: diagnostics to the terminal or as JSON, and atomic file writes.
#include "output.hpp"

#include <unistd.h>

#include <csignal>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sarif.hpp"

namespace rulebook::cli {

namespace {
ColorChoice color_choice = ColorChoice::kAuto;
}  // namespace

void set_color_choice(ColorChoice choice) { color_choice = choice; }

bool stderr_wants_color() {
  if (color_choice != ColorChoice::kAuto) return color_choice == ColorChoice::kAlways;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  return isatty(STDERR_FILENO) != 0;
}

OutputFormat output_format(const std::string& name) {
  return name == "json" ? OutputFormat::kJson : name == "sarif" ? OutputFormat::kSarif : OutputFormat::kText;
}

void print_diagnostics(const grammar::Diagnostics& diagnostics,
                       const grammar::SourceManager& sources, OutputFormat format) {
  if (format == OutputFormat::kJson) {
    nlohmann::json out;
    out["diagnostics"] = nlohmann::json::parse(grammar::render_json(diagnostics.items(), sources));
    out["errors"] = diagnostics.error_count();
    out["warnings"] = diagnostics.warning_count();
    fmt::print("{}\n", out.dump(2));
    return;
  }
  if (format == OutputFormat::kSarif) {
    fmt::print("{}\n", diagnostics_sarif(diagnostics, sources).dump(2));
    return;
  }
  const bool color = stderr_wants_color();
  for (const grammar::Diagnostic& d : diagnostics.items()) {
    fmt::print(stderr, "{}", grammar::render_text(d, sources, color));
  }
  const std::size_t errors = diagnostics.error_count();
  const std::size_t warnings = diagnostics.warning_count();
  if (errors + warnings != 0) {
    fmt::print(stderr, "{} error{}, {} warning{}\n", errors, errors == 1 ? "" : "s", warnings,
               warnings == 1 ? "" : "s");
  }
}

std::string write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::string pattern = (dir / fmt::format(".{}.XXXXXX", target.filename().string())).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) return fmt::format("cannot create a temporary file in '{}': {}", dir.string(), std::strerror(errno));
  const std::string temp(name.data());
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string err = std::strerror(errno);
      ::close(fd);
      ::unlink(temp.c_str());
      return fmt::format("cannot write '{}': {}", temp, err);
    }
    written += static_cast<std::size_t>(n);
  }
  // Keep the original file's permissions when replacing it.
  std::error_code ec;
  const auto status = fs::status(target, ec);
  if (!ec && fs::exists(status)) fs::permissions(temp, status.permissions(), ec);
  else fs::permissions(temp, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                                 fs::perms::others_read, ec);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(temp.c_str());
    return fmt::format("cannot write '{}': {}", temp, std::strerror(errno));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(temp.c_str());
    return fmt::format("cannot replace '{}': {}", path, err);
  }
  return {};
}

namespace {

std::atomic<bool> interrupt_flag{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void on_interrupt(int /*signal*/) {
  interrupt_flag.store(true);
  std::signal(SIGINT, SIG_DFL);
}

}  // namespace

void catch_interrupts() { std::signal(SIGINT, on_interrupt); }

const std::atomic<bool>& interrupted() { return interrupt_flag; }

}  // namespace rulebook::cli
