#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# power-fake.t - --power on fake cpufreq/cpuidle/powercap/battery/hwmon/thermal trees (private mount namespace): every figure against the fixture's arithmetic.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
is_root || skip_all "fake sysfs trees need root (unshare -m)"
command -v unshare >/dev/null || skip_all "no unshare"
command -v python3 >/dev/null || skip_all "no python3 to read the result"
[ "$(nproc)" -ge 2 ] || skip_all "needs two CPUs"
FK=$TMP/fk FC=$TMP/fc
SYS=/sys/devices/system/cpu

# The tree: biglittle (policy0 = cpu0, policy1 = the rest), with stats; /sys/class replaced by FC.
"$LJ_SRC/tests/fixtures/fake-cpu-sysfs.sh" "$FK" biglittle
mkdir -p "$FK/cpufreq/policy0/stats" "$FK/cpufreq/policy1/stats"
printf '800000 100\n1600000 50\n2400000 0\n' >"$FK/cpufreq/policy0/stats/time_in_state"
echo 10 >"$FK/cpufreq/policy0/stats/total_trans"
printf '1000000 0\n2000000 0\n' >"$FK/cpufreq/policy1/stats/time_in_state"
echo 3 >"$FK/cpufreq/policy1/stats/total_trans"
for s in "$FK"/cpu*/cpuidle/state*; do echo 0 >"$s/above"; echo 0 >"$s/below"; done
mkdir -p "$FC/powercap/intel-rapl:0" "$FC/powercap/intel-rapl:0:0" "$FC/power_supply/BAT0" \
	"$FC/power_supply/AC" "$FC/hwmon/hwmon0" "$FC/thermal/thermal_zone0"
echo package-0 >"$FC/powercap/intel-rapl:0/name"
echo 999000 >"$FC/powercap/intel-rapl:0/energy_uj"
echo 1000000 >"$FC/powercap/intel-rapl:0/max_energy_range_uj"
echo core >"$FC/powercap/intel-rapl:0:0/name"
echo 100 >"$FC/powercap/intel-rapl:0:0/energy_uj"
echo 1000000 >"$FC/powercap/intel-rapl:0:0/max_energy_range_uj"
echo Battery >"$FC/power_supply/BAT0/type"
echo 50000000 >"$FC/power_supply/BAT0/energy_now"
echo 5000000 >"$FC/power_supply/BAT0/power_now"
echo Mains >"$FC/power_supply/AC/type"
echo 1000 >"$FC/hwmon/hwmon0/energy1_input"
echo x86_pkg_temp >"$FC/thermal/thermal_zone0/type"
echo 40000 >"$FC/thermal/thermal_zone0/temp"
echo 60000 >"$FC/thermal/thermal_zone0/trip_point_0_temp"
echo passive >"$FC/thermal/thermal_zone0/trip_point_0_type"
echo 90000 >"$FC/thermal/thermal_zone0/trip_point_1_temp"
echo critical >"$FC/thermal/thermal_zone0/trip_point_1_type"

in_fake() { unshare -m --propagation private sh -c 'mount --bind "$0" '$SYS' && mount --bind "$1" /sys/class && shift && exec "$@"' "$FK" "$FC" "$@"; }

