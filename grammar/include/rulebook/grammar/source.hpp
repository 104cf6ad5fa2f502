// Source files and spans. Every AST node carries a SourceSpan so that meaning errors,
// logs and verifier findings point at the rule text exactly as syntax errors do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rulebook::grammar {

using FileId = std::uint32_t;

// A half-open byte range [begin, end) in one file, with the 1-based line and column of
// both ends. Columns count bytes, as compilers do.
struct SourceSpan {
  FileId file = 0;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t end_line = 0;
  std::uint32_t end_column = 0;

  [[nodiscard]] bool valid() const { return line != 0; }
};

// Where a rule file stops being UTF-8: the offset of the first bad byte and the bad bytes as
// written, escaped (`\xff`), for the message.
struct EncodingError {
  std::size_t offset = 0;
  std::string bytes;
};

// One loaded file: its display path and its text, with an index of line starts for quick
// lookup. For a log the index keeps every 64th line's start, not every line's: a log of a
// billion blank lines took 8 bytes of index per line (9 times the text); now the index is at
// most an eighth of the text, and a lookup reads at most 64 lines. A rule file (16 MiB at most)
// keeps every line's start: the parser looks up two places for every node it builds.
struct SourceFile {
  std::string path;
  std::string text;
  // Set for a rule file that is not UTF-8 (its bad bytes are '?' in `text`); the parser
  // reports it instead of parsing.
  std::optional<EncodingError> encoding_error;

  SourceFile(std::string path_, std::string text_, std::size_t lines_per_checkpoint = 64);
  [[nodiscard]] std::string_view line_text(std::uint32_t line) const;
  [[nodiscard]] std::uint32_t line_count() const { return line_count_; }
  // The 1-based line and column (in bytes) of a byte offset.
  [[nodiscard]] std::pair<std::uint32_t, std::uint32_t> line_column(std::size_t offset) const;

 private:
  [[nodiscard]] std::size_t line_start(std::uint32_t line) const;  // 1-based, at most line_count_
  std::size_t stride_;                    // lines per checkpoint
  std::vector<std::size_t> checkpoints_;  // the start of lines 1, 1 + stride_, 1 + 2 * stride_, ...
  std::uint32_t line_count_ = 0;
};

// Owns every file read in one run; FileIds index into it.
class SourceManager {
 public:
  FileId add(std::string path, std::string text);
  // A rule file: rule files are UTF-8, so each byte that is not part of valid UTF-8 is
  // replaced by '?' (offsets and columns stay the same) and the first is recorded in
  // `encoding_error`. No such byte from a rule file reaches a message, a log or a report.
  FileId add_rule_file(std::string path, std::string text);
  [[nodiscard]] const SourceFile& file(FileId id) const { return files_.at(id); }
  [[nodiscard]] std::size_t size() const { return files_.size(); }

 private:
  std::vector<SourceFile> files_;
};

// The largest files read: a rule file, and anything else (game logs). Larger is bad input.
inline constexpr std::size_t kMaxRuleFileBytes = std::size_t{16} << 20;
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;

// Replaces every byte of `text` that is not part of valid UTF-8 by '?'; the first such place,
// if any.
std::optional<EncodingError> replace_invalid_utf8(std::string& text);

// Reads a whole file of at most `max_bytes` (a device or a pipe too, up to the limit);
// nullopt with `error` set when it cannot be read or is larger.
std::optional<std::string> read_file(const std::string& path, std::string& error,
                                     std::size_t max_bytes = kMaxInputBytes);
// The same for an open stream (standard input).
std::optional<std::string> read_stream(std::istream& in, std::string& error, std::size_t max_bytes = kMaxInputBytes);

// The longest answer typed at a prompt (`play`, `record`): a line of a megabyte is no answer,
// and without a limit `< /dev/zero` grew one line until memory ran out.
inline constexpr std::size_t kMaxAnswerBytes = std::size_t{1} << 20;
enum class LineRead { kLine, kEnded, kTooLong };
// One line from `in` into `line`, without its newline: kEnded at the end of the input with
// nothing read, kTooLong (and `line` emptied) once it passes `max_bytes`. The rest of a line
// that is too long is not read: the input is not to be trusted further.
LineRead read_line(std::istream& in, std::string& line, std::size_t max_bytes = kMaxAnswerBytes);

}  // namespace rulebook::grammar
