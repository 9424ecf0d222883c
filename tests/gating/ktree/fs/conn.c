// SPDX-License-Identifier: GPL-2.0-or-later
#include <linux/conn.h>

struct conn conn_instance;