# What COMMAND does during the run: the kernel's counters move by known amounts.
cat >"$TMP/during.sh" <<EOS
printf '800000 130\n1600000 80\n2400000 40\n' >$SYS/cpufreq/policy0/stats/time_in_state
echo 17 >$SYS/cpufreq/policy0/stats/total_trans
printf '1000000 25\n2000000 75\n' >$SYS/cpufreq/policy1/stats/time_in_state
echo 5 >$SYS/cpufreq/policy1/stats/total_trans
echo 1500000 >$SYS/cpufreq/policy1/scaling_max_freq
echo 2000 >$SYS/cpu0/cpuidle/state1/time; echo 4 >$SYS/cpu0/cpuidle/state1/usage
echo 1 >$SYS/cpu0/cpuidle/state1/above; echo 2 >$SYS/cpu0/cpuidle/state1/below
echo 3000 >$SYS/cpu0/cpuidle/state2/time; echo 3 >$SYS/cpu0/cpuidle/state2/usage
echo 500 >$SYS/cpu1/cpuidle/state0/time; echo 7 >$SYS/cpu1/cpuidle/state0/usage
echo 500 >/sys/class/powercap/intel-rapl:0/energy_uj
echo 400 >/sys/class/powercap/intel-rapl:0:0/energy_uj
echo 49999000 >/sys/class/power_supply/BAT0/energy_now
echo 4000 >/sys/class/hwmon/hwmon0/energy1_input
echo 65000 >/sys/class/thermal/thermal_zone0/temp
echo done
EOS
run_rc in_fake lj-env --power --json "$TMP/p.json" -- sh "$TMP/during.sh"
is "$rc" 0 "lj-env --power around a command on the fake trees: exit 0"
is "$(cat "$TMP/out")" "done" "the command's output is its own"
grep -q "^power: throttled: .*capped 3000 -> 1500 MHz" "$TMP/err"; ok $? "the throttling said on stderr"
result_validates "$TMP/p.json"

# check EXPR NAME: a Python expression over d (the result), p (its power block), s (summary values)
check() {
	python3 - "$TMP/p.json" "$1" <<'EOPY'
import json, math, sys
d = json.load(open(sys.argv[1])); p = d["side"]["power"]
s = {k: v["value"] for k, v in d["summary"].items()}
near = lambda a, b, tol=1e-9: abs(a - b) <= tol * max(1.0, abs(b))
r3 = lambda a, b: abs(a - b) <= 0.0005 + 1e-12	# summary values carry 3 decimals
ok = eval(sys.argv[2])
if not ok:
    print("# failed: " + sys.argv[2], file=sys.stderr)
sys.exit(0 if ok else 1)
EOPY
	ok $? "$2"
}
c0='p["clusters"][0]' c1='p["clusters"][1]'
# policy0: 30, 30, 40 (10 ms) at 800, 1600, 2400 MHz
check "near(s['freq_avg_mhz_c0'], (800*30+1600*30+2400*40)/100)" "cluster 0 average frequency from time_in_state deltas: 1680 MHz"
check "$c0['freq_from'] == 'time_in_state'" "...said to come from time_in_state"
check "near(s['freq_min_share_c0'], 30.0) and near(s['freq_max_share_c0'], 40.0)" "cluster 0: 30% at min, 40% at max"
check "[(e['khz'], e['time_ms']) for e in $c0['time_in_state']] == [(800000,300),(1600000,300),(2400000,400)]" "cluster 0: time per frequency"
check "s['freq_trans_c0'] == 7 and s['freq_trans_c1'] == 2" "transitions from total_trans: 7 and 2"
check "near(s['freq_avg_mhz_c1'], (1000*25+2000*75)/100) and near(s['freq_max_share_c1'], 75.0)" "cluster 1: 1750 MHz, 75% at max"
check "near(s['freq_avg_mhz_all'], (1680+1750)/2) and r3(s['idle_share_all'], 100*(5000+500)/2/(p['duration_s']*1e6))" "one core kind over two clusters: freq_avg_mhz_all and idle_share_all weighted by CPUs"
check "$c1['capped'] and $c1['limit_start_khz'] == 3000000 and $c1['limit_min_khz'] == 1500000" "cluster 1: the cap 3000 -> 1500 MHz seen"
check "[(x['name'],x['time_us'],x['usage'],x['above'],x['below']) for x in p['cpus'][0]['idle_states']] == [('POLL',0,0,0,0),('C1',2000,4,1,2),('C2',3000,3,0,0)]" "cpu0 idle states: time, usage, above, below deltas"
check "near(p['cpus'][0]['idle_share'], 5000/(p['duration_s']*1e6))" "cpu0 idle share: 5000 us over the run's time"
check "r3(s['idle_share_c0'], 100*5000/(p['duration_s']*1e6))" "cluster 0 idle share in %"
check "near(p['cpus'][1]['idle_share'], 500/(p['duration_s']*1e6))" "cpu1 idle share: 500 us over the run's time"
check "near(p['energy_j'], (1000000-999000+500)/1e6) and r3(s['energy_j'], 0.0015) and p['energy_from'] == 'powercap energy'" "energy from the powercap package zone across its wrap: 1500 uJ"
check "[e['wraps'] for e in p['energy'] if e['name'].startswith('intel-rapl:0 ')] == [1]" "...one wrap counted"
check "[e['counted'] for e in p['energy'] if e['name'].startswith('intel-rapl:0:0')] == [False]" "the subzone is not added to the package"
check "near(p['power_w'], p['energy_j']/p['duration_s']) and r3(s['power_w'], p['power_w'])" "mean power = energy / duration"
check "[round(e['energy_j'],9) for e in p['energy'] if e['name']=='BAT0 energy_now'] == [3.6]" "battery: 1000 uWh drop = 3.6 J"
check "[near(e['mean_w'], 5.0) for e in p['energy'] if e['name']=='BAT0 power_now'] == [True]" "battery power_now 5 W held: mean 5 W"
check "[round(e['energy_j'],9) for e in p['energy'] if e['name']=='hwmon0 energy1_input'] == [0.003]" "hwmon energy counter: 3000 uJ"
check "p['thermal'][0]['start_c'] == 40.0 and p['thermal'][0]['end_c'] == 65.0 and s['temp_max_c'] == 65.0" "thermal zone 40 -> 65 C"
check "[t['type'] for t in p['thermal'][0]['trips_crossed']] == ['passive']" "the passive trip at 60 C crossed, the critical one not"
check "p['throttled'] and s['throttled'] == 1 and 'capped' in p['throttle_reasons'] and 'trip point' in p['throttle_reasons']" "the run says it was throttled, and why"
check "not p['sources']['throttle']['available'] and 'thermal_throttle' in p['sources']['throttle']['reason']" "the one source missing is named with its reason"

