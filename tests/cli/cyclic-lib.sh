# SPDX-License-Identifier: GPL-2.0-or-later
# cyclic-lib.sh - line-shape checks for cyclictest-format output (sourced by cyclic*.t).

have_python() { command -v python3 >/dev/null 2>&1; }

# fw N: a regex for a number printf'd with width N: exactly N characters
# (right-aligned, space padded, a minus sign counting in the width) or,
# when the value is wider, just the number. (cyclictest prints negative
# latencies when a timer fires before its time as the clock reads it, as
# under TCG emulation: "Max:   -1234" is still "%8ld".)
fw() {
	local n=$1 d alt=""
	for ((d = 1; d <= n; d++)); do
		alt+="${alt:+|} {$((n - d))}[0-9]{$d}"
		((d < n)) && alt+="| {$((n - d - 1))}-[0-9]{$d}"
	done
	echo "($alt|[0-9]{$((n + 1)),}|-[0-9]{$n,})"
}

# The T: line of cyclictest's print_stat: "T:%2d (%5d) P:%2d I:%ld C:%7lu
# Min:%7ld Act:%5ld Avg:%5ld Max:%8ld"; with -N Act and Avg are %8ld.
t_line_re() {	# t_line_re us|ns
	local aw=5
	[ "$1" = ns ] && aw=8
	echo "^T:$(fw 2) \\($(fw 5)\\) P:$(fw 2) I:[0-9]+ C:$(fw 7) Min:$(fw 7) Act:$(fw $aw) Avg:$(fw $aw) Max:$(fw 8)\$"
}

# T: lines of FILE, with the live mode's cursor-up sequences removed.
t_lines() { sed -E 's/\x1b\[[0-9]+A//g' "$1" | grep '^T:[ 0-9]* ('; }

check_t_lines() {	# check_t_lines FILE us|ns: every T: line matches, and there is one
	local re line n=0
	re=$(t_line_re "$2")
	while IFS= read -r line; do
		n=$((n + 1))
		if ! [[ $line =~ $re ]]; then
			diag "T: line does not match cyclictest's layout: '$line'"
			return 1
		fi
	done < <(t_lines "$1")
	[ "$n" -gt 0 ] || { diag "no T: line in $1"; return 1; }
}

check_t_sanity() {	# Min <= Avg <= Max on every T: line of FILE
	t_lines "$1" | sed -E 's/.*Min: *(-?[0-9]+) Act: *-?[0-9]+ Avg: *(-?[0-9]+) Max: *(-?[0-9]+).*/\1 \2 \3/' |
	while read -r mn av mx; do
		[ "$mn" -le "$av" ] && [ "$av" -le "$mx" ] || { diag "min $mn avg $av max $mx"; exit 1; }
	done
}

# check_hist_layout FILE BUCKETS THREADS SUMCOL: the -h/-H block of cyclictest 2.x.
check_hist_layout() {
	local file=$1 nb=$2 nt=$3 sum=$4 cols i=0 line want re
	cols=$((nt + sum))
	mapfile -t L < <(grep -v '^# /dev/cpu_dma_latency' "$file")
	[ "${L[0]}" = "# Histogram" ] || { diag "line 1: '${L[0]}'"; return 1; }
	for ((i = 0; i < nb; i++)); do
		printf -v want '%06d' "$i"
		re="^$want [0-9]{6,}("$'\t'"[0-9]{6,}){$((cols - 1))}\$"
		[[ ${L[i + 1]} =~ $re ]] || { diag "bucket row $i: '${L[i + 1]}'"; return 1; }
	done
	i=$((nb + 1))
	expect_line() {	# expect_line PREFIX WIDTH COUNT
		re="^$1( [0-9]{$2,}){$3}\$"
		[[ ${L[i]} =~ $re ]] || { diag "line $i: '${L[i]}' (want $1 x$3)"; return 1; }
		i=$((i + 1))
	}
	expect_line "# Total:" 9 "$cols" &&
	expect_line "# Min Latencies:" 5 "$nt" &&
	expect_line "# Avg Latencies:" 5 "$nt" &&
	expect_line "# Max Latencies:" 5 "$cols" &&
	expect_line "# Histogram Overflows:" 5 "$cols" || return 1
	[ "${L[i]}" = "# Histogram Overflow at cycle number:" ] || { diag "line $i: '${L[i]}'"; return 1; }
	i=$((i + 1))
	for ((t = 0; t < nt; t++, i++)); do
		re="^# Thread $t:( [0-9]{5,})*( # [0-9]{5,} others)?\$"
		[[ ${L[i]} =~ $re ]] || { diag "line $i: '${L[i]}'"; return 1; }
	done
	[ -z "${L[i]}" ] || { diag "no empty line after the histogram: '${L[i]}'"; return 1; }
}

# The kind of each output line, for comparing two tools' layouts: numbers
# become N, T: lines their widths-checked shape, histogram rows one token.
line_kinds() {	# line_kinds FILE us|ns
	local re spike vline line
	re=$(t_line_re "$2")
	spike="^T:$(fw 2) Spike:$(fw 8): TS: $(fw 12)\$"
	vline="^$(fw 8):$(fw 8):$(fw 8)\$"	# -v: "%8d:%8lu:%8ld"
	sed -E 's/\x1b\[[0-9]+A/\n/g' "$1" | while IFS= read -r line; do
		if [[ $line =~ $re ]]; then
			echo "T-line"
		elif [[ $line =~ $spike ]]; then
			echo "spike-line"
		elif [[ $line =~ $vline ]]; then
			echo "v-line"
		elif [[ $line =~ ^[0-9]{6}\ [0-9]{6} ]]; then
			echo "hist-row/$(tr -cd '\t' <<<"$line" | wc -c)"
		else
			sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +$//' <<<"$line"
		fi
	done
}
