/*
 * fuzz_convert.c — libFuzzer target: conversion end to end through the
 * public API. A fixed rule set (tests/fuzz/rules: conditions, every macro,
 * Type(cond) targets, nested outputs, pass-through standard form, a case-
 * insensitive rule, visualization rules with every primitive) converts the
 * fuzzed log into a trace, pushed in two pieces split where the first byte
 * says; then the shapes are built, per processor on odd first bytes.
 */
#include "fuzz_util.h"

static tlv_rules *rules;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    rules = fuzz_fixed_rules("fuzz_convert");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t split = (size_t)data[0] * size / 256;
    fuzz_convert_and_draw(rules, (const char *)data + 1, size - 1, split, data[0] & 1);
    return 0;
}
