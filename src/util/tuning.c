// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/cache_dir.h"
#include "util/tuning.h"

static struct ll_tuning tuning = {
	.cache_max_bytes = (uint64_t)LL_CACHE_DEFAULT_MAX_MB << 20,
};

const struct ll_tuning *ll_tuning(void)
{
	return &tuning;
}

void ll_tuning_set(const struct ll_tuning *t)
{
	tuning = *t;
}
