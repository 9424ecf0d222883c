/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A variable another file declares, placed after globals.c's audit_refs:
 * the linker's neighbour, not the lock's own data (tests/globals/globals.c).
 */
HOT_SECTION int neighbour_flag = 1;
