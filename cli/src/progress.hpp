// Progress on stderr for the commands that run long: a bar (`simulate`) and a status line
// redrawn in place (`verify`). Only stderr: stdout stays byte-identical with or without it.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace rulebook::cli {

// `[#####     ]`: `done` of `total` as a bar of `width` characters.
std::string progress_bar(std::int64_t done, std::int64_t total, int width = 40);

// One line on stderr, redrawn in place with a carriage return and padded with spaces over
// the longer line before it (no terminal escapes, so it reads in a file too). Redraws at
// most ten times a second unless the caller says the line changed in kind.
class StatusLine {
 public:
  void show(const std::string& text, bool changed);
  // Blanks the line, so that what comes next (the report on stdout, an error) starts clean.
  void clear();

 private:
  std::size_t width_ = 0;  // of the line on screen, 0 when there is none
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace rulebook::cli
