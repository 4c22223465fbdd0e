#!/bin/bash
# The exporter's --web.config.file: TLS and basic auth as Prometheus's
# exporters take them.  With a CA, a server and a client certificate made
# here (openssl) and a bcrypt hash (libcrypt, through perl's crypt):
# a real Prometheus scrapes over TLS with basic auth (its tls_config and
# basic_auth), and a job with a wrong password is down; curl without or
# with a wrong password gets 401 and WWW-Authenticate; plain HTTP to the
# TLS port gets a plain 400 and the server goes on; client certificates
# (RequireAndVerifyClientCert) are required and verified; min_version is
# held; TLS over IPv6; no warning beyond loopback with TLS and auth; bad
# files are refused at start with the line that is wrong.  On a fixture
# tree, so no root is needed.
# usage: exporter-tls.sh FRAGTOP_BINARY
set -u
. "$(dirname "$0")/../lib.sh"
FT=$(realpath "${1:-./fragtop}")
ROOT=$(realpath tests/fixtures/6.18-idle)
for t in openssl curl perl; do
	command -v $t > /dev/null || skip_all "exporter TLS: needs openssl, curl and perl ($t missing)"
done
tmp=$(mktemp -d)
# below the ephemeral range (32768-60999): a client's port cannot take them
PORT=$(test_port); PPORT=$((PORT + 1))
cleanup() {
	[ "$BASHPID" = "$$" ] || return 0	# a forked copy of this shell signalled: not ours to clean
	stop_exporter
	prom_stop
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1

# a CA, a server certificate for localhost, 127.0.0.1 and ::1, a client certificate
ec="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
{
	openssl req -x509 $ec -keyout ca.key -out ca.crt -days 2 -subj /CN=fragtop-test-ca &&
	openssl req $ec -keyout server.key -out server.csr -subj /CN=localhost &&
	printf 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n' > server.ext &&
	openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 \
		-extfile server.ext &&
	openssl req $ec -keyout client.key -out client.csr -subj /CN=prometheus &&
	openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out client.crt -days 2 &&
	openssl req -x509 $ec -keyout other.key -out other.crt -days 2 -subj /CN=not-our-ca
} > openssl.log 2>&1 || { cat openssl.log; echo "FAIL making the certificates"; exit 1; }
# bcrypt, cost 10, of "s3cret" (libcrypt's crypt through perl; a fixed salt is enough here)
hash=$(perl -e 'print crypt($ARGV[0], $ARGV[1])' s3cret '$2b$10$abcdefghijklmnopqrstuu')
check "a bcrypt hash to test with" test "${#hash}" = 60
cat > web.yml <<YML
# TLS and basic auth, as node_exporter's --web.config.file
tls_server_config:
  cert_file: server.crt        # relative: beside this file
  key_file: $tmp/server.key
basic_auth_users:
  prometheus: '$hash'
YML

start() {	# ARGS...: an exporter on the fixture tree; waits for its first line
	# a fresh ex.err first: the last exporter's line must not pass for this one's, or
	# stop() signals the child before it is the exporter, still a copy of this shell
	rm -f ex.err
	"$FT" exporter --root "$ROOT" "$@" 2> ex.err & epid=$!
	until_ok 30 grep -q 'exporter on' ex.err
}
stop() { kill -TERM "$epid"; wait "$epid"; rc=$?; epid=; }
code() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@"; }

start --listen "127.0.0.1:$PORT" --web.config.file web.yml
check "says https:// and basic auth" grep -qF "exporter on https://127.0.0.1:$PORT/metrics (a sample per scrape, at most every 1s), basic auth" ex.err
check "TLS, the right password: 200" test "$(code --cacert ca.crt -u prometheus:s3cret "https://localhost:$PORT/metrics")" = 200
check "... a wrong password: 401" test "$(code --cacert ca.crt -u prometheus:wrong "https://localhost:$PORT/metrics")" = 401
check "... an unknown user: 401" test "$(code --cacert ca.crt -u root:s3cret "https://localhost:$PORT/metrics")" = 401
curl -s -D h401 -o /dev/null --cacert ca.crt "https://localhost:$PORT/"
check "... no credentials: 401 with WWW-Authenticate: Basic, on / too" \
	test -n "$(grep '^HTTP/1.1 401' h401)" -a -n "$(grep -i '^WWW-Authenticate: Basic' h401)"
curl -s --max-time 5 -o plain.txt "http://127.0.0.1:$PORT/metrics"; prc=$?
check "plain HTTP to the TLS port: told so in plain text, no metrics" \
	test "$prc" = 0 -a "$(cat plain.txt)" = "Client sent an HTTP request to an HTTPS server." -a -z "$(grep fragtop_ plain.txt)"
printf 'garbage\x16\x03\x01' | timeout 5 bash -c "cat > /dev/tcp/127.0.0.1/$PORT" 2> /dev/null
check "... and the server goes on" test "$(code --cacert ca.crt -u prometheus:s3cret "https://localhost:$PORT/metrics")" = 200
check "a certificate the client does not trust: the handshake fails" \
	test "$(code --cacert other.crt "https://localhost:$PORT/metrics")" = 000
curl -s --max-time 5 --cacert ca.crt -u prometheus:s3cret "https://localhost:$PORT/metrics" > m.txt
check "its own counters: 401s and failed handshakes" test \
	"$(sed -n 's/^fragtop_exporter_unauthorized_requests_total //p' m.txt)" -ge 3 -a \
	"$(sed -n 's/^fragtop_exporter_tls_handshake_failures_total //p' m.txt)" -ge 2
# a real Prometheus, over TLS with basic auth; a second job with a wrong password stays down
PROM=$(command -v prometheus || true)
if [ -n "$PROM" ] && command -v jq > /dev/null; then
	cat > prometheus.yml <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: fragtop-tls
    scheme: https
    tls_config:
      ca_file: $tmp/ca.crt
      server_name: localhost
    basic_auth:
      username: prometheus
      password: s3cret
    static_configs:
      - targets: ['127.0.0.1:$PORT']
  - job_name: fragtop-wrong-password
    scheme: https
    tls_config:
      ca_file: $tmp/ca.crt
      server_name: localhost
    basic_auth:
      username: prometheus
      password: guess
    static_configs:
      - targets: ['127.0.0.1:$PORT']
YML
	prom_start . "$PPORT"
	q() { prom_query "$1" | jq -r '.data.result[0].value[1] // "none"' 2>/dev/null; }
	scraped() { [ "$(q 'count_over_time(up{job="fragtop-tls"}[1m])')" -ge 3 ] 2> /dev/null &&
		[ "$(q 'count_over_time(up{job="fragtop-wrong-password"}[1m])')" -ge 3 ] 2> /dev/null; }
	until_ok 60 scraped || { echo "--- prometheus.log, last lines:"; tail -n 5 prometheus.log; }
	check "Prometheus scrapes over TLS with basic auth: up 1 ($(q 'count_over_time(up{job="fragtop-tls"}[1m])') scrapes)" \
		test "$(q 'min_over_time(up{job="fragtop-tls"}[1m])')" = 1
	check "... its samples arrive (fragtop_zone_free_bytes)" \
		test "$(q 'count(fragtop_zone_free_bytes{job="fragtop-tls"})')" -gt 0
	check "... and the job with a wrong password is down" \
		test "$(q 'max_over_time(up{job="fragtop-wrong-password"}[1m])')" = 0
	prom_stop
else
	skip "Prometheus over TLS: prometheus or jq not installed"
fi
stop
check "a clean stop" test $rc = 0

# client certificates, required and verified; TLS 1.3 only
cat > mtls.yml <<YML
tls_server_config:
  cert_file: server.crt
  key_file: server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.crt
  min_version: TLS13
YML
start --listen "127.0.0.1:$PORT" --web.config.file mtls.yml
check "RequireAndVerifyClientCert: with our client certificate, 200" \
	test "$(code --cacert ca.crt --cert client.crt --key client.key "https://localhost:$PORT/metrics")" = 200
check "... without one, refused" test "$(code --cacert ca.crt "https://localhost:$PORT/metrics")" = 000
check "... with one from another CA, refused" \
	test "$(code --cacert ca.crt --cert other.crt --key other.key "https://localhost:$PORT/metrics")" = 000
check "min_version TLS13: a TLS 1.2 client is refused" \
	test "$(code --cacert ca.crt --cert client.crt --key client.key --tls-max 1.2 "https://localhost:$PORT/metrics")" = 000
check "... and the server goes on" \
	test "$(code --cacert ca.crt --cert client.crt --key client.key "https://localhost:$PORT/metrics")" = 200
stop

# beyond loopback with both TLS and auth: no warning; IPv6 with TLS
start --listen "0.0.0.0:$PORT" --web.config.file web.yml
stop
check "0.0.0.0 with TLS and basic auth: no warning" test -z "$(grep warning ex.err)"
printf 'basic_auth_users:\n  prometheus: %s\n' "$hash" > auth-only.yml
start --listen "0.0.0.0:$PORT" --web.config.file auth-only.yml
stop
check "0.0.0.0 with basic auth but no TLS: warns that passwords cross in the clear" grep -q 'without TLS: passwords' ex.err
if grep -q '^0\{31\}1 ' /proc/net/if_inet6 2>/dev/null; then
	start --listen "[::1]:$PORT" --web.config.file web.yml
	check "TLS over IPv6 ([::1])" test "$(code -g --cacert ca.crt -u prometheus:s3cret "https://[::1]:$PORT/metrics")" = 200
	stop
fi

# refused at start, naming the line
refused() {	# NAME EXPECTED-TEXT: web config NAME.yml (written before) is refused with that text
	"$FT" exporter --root "$ROOT" --listen "127.0.0.1:$PORT" --web.config.file "$1.yml" > /dev/null 2> err; rc=$?
	check "refused: $1 (exit 1, '$2')" test $rc = 1 -a -n "$(grep -F -- "$2" err)"
}
printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: /nonexistent/server.key\n' > badkeypath.yml
refused badkeypath "badkeypath.yml: line 3: key_file /nonexistent/server.key: No such file or directory"
printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: client.key\n' > mismatch.yml
refused mismatch "mismatch.yml: line 3: key_file client.key: error:05800074:x509 certificate routines::key values mismatch"
printf 'tls_server_config:\n  cert_file: server.key\n  key_file: server.key\n' > notcert.yml
refused notcert "notcert.yml: line 2: cert_file"
printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_verison: TLS13\n' > typo.yml
refused typo "typo.yml: line 4: tls_server_config has no key 'min_verison'"
printf 'basic_auth_users:\n  prometheus: s3cret\n' > plainpass.yml
refused plainpass "plainpass.yml: line 2: user 'prometheus': not a bcrypt hash"
mkfifo fifo.yml
refused fifo "fifo.yml: not a regular file"
refused missing "missing.yml: No such file or directory"
echo "exporter-tls.sh: $fails failure(s)"
[ $fails -eq 0 ]
