// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A flood of empty connections, for the exporter's tests: RATE TCP
 * connects a second to 127.0.0.1:PORT, taken in turn from the source
 * addresses given (each in 127.0.0.0/8), that never send a byte.  Each
 * is closed when the server closes it, after 10 s, or when 512 are open
 * (the oldest).  Loopback only, and bounded: at most 5000 a second, for
 * at most 3600 s.  At the end it prints how many it opened, how many the
 * server closed and how many connects failed.
 *
 * usage: connflood PORT RATE SECS SRC_ADDR...
 * build: cc -O2 -o connflood tests/load/connflood.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "loadutil.h"

#define MAX_OPEN	512
#define HOLD_NS		(10ull * 1000000000ull)
#define MAX_SRC		16

int main(int argc, char **argv)
{
	static struct { int fd; uint64_t t0; } open_[MAX_OPEN];
	struct sockaddr_in dst = { .sin_family = AF_INET }, src[MAX_SRC];
	unsigned long opened = 0, server_closed = 0, failed = 0;
	uint64_t start, end, next, gap;
	int nsrc, i, n = 0, turn = 0;

	if (argc < 5) {
		fprintf(stderr, "usage: connflood PORT RATE SECS SRC_ADDR...\n");
		return 2;
	}
	dst.sin_port = htons((uint16_t)number("connflood", argv[1], 1, 65535, "PORT"));
	dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	gap = 1000000000ull / (uint64_t)number("connflood", argv[2], 1, 5000, "RATE");
	end = (uint64_t)number("connflood", argv[3], 1, 3600, "SECS") * 1000000000ull;
	nsrc = argc - 4 > MAX_SRC ? MAX_SRC : argc - 4;
	for (i = 0; i < nsrc; i++) {
		src[i] = (struct sockaddr_in){ .sin_family = AF_INET };
		if (inet_pton(AF_INET, argv[4 + i], &src[i].sin_addr) != 1 ||
		    (ntohl(src[i].sin_addr.s_addr) >> 24) != 127) {
			fprintf(stderr, "connflood: '%s' is not an address in 127.0.0.0/8\n",
				argv[4 + i]);
			return 2;
		}
	}
	for (i = 0; i < MAX_OPEN; i++)
		open_[i].fd = -1;
	start = next = now_ns();
	end += start;
	while (now_ns() < end) {
		struct pollfd pf[MAX_OPEN];
		int slot[MAX_OPEN], np = 0, ms;
		uint64_t t = now_ns();

		while (t >= next) {	/* the connects due by now */
			int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), k,
			old = 0;

			next += gap;
			if (fd < 0) {
				failed++;
				continue;
			}
			if (bind(fd, (struct sockaddr *)&src[turn], sizeof(src[turn])) < 0 ||
			    (connect(fd, (struct sockaddr *)&dst, sizeof(dst)) < 0 &&
			     errno != EINPROGRESS)) {
				close(fd);
				failed++;
				turn = (turn + 1) % nsrc;
				continue;
			}
			turn = (turn + 1) % nsrc;
			opened++;
			for (k = 0; k < MAX_OPEN && open_[k].fd >= 0; k++)
				if (open_[k].t0 < open_[old].t0)
					old = k;
			if (k == MAX_OPEN) {	/* full: the oldest goes */
				close(open_[old].fd);
				k = old;
			} else {
				n++;
			}
			open_[k].fd = fd;
			open_[k].t0 = t;
		}
		for (i = 0; i < MAX_OPEN; i++) {
			if (open_[i].fd < 0)
				continue;
			if (t - open_[i].t0 > HOLD_NS) {
				close(open_[i].fd);
				open_[i].fd = -1;
				n--;
				continue;
			}
			pf[np] = (struct pollfd){ .fd = open_[i].fd, .events = POLLIN };
			slot[np++] = i;
		}
		ms = (int)((next - t) / 1000000);
		if (poll(pf, (nfds_t)np, ms > 100 ? 100 : ms) < 0 && errno != EINTR)
			break;
		for (i = 0; i < np; i++) {
			char buf[4096];

			if (!pf[i].revents)
				continue;
			/*
			 * the server wrote (a 503) or closed: read what it said, close at its end
			 */
			if (read(pf[i].fd, buf, sizeof(buf)) > 0)
				continue;
			close(pf[i].fd);
			open_[slot[i]].fd = -1;
			n--;
			server_closed++;
		}
	}
	printf("opened %lu, closed by the server %lu, connects failed %lu, open at the end %d\n",
	       opened, server_closed, failed, n);
	return 0;
}
