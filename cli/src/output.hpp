// Output helpers shared by the commands: colour choice, diagnostics printing, exit codes,
// and writing files safely (temporary file, then rename).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rulebook/grammar/diagnostic.hpp"

namespace rulebook::cli {

// Exit codes scripts can rely on.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFinding = 1;   // errors in the rules, a refuted property
inline constexpr int kExitBadInput = 2;  // unreadable file, bad arguments
inline constexpr int kExitInternal = 4;  // a failure of the verifier itself (a bug to report)
inline constexpr int kExitInterrupted = 130;  // stopped by SIGINT (128 + 2, as shells report it)

enum class OutputFormat { kText, kJson, kSarif };

// "text", "json" or "sarif" (what the --format options accept).
OutputFormat output_format(const std::string& name);

// `--color`: auto (the default) colours a terminal unless NO_COLOR is set and not empty.
enum class ColorChoice { kAuto, kAlways, kNever };
void set_color_choice(ColorChoice choice);
bool stderr_wants_color();

// Prints diagnostics to stderr (text, followed by a summary line such as "2 errors, 1
// warning" when there is anything to report) or stdout: JSON ({"diagnostics": [...],
// "errors": N, "warnings": N}) or SARIF.
void print_diagnostics(const grammar::Diagnostics& diagnostics,
                       const grammar::SourceManager& sources, OutputFormat format);

// JSON as text, for every JSON the commands print or write. Strings that are not UTF-8 (a
// file name is any bytes; a title or a source line may be too) would make nlohmann's dump
// throw, which aborted the command; here each invalid byte becomes U+FFFD instead.
std::string json_text(const nlohmann::json& value, int indent = -1);

// With --format json, a command that stops before its result (a rule fault, a bad option, a
// file it cannot write) prints this instead, so that stdout is always one JSON document:
// `context` (the command's own fields, such as "ruleset") plus "error": MESSAGE and "exit".
void print_json_error(const std::string& message, int exit_code, nlohmann::json context = nlohmann::json::object());

// Standard output could not be written (a full disk, /dev/full, a closed descriptor): says
// so on stderr, with the system's reason for `error` (an errno value, 0 if unknown), and
// returns the exit code, kExitBadInput. Called once, at the end of main.
int output_failed(int error);

// From now on SIGINT, SIGTERM and SIGHUP remove the temporary file that
// write_file_atomically is writing, if any, and then end the process as the signal would.
// A command that handles the signals itself (simulate) installs its own handlers afterwards,
// and its handler restores this one for the second signal.
void remove_temporary_files_on_signals();

// Writes `content` to `path` through a temporary file in the target's folder and a rename,
// so that the file is either the old one or the complete new one; the new file keeps the old
// one's owner and mode, and a symbolic link is written through (file_writes.cpp). Returns an
// error message; replaceable_file_error's reasons refuse the write before anything changes.
// `kInFolder`: a file the command names itself in a folder it was given (--logs, --plot,
// --cex-out): a symbolic link there is refused rather than written through, which replaced a
// file outside the folder (the ninth probe). A path given as an option is written through.
enum class OutputName { kGiven, kInFolder };
std::string write_file_atomically(const std::string& path, const std::string& content, OutputName name = OutputName::kGiven);
// Why `path` may not be written: it is the regular file standard output or standard error
// goes to (a write would replace what the command prints). "" otherwise. Every write checks
// it; commands check their output options with it before the work.
std::string standard_stream_error(const std::string& path);

// write_file_atomically in two steps, for files that are replaced together (the charts of a
// run): stage_file writes the new content to the temporary file, commit() renames it over the
// target. A StagedFile destroyed uncommitted removes its temporary file, and a signal does
// too, so that when one file of several cannot be written none is replaced.
class TemporaryName;
class StagedFile {
 public:
  StagedFile() = default;
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  // Returns an error message, or "".
  std::string commit();

 private:
  friend std::string stage_file(const std::string& path, const std::string& content, StagedFile& staged, OutputName name);
  static std::string stage(const std::string& path, const std::string& content, StagedFile& staged);
  std::unique_ptr<TemporaryName> named_;  // while the temporary file exists
  std::string temp_, target_, path_;
};
std::string stage_file(const std::string& path, const std::string& content, StagedFile& staged,
                       OutputName name = OutputName::kGiven);

// Why `path` cannot be replaced faithfully by a rename, or "" if it can (or does not exist):
// not a regular file (a FIFO, a device, a folder), a broken link, several hard links. Needs no
// open, so it never waits on a FIFO.
std::string replaceable_file_error(const std::string& path);

// Checked before the work, so that a long run does not end in an error at the last step:
// why `path` cannot be written as a file (replaceable_file_error's reasons, or a folder that
// does not exist or cannot be written), or why files cannot be made in the folder `path`
// (created with its parents if missing). "" when it can, as far as the permissions tell.
std::string output_file_error(const std::string& path);
std::string output_folder_error(const std::string& path);

// Remembers the rule files in `sources` (load_machine calls it; check and graph, which load
// no machine, too): from then on every file written (stage_file, write_file_atomically) is
// refused when it is one of them.
void protect_inputs(const grammar::SourceManager& sources);
// Why an output may not go to `path`: it is the same file (device and inode, so through a
// link or another name too) as a rule file protect_inputs() was given, and writing it would
// lose the rules (`check --dump-ir x.rules x.rules`: the seventh probe). "" otherwise. Every
// write checks it; a command checks its output options with it before the work as well.
std::string input_overwrite_error(const std::string& path);

// Why the file `path` may not be written beside the files a command writes into `folder`
// (--logs, --plot): it is in that folder, where a log or a chart may take its name (the
// eighth probe: `--logs L --stats L/game-000001.jsonl` replaced a log with the statistics).
// `option` and `folder_option` name the two in the message; "" when it is elsewhere.
std::string inside_output_folder_error(const std::string& path, const std::string& option, const std::string& folder,
                                       const std::string& folder_option);

}  // namespace rulebook::cli
