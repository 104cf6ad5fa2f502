// Hostile shapes (hostile.hpp).
#include "fuzz/hostile.hpp"

#include <algorithm>
#include <random>
#include <vector>

namespace rulebook::fuzz {

namespace {

// The positions where `needle` starts in `text`.
std::vector<std::size_t> places(const std::string& text, const std::string& needle) {
  std::vector<std::size_t> out;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) out.push_back(at);
  return out;
}

// One of `candidates` picked by `random`, or `fallback` when there is none.
std::size_t pick(const std::vector<std::size_t>& candidates, std::minstd_rand& random, std::size_t fallback) {
  if (candidates.empty()) return fallback;
  return candidates[random() % candidates.size()];
}

std::string repeated(const std::string& piece, std::size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += piece;
  return out;
}

}  // namespace

const char* hostile_name(HostileShape shape) {
  switch (shape) {
#define RULEBOOK_HOSTILE_CASE(name, text) \
  case HostileShape::name:                \
    return text;
    RULEBOOK_HOSTILE_SHAPES(RULEBOOK_HOSTILE_CASE)
#undef RULEBOOK_HOSTILE_CASE
  }
  return "?";
}

std::string make_hostile(const std::string& text, HostileShape shape, std::size_t size, std::uint32_t seed) {
  std::minstd_rand random(seed + 1);
  std::string out = text;
  switch (shape) {
    case HostileShape::kLongChain: {
      // A digit becomes a left-deep chain of one operator: `1 + 1 + ... + 1`.
      static const char* const operators[] = {" + ", " * ", " - "};
      std::vector<std::size_t> digits;
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] >= '1' && text[i] <= '9' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '(')) digits.push_back(i);
      }
      const std::size_t at = pick(digits, random, text.size());
      const std::string chain = "1" + repeated(std::string(operators[random() % 3]) + "1", size);
      if (at == text.size()) return out + chain;
      return out.replace(at, 1, "(" + chain + ")");
    }
    case HostileShape::kDeepType: {
      const std::size_t at = pick(places(text, ": int"), random, std::string::npos);
      if (at == std::string::npos) return out + "\ndef deep: " + repeated("set of ", size) + "int = {}\n";
      return out.replace(at, 5, ": " + repeated("set of ", size) + "int");
    }
    case HostileShape::kManyStatements: {
      const std::size_t at = pick(places(text, "{\n"), random, text.size());
      return out.insert(std::min(at + 2, out.size()), repeated("  if 1 == 2 { }\n", size));
    }
    case HostileShape::kElseIfChain: {
      const std::size_t at = pick(places(text, "{\n"), random, text.size());
      return out.insert(std::min(at + 2, out.size()), "  if 1 == 2 { }" + repeated(" else if 1 == 2 { }", size) + "\n");
    }
    case HostileShape::kDoublingDefs: {
      // Each def uses the one before twice: inlined, the last is 2^size leaves.
      std::string defs = "def hostile0: int = 1\n";
      for (std::size_t i = 1; i <= size; ++i) {
        defs += "def hostile" + std::to_string(i) + ": int = hostile" + std::to_string(i - 1) + " + hostile" +
                std::to_string(i - 1) + "\n";
      }
      const std::size_t at = pick(places(text, "\ndef "), random, std::string::npos);
      if (at == std::string::npos) return out + "\n" + defs;
      return out.insert(at + 1, defs);
    }
    case HostileShape::kInvalidUtf8: {
      // A byte that cannot start or continue UTF-8 where it is, in a string or a comment.
      static const char bytes[] = {'\xff', '\xc0', '\x80', '\xfe'};
      const std::size_t at = pick(places(text, "\""), random, text.size());
      for (std::size_t i = 0; i < std::max<std::size_t>(size, 1); ++i) out.insert(std::min(at + 1, out.size()), 1, bytes[random() % 4]);
      return out;
    }
    case HostileShape::kHugeNumber: {
      std::vector<std::size_t> digits;
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] >= '0' && text[i] <= '9') digits.push_back(i);
      }
      const std::size_t at = pick(digits, random, text.size());
      return out.insert(at, repeated("9", size));
    }
  }
  return out;
}

}  // namespace rulebook::fuzz
