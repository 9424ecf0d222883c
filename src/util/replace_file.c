// SPDX-License-Identifier: GPL-2.0-or-later
/* Replacing a named file in two steps (replace_file.h). */
#include "util/replace_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"

/*
 * What may be replaced at PATH: nothing (a new file) or a regular file;
 * *ST is the existing one's, whose mode and owner the replacement keeps.
 */
static int check_target(const char *path, const char *option, const char *what,
			struct stat *st, bool *exists, struct ll_error *err)
{
	*exists = false;
	if (lstat(path, st) != 0) {
		if (errno == ENOENT)
			return 0;
		return ll_fail(err, "%s: cannot write %s: %s", path, what, strerror(errno));
	}
	if (S_ISLNK(st->st_mode))
		return ll_fail(err, "%s: is a symbolic link; %s replaces only regular files (give "
			       "the path it points to)", path, option);
	if (!S_ISREG(st->st_mode))
		return ll_fail(err, "%s: not a regular file; %s replaces only regular files", path,
			       option);
	*exists = true;
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

int ll_file_prepare(const char *path, const char *option, const char *what, const char *data,
		    size_t len, struct ll_pending_file *pending, struct ll_error *err)
{
	struct strbuf tmp = STRBUF_INIT;
	struct stat st;
	bool exists;
	mode_t mask;
	int fd = -1, rc = -1;

	memset(pending, 0, sizeof(*pending));
	if (check_target(path, option, what, &st, &exists, err))
		return -1;
	/* mkstemp: O_EXCL, a fresh name in PATH's directory (rename stays atomic). */
	sb_addf(&tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		ll_fail(err, "%s: cannot write %s: %s", path, what, strerror(errno));
		goto out;
	}
	if (exists) {
		/* Best effort for the owner (root replacing a user's file); the mode always. */
		if (fchown(fd, st.st_uid, st.st_gid) != 0 && errno != EPERM)
			goto io_error;
		if (fchmod(fd, st.st_mode & 07777))
			goto io_error;
	} else {
		mask = umask(0);
		umask(mask);
		if (fchmod(fd, 0666 & ~mask))
			goto io_error;
	}
	if (write_all(fd, data, len) || fsync(fd))
		goto io_error;
	if (close(fd)) {
		fd = -1;
		goto io_error;
	}
	pending->path = xstrdup(path);
	pending->tmp = sb_detach(&tmp);
	pending->option = option;
	pending->what = what;
	rc = 0;
	goto out;
io_error:
	ll_fail(err, "%s: cannot write %s: %s", path, what, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp.buf);
out:
	sb_release(&tmp);
	return rc;
}

int ll_file_commit(struct ll_pending_file *pending, struct ll_error *err)
{
	struct stat st;
	bool exists;
	int rc = 0;

	if (!pending->tmp)
		return 0;
	/* Checked again: what is at PATH may have changed while the run went on. */
	if (check_target(pending->path, pending->option, pending->what, &st, &exists, err))
		rc = -1;
	else if (rename(pending->tmp, pending->path))
		rc = ll_fail(err, "%s: cannot write %s: %s", pending->path, pending->what,
			     strerror(errno));
	if (rc)
		unlink(pending->tmp);
	free(pending->tmp);
	free(pending->path);
	memset(pending, 0, sizeof(*pending));
	return rc;
}

void ll_file_abandon(struct ll_pending_file *pending)
{
	if (pending->tmp)
		unlink(pending->tmp);
	free(pending->tmp);
	free(pending->path);
	memset(pending, 0, sizeof(*pending));
}
