/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef UT_FIXTURE_SUB_H
#define UT_FIXTURE_SUB_H

struct ut_sub {
	int s;
	char tail[5];
};

#endif
