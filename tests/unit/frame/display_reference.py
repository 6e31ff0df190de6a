#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""display_reference.py - an independent model of lj-frame's display accounting.

Written from the rules in docs/lj-frame.md, not from tools/frame/account.c:
exact fractions for the vsync times, a plain list for the frames shown and
telemetry's discrepancy by its definition (every pair of locations, O(n^2)).
It prints tests/unit/frame/display_fixtures.h, which test_account.c checks
the C core against; the suite itself never runs Python:

    python3 tests/unit/frame/display_reference.py > tests/unit/frame/display_fixtures.h
"""
import math
from fractions import Fraction as F

MS = 10**6


def vsync(i, rate):
    """Vsync i in ns: i / rate seconds, rounded half up."""
    return math.floor(F(i * 10**9) / rate + F(1, 2))


def simulate(base, over, rate, lat, n, strict):
    """Frames of the pipeline model with zero wake-up latency.

    Stage 0 skips a frame it would start at or after its deadline; a later
    stage abandons such a frame too in the strict model, but in the display
    model only when a newer frame has already reached that stage.
    """
    frames = [dict(present=None, waited=0, late=None, gone=None, skipped=False) for _ in range(n)]
    ready = [vsync(i, rate) for i in range(n)]   # when each frame reaches the current stage
    for s, w in enumerate(base):
        free = 0
        for i in range(n):
            fr = frames[i]
            if fr['gone'] is not None:
                continue
            due = vsync(i + lat, rate)
            start = max(ready[i], free)
            if start >= due:
                nxt = next((j for j in range(i + 1, n) if frames[j]['gone'] is None), None)
                if s == 0 or strict or (nxt is not None and ready[nxt] <= start):
                    fr['gone'], fr['skipped'] = s, s == 0
                    continue
            fr['waited'] += start - ready[i]
            free = start + over.get((i, s), w)
            ready[i] = free
            if free > due and fr['late'] is None:
                fr['late'] = s
    for i in range(n):
        if frames[i]['gone'] is None:
            frames[i]['present'] = ready[i]
    return frames


def shown_at(i, present, rate):
    k = i + 1
    while vsync(k, rate) < present:
        k += 1
    return k


def discrepancy(ts):
    n = len(ts)
    if n < 2 or ts[-1] == ts[0]:
        return 0.0
    scale = F(n - 1, n) / (ts[-1] - ts[0])
    xs = [(t - ts[0]) * scale + F(1, 2 * n) for t in ts]
    locs = [(F(0), 0, 0)] + [(x, k, k + 1) for k, x in enumerate(xs)] + [(F(1), n, n)]
    best = F(0)
    for u in range(len(locs)):
        for v in range(u + 1, len(locs)):
            (xu, lu, leu), (xv, lv, lev) = locs[u], locs[v]
            best = max(best, abs(F(lev - lu, n) - (xv - xu)), abs(F(lv - leu, n) - (xv - xu)))
    return float(best / scale)


def account(frames, first, end, rate, lat, strict):
    r = dict(frames=end - first, on_time=0, missed=0, stuffed=0, skipped=0, abandoned=0,
             replaced=0, late=0, missed0=0, missed1=0)
    cands = []
    fate = {}
    for i in range(first, end):
        f = frames[i]
        if f['present'] is None:
            fate[i] = 'skipped' if f['skipped'] else 'abandoned'
        elif strict and f['present'] > vsync(i + lat, rate):
            fate[i] = 'late'
        else:
            cands.append((i, shown_at(i, f['present'], rate)))
    shown = []
    for k, (i, d) in enumerate(cands):
        if k + 1 < len(cands) and cands[k + 1][1] == d:
            fate[i] = 'replaced'
            continue
        f = frames[i]
        if d <= i + lat:
            fate[i] = 'on_time'
        elif f['present'] - f['waited'] <= vsync(i + lat, rate):
            fate[i] = 'stuffed'
        else:
            fate[i] = 'missed'
            r['missed%d' % f['late']] += 1
        shown.append((i, d))
    streak = longest = 0
    for i in range(first, end):
        r[fate[i]] += 1
        streak = 0 if fate[i] in ('on_time', 'missed', 'stuffed') else streak + 1
        longest = max(longest, streak)
    times = [vsync(d, rate) for _, d in shown]
    iv = [b - a for a, b in zip(times, times[1:])]
    r.update(displayed=len(shown), intervals=len(iv),
             smooth=sum(1 for x in iv if x * rate < F(51, 50) * 10**9),
             interval_sum=sum(iv), longest_freeze=max(iv, default=0),
             freeze=sum(vsync(d2, rate) - vsync(d1 + 1, rate)
                        for (_, d1), (_, d2) in zip(shown, shown[1:])),
             latency_sum=sum(vsync(d, rate) - vsync(i, rate) for i, d in shown),
             latency_max=max((vsync(d, rate) - vsync(i, rate) for i, d in shown), default=0),
             longest_streak=longest, discrepancy=discrepancy(times),
             fps=float(len(shown) * rate / (end - first)))
    return r


# name, rate (Hz, a fraction), latency frames, per-stage work, overrides {(frame, stage): ns},
# frames simulated, first accounted (the warm-up before it).
SCHEDULES = [
    ('2x10ms', F(60), 1, [10 * MS, 10 * MS], {}, 186, 6),
    ('1x17ms', F(60), 1, [17 * MS], {}, 186, 6),
    ('1x20ms', F(60), 1, [20 * MS], {}, 186, 6),
    ('1x34ms', F(60), 1, [34 * MS], {}, 186, 6),
    ('stuffing', F(60), 1, [12 * MS], {(10, 0): 30 * MS}, 30, 0),
    ('abandon', F(60), 1, [2 * MS, 2 * MS], {(5, 1): 50 * MS}, 30, 0),
    ('late_alone', F(60), 1, [2 * MS, 2 * MS], {(5, 1): 33 * MS}, 30, 0),
    ('replace_l2', F(60), 2, [5 * MS], {(8, 0): 25 * MS}, 30, 0),
    ('hz144_7ms', F(144), 1, [7 * MS], {}, 300, 6),
    ('hz59_94', F(5994, 100), 1, [16700000], {}, 600, 6),
]

FIELDS = ['frames', 'displayed', 'on_time', 'missed', 'stuffed', 'skipped', 'abandoned',
          'replaced', 'late', 'missed0', 'missed1', 'intervals', 'smooth', 'interval_sum',
          'longest_freeze', 'freeze', 'latency_sum', 'latency_max', 'longest_streak']


def main():
    print('/* Generated by tests/unit/frame/display_reference.py: do not edit. */')
    print('struct display_fixture {\n\tconst char *name;\n\tlong long rate_num, rate_den;'
          '\n\tint latency, nstages, strict;\n\tlong long work[2];\n\tint over_frame, over_stage;'
          '\n\tlong long over_ns;\n\tint nframes, first;')
    for f in FIELDS:
        print('\tlong long %s;' % f)
    print('\tdouble discrepancy_ns, fps;\n};\n\nstatic const struct display_fixture fixtures[] = {')
    for name, rate, lat, base, over, n, first in SCHEDULES:
        (of, os), ons = next(iter(over.items())) if over else ((-1, 0), 0)
        for strict in (0, 1):
            frames = simulate(base, over, rate, lat, n, strict)
            r = account(frames, first, n, rate, lat, strict)
            vals = ', '.join(str(r[f]) for f in FIELDS)
            print('\t{ "%s", %d, %d, %d, %d, %d, { %d, %d }, %d, %d, %d, %d, %d,\n\t  %s,\n\t  %.6f, %.9f },'
                  % (name, rate.numerator, rate.denominator, lat, len(base), strict, base[0],
                     base[-1], of, os, ons, n, first, vals, r['discrepancy'], r['fps']))
    print('};')


if __name__ == '__main__':
    main()
