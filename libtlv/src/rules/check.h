/*
 * check.h — static checks of the names rule files refer to (types,
 * attributes, behaviors, resources, shapes) against the loaded model, and of
 * the condition expressions they contain.
 */
#ifndef TLV_CHECK_H
#define TLV_CHECK_H

#include "rules/rules_impl.h"

/* Checks the literal references of one template; `event_line` when the
 * template is an output line ("[t]Resource.member..."), not a condition. */
void check_template_refs(struct tlv_rules *r, const char *text, const char *file, long line,
                         long col, int event_line);

/* Every conversion rule's templates and conditions. */
void check_cnv_references(struct tlv_rules *r);

/* Every visualization rule: Target types, event patterns, figure names. */
void check_viz_references(struct tlv_rules *r);

/* ---- conditions (check_cond.c) ------------------------------------------------- */

/* Parses a condition expression (`what`: "condition", "resource condition")
 * as far as it is known before run time and reports it at file:line:col with
 * the parser's message when it is malformed. */
void check_condition(struct tlv_rules *r, const char *what, const char *text, size_t len,
                     const char *file, long line, long col);

/* The resource conditions of the Type(...) references in a template's
 * macros, and of its resource when it is an event line. */
void check_resource_conditions(struct tlv_rules *r, const char *text, int event_line,
                               const char *file, long line, long col);

/* Every visualization rule's figure conditions and event-pattern resource
 * conditions. */
void check_viz_conditions(struct tlv_rules *r);

#endif
