// SPDX-License-Identifier: GPL-2.0-or-later
/* test_why - lj_why and lj_why_err: the caller's buffer, optional, never overrun. */
#include <errno.h>
#include <string.h>

#include "lj_why.h"
#include "tap.h"

int main(void)
{
	char why[16], small[6];

	plan_no_plan();
	lj_why(why, sizeof(why), "CPU %d of %d", 7, 4);
	is_str(why, "CPU 7 of 4", "lj_why formats into the caller's buffer");
	is_int(lj_why_err(why, sizeof(why), -ERANGE, "out of range %d..%d", 1, 9), -ERANGE,
	       "lj_why_err returns the error it was given");
	is_str(why, "out of range 1.", "the phrase is cut to the buffer, NUL-terminated");
	memset(small, 'x', sizeof(small));
	lj_why(small, 1, "anything");
	is_str(small, "", "a one-byte buffer holds the terminator only");
	ok(small[1] == 'x', "nothing written past the length given");
	is_int(lj_why_err(NULL, 64, -EINVAL, "no buffer"), -EINVAL, "a NULL buffer: the error alone");
	memset(small, 'x', sizeof(small));
	is_int(lj_why_err(small, 0, -EIO, "no room"), -EIO, "a zero length: the error alone");
	ok(small[0] == 'x', "a zero length writes nothing");
	return done();
}
