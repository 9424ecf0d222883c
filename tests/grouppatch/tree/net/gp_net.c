/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fixture: a struct no check function names. */
#include "gp_kernel.h"
#include "net/gp_sock.h"

struct gp_net net_instance;

long gp_net_hits(const struct gp_net *n)
{
	return n->hits;
}
