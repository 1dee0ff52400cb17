/*
 * time_human.h — what the library needs of time_human.c beyond tlv.h: the
 * time modes by name, the exponent of a TimeScale that is a unit of
 * seconds, and the mode a trace's times are in.
 */
#ifndef TLV_TIME_HUMAN_H
#define TLV_TIME_HUMAN_H

#include "tlv/tlv.h"

/* The mode named `name` ("auto", "plain", "clock", "wall-clock") into *out.
 * Returns 0, or -1 for any other name. */
int time_mode_parse(const char *name, tlv_time_mode *out);

/* Whether `scale` is s, ms, us or ns; *exp gets its power of ten (0, -3,
 * -6, -9). */
int time_scale_exponent(const char *scale, int *exp);

/* The mode of a trace whose resource file declared `declared` and whose
 * first time is `start` (`empty`: there is none yet): PLAIN and WALL as
 * declared; otherwise WALL when start is a date from 2000 to 2099 (radix 10,
 * a TimeScale of seconds), else CLOCK when declared so, else PLAIN. */
tlv_time_mode time_mode_of(tlv_time_mode declared, tlv_time start, int radix, const char *scale,
                           int empty);

#endif
