// The one diagnostic type of the project: a located message with notes, printed the way
// compilers print them (`file:line:col: error: message`, the source line, a caret).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rulebook/grammar/codes.hpp"
#include "rulebook/grammar/source.hpp"

namespace rulebook::grammar {

enum class Severity { kError, kWarning, kNote };

struct DiagnosticNote {
  SourceSpan span;  // may be invalid for a note without a place
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  Code code = Code::kInternal;  // every producer sets it; see codes.hpp
  SourceSpan span;
  std::string message;
  std::vector<DiagnosticNote> notes;
};

// Collects diagnostics of one run; passes append, nobody stops at the first error.
class Diagnostics {
 public:
  Diagnostic& error(Code code, SourceSpan span, std::string message);
  Diagnostic& warning(Code code, SourceSpan span, std::string message);
  void add(Diagnostic diagnostic) { items_.push_back(std::move(diagnostic)); }

  [[nodiscard]] const std::vector<Diagnostic>& items() const { return items_; }
  [[nodiscard]] std::size_t error_count() const;
  [[nodiscard]] std::size_t warning_count() const;
  [[nodiscard]] bool has_errors() const { return error_count() != 0; }

  // Orders by file, then position, keeping insertion order for ties, so output is stable.
  void sort();

 private:
  std::vector<Diagnostic> items_;
};

// Human form: `path:line:col: error: message [E0302]`, the source line, a caret (with tildes under
// the rest of the span on that line), then each note the same way.
std::string render_text(const Diagnostic& diagnostic, const SourceManager& sources, bool color);

// Machine form: a JSON array of objects {severity, code, file, line, column, end_line,
// end_column, message, notes:[...]}; same content as the text form.
std::string render_json(const std::vector<Diagnostic>& diagnostics, const SourceManager& sources);

const char* severity_name(Severity severity);

}  // namespace rulebook::grammar
