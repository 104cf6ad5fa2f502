#!/usr/bin/env bash
# Installs a build into a scratch DESTDIR with `cmake --install` and checks that exactly the
# files packaging/CMakeLists.txt lists are there, that the installed rulebook runs on the
# installed rulesets and that the completion loads; then builds the Debian package with
# `cpack -G DEB` into the scratch folder and checks its fields and contents.
# Usage: install.sh BUILD_DIR SOURCE_DIR. Writes nothing outside its scratch folder.
set -euo pipefail

build=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rulebook-install.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

version=$(sed -n 's/^project(rulebook VERSION \([0-9.]*\).*/\1/p' "$source_dir/CMakeLists.txt")
[ -n "$version" ] || fail "no version in CMakeLists.txt's project()"

DESTDIR="$scratch/root" cmake --install "$build" --prefix /usr >"$scratch/install.log" ||
  fail "cmake --install failed: $(cat "$scratch/install.log")"
root="$scratch/root/usr"

# Every file installed, and every one expected: the binary, the completion, the README, and
# the trees rulesets/, editors/vscode/ and docs/ as they are in the source.
(cd "$root" && find . -type f -printf '%P\n' | sort) >"$scratch/installed"
{
  echo bin/rulebook
  echo share/bash-completion/completions/rulebook
  echo share/doc/rulebook/README.md
  (cd "$source_dir" && find docs -type f -printf 'share/doc/rulebook/%p\n')
  (cd "$source_dir" && find rulesets -type f -printf 'share/rulebook/%p\n')
  (cd "$source_dir" && find editors/vscode -type f -printf 'share/rulebook/%p\n')
} | sort >"$scratch/expected"
diff "$scratch/expected" "$scratch/installed" >&2 || fail "installed files differ from the list (< expected, > installed)"
[ -x "$root/bin/rulebook" ] || fail "bin/rulebook is not executable"
for script in "$root"/share/doc/rulebook/docs/scale-out/*; do
  [ -x "$script" ] || fail "$script is not executable"
done

# The installed copy runs, on the installed files only.
[ "$("$root/bin/rulebook" --version)" = "rulebook $version" ] || fail "--version is not 'rulebook $version'"
"$root/bin/rulebook" check -q "$root"/share/rulebook/rulesets/*.rules "$root"/share/rulebook/rulesets/variants/*.rules ||
  fail "the installed rulesets do not check"
"$root/bin/rulebook" replay "$root/share/rulebook/rulesets/clusterfk.rules" \
  "$root/share/rulebook/rulesets/examples/clusterfk-table-game.jsonl" >/dev/null ||
  fail "the installed example log does not replay"
bash -c "source '$root/share/bash-completion/completions/rulebook' && complete -p rulebook" >/dev/null ||
  fail "the installed completion does not load"

# The Debian package, from this build folder.
if ! command -v cpack >/dev/null || ! command -v dpkg-deb >/dev/null || ! command -v dpkg-shlibdeps >/dev/null; then
  echo "SKIP: the install is right; no cpack, dpkg-deb or dpkg-shlibdeps (dpkg-dev) to build the .deb"
  exit 77
fi
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$scratch/package" >"$scratch/cpack.log" 2>&1 ||
  fail "cpack failed: $(cat "$scratch/cpack.log")"
architecture=$(dpkg --print-architecture)
deb="$scratch/package/rulebook_${version}-1_${architecture}.deb"
[ -f "$deb" ] || fail "no $(basename "$deb"): $(ls "$scratch/package")"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = rulebook ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version-1" ] || fail "Version: $(field Version)"
[ "$(field Architecture)" = "$architecture" ] || fail "Architecture: $(field Architecture)"
[[ "$(field Maintainer)" == *"<"*"@"*">" ]] || fail "Maintainer is not 'Name <address>': $(field Maintainer)"
[ "$(field Recommends)" = graphviz ] || fail "Recommends: $(field Recommends)"
for library in libc6 libstdc++6 libz3- libgmp libfmt; do
  [[ "$(field Depends)" == *"$library"* ]] || fail "Depends lacks $library: $(field Depends)"
done
[[ "$(field Description)" == "rules language for card games"* ]] || fail "Description: $(field Description)"
dpkg-deb -c "$deb" | awk '{ print $6 }' >"$scratch/contents"
for file in ./usr/bin/rulebook ./usr/share/bash-completion/completions/rulebook \
  ./usr/share/rulebook/rulesets/clusterfk.rules ./usr/share/doc/rulebook/docs/scale-out/simulate.sbatch; do
  grep -qx "$file" "$scratch/contents" || fail "the package lacks $file"
done
echo "ok: $(basename "$deb"), Depends: $(field Depends)"
