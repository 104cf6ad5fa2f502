#include "rulebook/grammar/printable.hpp"

#include <string>

#include <fmt/format.h>

namespace rulebook::grammar {

std::size_t control_character_at(std::string_view text, std::size_t i) {
  const auto byte = static_cast<unsigned char>(text[i]);
  if (byte < 0x20 || byte == 0x7F) return 1;
  if (byte == 0xC2 && i + 1 < text.size()) {
    const auto next = static_cast<unsigned char>(text[i + 1]);
    if (next >= 0x80 && next <= 0x9F) return 2;
  }
  // The bidirectional controls (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) reorder
  // what a terminal shows after them: a title with U+202E printed its text reversed (the
  // seventh probe; "Trojan Source").
  if (byte == 0xE2 && i + 2 < text.size()) {
    const auto second = static_cast<unsigned char>(text[i + 1]);
    const auto third = static_cast<unsigned char>(text[i + 2]);
    if (second == 0x80 && (third == 0x8E || third == 0x8F || (third >= 0xAA && third <= 0xAE))) return 3;
    if (second == 0x81 && third >= 0xA6 && third <= 0xA9) return 3;
  }
  return 0;
}

std::string printable_short(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return printable(text);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) --cut;  // not inside a UTF-8 character
  return printable(text.substr(0, cut)) + "... (" + std::to_string(text.size()) + " bytes)";
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
    if (length == 3) {
      const unsigned code = ((static_cast<unsigned char>(text[i + 1]) & 0x3FU) << 6) | (static_cast<unsigned char>(text[i + 2]) & 0x3FU);
      out += fmt::format("\\u{:04x}", 0x2000U + code);
    } else if (length == 2) {
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
    if (length > 1) i += length - 1;
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
