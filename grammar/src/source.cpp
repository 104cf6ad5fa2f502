// Source files: loading and line lookup.
#include "rulebook/grammar/source.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

namespace rulebook::grammar {

SourceFile::SourceFile(std::string path_, std::string text_, std::size_t lines_per_checkpoint)
    : path(std::move(path_)), text(std::move(text_)), stride_(std::max<std::size_t>(1, lines_per_checkpoint)) {
  checkpoints_.push_back(0);
  std::size_t lines = 1;
  for (const char* p = text.data(), *end = text.data() + text.size();
       (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))) != nullptr;) {
    ++p;
    if (lines % stride_ == 0) checkpoints_.push_back(static_cast<std::size_t>(p - text.data()));
    ++lines;
  }
  line_count_ = static_cast<std::uint32_t>(std::min<std::size_t>(lines, UINT32_MAX));
}

std::size_t SourceFile::line_start(std::uint32_t line) const {
  const std::size_t index = (line - 1) / stride_;
  std::size_t at = checkpoints_[index];
  for (std::size_t skip = (line - 1) % stride_; skip > 0; --skip) {
    const void* newline = std::memchr(text.data() + at, '\n', text.size() - at);
    at = static_cast<std::size_t>(static_cast<const char*>(newline) - text.data()) + 1;
  }
  return at;
}

std::pair<std::uint32_t, std::uint32_t> SourceFile::line_column(std::size_t offset) const {
  offset = std::min(offset, text.size());
  const auto it = std::upper_bound(checkpoints_.begin(), checkpoints_.end(), offset);
  const std::size_t index = static_cast<std::size_t>(it - checkpoints_.begin()) - 1;
  std::size_t line = index * stride_ + 1;
  std::size_t start = checkpoints_[index];
  // With every line's start kept (rule files) the line is found: nothing to read. (Reading the
  // line up to the offset made the parser quadratic in a long line: an enum of 400,000 values
  // on one line took 20 s.)
  const void* newline = nullptr;
  while (stride_ > 1 && (newline = std::memchr(text.data() + start, '\n', offset - start)) != nullptr) {
    start = static_cast<std::size_t>(static_cast<const char*>(newline) - text.data()) + 1;
    ++line;
  }
  return {static_cast<std::uint32_t>(std::min<std::size_t>(line, UINT32_MAX)),
          static_cast<std::uint32_t>(std::min<std::size_t>(offset - start + 1, UINT32_MAX))};
}

std::string_view SourceFile::line_text(std::uint32_t line) const {
  if (line == 0 || line > line_count_) return {};
  const std::size_t begin = line_start(line);
  const void* newline = std::memchr(text.data() + begin, '\n', text.size() - begin);
  std::size_t end = newline == nullptr ? text.size() : static_cast<std::size_t>(static_cast<const char*>(newline) - text.data());
  while (end > begin && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  return std::string_view(text).substr(begin, end - begin);
}

FileId SourceManager::add(std::string path, std::string text) {
  files_.emplace_back(std::move(path), std::move(text));
  return static_cast<FileId>(files_.size() - 1);
}

FileId SourceManager::add_rule_file(std::string path, std::string text) {
  std::optional<EncodingError> error = replace_invalid_utf8(text);
  // A carriage return alone (old Mac line endings) ends a line as a line feed does: the
  // parser and the line table count line feeds, so such a file was one line and every
  // position read 1:N (the seventh probe). Byte for byte, so offsets stay; CR LF is kept.
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
  }
  files_.emplace_back(std::move(path), std::move(text), 1);
  const auto id = static_cast<FileId>(files_.size() - 1);
  files_.back().encoding_error = std::move(error);
  return id;
}

namespace {

// How many bytes of a valid UTF-8 sequence start at `i`: 1 to 4, or 0 when the bytes there
// are not valid UTF-8, with `bad` set to the length of the bad part (the maximal subpart, as
// Unicode counts it: a lead byte and the continuation bytes that fit it). Overlong forms,
// surrogates and code points past U+10FFFF are not valid.
std::size_t utf8_sequence(std::string_view text, std::size_t i, std::size_t& bad) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  bad = 1;
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the first continuation byte
  if (lead >= 0xC2 && lead <= 0xDF) length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) length = 3;
  else if (lead >= 0xF0 && lead <= 0xF4) length = 4;
  else return 0;
  if (lead == 0xE0) low = 0xA0;         // overlong
  else if (lead == 0xED) high = 0x9F;   // surrogates
  else if (lead == 0xF0) low = 0x90;    // overlong
  else if (lead == 0xF4) high = 0x8F;   // past U+10FFFF
  for (std::size_t k = 1; k < length; ++k) {
    const bool fits = i + k < text.size() &&
                      byte(i + k) >= (k == 1 ? low : 0x80) && byte(i + k) <= (k == 1 ? high : 0xBF);
    if (!fits) {
      bad = k;
      return 0;
    }
  }
  return length;
}

