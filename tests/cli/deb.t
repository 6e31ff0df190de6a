#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# deb.t - the Debian package (make deb): unpacked into a scratch root with dpkg -x, its
# Depends come from shlibs (no libc6 upper bound), its commands print the package's
# version, its lj-matrix finds the installed scenarios by name and runs one with the
# installed tools, its man pages render, its completion loads, its postrm purge removes
# the calibration and the journal directory (in a private mount namespace), lintian
# --pedantic reports no E: or W:. Building the package takes minutes, so make check runs
# this only when $LJ_BUILD/deb holds a built .deb (make deb), or builds it first under
# LJ_TEST_DEB=1. debian/tests (autopkgtest) runs the installed package instead.
. "$(dirname "$0")/lib.sh"

version=$(sed -n 's/^VERSION *:= *//p' "$LJ_SRC/GNUmakefile")
if [ "${LJ_TEST_DEB:-0}" = 1 ] && ! ls "$LJ_BUILD"/deb/ljkit_"$version"_*.deb >/dev/null 2>&1; then
	command -v dpkg-buildpackage >/dev/null || skip_all "LJ_TEST_DEB=1 but dpkg-buildpackage is not installed"
	make -C "$LJ_SRC" BUILD="$LJ_BUILD" deb >"$TMP/build.log" 2>&1 || { tail -20 "$TMP/build.log"; skip_all "make deb failed"; }
fi
deb=$(ls "$LJ_BUILD"/deb/ljkit_"$version"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || skip_all "no built package in $LJ_BUILD/deb (make deb, or LJ_TEST_DEB=1)"
plan 16
export LJ_RESULT_NO_SYSINFO=1

R="$TMP/root"
dpkg -x "$deb" "$R"
ok $? "dpkg -x unpacks the package"
is "$(dpkg-deb -f "$deb" Version)" "$version" "the package version is the build's"
is "$(sed -n '1s/.*(\(.*\)).*/\1/p' "$LJ_SRC/debian/changelog")" "$version" "debian/changelog has the same version"
deps=$(dpkg-deb -f "$deb" Depends)
is "$(echo "$deps" | grep -Eo 'libjson-c[0-9]+|libhwloc[0-9]+|zlib1g|libmd0|libtracefs[0-9]+' | sort | tr '\n' ' ')" \
	"libhwloc15 libjson-c5 libmd0 libtracefs1 zlib1g " "Depends has the shared libraries (shlibs), hwloc, zlib and libmd too"
echo "$deps" | grep -q '<<'
ok $((!$?)) "no upper bound in Depends (no glibc pinned): $deps"
vers=
for c in "$R"/usr/bin/*; do vers="$vers$("$c" --version 2>&1 | grep -v "(ljkit) $version\$")"; done
ncmd=$(( $(ls -d "$LJ_SRC"/tools/*/ | wc -l) + $(ls "$LJ_SRC"/scripts/lj-* | wc -l) ))
is "$vers:$(ls "$R"/usr/bin | wc -l)" ":$ncmd" "every installed command's --version is 'NAME (ljkit) $version'"
if command -v strace >/dev/null; then
	[ -x "$R/usr/libexec/ljkit/lj-topology" ] && strace -f -e trace=execve -o "$TMP/st" "$R/usr/bin/lj-cyclic" -q -t 1 -l 5 >/dev/null 2>&1 &&
		grep -q "execve(\"$R/usr/bin/../libexec/ljkit/lj-topology\"" "$TMP/st"
	ok $? "the installed lj-cyclic runs the installed helper /usr/libexec/ljkit/lj-topology"
else
	skip 1 "strace not installed"
fi
[ -x "$R/usr/bin/lj-plot" ] && [ -x "$R/usr/bin/lj-regress" ] && { [ -f "$R/usr/share/doc/ljkit/README.md" ] || [ -f "$R/usr/share/doc/ljkit/README.md.gz" ]; }
ok $? "lj-plot and lj-regress in /usr/bin, the docs in /usr/share/doc/ljkit"

