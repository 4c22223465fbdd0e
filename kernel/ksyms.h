/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel symbol names for the addresses of kernel stacks (--stacks).
 * Pure: text in, tables out.
 *
 * struct ft_kallsyms is /proc/kallsyms parsed: the text symbols by
 * address, so a return address resolves to "function+0xoff" (and
 * " [module]").  Only the live source reads it, once, when the first
 * stack comes; it is never recorded.
 *
 * struct ft_symnames is what a session knows: an address and its name,
 * one KSYM input each (model/recfmt.h), written once per recording so
 * that a replay on another machine, or after a reboot with other KASLR
 * offsets, names the frames as the host did.  Names from a recording are
 * untrusted: kept only when made of the characters kallsyms names have.
 *
 * Ownership: each struct owns its arrays; *_release() frees them.
 */
#ifndef FT_KERNEL_KSYMS_H
#define FT_KERNEL_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_SYMNAME_LEN	64		/* a name kept, with its NUL: longer ones are cut */
#define FT_SYMNAMES_MAX	8192		/* addresses named per session; more stay hex */

struct ft_kallsyms {
	struct ft_kallsym {
		uint64_t addr;
		uint32_t name;		/* offset in names[] of "symbol\0" or "symbol [module]\0" */
	} *syms;			/* owned, by address */
	size_t nr, cap;
	char *names;			/* owned */
	size_t names_len, names_cap;
	uint64_t skipped;		/* lines that were not a symbol */
	bool hidden;			/* every address was 0: kptr_restrict hides them */
};

/*
 * Parse /proc/kallsyms's text ("ffffffff81000000 T _stext" lines, a tab
 * and "[module]" after module symbols); text symbols (t, T, w, W) only.
 * 0, -ENOMEM, or -ENOENT when the text has no usable symbol (then
 * k->hidden says whether they were hidden).
 */
int ft_kallsyms_parse(const char *text, size_t len, struct ft_kallsyms *k);
void ft_kallsyms_release(struct ft_kallsyms *k);

/*
 * "symbol+0xoff" or "symbol+0xoff [module]" of @addr into @buf, the
 * symbol being the last one at or before it.  The length written, or 0
 * when no symbol covers @addr (below the first one).
 */
size_t ft_kallsyms_name(const struct ft_kallsyms *k, uint64_t addr, char *buf, size_t sz);

struct ft_symnames {
	struct ft_symname {
		uint64_t addr;
		char name[FT_SYMNAME_LEN];
	} *v;				/* owned, by address */
	size_t nr, cap;
	uint64_t refused;		/* names refused: malformed, or the table full */
};

/*
 * Name @addr (a KSYM input's @len bytes at @name, not NUL-terminated).
 * A second name for the same address replaces the first.  0, -EINVAL (a
 * character no symbol name has, or empty), -ENOSPC (FT_SYMNAMES_MAX),
 * -ENOMEM.
 */
int ft_symnames_add(struct ft_symnames *t, uint64_t addr, const char *name, size_t len);
/* The name of @addr, or NULL. */
const char *ft_symnames_get(const struct ft_symnames *t, uint64_t addr);
void ft_symnames_release(struct ft_symnames *t);

/*
 * The function of a frame name: "symbol" of "symbol+0x1a/0x40 [mod]"
 * into @buf.  Returns @buf.
 */
const char *ft_sym_function(const char *name, char *buf, size_t sz);

/*
 * Whether a frame's function is the page allocator's or tracing's own
 * (trace_event_raw_event_*, get_page_from_freelist, __alloc_pages*, ...):
 * the frames a reader skips to find who allocated.
 */
bool ft_sym_is_allocator(const char *function);

#endif