# bg_fake OUT CMD...: CMD in the fake trees, in the background; $! is CMD itself (unshare and sh exec it).
bg_fake() {
	local out=$1
	shift
	unshare -m --propagation private sh -c 'mount --bind "$0" '$SYS' && mount --bind "$1" /sys/class && shift && exec "$@"' \
		"$FK" "$FC" "$@" >"$TMP/$out.out" 2>"$TMP/$out.err" &
}
# wait_sampler PID: until PID's power sampler thread exists, i.e. its first snapshot is read (an event, not a delay).
wait_sampler() {
	for _ in $(seq 1 400); do
		grep -qx lj-power /proc/"$1"/task/*/comm 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# A measuring tool with --power: the cap applied during the run makes its validity verdict suspect.
if [ -x "$LJ_BUILD/lj-cyclic" ]; then
	echo 3000000 >"$FK/cpufreq/policy1/scaling_max_freq"
	bg_fake c lj-cyclic --power -q -i 1000 -l 1500 --json "$TMP/c.json"
	pid=$!
	wait_sampler $pid && echo 1200000 >"$FK/cpufreq/policy1/scaling_max_freq"
	wait $pid
	rc=$?
	ok "$([ "$rc" = 0 ] || [ "$rc" = 3 ] && echo 0 || echo 1)" "lj-cyclic --power on the fake tree runs (rc $rc)"
	python3 -c "
import json,sys; d=json.load(open('$TMP/c.json'))
r=[x for x in d['validity']['reasons'] if x['what']=='throttle']
sys.exit(0 if d['validity']['verdict']!='valid' and r and '1200 MHz' in r[0]['text'] else 1)"
	ok $? "a max-frequency cap during the run: validity gets a throttle reason, verdict not valid"
else
	skip 2 "lj-cyclic not built"
fi

# lj-frame --power: energy per frame from the package zone's rise during the run.
if [ -x "$LJ_BUILD/lj-frame" ]; then
	echo 0 >"$FC/powercap/intel-rapl:0/energy_uj"
	bg_fake f lj-frame --fps 60 --stages 1 --work-time 1ms -D 1500ms -q --power --json "$TMP/f.json" \
		--perfetto "$TMP/f.trace"
	pid=$!
	wait_sampler $pid && echo 600000 >"$FC/powercap/intel-rapl:0/energy_uj" &&
		echo 2400000 >"$FK/cpufreq/policy0/scaling_cur_freq"
	wait $pid
	is "$?" 0 "lj-frame --power on the fake tree: exit 0"
	# --perfetto: the readings as counters, per CPU: policy0 (cpu0) went 1200 -> 2400 MHz, policy1 stayed.
	python3 - "$TMP/f.trace" <<'EOPY'
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "C"]
mhz = lambda c: [e["args"]["MHz"] for e in ev if e["name"] == "CPU %d frequency" % c]
idle = [e["args"]["%"] for e in ev if e["name"] == "CPU 1 idle"]
ok = mhz(0)[0] == 1200 and mhz(0)[-1] == 2400 and set(mhz(0)) == {1200, 2400} and set(mhz(1)) == {1200} \
     and idle and all(0 <= v <= 100 for v in idle)
sys.exit(0 if ok else 1)
EOPY
	ok $? "--perfetto: each CPU's frequency counter follows scaling_cur_freq (cpu0 1200 -> 2400 MHz), idle % per CPU"
	python3 - "$TMP/f.json" <<'EOPY'
import json, sys
d = json.load(open(sys.argv[1])); p = d["side"]["power"]; s = {k: v["value"] for k, v in d["summary"].items()}
ok = abs(p["energy_j"] - 0.6) < 1e-12 and abs(s["energy_per_frame_mj"] - round(600.0 / s["frames"], 3)) <= 0.0005 + 1e-12
sys.exit(0 if ok else 1)
EOPY
	ok $? "energy_per_frame_mj = 600000 uJ over the run's frames"
else
	skip 2 "lj-frame not built"
fi
# lj-hackbench --power: energy per million messages, the counter rising while it runs.
if [ -x "$LJ_BUILD/lj-hackbench" ]; then
	echo 0 >"$FC/powercap/intel-rapl:0/energy_uj"
	bg_fake h lj-hackbench --power -g 1 -f 4 -l 500 --json "$TMP/h.json"
	pid=$!
	e=0
	while kill -0 $pid 2>/dev/null; do
		e=$((e + 1000))
		echo $e >"$FC/powercap/intel-rapl:0/energy_uj"
		sleep 0.02
	done
	wait $pid
	is "$?" 0 "lj-hackbench --power on the fake tree: exit 0"
	python3 - "$TMP/h.json" <<'EOPY'
import json, sys
d = json.load(open(sys.argv[1])); p = d["side"]["power"]; s = {k: v["value"] for k, v in d["summary"].items()}
msgs = 1 * 4 * 4 * 500		# groups x senders x receivers x loops
want = p["energy_j"] * 1e6 / msgs
ok = "energy_per_mmsg_j" in s and abs(s["energy_per_mmsg_j"] - want) <= 0.0005 + 1e-3 * want
sys.exit(0 if ok else 1)
EOPY
	ok $? "energy_per_mmsg_j = the run's energy over its 8000 messages, per million"
else
	skip 2 "lj-hackbench not built"
fi
[ -n "$POWER_KEEP" ] && cp "$TMP"/p.json "$TMP"/err "$POWER_KEEP"/
done_testing
