// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/hostport.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ft_hostport_parse(const char *arg, struct ft_hostport *hp, char *why, size_t sz)
{
	char host[INET6_ADDRSTRLEN] = "127.0.0.1";
	const char *port = arg, *h = NULL;
	size_t hlen = 0;
	bool v6 = false;
	char *end;
	long p;

	if (arg[0] == '[') {	/* [ADDR6]:PORT */
		const char *close = strchr(arg, ']');

		if (!close || close[1] != ':') {
			snprintf(why, sz,
				 "is not [ADDR]:PORT (an IPv6 address in brackets, then :PORT)");
			return -1;
		}
		h = arg + 1;
		hlen = (size_t)(close - h);
		port = close + 2;
		v6 = true;
	} else if (strchr(arg, ':')) {	/* ADDR:PORT or :PORT */
		const char *colon = strrchr(arg, ':');

		if (strchr(arg, ':') != colon) {
			snprintf(why, sz, "is an IPv6 address without brackets: write [ADDR]:PORT");
			return -1;
		}
		h = arg;
		hlen = (size_t)(colon - arg);
		port = colon + 1;
	}
	p = strtol(port, &end, 10);
	if (end == port || *end || p < 1 || p > 65535 || *port == '-' || *port == '+' ||
	    *port == ' ') {
		snprintf(why, sz, "has no port from 1 to 65535: ADDR:PORT, [ADDR]:PORT or PORT");
		return -1;
	}
	if (h && hlen) {
		if (hlen >= sizeof(host)) {
			snprintf(why, sz, "has an address too long to be one");
			return -1;
		}
		memcpy(host, h, hlen);
		host[hlen] = '\0';
	} else if (v6) {
		snprintf(why, sz, "has empty brackets: [::] is every IPv6 address, [::1] loopback");
		return -1;
	}
	memset(hp, 0, sizeof(*hp));
	if (v6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&hp->sa;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)p);
		if (inet_pton(AF_INET6, host, &s6->sin6_addr) != 1) {
			snprintf(why, sz, "has no numeric IPv6 address in the brackets");
			return -1;
		}
		hp->len = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&hp->sa;

		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)p);
		if (inet_pton(AF_INET, host, &s4->sin_addr) != 1) {
			snprintf(why, sz, "has no numeric IPv4 address (a name is not looked up; "
				 "IPv6 goes in brackets)");
			return -1;
		}
		hp->len = sizeof(*s4);
	}
	return 0;
}

void ft_hostport_format(const struct ft_hostport *hp, char *buf, size_t sz)
{
	char addr[INET6_ADDRSTRLEN] = "?";

	if (hp->sa.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&hp->sa;

		inet_ntop(AF_INET6, &s6->sin6_addr, addr, sizeof(addr));
		snprintf(buf, sz, "[%s]:%u", addr, (unsigned int)ntohs(s6->sin6_port));
	} else {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)&hp->sa;

		inet_ntop(AF_INET, &s4->sin_addr, addr, sizeof(addr));
		snprintf(buf, sz, "%s:%u", addr, (unsigned int)ntohs(s4->sin_port));
	}
}

bool ft_hostport_loopback(const struct ft_hostport *hp)
{
	if (hp->sa.ss_family == AF_INET6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)&hp->sa)->sin6_addr;

		return IN6_IS_ADDR_LOOPBACK(a) ||
		(IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
	}
	return (ntohl(((const struct sockaddr_in *)&hp->sa)->sin_addr.s_addr) >> 24) == 127;
}
