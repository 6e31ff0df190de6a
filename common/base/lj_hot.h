/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_hot - the section that holds the code a measuring thread runs while it measures. */
#ifndef LJ_HOT_H
#define LJ_HOT_H

/*
 * LJ_HOT puts a function in the section lj_hot_text, whose bounds the
 * linker names (__start_lj_hot_text, __stop_lj_hot_text). A tool whose
 * measuring thread runs only LJ_HOT code (and the C library functions it
 * calls once before measuring) asks the driver to prefault that section
 * instead of its whole image (lj_prefault_hot): lj-cyclic, which links
 * hwloc, json-c and the tracing libraries in statically, so their code
 * (start-up and reporting only) is mapped without being made resident.
 * Every function the loop calls out of line must carry it, and so must
 * each hook's late() and what it calls. GCC does not split a function
 * with a section of its own into hot and cold parts, so a function's
 * cold paths stay inside the section. Left out: -b's trace mark
 * (lj_explain_break and the tracing library's code), written once as the
 * run stops.
 */
#define LJ_HOT __attribute__((section("lj_hot_text")))

#endif
