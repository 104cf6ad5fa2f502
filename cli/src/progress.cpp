#include "progress.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

namespace rulebook::cli {

std::string progress_bar(std::int64_t done, std::int64_t total, int width) {
  const auto filled = static_cast<std::size_t>(total <= 0 ? width : std::min<std::int64_t>(done, total) * width / total);
  return fmt::format("[{:<{}}]", std::string(filled, '#'), width);
}

void StatusLine::show(const std::string& text, bool changed) {
  const auto now = std::chrono::steady_clock::now();
  if (!changed && width_ > 0 && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const std::size_t pad = width_ > text.size() ? width_ - text.size() : 0;
  fmt::print(stderr, "\r{}{}", text, std::string(pad, ' '));
  std::fflush(stderr);
  width_ = text.size();
}

void StatusLine::clear() {
  if (width_ == 0) return;
  fmt::print(stderr, "\r{}\r", std::string(width_, ' '));
  std::fflush(stderr);
  width_ = 0;
}

}  // namespace rulebook::cli
