// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/mm.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/text.h"

int ft_parse_node_zone(struct ft_span *line, int *node, char *name, size_t namesz)
{
	struct ft_span tok;
	uint64_t n;

	if (!ft_tok_next(line, &tok) || !ft_span_eq(&tok, "Node"))
		return -EINVAL;
	if (!ft_tok_next(line, &tok))
		return -EINVAL;
	tok = ft_span_chop(tok, ',');
	if (ft_span_u64(&tok, &n) || n > 65535)
		return -EINVAL;
	if (!ft_tok_next(line, &tok) || !ft_span_eq(&tok, "zone"))
		return -EINVAL;
	if (!ft_tok_next(line, &tok))
		return -EINVAL;
	tok = ft_span_chop(tok, ',');
	if (!tok.len || ft_span_copy(&tok, name, namesz))
		return -EINVAL;
	*node = (int)n;
	return 0;
}
