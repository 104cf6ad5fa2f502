// Source files: loading and line lookup.
#include "rulebook/grammar/source.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include <fmt/format.h>

namespace rulebook::grammar {

SourceFile::SourceFile(std::string path_, std::string text_)
    : path(std::move(path_)), text(std::move(text_)) {
  line_starts.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_starts.push_back(i + 1);
  }
}

std::string_view SourceFile::line_text(std::uint32_t line) const {
  if (line == 0 || line > line_starts.size()) return {};
  const std::size_t begin = line_starts[line - 1];
  std::size_t end = line < line_starts.size() ? line_starts[line] : text.size();
  while (end > begin && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  return std::string_view(text).substr(begin, end - begin);
}

FileId SourceManager::add(std::string path, std::string text) {
  files_.emplace_back(std::move(path), std::move(text));
  return static_cast<FileId>(files_.size() - 1);
}

namespace {

std::string too_large(std::size_t max_bytes) {
  return fmt::format("the file is larger than {} MiB, the limit for this input", max_bytes >> 20);
}

}  // namespace

std::optional<std::string> read_stream(std::istream& in, std::string& error, std::size_t max_bytes) {
  std::string text;
  constexpr std::size_t kBlock = 1 << 16;
  std::vector<char> block(kBlock);
  while (in.read(block.data(), kBlock) || in.gcount() > 0) {
    text.append(block.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) {
      error = too_large(max_bytes);
      return std::nullopt;
    }
  }
  if (in.bad()) {
    error = "read error";
    return std::nullopt;
  }
  return text;
}

std::optional<std::string> read_file(const std::string& path, std::string& error, std::size_t max_bytes) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    error = "no such file";
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
