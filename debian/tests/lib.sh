# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the autopkgtests: one line per check, the first failure ends the test.
set -eu
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
unset LJ_BUILD LJ_SCENARIO_DIR
cd "${AUTOPKGTEST_TMP:?run by autopkgtest}"
n=0
check() {	# check NAME COMMAND...: COMMAND must succeed
	n=$((n + 1))
	name=$1
	shift
	if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; exit 1; fi
}
installed() { [ "$(command -v "$1")" = "/usr/bin/$1" ]; }
