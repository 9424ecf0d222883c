// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/read_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ll_open_regular(const char *path, int *why)
{
	/* O_NONBLOCK: opening a FIFO with no writer must not wait for one. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;

	if (fd < 0) {
		*why = errno;
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*why = S_ISREG(st.st_mode) ? errno : LL_READ_NOT_REGULAR;
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int ll_read_regular(const char *path, size_t max, struct strbuf *out, int *why)
{
	char buf[65536];
	size_t total = 0;
	int fd = ll_open_regular(path, why);

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*why = errno;
			break;
		}
		if (n == 0) {
			close(fd);
			return 0;
		}
		/* A file may grow while it is read: the bound holds all the same. */
		if ((size_t)n > max - total) {
			*why = LL_READ_TOO_LARGE;
			break;
		}
		sb_add(out, buf, (size_t)n);
		total += (size_t)n;
	}
	close(fd);
	return -1;
}

const char *ll_read_error_text(int why, size_t max)
{
	static char text[96];

	if (why == LL_READ_NOT_REGULAR)
		return "not a regular file (a FIFO, device or directory is never read)";
	if (why == LL_READ_TOO_LARGE) {
		snprintf(text, sizeof(text), "larger than %zu MiB, more than any such file holds",
			 max >> 20);
		return text;
	}
	return strerror(why);
}

size_t ll_pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (r <= 0) {
			if (r == 0)
				errno = 0;
			break;
		}
		done += (size_t)r;
	}
	return done;
}
