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

#include <climits>
#include <csignal>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "output.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/grammar/source.hpp"

namespace rulebook::cli {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "another kind of file";
}

// The temporary files being written, for a signal handler to remove: fixed buffers, since a
// handler may not allocate, and a flag each, set once the name is complete. The commands
// write their files one after another (simulate --logs from one thread too); only the charts
// of one run are staged together (three), so a few slots are enough.
constexpr std::size_t kTemporarySlots = 4;
char temporary_names[kTemporarySlots][PATH_MAX + 1];
std::atomic<bool> temporary_live[kTemporarySlots];
static_assert(std::atomic<bool>::is_always_lock_free, "read from a signal handler");

extern "C" void remove_temporary_and_die(int signal) {
  for (std::size_t i = 0; i < kTemporarySlots; ++i) {
    if (temporary_live[i].load()) ::unlink(temporary_names[i]);  // async-signal-safe
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// SIGINT, SIGTERM, SIGHUP and SIGQUIT wait from construction to release() (or the end of the scope).
class SignalsHeld {
 public:
  SignalsHeld() {
    sigemptyset(&blocked_);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&blocked_, signal);
    ::sigprocmask(SIG_BLOCK, &blocked_, &previous_);
  }
  ~SignalsHeld() { release(); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;
  void release() {
    if (!held_) return;
    held_ = false;
    ::sigprocmask(SIG_SETMASK, &previous_, nullptr);
  }

 private:
  sigset_t blocked_{}, previous_{};
  bool held_ = true;
};

}  // namespace

// Names a temporary file while it exists (called with the signals held).
class TemporaryName {
 public:
  explicit TemporaryName(const std::string& name) {
    if (name.size() > PATH_MAX) return;
    for (std::size_t i = 0; i < kTemporarySlots; ++i) {
      if (temporary_live[i].load()) continue;
      std::memcpy(temporary_names[i], name.c_str(), name.size() + 1);
      temporary_live[i].store(true);
      slot_ = i;
      return;
    }
  }
  ~TemporaryName() {
    if (slot_ < kTemporarySlots) temporary_live[slot_].store(false);
  }
  TemporaryName(const TemporaryName&) = delete;
  TemporaryName& operator=(const TemporaryName&) = delete;

 private:
  std::size_t slot_ = kTemporarySlots;
};

namespace {

// ".NAME.XXXXXX" beside the target: a name near the system's limit (NAME_MAX, 255 bytes on
// Linux) made the temporary name too long and the write failed, so the copied part is cut.
std::string temporary_pattern(const std::filesystem::path& dir, const std::string& name) {
  long limit = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  if (limit <= 0) limit = NAME_MAX;
  constexpr std::size_t kAround = 8;  // the dot before, ".XXXXXX" after
  std::string kept = name;
  if (kept.size() + kAround > static_cast<std::size_t>(limit)) kept.resize(static_cast<std::size_t>(limit) - kAround);
  return (dir / fmt::format(".{}.XXXXXX", kept)).string();
}

}  // namespace

void remove_temporary_files_on_signals() {
  // SIGQUIT too: it left a temporary file (the seventh probe).
  for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    // A signal the process was started with ignored stays ignored (nohup; SIGINT in a
    // background job of a script).
    struct sigaction old {};
    if (::sigaction(signal, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = remove_temporary_and_die;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
  }
}

static std::string replaceable_file_error_unprintable(const std::string& path) {
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

std::string StagedFile::stage(const std::string& path, const std::string& content, StagedFile& staged) {
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
  const std::string pattern = temporary_pattern(dir, target.filename().string());
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  // The signals wait while the file is made and named, so that a signal in between cannot
  // leave a file the handler does not know of.
  SignalsHeld held;
  const int fd = mkstemp(name.data());
  const int make_error = errno;
  if (fd >= 0) staged.named_ = std::make_unique<TemporaryName>(std::string(name.data()));
  held.release();
  if (fd < 0) return fmt::format("cannot create a temporary file in '{}': {}", dir.string(), std::strerror(make_error));
  const std::string temp(name.data());
  auto fail = [&](const std::string& message) {
    ::close(fd);
    ::unlink(temp.c_str());
    staged.named_.reset();
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
    staged.named_.reset();
    return fmt::format("cannot write '{}': {}", temp, err);
  }
  staged.temp_ = temp;
  staged.target_ = target.string();
  staged.path_ = path;
  return {};
}

StagedFile::~StagedFile() {
  if (named_) ::unlink(temp_.c_str());
}

std::string StagedFile::commit() {
  if (!named_) return {};
  // The rename and forgetting the name happen with the signals held: after the rename the
  // name is the target's, which a handler must not remove.
  SignalsHeld held;
  const int renamed = std::rename(temp_.c_str(), target_.c_str());
  const int rename_error = errno;
  if (renamed != 0) ::unlink(temp_.c_str());
  named_.reset();
  held.release();
  if (renamed != 0) return grammar::printable(fmt::format("cannot replace '{}': {}", path_, std::strerror(rename_error)));
  return {};
}

namespace {

// The rule files this process read (protect_inputs): no file it writes may be one of them.
std::vector<std::pair<std::string, std::pair<dev_t, ino_t>>>& protected_inputs() {
  static std::vector<std::pair<std::string, std::pair<dev_t, ino_t>>> inputs;
  return inputs;
}

}  // namespace

std::string inside_output_folder_error(const std::string& path, const std::string& option, const std::string& folder,
                                       const std::string& folder_option) {
  if (path.empty() || folder.empty()) return "";
  // By the resolved names, so that a folder not made yet counts too (it is made after these
  // checks, so that a refused command leaves nothing behind: the eighth probe).
  const auto resolved = [](const std::string& p) {
    std::error_code error;
    std::filesystem::path out = std::filesystem::weakly_canonical(std::filesystem::absolute(p, error), error).lexically_normal();
    if (out.has_parent_path() && out.filename().empty()) out = out.parent_path();  // "D/"
    return error ? std::filesystem::path() : out;
  };
  const std::filesystem::path out = resolved(path);
  const std::filesystem::path dir = resolved(folder);
  if (!out.empty() && out == dir) {
    return fmt::format("{} '{}' is the {} folder itself, where the command writes files of its own: put it elsewhere", option,
                       grammar::printable(path), folder_option);
  }
  // weakly_canonical follows links in the part that exists: a folder named through a link is
  // the same folder.
  if (out.empty() || out.parent_path() != dir) return "";
  return fmt::format("{} '{}' is in the {} folder '{}', where the command writes files of its own: put it elsewhere", option,
                     grammar::printable(path), folder_option, grammar::printable(folder));
}

void protect_inputs(const grammar::SourceManager& sources) {
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::string& path = sources.file(static_cast<grammar::FileId>(i)).path;
    struct stat in {};
    if (::stat(path.c_str(), &in) == 0) protected_inputs().push_back({path, {in.st_dev, in.st_ino}});
  }
}

std::string input_overwrite_error(const std::string& path) {
  struct stat out {};
  if (::stat(path.c_str(), &out) != 0) return "";  // not there yet: no input is
  for (const auto& [input, id] : protected_inputs()) {
    if (id.first == out.st_dev && id.second == out.st_ino) {
      return fmt::format("'{}' is the rule file '{}' this command reads; writing there would replace the rules "
                         "(choose another path)",
                         grammar::printable(path), grammar::printable(input));
    }
  }
  return "";
}

std::string standard_stream_error(const std::string& path) {
  // Standard error too: `--stats /dev/stderr 2> e.txt` replaced e.txt with the statistics,
  // and the messages written there were lost (the tenth probe).
  struct stat out {};
  if (::stat(path.c_str(), &out) != 0 || !S_ISREG(out.st_mode)) return "";
  for (const auto& [fd, name] : {std::pair(STDOUT_FILENO, "standard output"), std::pair(STDERR_FILENO, "standard error")}) {
    struct stat stream {};
    if (::fstat(fd, &stream) == 0 && stream.st_dev == out.st_dev && stream.st_ino == out.st_ino) {
      return fmt::format("'{}' is where {} goes; writing there would replace it", grammar::printable(path), name);
    }
  }
  return "";
}

std::string stage_file(const std::string& path, const std::string& content, StagedFile& staged, OutputName name) {
  // Every file written is checked here, not only the paths given as options: a log or a
  // chart written into a folder, under a name that is (or links to) a rule file read,
  // replaced the rules (the eighth probe: `--logs . --force`, `--plot .`, a link left in a
  // --cex-out folder). And a file that is where standard output or error goes would replace
  // what the command prints.
  if (std::string error = input_overwrite_error(path); !error.empty()) return error;
  struct stat link {};
  if (name == OutputName::kInFolder && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    return fmt::format("'{}' is a symbolic link: a file the command names in its output folder is not written through "
                       "a link, which may lead out of the folder (remove the link)",
                       grammar::printable(path));
  }
  if (std::string error = standard_stream_error(path); !error.empty()) return error;
  return grammar::printable(StagedFile::stage(path, content, staged));
}

std::string write_file_atomically(const std::string& path, const std::string& content, OutputName name) {
  StagedFile staged;
  if (std::string error = stage_file(path, content, staged, name); !error.empty()) return error;
  return staged.commit();
}

namespace {

// Why files cannot be made in `dir`, or "" when they can. The permissions do not tell it all
// (root passes every check; /proc refuses new files; a file system may be read-only), so a
// temporary file is made and removed, as the real write will make one.
std::string folder_error(const std::filesystem::path& dir) {
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0) return fmt::format("'{}' cannot be reached: {}", dir.string(), std::strerror(errno));
  if (!S_ISDIR(info.st_mode)) return fmt::format("'{}' is not a folder", dir.string());
  std::string probe = (dir / ".rulebook-check.XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return fmt::format("no file can be written in the folder '{}': {}", dir.string(), std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

// A name longer than the file system takes (NAME_MAX, 255 bytes on Linux) in `path`.
std::string name_length_error(const std::filesystem::path& path) {
  for (const auto& part : path) {
    if (part.string().size() > NAME_MAX) {
      return fmt::format("a name in '{}' is {} bytes long, more than the {} a file system takes", path.string(),
                         part.string().size(), NAME_MAX);
    }
  }
  return {};
}

}  // namespace

static std::string output_file_error_unprintable(const std::string& path) {
  if (std::string error = name_length_error(path); !error.empty()) return error;
  if (std::string error = replaceable_file_error(path); !error.empty()) return error;
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  // Through a symbolic link the file is replaced in its target's folder.
  std::error_code ec;
  if (const auto target = std::filesystem::canonical(path, ec); !ec) dir = target.parent_path();
  if (std::filesystem::path(path).filename().empty()) return fmt::format("'{}' names a folder, not a file", path);
  return folder_error(dir);
}

static std::string output_folder_error_unprintable(const std::string& path) {
  if (std::string error = name_length_error(path); !error.empty()) return error;
  // The folder, or the nearest one above it that exists, in which the rest is created.
  std::filesystem::path dir = path;
  std::error_code ec;
  while (!std::filesystem::exists(dir, ec) && dir.has_relative_path() && dir.has_parent_path() &&
         dir.parent_path() != dir) {
    dir = dir.parent_path();
  }
  if (!std::filesystem::exists(dir, ec)) dir = ".";
  return folder_error(dir);
}

// The messages quote paths, which are any bytes: written out with printable(), as all text
// from input that is printed.
std::string replaceable_file_error(const std::string& path) {
  return grammar::printable(replaceable_file_error_unprintable(path));
}
std::string output_file_error(const std::string& path) {
  // Before the work: `--stats /proc/self/fd/1 > f` was refused only after every game.
  if (std::string error = standard_stream_error(path); !error.empty()) return error;
  return grammar::printable(output_file_error_unprintable(path));
}
std::string output_folder_error(const std::string& path) {
  return grammar::printable(output_folder_error_unprintable(path));
}

}  // namespace rulebook::cli