# A scenario found by name among the installed ones, run with the installed tools.
run_rc env -u LJ_SCENARIO_DIR "$R/usr/bin/lj-matrix" -n quick
is "$rc:$(grep -c 'cyclic \[' "$TMP/out" | awk '{ print ($1 > 0) }')" "0:1" "the installed lj-matrix finds 'quick' by name"
printf '[matrix]\nrepeat = 2\n[workload cyclic]\ncommand = lj-cyclic -q -t 1 -i 1000 -l 100\n' \
	>"$R/usr/share/ljkit/scenarios/pkgtest.scn"
run_rc env -u LJ_SCENARIO_DIR PATH="$R/usr/bin:$PATH" "$R/usr/bin/lj-matrix" -q -o "$TMP/store" pkgtest
run=$(cat "$TMP/out")
is "$rc:$(ls "$run"/cyclic/*/run-*.json 2>/dev/null | wc -l)" "0:2" "a scenario run by name with the installed tools"
grep -q "\"$R/usr/share/ljkit/scenarios/pkgtest.scn\"" "$run/manifest.json" ||
	grep -q "usr/bin/../share/ljkit/scenarios/pkgtest.scn" "$run/manifest.json"
ok $? "the manifest records the installed scenario file"
"$R/usr/bin/lj-compare" --validate "$run"/cyclic/*/run-*.json >/dev/null
ok $? "its results validate with the installed lj-compare"

if command -v groff >/dev/null; then
	warn=$(zcat "$R/usr/share/man/man1/lj-cyclic.1.gz" | LC_ALL=C.UTF-8 groff -ww -z -man 2>&1)
	is "$?:$warn:$(ls "$R"/usr/share/man/man1/*.1.gz | wc -l):$(ls "$R"/usr/share/man/man5/*.5.gz | wc -l):$(ls "$R"/usr/share/doc/ljkit/lj-cyclic.md)" \
		"0::$ncmd:2:$R/usr/share/doc/ljkit/lj-cyclic.md" \
		"man pages installed (one per command, 2 formats), lj-cyclic.1 renders cleanly, the docs it names uncompressed"
else
	skip 1 "groff not installed"
fi
got=$(bash -c '. "$1"; COMP_WORDS=(lj-cyclic --pol); COMP_CWORD=1; _ljkit lj-cyclic; echo "${COMPREPLY[*]}"' \
	_ "$R/usr/share/bash-completion/completions/lj-cyclic")
is "$got" "--policy --policy-fallback" "the completion loads under the tool's name and completes"
# postrm purge, in a private mount namespace over /run and /var/lib: the state the tools made goes.
dpkg-deb -e "$deb" "$TMP/ctl"
if is_root && unshare -m true 2>/dev/null; then
	mkdir -p "$TMP/ns/run" "$TMP/ns/lib"
	unshare -m sh -c 'mount --bind "$1/run" /run && mount --bind "$1/lib" /var/lib &&
		mkdir -p /run/ljkit /var/lib/ljkit && touch /run/ljkit/journal.1 /var/lib/ljkit/frame-calibration &&
		sh "$2" purge && ! [ -e /run/ljkit ] && ! [ -e /var/lib/ljkit ]' _ "$TMP/ns" "$TMP/ctl/postrm"
	ok $? "postrm purge removes /var/lib/ljkit/frame-calibration and /run/ljkit"
else
	skip 1 "a private mount namespace needs root"
fi
if command -v lintian >/dev/null; then
	changes=$(ls "$LJ_BUILD"/deb/ljkit_"$version"_*.changes 2>/dev/null | head -1)
	lintian --pedantic "${changes:-$deb}" >"$TMP/lintian" 2>&1
	is "$(grep -c '^[EW]:' "$TMP/lintian")" 0 "lintian --pedantic reports no E: or W:"
	grep '^[EW]:' "$TMP/lintian" | head -5 | sed 's/^/# /'
else
	skip 1 "lintian not installed"
fi
exit $((_tap_fail > 0))