std::string too_large(std::size_t max_bytes) {
  return fmt::format("the file is larger than {} MiB, the limit for this input", max_bytes >> 20);
}

}  // namespace

std::optional<EncodingError> replace_invalid_utf8(std::string& text) {
  std::optional<EncodingError> first;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t bad = 0;
    const std::size_t length = utf8_sequence(text, i, bad);
    if (length != 0) {
      i += length;
      continue;
    }
    if (!first) {
      first = EncodingError{i, {}};
      for (std::size_t k = i; k < i + bad; ++k) {
        first->bytes += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[k]));
      }
    }
    for (std::size_t k = i; k < i + bad; ++k) text[k] = '?';
    i += bad;
  }
  return first;
}

std::optional<std::string> read_stream(std::istream& in, std::string& error, std::size_t max_bytes) {
  // The buffer doubles as a string's would, but once doubling would reach the limit it goes
  // straight to max_bytes + 1 bytes (one more than the limit tells a larger input), and each
  // larger buffer is a fresh string reserved to the exact size: std::string's own growth
  // doubles its capacity, so reading a pipe of just over 1 GiB asked for 2 GiB more while
  // holding 1 GiB, and ended in bad_alloc instead of the message. Now the most held at once
  // is the last two buffers, at most 1.5 times the limit.
  constexpr std::size_t kBlock = 1 << 16;
  const std::size_t most = max_bytes + 1;
  std::string text;
  std::size_t size = 0;
  for (;;) {
    if (size == text.size()) {
      if (size >= most) break;
      std::string larger;
      const std::size_t doubled = std::max(kBlock, 2 * size);
      larger.reserve(doubled >= max_bytes ? most : doubled);
      larger.assign(text, 0, size);
      larger.resize(larger.capacity() < most ? larger.capacity() : most);
      text.swap(larger);
    }
    in.read(text.data() + size, static_cast<std::streamsize>(text.size() - size));
    size += static_cast<std::size_t>(in.gcount());
    if (!in) break;
  }
  if (in.bad()) {
    error = "read error";
    return std::nullopt;
  }
  if (size > max_bytes) {
    error = too_large(max_bytes);
    return std::nullopt;
  }
  text.resize(size);
  return text;
}

LineRead read_line(std::istream& in, std::string& line, std::size_t max_bytes) {
  line.clear();
  std::streambuf* buffer = in.rdbuf();
  using traits = std::char_traits<char>;
  for (;;) {
    const traits::int_type c = buffer == nullptr ? traits::eof() : buffer->sbumpc();
    if (traits::eq_int_type(c, traits::eof())) {
      in.setstate(std::ios::eofbit);
      return line.empty() ? LineRead::kEnded : LineRead::kLine;
    }
    if (traits::to_char_type(c) == '\n') return LineRead::kLine;
    if (line.size() == max_bytes) {
      line.clear();
      line.shrink_to_fit();
      return LineRead::kTooLong;
    }
    line.push_back(traits::to_char_type(c));
  }
}

std::optional<std::string> read_file(const std::string& path, std::string& error, std::size_t max_bytes) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    // A link loop, a folder on the way that is a file or cannot be entered, a name too long:
    // the system's reason (ELOOP was reported as "no such file": the eighth probe).
    error = ec && ec != std::errc::no_such_file_or_directory ? ec.message() : "no such file";
    if (!error.empty()) error[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(error[0])));
    return std::nullopt;
  }
  if (std::filesystem::is_directory(status)) {
    error = "is a directory";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open file (permission denied?)";
    return std::nullopt;
  }
  if (!std::filesystem::is_regular_file(status)) return read_stream(in, error, max_bytes);  // a pipe or a device
  // Read straight into a string of the file's size: logs run to hundreds of megabytes, and a
  // stringstream copies them several times over.
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) {
    error = too_large(max_bytes);
    return std::nullopt;
  }
  std::string text(ec ? 0 : static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) {
    error = "read error";
    return std::nullopt;
  }
  // A file that grew meanwhile is read to its end, up to the limit.
  if (in && in.peek() != std::char_traits<char>::eof()) {
    std::optional<std::string> rest = read_stream(in, error, max_bytes - text.size());
    if (!rest) return std::nullopt;
    text += *rest;
  }
  return text;
}

}  // namespace rulebook::grammar
