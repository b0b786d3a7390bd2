#!/usr/bin/env bash
# The Debian package (issue 17): cpack builds perfplan_<version>_amd64.deb from the install rules,
# dpkg -i installs it into a private root (its own --instdir/--admindir, so the machine's dpkg
# database is never touched), the installed binary answers --version, the man page and docs are
# there, and the installed bash completion completes commands and flags.
# Usage: deb_install_test.sh BUILD_DIR VERSION        Exit 0 pass, 1 fail, 77 skipped (reason).
set -euo pipefail
build=${1:?usage: deb_install_test.sh BUILD_DIR VERSION}
version=${2:?usage: deb_install_test.sh BUILD_DIR VERSION}
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in cpack dpkg dpkg-deb; do
  command -v $tool >/dev/null || { echo "SKIPPED: $tool is not installed" >&2; exit 77; }
done
[[ -f $build/perfplan.1 ]] || { echo "SKIPPED: $build/perfplan.1 not built (run ninja, not only ninja perfplan)" >&2; exit 77; }
work=$(mktemp -d /tmp/perfplan-deb-XXXXXX)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log" >&2; fail "cpack failed"; }
deb="$work/pkg/perfplan_${version}_amd64.deb"
[[ -f $deb ]] || { ls "$work/pkg" >&2; fail "no $deb"; }
listing=$(dpkg-deb -c "$deb")
for f in ./usr/bin/perfplan ./usr/share/man/man1/perfplan.1 ./usr/share/doc/perfplan/README.md \
         ./usr/share/doc/perfplan/openapi.json ./usr/share/bash-completion/completions/perfplan; do
  grep -q " $f\$" <<<"$listing" || fail "$f missing from the package"
done
root="$work/root"
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info"
touch "$root/var/lib/dpkg/status"
dpkg --instdir="$root" --admindir="$root/var/lib/dpkg" --force-not-root --force-depends \
     --force-script-chrootless -i "$deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log" >&2; fail "dpkg -i failed"; }
dpkg --admindir="$root/var/lib/dpkg" -s perfplan | grep -q "^Status: install ok installed" || fail "dpkg does not list perfplan as installed"
out=$("$root/usr/bin/perfplan" --version) || fail "installed perfplan --version failed"
[[ $out == "perfplan $version"* ]] || fail "unexpected --version: $out"
grep -q '^\.TH PERFPLAN 1' "$root/usr/share/man/man1/perfplan.1" || fail "man page has no .TH header"
grep -q 'predict' "$root/usr/share/man/man1/perfplan.1" || fail "man page lacks the commands"
# Bash completion, as bash would call it.
source "$root/usr/share/bash-completion/completions/perfplan"
COMP_WORDS=("$root/usr/bin/perfplan" pre); COMP_CWORD=1; _perfplan
[[ " ${COMPREPLY[*]} " == *" predict "* ]] || fail "completion of 'pre' gave: ${COMPREPLY[*]}"
COMP_WORDS=("$root/usr/bin/perfplan" validate --js); COMP_CWORD=2; _perfplan
[[ " ${COMPREPLY[*]} " == *" --json "* ]] || fail "completion of 'validate --js' gave: ${COMPREPLY[*]}"
echo "ok: $(basename "$deb") installed; --version, man page, docs and completion checked"
