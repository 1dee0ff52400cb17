/*
 * check.h — static checks of the names rule files refer to (types,
 * attributes, behaviors, resources, shapes) against the loaded model.
 */
#ifndef TLV_CHECK_H
#define TLV_CHECK_H

#include "rules_impl.h"

/* Checks the literal references of one template; `event_line` when the
 * template is an output line ("[t]Resource.member..."), not a condition. */
void check_template_refs(struct tlv_rules *r, const char *text, const char *file, long line,
                         long col, int event_line);

/* Every conversion rule's templates and conditions. */
void check_cnv_references(struct tlv_rules *r);

/* Every visualization rule: Target types, event patterns, figure names. */
void check_viz_references(struct tlv_rules *r);

#endif
