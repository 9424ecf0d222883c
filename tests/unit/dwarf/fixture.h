/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef UT_FIXTURE_H
#define UT_FIXTURE_H

struct ut_header {
	unsigned short port;
	void *owner;
};

#endif
