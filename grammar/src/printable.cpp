#include "rulebook/grammar/printable.hpp"

#include <fmt/format.h>

namespace rulebook::grammar {

std::size_t control_character_at(std::string_view text, std::size_t i) {
  const auto byte = static_cast<unsigned char>(text[i]);
  if (byte < 0x20 || byte == 0x7F) return 1;
  if (byte == 0xC2 && i + 1 < text.size()) {
    const auto next = static_cast<unsigned char>(text[i + 1]);
    if (next >= 0x80 && next <= 0x9F) return 2;
  }
  return 0;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = control_character_at(text, i);
    if (length == 0) {
      out += text[i++];
      continue;
    }
    const auto byte = static_cast<unsigned char>(text[i]);
    if (length == 2) {
      out += fmt::format("\\u00{:02x}", static_cast<unsigned char>(text[i + 1]));
    } else if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\r') {
      out += "\\r";
    } else if (byte == '\t') {
      out += "\\t";
    } else {
      out += fmt::format("\\x{:02x}", byte);
    }
    i += length;
  }
  return out;
}

std::string printable_same_width(std::string_view text) {
  std::string out(text);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '\t') continue;
    const std::size_t length = control_character_at(out, i);
    for (std::size_t k = 0; k < length; ++k) out[i + k] = '?';
    if (length == 2) ++i;
  }
  return out;
}

bool has_control_character(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (control_character_at(text, i) != 0) return true;
  }
  return false;
}

}  // namespace rulebook::grammar
