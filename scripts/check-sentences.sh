#!/bin/sh
# A document's sentences are short enough to read aloud: none in FILE
# (markdown prose: not code blocks, tables, headings or indented code) is
# over MAX words, a code span counting as one.  A sentence ends at . ! ?
# : or ; before a word that starts with a capital, a code span, a
# parenthesis, emphasis or a quote; a list item or a paragraph ends one.
# Prints "FILE:LINE: N words: the start" for each and fails when any.
# usage: check-sentences.sh FILE [MAX]   (default 60)
set -u
f=$1 max=${2:-60}
awk -v max="$max" -v file="$f" '
function flush(   n, i, w, nw, start, k, words) {
	if (buf == "") return
	gsub(/`[^`]*`/, "X", buf)
	n = split(buf, w, /[ \t]+/)
	nw = 0; start = ""
	for (i = 1; i <= n; i++) {
		if (w[i] == "") continue
		if (nw == 0) start = w[i]
		words[++nw] = w[i]
		if (w[i] ~ /[.!?:;]\)?$/ && (i == n || w[i + 1] ~ /^[A-Z`(*X"]/)) {
			if (nw > max) { printf "%s:%d: %d words: %s %s %s ...\n", file, line0, nw, words[1], words[2], words[3]; bad = 1 }
			nw = 0
		}
	}
	if (nw > max) { printf "%s:%d: %d words: %s %s %s ...\n", file, line0, nw, words[1], words[2], words[3]; bad = 1 }
	buf = ""
}
/^```/ { flush(); code = !code; next }
code { next }
/^[ \t]*$/ { flush(); next }
/^(\||#|    |\t)/ { flush(); next }
/^[ \t]*([-*]|[0-9]+\.) / { flush() }
{ if (buf == "") line0 = NR; buf = buf " " $0 }
END { flush(); exit bad }
' "$f"
