/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fixture: a struct with a check function, as net/ipv4/tcp.c has tcp_struct_check(). */
#include "gp_kernel.h"
#include "net/gp_sock.h"

struct gp_sock sock_instance;

static void gp_sock_struct_check(void)
{
	BUILD_BUG_ON(sizeof(struct gp_sock) > 128);
}

int gp_sock_init(void)
{
	gp_sock_struct_check();
	return 0;
}

/* Both structs in one object, as a kernel object sees many. */
struct gp_net sock_net_instance;
