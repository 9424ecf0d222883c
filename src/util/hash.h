/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FNV-1a, the one hash of bytes: fingerprints of findings, layout
 * signatures of same-named definitions, and name-keyed tables. Cheap,
 * stable across runs and hosts (fingerprints are written to baselines and
 * SARIF, so this must never change), and good enough to tell apart what it
 * is asked to. Inline because the DWARF scan hashes every member it meets.
 */
#ifndef LAYOUTLINT_HASH_H
#define LAYOUTLINT_HASH_H

#include <stddef.h>
#include <stdint.h>

#define LL_FNV_INIT 0xcbf29ce484222325ULL
#define LL_FNV_PRIME 0x100000001b3ULL

static inline uint64_t ll_fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= LL_FNV_PRIME;
	}
	return h;
}

/* The bytes of S, without its terminator. */
static inline uint64_t ll_fnv1a_str(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= LL_FNV_PRIME;
	}
	return h;
}

/*
 * The one hash of an integer key (a DIE or string offset, a search
 * state's parts): SplitMix64's finalizer, every input bit moving every
 * output bit, so that a table's mask may take the low bits of offsets
 * that are all multiples of small powers of two. Stable as FNV is: the
 * suggestion search orders its ties by it.
 */
static inline uint64_t ll_hash_u64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif
