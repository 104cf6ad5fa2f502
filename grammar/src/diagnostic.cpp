// Diagnostics: collection, ordering and the two renderings (compiler text, JSON).
#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/printable.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace rulebook::grammar {

Diagnostic& Diagnostics::error(Code code, SourceSpan span, std::string message) {
  items_.push_back(Diagnostic{Severity::kError, code, span, std::move(message), {}});
  return items_.back();
}

Diagnostic& Diagnostics::warning(Code code, SourceSpan span, std::string message) {
  items_.push_back(Diagnostic{Severity::kWarning, code, span, std::move(message), {}});
  return items_.back();
}

std::size_t Diagnostics::error_count() const {
  return static_cast<std::size_t>(std::count_if(items_.begin(), items_.end(), [](const auto& d) {
    return d.severity == Severity::kError;
  }));
}

std::size_t Diagnostics::warning_count() const {
  return static_cast<std::size_t>(std::count_if(items_.begin(), items_.end(), [](const auto& d) {
    return d.severity == Severity::kWarning;
  }));
}

void Diagnostics::sort() {
  std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.span.file != b.span.file) return a.span.file < b.span.file;
    return a.span.begin < b.span.begin;
  });
}

const char* severity_name(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

namespace {

const char* severity_color(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "\x1b[1;31m";
    case Severity::kWarning:
      return "\x1b[1;35m";
    case Severity::kNote:
      return "\x1b[1;36m";
  }
  return "";
}

// Appends one located message: header line, source line, caret line.
// `code` is empty for a note. It goes after the message, as compilers put a warning's flag,
// so that `file:line:col: error: message` still matches the usual problem matchers.
void render_one(std::string& out, Severity severity, std::string_view code, const SourceSpan& span,
                const std::string& raw_message, const SourceManager& sources, bool color) {
  const std::string tag = code.empty() ? std::string() : fmt::format(" [{}]", code);
  // A message may quote the input (a token, a name from a log): no control character of it
  // reaches the terminal.
  const std::string message = printable(raw_message);
  const char* bold = color ? "\x1b[1m" : "";
  const char* reset = color ? "\x1b[0m" : "";
  const char* sev_color = color ? severity_color(severity) : "";
  if (!span.valid() || span.file >= sources.size()) {
    out += fmt::format("{}{}:{} {}{}{}\n", sev_color, severity_name(severity), reset, message, reset, tag);
    return;
  }
  const SourceFile& file = sources.file(span.file);
  out += fmt::format("{}{}:{}:{}:{} {}{}:{} {}{}{}{}\n", bold, printable(file.path), span.line, span.column,
                     reset, sev_color, severity_name(severity), reset, bold, message, reset, tag);
  std::string_view line = file.line_text(span.line);
  std::size_t start = span.column > 0 ? span.column - 1 : 0;
  std::size_t stop = span.end_line == span.line ? span.end_column : line.size() + 1;
  if (stop > line.size() + 1) stop = line.size() + 1;
  // A long line is shown as a window around the caret, marked with "...".
  constexpr std::size_t kWidth = 160, kBefore = 60;
  std::string_view lead, trail;
  if (line.size() > kWidth) {
    const std::size_t first = start > kBefore ? std::min(start - kBefore, line.size() - kWidth) : 0;
    if (first > 0) lead = "...";
    if (first + kWidth < line.size()) trail = "...";
    line = line.substr(first, kWidth);
    start = start - first + lead.size();
    stop = std::min(stop - std::min(stop, first), line.size() + 1) + lead.size();
  }
  // A control character in the line (in a comment, say) would reach the terminal: each is
  // shown as '?', one column wide, so that the caret stays under its place.
  out += fmt::format("{:>5} | {}{}{}\n", span.line, lead, printable_same_width(line), trail);
  // Caret under the first column, tildes to the end of the span on the same line.
  std::string marker(lead.size(), ' ');
  for (std::size_t i = lead.size(); i < start && i - lead.size() < line.size(); ++i) {
    marker += line[i - lead.size()] == '\t' ? '\t' : ' ';
  }
  if (start > line.size() + lead.size()) marker.append(start - line.size() - lead.size(), ' ');
  marker += '^';
  for (std::size_t col = start + 2; col < stop; ++col) marker += '~';
  out += fmt::format("      | {}{}{}\n", color ? "\x1b[1;32m" : "", marker, reset);
}

}  // namespace

std::string render_text(const Diagnostic& diagnostic, const SourceManager& sources, bool color) {
  std::string out;
  render_one(out, diagnostic.severity, info(diagnostic.code).id, diagnostic.span, diagnostic.message, sources,
             color);
  for (const DiagnosticNote& note : diagnostic.notes) {
    render_one(out, Severity::kNote, {}, note.span, note.message, sources, color);
  }
  return out;
}

namespace {

nlohmann::json located(const SourceSpan& span, const SourceManager& sources) {
  nlohmann::json j = nlohmann::json::object();
  if (span.valid() && span.file < sources.size()) {
    j["file"] = sources.file(span.file).path;
    j["line"] = span.line;
    j["column"] = span.column;
    j["end_line"] = span.end_line;
    j["end_column"] = span.end_column;
  } else {
    j["file"] = nullptr;
  }
  return j;
}

}  // namespace

std::string render_json(const std::vector<Diagnostic>& diagnostics, const SourceManager& sources) {
  nlohmann::json all = nlohmann::json::array();
  for (const Diagnostic& d : diagnostics) {
    nlohmann::json j = located(d.span, sources);
    j["severity"] = severity_name(d.severity);
    j["code"] = info(d.code).id;
    j["message"] = d.message;
    nlohmann::json notes = nlohmann::json::array();
    for (const DiagnosticNote& note : d.notes) {
      nlohmann::json n = located(note.span, sources);
      n["message"] = note.message;
      notes.push_back(std::move(n));
    }
    j["notes"] = std::move(notes);
    all.push_back(std::move(j));
  }
  return all.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace rulebook::grammar
