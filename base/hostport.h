/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A listening address as an operator writes it, IPv4 or IPv6:
 * "ADDR:PORT", "[ADDR6]:PORT", ":PORT" or "PORT" (the address then
 * 127.0.0.1: loopback unless asked), as node_exporter's
 * --web.listen-address takes them.  Numeric only: a host name would make
 * the listener depend on the resolver at boot.
 */
#ifndef FT_BASE_HOSTPORT_H
#define FT_BASE_HOSTPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* room for ft_hostport_format(): "[" INET6_ADDRSTRLEN "]:65535" */
#define FT_HOSTPORT_MAX 56

struct ft_hostport {
	struct sockaddr_storage sa;	/* sockaddr_in or sockaddr_in6 */
	socklen_t len;
};

/* Parse @arg into @hp: 0, or -1 with the reason in @why. */
int ft_hostport_parse(const char *arg, struct ft_hostport *hp, char *why, size_t sz);

/* "127.0.0.1:9947" or "[::1]:9947": what a URL after http:// holds. */
void ft_hostport_format(const struct ft_hostport *hp, char *buf, size_t sz);

/* The address is this host only: 127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104. */
bool ft_hostport_loopback(const struct ft_hostport *hp);

#endif
