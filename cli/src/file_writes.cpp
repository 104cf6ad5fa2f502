// Writing a file so that nothing is lost: the whole new text goes to a temporary file in the
// target's folder, is flushed to disk, takes the old file's owner and mode, and is renamed
// over the target. A symbolic link is written through (the file it points to is replaced,
// the link stays); what a rename cannot replace faithfully is refused before anything is
// read or written: a FIFO or a device (a rename would put a plain file in its place, and
// opening a FIFO to read it waits for a writer), and a file with several hard links (the
// rename would give this name the new text and leave the other names with the old one;
// writing in place instead would keep the links but lose the all-or-nothing guarantee).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "output.hpp"

namespace rulebook::cli {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "another kind of file";
}

}  // namespace

std::string replaceable_file_error(const std::string& path) {
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) return {};  // a new file: nothing to keep
  struct stat target {};
  if (::stat(path.c_str(), &target) != 0) {
    return fmt::format("'{}' is a symbolic link to a file that cannot be reached: {}", path, std::strerror(errno));
  }
  if (!S_ISREG(target.st_mode)) {
    return fmt::format("'{}' is not a regular file but {}; only regular files are rewritten", path,
                       kind_of(target.st_mode));
  }
  if (target.st_nlink > 1) {
    return fmt::format(
        "'{}' has {} hard links; a rewrite would give the other names the old text, so it is not rewritten "
        "(break the links first, or print the result and copy it over)",
        path, target.st_nlink);
  }
  return {};
}

std::string write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  if (std::string error = replaceable_file_error(path); !error.empty()) return error;
  // Through a symbolic link: replace the file it points to, in that file's folder.
  struct stat link {};
  const bool exists = ::lstat(path.c_str(), &link) == 0;
  std::error_code ec;
  const fs::path target = exists ? fs::canonical(path, ec) : fs::path(path);
  if (ec) return fmt::format("cannot resolve '{}': {}", path, ec.message());
  struct stat old {};
  const bool replacing = exists && ::stat(target.c_str(), &old) == 0;

  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  const std::string pattern = (dir / fmt::format(".{}.XXXXXX", target.filename().string())).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) return fmt::format("cannot create a temporary file in '{}': {}", dir.string(), std::strerror(errno));
  const std::string temp(name.data());
  auto fail = [&](const std::string& message) {
    ::close(fd);
    ::unlink(temp.c_str());
    return message;
  };
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(fmt::format("cannot write '{}': {}", temp, std::strerror(errno)));
    }
    written += static_cast<std::size_t>(n);
  }
  if (replacing) {
    // The old file's owner first: changing the owner may clear the set-id bits of the mode.
    if ((old.st_uid != ::geteuid() || old.st_gid != ::getegid()) && ::fchown(fd, old.st_uid, old.st_gid) != 0) {
      return fail(fmt::format("cannot give the new '{}' the owner of the old one (uid {}, gid {}): {}; the file is "
                              "left as it was",
                              target.string(), old.st_uid, old.st_gid, std::strerror(errno)));
    }
    if (::fchmod(fd, old.st_mode & 07777) != 0) {
      return fail(fmt::format("cannot give the new '{}' the mode of the old one: {}", target.string(),
                              std::strerror(errno)));
    }
  } else if (::fchmod(fd, 0644) != 0) {
    return fail(fmt::format("cannot set the mode of '{}': {}", temp, std::strerror(errno)));
  }
  if (::fsync(fd) != 0) return fail(fmt::format("cannot write '{}': {}", temp, std::strerror(errno)));
  if (::close(fd) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(temp.c_str());
    return fmt::format("cannot write '{}': {}", temp, err);
  }
  if (std::rename(temp.c_str(), target.c_str()) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(temp.c_str());
    return fmt::format("cannot replace '{}': {}", path, err);
  }
  return {};
}

}  // namespace rulebook::cli
