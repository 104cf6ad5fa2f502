// The reducer (see reduce.hpp): a line that opens a block (ends with `{`) goes with everything
// up to the line that closes it; an `} else {` line is tried on its own too (dropping the else
// branch's header joins it to the first branch, which check usually refuses: then it stays).
#include "rulebook/differential/reduce.hpp"

#include <vector>

namespace rulebook::differential {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::string line;
  for (const char c : text) {
    if (c == '\n') {
      out.push_back(line);
      line.clear();
    } else {
      line += c;
    }
  }
  if (!line.empty()) out.push_back(line);
  return out;
}

std::string text_of(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

bool opens(const std::string& line) { return !line.empty() && line.back() == '{'; }
bool closes(const std::string& line) {
  const auto first = line.find_first_not_of(' ');
  return first != std::string::npos && line[first] == '}';
}

// The last line of the block that `at` opens (itself when it opens none).
std::size_t block_end(const std::vector<std::string>& lines, std::size_t at) {
  if (!opens(lines[at])) return at;
  std::int32_t depth = 0;
  for (std::size_t i = at; i < lines.size(); ++i) {
    if (closes(lines[i])) --depth;
    if (opens(lines[i])) ++depth;
    if (depth == 0) return i;
  }
  return at;
}

}  // namespace

std::string reduce_rules(const std::string& text, const std::function<bool(const std::string&)>& keeps) {
  std::vector<std::string> lines = lines_of(text);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t at = 0; at < lines.size();) {
      std::vector<std::string> fewer = lines;
      const std::size_t end = block_end(lines, at);
      fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(at), fewer.begin() + static_cast<std::ptrdiff_t>(end) + 1);
      if (!fewer.empty() && keeps(text_of(fewer))) {
        lines = std::move(fewer);
        changed = true;
      } else {
        ++at;
      }
    }
  }
  return text_of(lines);
}

}  // namespace rulebook::differential
