// SPDX-License-Identifier: GPL-2.0-or-later
/* The cache directory: creation and its size bound (cache_dir.h). */
#include "util/cache_dir.h"
#include "util/tuning.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"

int ll_mkdir_p(const char *dir)
{
	struct strbuf buf = STRBUF_INIT;
	int rc = 0;

	sb_adds(&buf, dir);
	for (char *p = buf.buf + 1; *p && !rc; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf.buf, 0755) != 0 && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	if (!rc && mkdir(buf.buf, 0755) != 0 && errno != EEXIST)
		rc = -1;
	sb_release(&buf);
	return rc;
}

static const char *distrust(const struct stat *st, const char *what_dir, const char *what_file,
			     bool dir)
{
	if (st->st_uid != geteuid())
		return dir ? what_dir : what_file;
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return dir ? "its directory is writable by other users" :
			     "it is writable by other users";
	return NULL;
}

const char *ll_cache_dir_distrust(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return "its directory cannot be read";
	return distrust(&st, "its directory belongs to another user", NULL, true);
}

const char *ll_cache_file_distrust(const struct stat *st)
{
	return distrust(st, NULL, "it belongs to another user", false);
}

uint64_t ll_cache_max_bytes(void)
{
	return ll_tuning()->cache_max_bytes;
}

struct cached_file {
	char *name;
	uint64_t size;
	int64_t sec, nsec;
	bool keep;
};

static bool cache_file_name(const char *name)
{
	size_t n = strlen(name);

	return (n > 6 && strcmp(name + n - 6, ".index") == 0) ||
	       (n > 6 && strcmp(name + n - 6, ".names") == 0) ||
	       (n > 5 && strcmp(name + n - 5, ".vars") == 0) ||
	       (n > 7 && strcmp(name + n - 7, ".access") == 0);
}

/* Oldest first; the file to keep after every other. */
static int cmp_lru(const void *a, const void *b)
{
	const struct cached_file *x = a, *y = b;

	if (x->keep != y->keep)
		return x->keep ? 1 : -1;
	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->nsec != y->nsec)
		return x->nsec < y->nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

void ll_cache_trim(const char *dir, uint64_t max_bytes, const char *keep)
{
	const char *keep_base = keep ? strrchr(keep, '/') : NULL;
	struct cached_file *files = NULL;
	size_t n = 0;
	uint64_t total = 0;
	struct dirent *de;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	keep_base = keep_base ? keep_base + 1 : keep;
	while ((de = readdir(d))) {
		struct stat st;

		if (!cache_file_name(de->d_name) ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		files = xgrow(files, n, sizeof(*files));
		files[n++] = (struct cached_file){
			.name = xstrdup(de->d_name), .size = (uint64_t)st.st_size,
			.sec = st.st_mtim.tv_sec, .nsec = st.st_mtim.tv_nsec,
			.keep = keep_base && strcmp(de->d_name, keep_base) == 0,
		};
		total += (uint64_t)st.st_size;
	}
	if (n)
		qsort(files, n, sizeof(*files), cmp_lru);
	for (size_t i = 0; i < n && total > max_bytes; i++)
		if (unlinkat(dfd, files[i].name, 0) == 0)
			total -= files[i].size;
	for (size_t i = 0; i < n; i++)
		free(files[i].name);
	free(files);
	closedir(d);
}

int ll_cache_open(const char *dir, const char *path, int *fd, struct stat *st, const char **why)
{
	*why = NULL;
	*fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0) {
		if (errno == ENOENT)
			return 1;
		*why = errno == ELOOP ? "it is a symbolic link" : strerror(errno);
		return -1;
	}
	if (fstat(*fd, st) != 0 || !S_ISREG(st->st_mode))
		*why = "not a regular file";
	/* Another user's, or one another user could have written: a forgery passes its checksums. */
	else if (!(*why = ll_cache_dir_distrust(dir)))
		*why = ll_cache_file_distrust(st);
	if (!*why)
		return 0;
	close(*fd);
	*fd = -1;
	return -1;
}

int ll_cache_refusal(char **note, const char *what, const char *path, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "ignoring %s %s: %s", what, path, why);
	*note = sb_detach(&sb);
	return -1;
}

bool ll_cache_replace(const char *dir, const char *path, const struct ll_cache_part *parts,
		      size_t n)
{
	struct strbuf tmp = STRBUF_INIT;
	bool written = false, ok = true;
	int fd;

	if (ll_mkdir_p(dir) != 0 || ll_cache_dir_distrust(dir))
		return false;
	sb_addf(&tmp, "%s.XXXXXX", path);
	if ((fd = mkstemp(tmp.buf)) >= 0) {
		for (size_t i = 0; i < n && ok; i++)
			ok = !parts[i].len || write(fd, parts[i].data, parts[i].len) ==
					      (ssize_t)parts[i].len;
		if (close(fd) != 0 || !ok || rename(tmp.buf, path) != 0)
			unlink(tmp.buf);
		else
			written = true;
	}
	if (written)
		ll_cache_trim(dir, ll_cache_max_bytes(), path);
	sb_release(&tmp);
	return written;
}
