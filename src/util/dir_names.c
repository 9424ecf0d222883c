// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/dir_names.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ll_dir_names(const char *path, char ***names, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *e;

	*names = NULL;
	*n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		*names = xgrow(*names, *n, sizeof(**names));
		(*names)[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof(**names), by_name);
	return 0;
}
