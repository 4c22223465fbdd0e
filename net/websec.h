/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exporter's --web.config.file put to work: an OpenSSL server context
 * for TLS (Debian's libssl) and basic auth against bcrypt hashes
 * (libcrypt's crypt_r); no hand-written crypto.  Both libraries are
 * loaded here, when the file asks for them (net/tlslib.h).  A good password is
 * remembered (its SHA-256 beside the user), as exporter-toolkit caches
 * them, so a scrape every 15 s pays for bcrypt once, not every time.
 *
 * bcrypt runs off the exporter's serving loop, on a thread of its own: a
 * request whose password is not cached is queued (at most
 * FT_WEBSEC_QUEUE at once, FT_WEBSEC_PER_PEER from one address), its
 * connection waits, and the loop goes on answering the others; the
 * verdict comes back through an eventfd.  A refusal is given no sooner
 * than a check at the highest cost of the file takes (an unknown name is
 * checked against a hash of that cost), so timing does not tell which
 * names exist.
 */
#ifndef FT_NET_WEBSEC_H
#define FT_NET_WEBSEC_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "net/httpreq.h"
#include "net/webconfig.h"

#define FT_WEBSEC_CACHE 16
#define FT_WEBSEC_QUEUE 8	/* password checks waiting or running */
#define FT_WEBSEC_PER_PEER 2	/* ... of them for one client address */

/* What ft_websec_check() says of a request. */
enum ft_auth {
	FT_AUTH_OK,		/* answer it */
	FT_AUTH_DENIED,		/* 401 */
	FT_AUTH_PENDING,	/* being checked: ft_websec_result() gives the verdict */
	FT_AUTH_BUSY,		/* the queue is full: 503 */
	FT_AUTH_LIMIT,		/* its address has FT_WEBSEC_PER_PEER checks in flight: 429 */
};

/* A password check handed to the thread. */
struct ft_websec_job {
	enum { FT_JOB_FREE, FT_JOB_QUEUED, FT_JOB_RUNNING, FT_JOB_DONE } state;
	bool cancelled;			/* its connection is gone: the verdict is dropped */
	bool ok;
	uint64_t ticket;
	uint64_t started_ns;		/* when bcrypt began on it */
	int user;			/* index in wc.users, -1: an unknown name */
	unsigned char peer[16];
	unsigned char key[32];		/* SHA-256 of the password, for the cache */
	bool keyed;
	char pass[256];
};

struct crypt_data;

struct ft_websec {
	struct ft_webconfig wc;
	SSL_CTX *ctx;			/* NULL: plain HTTP */
	struct crypt_data *cd;		/* crypt_r()'s work area (about 32 KiB) */
	char dummy_hash[128];		/* what an unknown user's password is checked against */
	int max_cost;			/* the highest cost of the file's hashes (the dummy's) */
	struct {
		int user;		/* index in wc.users, -1: empty */
		unsigned char key[32];	/* SHA-256 of the password */
	} cache[FT_WEBSEC_CACHE];
	int cache_next;
	/* the checking thread, and what it shares with the loop (under mu) */
	pthread_t thread;
	bool started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool quit, gone;
	int efd;			/* eventfd: readable when a verdict is in */
	/* a check at max_cost takes this long: refusals wait for it */
	uint64_t refuse_ns;
	uint64_t next_ticket;
	struct ft_websec_job jobs[FT_WEBSEC_QUEUE];
};

/*
 * Read @path and set up what it asks for.  0, or -1 after printing
 * "fragtop: PATH: line N: why" (a certificate or key that does not load
 * names its line).
 */
int ft_websec_load(struct ft_websec *ws, const char *path);

/*
 * May @r be answered?  At once when there are no users, it has no basic
 * auth, or its password is cached; else its check is queued for @peer
 * (FT_AUTH_PENDING, *@ticket set) or cannot be (BUSY, LIMIT).
 */
enum ft_auth ft_websec_check(struct ft_websec *ws, const struct ft_http_req *r,
			     const unsigned char peer[16],
			     uint64_t *ticket);

/* What poll() waits on for verdicts (-1: no users, no thread). */
int ft_websec_fd(const struct ft_websec *ws);

/*
 * A verdict that is in: true with its @ticket, @ok, and (refused) @due_ns,
 * the time before which the 401 is not to be sent; false: none.  Call it
 * until false once ft_websec_fd() is readable.
 */
bool ft_websec_result(struct ft_websec *ws, uint64_t *ticket, bool *ok, uint64_t *due_ns);

/* The connection of @ticket is gone: a check not begun is dropped, a running one's verdict too. */
void ft_websec_cancel(struct ft_websec *ws, uint64_t ticket);

/*
 * Stop the thread and free.  Prompt: a check still running (up to a
 * second at FT_WEB_MAX_COST) is left to end with the process.
 */
void ft_websec_free(struct ft_websec *ws);

#endif
