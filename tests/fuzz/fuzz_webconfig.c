// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the web configuration reader on arbitrary bytes.
 * Invariants: no crash; a refusal says why; what it accepts is whole: TLS
 * has a certificate and a key, the versions are in order, a verifying
 * client_auth_type has its CA file, every user has a bcrypt-shaped hash
 * and a name without ':' and every string ends inside its buffer.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "net/webconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void bounded(const char *s, size_t sz)
{
	if (!memchr(s, '\0', sz))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ft_webconfig wc;
	char why[256];
	int i;

	if (ft_webconfig_parse((const char *)data, size, &wc, why, sizeof(why))) {
		if (!why[0])
			__builtin_trap();
		return 0;
	}
	bounded(wc.cert_file, sizeof(wc.cert_file));
	bounded(wc.key_file, sizeof(wc.key_file));
	bounded(wc.client_ca_file, sizeof(wc.client_ca_file));
	if (wc.tls && (!wc.cert_file[0] || !wc.key_file[0]))
		__builtin_trap();
	if (wc.min_version < FT_TLS10 || wc.max_version > FT_TLS13 ||
	    wc.min_version > wc.max_version)
		__builtin_trap();
	if ((wc.client_auth == FT_CLIENT_VERIFY_IF_GIVEN ||
	     wc.client_auth == FT_CLIENT_REQUIRE_VERIFY) &&
	    !wc.client_ca_file[0])
		__builtin_trap();
	if (wc.nr_users < 0 || wc.nr_users > FT_WEB_MAX_USERS)
		__builtin_trap();
	for (i = 0; i < wc.nr_users; i++) {
		bounded(wc.users[i].name, sizeof(wc.users[i].name));
		bounded(wc.users[i].hash, sizeof(wc.users[i].hash));
		if (strlen(wc.users[i].hash) != 60 || strncmp(wc.users[i].hash, "$2", 2) ||
		    strchr(wc.users[i].name, ':') || wc.users[i].line < 1)
			__builtin_trap();
	}
	return 0;
}
