# SPDX-License-Identifier: GPL-2.0-or-later
# matrix-lib.sh - helpers for the lj-matrix/lj-compare tests (sourced after lib.sh).

FAKE="$LJ_SRC/tests/fixtures/matrix/fake-workload"
FIX="$LJ_SRC/tests/fixtures/compare"

# cells RUNDIR: one line per cell: "workload id state reason nruns"
cells() {
	perl -MJSON::PP -0777 -ne '
		my $m = decode_json($_);
		for my $c (@{ $m->{cells} }) {
			printf "%s %s %s %s%d\n", $c->{workload}, $c->{id}, $c->{state},
				defined $c->{reason} ? "$c->{reason} " : "", scalar @{ $c->{runs} };
		}' "$1/manifest.json"
}

# mjson RUNDIR a.b.c: a scalar of the manifest
mjson() {
	perl -MJSON::PP -0777 -ne '
		my $v = decode_json($_);
		$v = $v->{$_} for split /\./, $ARGV_KEY;
		print defined $v ? $v : "null";
		BEGIN { $ARGV_KEY = shift @ARGV }' "$2" "$1/manifest.json"
}

# json_ok FILE: the file parses as JSON
json_ok() {
	perl -MJSON::PP -0777 -ne 'decode_json($_)' "$1" 2>/dev/null
}

# lj_nkinds: core kinds hwloc reports (1 when it cannot rank them)
lj_nkinds() {
	local n
	n=$(lstopo-no-graphics --cpukinds 2>/dev/null | grep -c "^CPU kind")
	[ "${n:-0}" -gt 1 ] && echo "$n" || echo 1
}
