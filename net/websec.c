// SPDX-License-Identifier: GPL-2.0-or-later
#include "net/websec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "net/tlslib.h"

/* The file, whole: a regular file (a FIFO would hang the start) of a bounded size. */
static char *read_config(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "fragtop: %s: %s\n", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "fragtop: %s: not a regular file\n", path);
		goto out;
	}
	if (!(buf = malloc(FT_WEB_MAX_FILE + 2))) {
		fprintf(stderr, "fragtop: %s: %s\n", path, strerror(errno));
		goto out;
	}
	*len = 0;
	while ((n = read(fd, buf + *len, FT_WEB_MAX_FILE + 1 - *len)) > 0 &&
	       *len + (size_t)n <= FT_WEB_MAX_FILE)
		*len += (size_t)n;
	if (n > 0)
		*len += (size_t)n;	/* over the bound: the parser says so */
	if (n < 0) {
		fprintf(stderr, "fragtop: %s: %s\n", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

/* @file relative to the config's directory, as exporter-toolkit resolves it. */
static void resolve(const char *config, char *file, size_t sz)
{
	const char *slash = strrchr(config, '/');
	char tmp[FT_WEB_PATH_MAX * 2];

	if (file[0] == '/' || !slash)
		return;
	snprintf(tmp, sizeof(tmp), "%.*s/%s", (int)(slash - config), config, file);
	if (strlen(tmp) < sz)
		memcpy(file, tmp, strlen(tmp) + 1);
}

/* OpenSSL's reason for the last failure, in words. */
static const char *ssl_why(void)
{
	static char buf[256];
	/* the first: the cause, the later ones its callers */
	unsigned long e = sym_ERR_peek_error();

	if (!e)
		return "failed";
	sym_ERR_error_string_n(e, buf, sizeof(buf));
	sym_ERR_clear_error();
	return buf;
}

/* A file OpenSSL is to read: there, and a regular file (OpenSSL would block on a FIFO). */
static int usable(const char *config, int line, const char *key, const char *file)
{
	struct stat st;

	if (stat(file, &st)) {
		fprintf(stderr, "fragtop: %s: line %d: %s %s: %s\n", config, line, key, file,
			strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "fragtop: %s: line %d: %s %s: not a regular file\n", config, line,
			key, file);
		return -1;
	}
	return 0;
}

/* RequestClientCert and RequireAnyClientCert ask for a certificate but do not verify it. */
static int accept_any(int ok, X509_STORE_CTX *x)
{
	(void)ok;
	(void)x;
	return 1;
}

static int tls_setup(struct ft_websec *ws, const char *config)
{
	static const int versions[] = {
		[FT_TLS10] = TLS1_VERSION, [FT_TLS11] = TLS1_1_VERSION,
		[FT_TLS12] = TLS1_2_VERSION, [FT_TLS13] = TLS1_3_VERSION,
	};
	struct ft_webconfig *wc = &ws->wc;
	int mode = SSL_VERIFY_NONE;

	resolve(config, wc->cert_file, sizeof(wc->cert_file));
	resolve(config, wc->key_file, sizeof(wc->key_file));
	if (wc->client_ca_line)
		resolve(config, wc->client_ca_file, sizeof(wc->client_ca_file));
	if (usable(config, wc->cert_line, "cert_file", wc->cert_file) ||
	    usable(config, wc->key_line, "key_file", wc->key_file) ||
	    (wc->client_ca_line &&
	     usable(config, wc->client_ca_line, "client_ca_file", wc->client_ca_file)))
		return -1;
	if (!(ws->ctx = sym_SSL_CTX_new(sym_TLS_server_method()))) {
		fprintf(stderr, "fragtop: %s: TLS: %s\n", config, ssl_why());
		return -1;
	}
	sym_SSL_CTX_ctrl(ws->ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, versions[wc->min_version], NULL);
	sym_SSL_CTX_ctrl(ws->ctx, SSL_CTRL_SET_MAX_PROTO_VERSION, versions[wc->max_version], NULL);
	sym_SSL_CTX_set_options(ws->ctx, SSL_OP_NO_RENEGOTIATION |
			    (wc->prefer_server_ciphers ? SSL_OP_CIPHER_SERVER_PREFERENCE : 0));
	sym_SSL_CTX_ctrl(ws->ctx, SSL_CTRL_MODE,
			 SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, NULL);
	if (sym_SSL_CTX_use_certificate_chain_file(ws->ctx, wc->cert_file) != 1) {
		fprintf(stderr, "fragtop: %s: line %d: cert_file %s: %s\n", config, wc->cert_line,
			wc->cert_file,
			ssl_why());
		return -1;
	}
	if (sym_SSL_CTX_use_PrivateKey_file(ws->ctx, wc->key_file, SSL_FILETYPE_PEM) != 1) {
		fprintf(stderr, "fragtop: %s: line %d: key_file %s: %s\n", config, wc->key_line,
			wc->key_file,
			ssl_why());
		return -1;
	}
	if (sym_SSL_CTX_check_private_key(ws->ctx) != 1) {
		fprintf(stderr,
			"fragtop: %s: line %d: key_file %s is not the key of cert_file %s\n",
			config,
			wc->key_line, wc->key_file, wc->cert_file);
		return -1;
	}
	if (wc->client_ca_line) {
		STACK_OF(X509_NAME) *names = sym_SSL_load_client_CA_file(wc->client_ca_file);

		if (!names ||
		    sym_SSL_CTX_load_verify_locations(ws->ctx, wc->client_ca_file, NULL) != 1) {
			fprintf(stderr, "fragtop: %s: line %d: client_ca_file %s: %s\n", config,
				wc->client_ca_line,
				wc->client_ca_file, names ? ssl_why() : "no certificate in it");
			if (names)
				sym_OPENSSL_sk_pop_free((OPENSSL_STACK *)names,
							(void (*)(void *))sym_X509_NAME_free);
			return -1;
		}
		sym_SSL_CTX_set_client_CA_list(ws->ctx, names);
	}
	switch (wc->client_auth) {
	case FT_CLIENT_NONE: break;
	case FT_CLIENT_REQUEST: mode = SSL_VERIFY_PEER; break;
	case FT_CLIENT_REQUIRE_ANY: mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT; break;
	case FT_CLIENT_VERIFY_IF_GIVEN: mode = SSL_VERIFY_PEER; break;
	case FT_CLIENT_REQUIRE_VERIFY: mode = SSL_VERIFY_PEER |
		SSL_VERIFY_FAIL_IF_NO_PEER_CERT; break;
	}
	sym_SSL_CTX_set_verify(ws->ctx, mode, wc->client_auth == FT_CLIENT_REQUEST ||
			   wc->client_auth == FT_CLIENT_REQUIRE_ANY ? accept_any : NULL);
	return 0;
}

/*
 * A bcrypt hash at the highest cost of the file, for unknown names to be
 * checked against; how long it took is how long every refusal takes.
 */
static int dummy_setup(struct ft_websec *ws, const char *config)
{
	char salt[CRYPT_GENSALT_OUTPUT_SIZE];
	const char *d;
	uint64_t t0;
	int i, top = 0;

	for (i = 0; i < ws->wc.nr_users; i++)
		if (ws->wc.users[i].cost > ws->wc.users[top].cost)
			top = i;
	ws->max_cost = ws->wc.users[top].cost;
	if (!(ws->cd = calloc(1, sizeof(*ws->cd)))) {
		fprintf(stderr, "fragtop: %s: %s\n", config, strerror(errno));
		return -1;
	}
	t0 = ft_now_ns();
	if (!sym_crypt_gensalt_rn("$2b$", (unsigned long)ws->max_cost, NULL, 0, salt,
				  sizeof(salt)) ||
	    !(d = sym_crypt_r("fragtop", salt, ws->cd)) || d[0] == '*') {
		fprintf(stderr, "fragtop: %s: line %d: libcrypt cannot check bcrypt hashes here\n",
			config,
			ws->wc.users[top].line);
		return -1;
	}
	ws->refuse_ns = ft_now_ns() - t0;
	snprintf(ws->dummy_hash, sizeof(ws->dummy_hash), "%s", d);
	return 0;
}

/* The oldest queued job, or NULL.  Under mu. */
static struct ft_websec_job *next_job(struct ft_websec *ws)
{
	struct ft_websec_job *best = NULL;
	int i;

	for (i = 0; i < FT_WEBSEC_QUEUE; i++)
		if (ws->jobs[i].state == FT_JOB_QUEUED &&
		    (!best || ws->jobs[i].ticket < best->ticket))
			best = &ws->jobs[i];
	return best;
}

/* The checking thread: one bcrypt at a time, the verdict to the loop through efd. */
static void *checker(void *arg)
{
	struct ft_websec *ws = arg;
	struct ft_websec_job *j;
	char pass[sizeof(j->pass)];
	const char *hash, *h;
	uint64_t t0, one = 1;
	bool ok;
	int cost, user;

	pthread_mutex_lock(&ws->mu);
	while (!ws->quit) {
		if (!(j = next_job(ws))) {
			pthread_cond_wait(&ws->cv, &ws->mu);
			continue;
		}
		j->state = FT_JOB_RUNNING;
		memcpy(pass, j->pass, sizeof(pass));
		explicit_bzero(j->pass, sizeof(j->pass));
		user = j->user;
		hash = user >= 0 ? ws->wc.users[user].hash : ws->dummy_hash;
		cost = user >= 0 ? ws->wc.users[user].cost : ws->max_cost;
		j->started_ns = t0 = ft_now_ns();
		pthread_mutex_unlock(&ws->mu);

		h = sym_crypt_r(pass, hash, ws->cd);
		ok = user >= 0 && h && strlen(h) == strlen(hash) &&
		!sym_CRYPTO_memcmp(h, hash, strlen(hash));
		explicit_bzero(pass, sizeof(pass));

		pthread_mutex_lock(&ws->mu);
		if (cost == ws->max_cost)	/* the machine's pace now: refusals follow it */
			ws->refuse_ns = ft_now_ns() - t0;
		j->ok = ok;
		j->state = FT_JOB_DONE;
		if (write(ws->efd, &one, sizeof(one)) < 0) {
			/* the counter is full: it is readable anyway */
		}
	}
	ws->gone = true;
	pthread_cond_broadcast(&ws->cv);
	pthread_mutex_unlock(&ws->mu);
	return NULL;
}

static int checker_start(struct ft_websec *ws, const char *config)
{
	int err;

	ws->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ws->efd < 0) {
		fprintf(stderr, "fragtop: %s: eventfd: %s\n", config, strerror(errno));
		return -1;
	}
	pthread_mutex_init(&ws->mu, NULL);
	pthread_cond_init(&ws->cv, NULL);
	err = pthread_create(&ws->thread, NULL, checker, ws);
	if (err) {
		fprintf(stderr, "fragtop: %s: cannot start the password checker: %s\n", config,
			strerror(err));
		return -1;
	}
	ws->started = true;
	return 0;
}

int ft_websec_load(struct ft_websec *ws, const char *path)
{
	char why[512];
	size_t len = 0;
	char *text = read_config(path, &len);
	int i, err;

	memset(ws, 0, sizeof(*ws));
	ws->efd = -1;
	for (i = 0; i < FT_WEBSEC_CACHE; i++)
		ws->cache[i].user = -1;
	if (!text)
		return -1;
	err = ft_webconfig_parse(text, len, &ws->wc, why, sizeof(why));
	free(text);
	if (err) {
		fprintf(stderr, "fragtop: %s: %s\n", path, why);
		return -1;
	}
	/* the libraries only now, and only what the file asks for (net/tlslib.h) */
	if ((ws->wc.tls && ft_tlslib_ssl(why, sizeof(why))) ||
	    (ws->wc.nr_users &&
	     (ft_tlslib_crypto(why, sizeof(why)) || ft_tlslib_crypt(why, sizeof(why))))) {
		fprintf(stderr, "fragtop: %s: %s\n", path, why);
		return -1;
	}
	if ((ws->wc.tls && tls_setup(ws, path)) ||
	    (ws->wc.nr_users && (dummy_setup(ws, path) || checker_start(ws, path)))) {
		ft_websec_free(ws);
		return -1;
	}
	return 0;
}

/* The cached entry for @user's password of SHA-256 @key: true when there is one. */
static bool cached(const struct ft_websec *ws, int user, const unsigned char key[32])
{
	int i;

	for (i = 0; i < FT_WEBSEC_CACHE; i++)
		if (ws->cache[i].user == user && !sym_CRYPTO_memcmp(ws->cache[i].key, key, 32))
			return true;
	return false;
}

enum ft_auth ft_websec_check(struct ft_websec *ws, const struct ft_http_req *r,
			     const unsigned char peer[16],
			     uint64_t *ticket)
{
	const struct ft_web_user *u;
	struct ft_websec_job *j = NULL;
	unsigned char key[32];
	unsigned int klen = 0;
	int i, same = 0, idx;

	if (!ws->wc.nr_users)
		return FT_AUTH_OK;
	if (r->auth != FT_HTTP_AUTH_BASIC)
		return FT_AUTH_DENIED;
	u = ft_webconfig_user(&ws->wc, r->user);
	idx = u ? (int)(u - ws->wc.users) : -1;
	if (sym_EVP_Digest(r->pass, strlen(r->pass), key, &klen, sym_EVP_sha256(), NULL) != 1 ||
	    klen != sizeof(key))
		klen = 0;
	if (u && klen && cached(ws, idx, key))
		return FT_AUTH_OK;
	pthread_mutex_lock(&ws->mu);
	for (i = 0; i < FT_WEBSEC_QUEUE; i++) {
		if (ws->jobs[i].state == FT_JOB_FREE) {
			if (!j)
				j = &ws->jobs[i];
		} else {	/* a cancelled one still running counts: its CPU is being spent */
			same += !memcmp(ws->jobs[i].peer, peer, 16);
		}
	}
	if (same >= FT_WEBSEC_PER_PEER || !j) {
		pthread_mutex_unlock(&ws->mu);
		return same >= FT_WEBSEC_PER_PEER ? FT_AUTH_LIMIT : FT_AUTH_BUSY;
	}
	*j = (struct ft_websec_job){ .state = FT_JOB_QUEUED, .ticket = ++ws->next_ticket,
				     .user = idx, .keyed = klen != 0 };
	memcpy(j->peer, peer, 16);
	memcpy(j->key, key, sizeof(key));
	snprintf(j->pass, sizeof(j->pass), "%s", r->pass);
	*ticket = j->ticket;
	pthread_cond_signal(&ws->cv);
	pthread_mutex_unlock(&ws->mu);
	return FT_AUTH_PENDING;
}

int ft_websec_fd(const struct ft_websec *ws)
{
	return ws->started ? ws->efd : -1;
}

bool ft_websec_result(struct ft_websec *ws, uint64_t *ticket, bool *ok, uint64_t *due_ns)
{
	uint64_t n;
	int i;

	if (!ws->started)
		return false;
	if (read(ws->efd, &n, sizeof(n)) < 0) {
		/* nothing counted since the last read: the jobs say what is done */
	}
	pthread_mutex_lock(&ws->mu);
	for (i = 0; i < FT_WEBSEC_QUEUE; i++) {
		struct ft_websec_job *j = &ws->jobs[i];

		if (j->state != FT_JOB_DONE)
			continue;
		j->state = FT_JOB_FREE;
		if (j->cancelled)
			continue;
		*ticket = j->ticket;
		*ok = j->ok;
		*due_ns = j->ok ? 0 : j->started_ns + ws->refuse_ns;
		/* remembered: the next scrape is not checked again */
		if (j->ok && j->keyed) {
			ws->cache[ws->cache_next].user = j->user;
			memcpy(ws->cache[ws->cache_next].key, j->key, sizeof(j->key));
			ws->cache_next = (ws->cache_next + 1) % FT_WEBSEC_CACHE;
		}
		explicit_bzero(j->key, sizeof(j->key));
		pthread_mutex_unlock(&ws->mu);
		return true;
	}
	pthread_mutex_unlock(&ws->mu);
	return false;
}

void ft_websec_cancel(struct ft_websec *ws, uint64_t ticket)
{
	int i;

	if (!ws->started || !ticket)
		return;
	pthread_mutex_lock(&ws->mu);
	for (i = 0; i < FT_WEBSEC_QUEUE; i++) {
		struct ft_websec_job *j = &ws->jobs[i];

		if (j->state == FT_JOB_FREE || j->ticket != ticket)
			continue;
		if (j->state == FT_JOB_QUEUED) {
			explicit_bzero(j, sizeof(*j));	/* not begun: dropped */
			j->state = FT_JOB_FREE;
		} else {
			j->cancelled = true;
		}
	}
	pthread_mutex_unlock(&ws->mu);
}

/* How long ft_websec_free() waits for the thread to see it is told to stop. */
#define QUIT_WAIT_NS	(200ull * 1000000ull)

/*
 * Tell the thread to stop; false if it is still in bcrypt after QUIT_WAIT_NS (then it is detached).
 */
static bool checker_stop(struct ft_websec *ws)
{
	struct timespec until;
	bool gone;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += (long)QUIT_WAIT_NS;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&ws->mu);
	ws->quit = true;
	pthread_cond_broadcast(&ws->cv);
	while (!ws->gone && pthread_cond_timedwait(&ws->cv, &ws->mu, &until) == 0)
		;
	gone = ws->gone;
	pthread_mutex_unlock(&ws->mu);
	if (gone)
		pthread_join(ws->thread, NULL);
	else
		pthread_detach(ws->thread);
	ws->started = false;
	return gone;
}

void ft_websec_free(struct ft_websec *ws)
{
	if (ws->ctx)
		sym_SSL_CTX_free(ws->ctx);
	ws->ctx = NULL;
	/* a thread still in bcrypt keeps its work area and eventfd: both end with the process */
	if (ws->started && !checker_stop(ws)) {
		ws->cd = NULL;
		ws->efd = -1;
		return;
	}
	if (ws->efd >= 0)
		close(ws->efd);
	ws->efd = -1;
	free(ws->cd);
	ws->cd = NULL;
}
