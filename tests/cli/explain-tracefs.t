#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain-tracefs.t - explain.t's known answers (the FIFO hog, the loopback
# flood, lower-priority kernel work, ...) on the tracefs recorder, forced
# with LJ_EXPLAIN_RECORDER: the fallback where the BPF recorder cannot load
# (a kernel without BTF) gives the same explanations.
LJ_EXPLAIN_RECORDER=tracefs exec bash "$(dirname "$0")/explain.t" "$@"
